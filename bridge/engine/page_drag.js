// The page helper: drag items (what a person drags, its handle and list), where a drop
// lands, a list's order, and whether an element takes dropped files.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, SKIP_TAGS, roleOf, HAS_WORD, clean, cut, textOf, hitTarget, hits,
    activationOf } = P;

  // Items a person drags: draggable, grabbed, a drag handle, or a child of a sortable list;
  // by their classes also with a kit's prefix (UIkit's uk-sortable-handle, a js- hook's)
  const KIT = "(?:^|\\s)(?:[a-z]{1,4}-)?";
  const DRAG_CLASS = new RegExp(KIT + "(?:drag-?handle|sortable-handle|ui-sortable-handle|" +
    "cdk-drag|grip|draggable|sortable-item|dnd-item)(?:\\s|$)", "i");
  const SORTABLE = new RegExp(KIT + "(?:sortable|ui-sortable|cdk-drop-list|sortable-list|" +
    "dnd-list|reorderable)(?:\\s|$)", "i");
  const DRAG_WORDS = /drag|sortable|reorder/i;
  const PLACEHOLDER = /placeholder/i;

  // During a walk: [elements with click or press listeners, elements with drop listeners]
  // (a list that takes both is a sortable library's, SortableJS's among them; an editor's
  // text takes both too, and its lines are no items: CodeMirror 6's).
  let zones = null;

  function sortableList(el) {
    // (a sortable table sorts its columns; a row listening for drops, each of PrimeVue's,
    // holds cells, no items)
    if (!el || el.tagName === "TABLE" || el.tagName === "TR" || el.getAttribute("role") === "row")
      return false;
    return ((typeof el.className === "string" && SORTABLE.test(el.className)) ||
      (!!zones && zones[1].has(el) && zones[0].has(el) && el.children.length > 1 &&
       !el.isContentEditable && !filesZone(el)) ||
      el.hasAttribute("data-sortable") || el.hasAttribute("data-rbd-droppable-id") ||
      // (one that says it is sortable and is focused itself is an item, dnd-kit's card
      // `role=button`: its parts are no items of a list)
      (DRAG_WORDS.test(el.getAttribute("aria-roledescription") || "") &&
       !el.hasAttribute("tabindex") && el.getAttribute("role") !== "button"));
  }

  // Whether a box that takes drops and clicks is an upload's zone, whose parts are no items
  // of a list: it holds the file field, or its words say files are dropped there
  const FILE_WORDS = /\b(?:drop|drag)\b[^.]{0,40}\bfiles?\b/i;
  const filesZone = (el) => !!el.querySelector("input[type=file]") ||
    FILE_WORDS.test(el.textContent.slice(0, 300));

  // The elements listening for clicks, as the walk going on asked the hook (null outside one)
  const heardInWalk = () => zones && zones[0];

  // Whether a box takes dropped items and holds none yet (a board's empty column, its drop
  // listened for): where a drag may end, a ref of its own
  const emptyDrop = (el) => !!zones && zones[1].has(el) && !el.firstElementChild &&
    el !== document.body && el !== document.documentElement;

  // Whether a box listening for presses holds only items a person drags (a sortable list of
  // one card or more, SortableJS's): it passes its clicks on to them, no control of its own
  const holdsDragged = (el) => !!el.firstElementChild &&
    [...el.children].every((c) => c.getAttribute("draggable") === "true");

  // During a walk, whether the last parent met is sortable: siblings come one after another.
  let lastParent = null, lastSortable = false;

  // A walk's zones when it starts; null when it ends.
  function zonesFor(found) {
    zones = found;
    lastParent = null;
  }

  // (`cs`: el's computed style, when the caller has it)
  function dragItem(el, cs) {
    const p = el.parentElement;
    if (!zones) return dragHandle(el, cs) || sortableList(p);
    if (p !== lastParent) { lastParent = p; lastSortable = sortableList(p); }
    return lastSortable || dragHandle(el, cs);
  }

  // The cursors a page shows over what a person may take hold of and move.
  const GRAB = /^(?:(?:-webkit-)?grab|move)$/;

  function dragHandle(el, cs) {
    // a grab or move cursor of its own (not one it inherits): a sortable library that marks
    // nothing else (SortableJS in its fallback mode) still shows a person the hand; not a
    // slider's track around its thumb (Ionic's range): what moves there is the slider's
    if (GRAB.test((cs || getComputedStyle(el)).cursor)) {
      const p = el.parentElement;
      if ((!p || !GRAB.test(getComputedStyle(p).cursor)) &&
          !el.querySelector("[role=slider], input[type=range]")) return true;
    }
    if (!el.attributes.length) return false;
    const cls = typeof el.className === "string" ? el.className : "";
    return el.getAttribute("draggable") === "true" || el.hasAttribute("aria-grabbed") ||
      DRAG_WORDS.test(el.getAttribute("aria-roledescription") || "") ||
      el.hasAttribute("data-drag-handle") || el.hasAttribute("data-rbd-drag-handle-draggable-id") ||
      el.hasAttribute("data-rfd-drag-handle-draggable-id") ||
      DRAG_CLASS.test(cls) ||
      (/(?:^|\s)handle(?:\s|$)/.test(cls) && !HAS_WORD.test(el.textContent) && !ofToggle(el));
  }
  // (a switch's knob is its "handle" too: Material Web's)
  const TOGGLE = "input[type=checkbox], input[type=radio], [role=switch], [role=slider]";
  function ofToggle(el) {
    let n = el.parentElement;
    for (let up = 0; n && up < 3; up++, n = n.parentElement) {
      if (n.querySelector(TOGGLE)) return true;
    }
    return false;
  }

  // The drag handle inside an item, if it has one: where a person takes hold of it.
  function handleOf(id) {
    const el = get(id);
    const inner = el ? Array.from(el.querySelectorAll("*")).slice(0, 60) : [];
    const found = inner.find((n) => dragHandle(n) && n.getBoundingClientRect().width > 0);
    return found ? idOf(found) : 0;
  }

  // How long (ms, at most 1000) the list an element is dragged from still animates: a
  // sortable library slides its items to their places after a drop, and ignores a press on
  // one still moving (SortableJS). The longest finite animation left on the element, its
  // item or the list's items; 0 when nothing moves.
  function settling(id) {
    const el = get(id);
    if (!el || !el.isConnected || !el.getAnimations) return 0;
    const [list, item] = listOf(el);
    let left = 0;
    for (const n of [el, item, ...(list ? Array.from(list.children).slice(0, 200) : [])]) {
      for (const a of n.getAnimations()) {
        const t = a.effect && a.effect.getComputedTiming();
        if (a.playState !== "running" || !t || !isFinite(t.endTime)) continue;
        left = Math.max(left, t.endTime - (t.localTime || 0));
      }
    }
    return Math.min(Math.ceil(left), 1000);
  }

  // The list a dragged element belongs to: its nearest sortable or list ancestor, else the
  // box around the nearest one that repeats among its siblings (a tree's rows, each holding
  // the title that is dragged: rc-tree's), else its parent; and the item holding it there.
  const LIKE_UP = 4;
  function listOf(el) {
    let item = el;
    // (or a box the page takes drops in, its items' own: a board's column of one card, or
    // none before the drop, not the board its columns are alike in)
    const drops = zones ? zones[1] : P.listened(P.hookKey, "drop");
    for (let a = el.parentElement; a && a !== document.body; item = a, a = a.parentElement) {
      const r = roleOf(a);
      if (sortableList(a) || r === "list" || r === "listbox" || a.tagName === "TBODY" ||
          drops.has(a)) return [a, item];
    }
    const like = (n, s) => s !== n && s.tagName === n.tagName && roleOf(s) === roleOf(n) &&
      P.firstClass(s) === P.firstClass(n);
    for (let n = el, up = 0; n.parentElement && n.parentElement !== document.body &&
         up <= LIKE_UP; n = n.parentElement, up++) {
      if ([...n.parentElement.children].some((s) => like(n, s))) return [n.parentElement, n];
    }
    return [el.parentElement, el];
  }

  // The items of a list as a person sees them: its shown children; where some of them can
  // be dragged and others not (a heading, a library's placeholder), those that can.
  function itemsOf(list) {
    const shown = Array.from(list.children).filter((c) => !SKIP_TAGS.has(c.tagName) &&
      getComputedStyle(c).display !== "none");
    if (sortableList(list) || shown.length > 200) return shown;
    const held = shown.filter((c) => dragHandle(c) || c.querySelector(HANDLES));
    return held.length && held.length < shown.length ? held : shown;
  }
  const HANDLES = "[draggable=true],[data-drag-handle],[data-rbd-drag-handle-draggable-id]," +
    "[data-rfd-drag-handle-draggable-id],[aria-roledescription*=drag i]";

  // The axis a list lays its items along: "x" when an item's neighbour stands beside it (a
  // row, or a grid filled row by row), else "y"; a lone item's list, by its flex direction.
  function axisOf(list, item) {
    const items = itemsOf(list), i = items.indexOf(item);
    const other = i < 0 ? null : items[i + 1] || items[i - 1];
    if (!other) {
      const cs = getComputedStyle(list);
      return cs.display.includes("flex") && cs.flexDirection.startsWith("row") ? "x" : "y";
    }
    const a = item.getBoundingClientRect(), b = other.getBoundingClientRect();
    const dx = Math.abs(b.left + b.width / 2 - (a.left + a.width / 2));
    const dy = Math.abs(b.top + b.height / 2 - (a.top + a.height / 2));
    return dx > dy ? "x" : "y";
  }

  const SIDES = { x: ["before", "after"], y: ["above", "below"] };

  // The side of `dst` a person drops `src` on, decided once before the drag (the items move
  // under the pointer while it lasts): along the target's list, the far side from where
  // `src` comes: past it when moving down its own list, or, from another list, the half
  // facing away from `src`. With the target's list and the index `src` is wanted at there.
  function dropSide(dstId, srcId) {
    const d = get(dstId), s = get(srcId);
    if (!d || !s) return null;
    const [dList, dItem] = listOf(d), [sList, sItem] = listOf(s);
    const axis = axisOf(dList, dItem);
    const items = itemsOf(dList), at = items.indexOf(dItem), from = items.indexOf(sItem);
    let forward;
    if (dList === sList && from >= 0 && at >= 0) forward = from < at;
    else {
      const a = dItem.getBoundingClientRect(), b = sItem.getBoundingClientRect();
      forward = axis === "x" ? a.left + a.width / 2 >= b.left + b.width / 2
        : a.top + a.height / 2 >= b.top + b.height / 2;
    }
    // the item leaves its place before it takes the new one: past a later item of its own
    // list, it takes that item's index
    const want = at < 0 ? -1 : at + (forward ? 1 : 0) - (from >= 0 && from < at ? 1 : 0);
    const a = d.getBoundingClientRect(), l = dList.getBoundingClientRect();
    const [sx, sy] = scrolledIn(d, dList);
    stood.set(d, { list: dList, dx: a.left - l.left + sx, dy: a.top - l.top + sy,
                   width: a.width, height: a.height });
    return { side: SIDES[axis][forward ? 1 : 0], list: idOf(dList), want };
  }

  // Where each drag's target stood in its list before the drag (dropSide): a library may
  // shift the items aside to open a gap for the one dragged (react-beautiful-dnd, dnd-kit),
  // which moves the target out from under a pointer that follows it, and back. A person
  // aims at the gap, where the target stood; so do these libraries' drop rules.
  const stood = new WeakMap();

  // The box a drop on `d` aims at: where it stood in its list, as the list is placed and
  // scrolled now, while the list holds it; else where it is.
  function aimBox(d) {
    const was = stood.get(d);
    if (!was || !was.list.isConnected || !was.list.contains(d)) return d.getBoundingClientRect();
    const l = was.list.getBoundingClientRect(), [sx, sy] = scrolledIn(d, was.list);
    return { left: l.left + was.dx - sx, top: l.top + was.dy - sy, width: was.width,
             height: was.height };
  }

  // How far the boxes from `d`'s parent up to `list` (itself included) are scrolled.
  function scrolledIn(d, list) {
    let x = 0, y = 0;
    for (let n = d.parentElement; n; n = n.parentElement) {
      x += n.scrollLeft;
      y += n.scrollTop;
      if (n === list) break;
    }
    return [x, y];
  }

  // Where on `dst` a person lets go to drop on its `side` (from `dropSide`), where it stood
  // in its list (`aimBox`): three tenths from the middle towards that side, at a point
  // where the release activates what it does at the aimed point `hitId`; else null (the
  // target is out of view or covered there: it is aimed at anew). The item being dragged
  // (`srcId`'s, 0 when not known) is seen through: a library may lift it to follow the
  // pointer (jQuery UI's sortable), and the person looks past it to where it goes.
  function dropSpot(dstId, hitId, secret, side, srcId) {
    const d = get(dstId), aimed = get(hitId), s = srcId ? get(srcId) : null;
    if (!d || !aimed || !d.isConnected) return null;
    const item = s && s.isConnected ? listOf(s)[1] : null;
    const lifted = item && !item.contains(d) ? item : null;
    const under = (x, y) => {
      const hit = hitTarget(d, x, y);
      if (!lifted || !hit || !lifted.contains(hit)) return hit;
      let below = document.elementsFromPoint(x, y).find((n) => !lifted.contains(n));
      for (let inner; below && below.shadowRoot; below = inner) {
        inner = below.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === below || lifted.contains(inner)) break;
      }
      return below;
    };
    const a = aimBox(d), seen = d.getBoundingClientRect();
    // the target moved aside (or lets the pointer through its items while one is dragged:
    // pointer-events none): the point at its place reaches the list around it, the gap,
    // or an item the list moves there while the pointer is away; the release's click goes
    // to what holds it and the dragged item, as around the target (`around`)
    const was = stood.get(d);
    const open = Math.abs(a.left - seen.left) >= 1 || Math.abs(a.top - seen.top) >= 1 ||
      getComputedStyle(d).pointerEvents === "none";
    const inList = (hit) => hit.contains(d) || (!!was && was.list.contains(hit));
    const far = side === "below" || side === "after";
    const along = side === "below" || side === "above" ? "y" : "x";
    const wanted = activationOf(aimed, secret);
    // the click a release makes goes to what holds both ends: what was put to policy
    const around = item ? activationOf(commonOf(item, d), secret) : null;
    for (const f of far ? [0.8, 0.7, 0.9, 0.6] : [0.2, 0.3, 0.1, 0.4]) {
      const x = along === "x" ? a.left + a.width * f : a.left + a.width / 2;
      const y = along === "y" ? a.top + a.height * f : a.top + a.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = under(x, y);
      if (hits(d, hit) && activationOf(hit, secret) === wanted) return { x, y };
      if (open && hit && hit !== d && inList(hit)) {
        const act = activationOf(hit.contains(d) ? hit : was.list, secret);
        if (!act || act === wanted || act === around) return { x, y };
      }
    }
    return null;
  }

  // Before a drag, the window scrolled to show both ends in its middle, when they fit
  // there: a sortable library scrolls the window on its own while an item is held near its
  // edges (dnd-kit within a fifth of it, react-beautiful-dnd a quarter), and a person
  // starts a drag with both ends in plain view. Whether it scrolled.
  function frameBoth(aId, bId) {
    const a = get(aId), b = get(bId);
    if (!a || !b) return false;
    const r = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const middle = (lo, hi, view) => {
      if (hi - lo > view * 0.9 || (lo >= view / 4 && hi <= view * 3 / 4)) return 0;
      return (lo + hi) / 2 - view / 2;
    };
    const dx = middle(Math.min(r.left, q.left), Math.max(r.right, q.right), innerWidth);
    const dy = middle(Math.min(r.top, q.top), Math.max(r.bottom, q.bottom), innerHeight);
    if (!dx && !dy) return false;
    const x0 = scrollX, y0 = scrollY;
    scrollBy({ left: dx, top: dy, behavior: "instant" });
    return scrollX !== x0 || scrollY !== y0;
  }

  // The nearest element holding both (across shadow roots).
  function commonOf(a, b) {
    const above = new Set();
    for (let n = a; n; n = n.parentNode || n.host) above.add(n);
    let n = b;
    while (n && !above.has(n)) n = n.parentNode || n.host;
    return n && n.nodeType === 1 ? n : null;
  }

  // The index of `id`'s item in the list now. A library that lifts the item out of the
  // list's flow while it is dragged (jQuery UI's sortable, Angular's CDK) shows where it
  // will land by a placeholder it moves among the others: that index, the lifted item left
  // out (an item laid out on its own, with no placeholder beside it, is where it stands).
  function placeIn(id, listId) {
    const el = get(id), list = get(listId);
    if (!el || !list) return -1;
    const items = itemsOf(list), at = items.findIndex((c) => c.contains(el));
    const lifted = at < 0 || /^(?:absolute|fixed)$/.test(getComputedStyle(items[at]).position);
    if (!lifted) return at;
    const rest = items.filter((c, i) => i !== at);
    const held = rest.findIndex((c) => PLACEHOLDER.test(c.getAttribute("class") || ""));
    return held < 0 ? at : held;
  }

  const LISTED = 1000;  // item texts read back at most (the count is always whole)

  // An item's words as a person reads them in its list: what it shows, without the name
  // of a handle in it ("Drag Alpha" before "Alpha") or a grip's mark with no letter or
  // digit; the names of what it holds where it shows no words (an icon, a field).
  function itemWords(item) {
    const shown = (item.innerText || "").split(/\s+/).filter((w) => HAS_WORD.test(w));
    return clean(shown.join(" ")) || clean(textOf(item, 0));
  }

  // The list holding `id` (or list `listId`): its id, the index of `id`'s item and of
  // `otherId`'s (-1 when not in it), the first words of its items, how many there are, the
  // axis it runs along, and whether `id` is still in the page.
  function order(id, listId, otherId) {
    const el = get(id);
    const list = listId ? get(listId) : el && el.isConnected && listOf(el)[0];
    if (!list) return null;
    const items = itemsOf(list);
    const indexOf = (n) => n ? items.findIndex((c) => c.contains(n)) : -1;
    const mine = indexOf(el), other = indexOf(otherId ? get(otherId) : null);
    const item = items[mine >= 0 ? mine : Math.max(other, 0)];
    return {
      list: idOf(list), at: mine, other, total: items.length,
      items: items.slice(0, LISTED).map((c) => cut(itemWords(c), 40)[0]),
      axis: item ? axisOf(list, item) : "y", gone: !el || !el.isConnected,
      into: !!(otherId && el && get(otherId) && get(otherId) !== el &&
               get(otherId).contains(el)),
    };
  }

  // Whether the page takes dropped files on the element (`here`), and on its root too
  // (`everywhere`: a page that cancels every drop so that a file dropped by mistake is not
  // opened). A drop target cancels the dragover of a drag that carries files (HTML's rule,
  // which React's and every library's drop zones follow): asked with a drag of our own
  // carrying one empty file, left at once (dragleave), so nothing is dropped.
  function cancelsDragover(el) {
    const files = new DataTransfer();
    files.items.add(new File([""], "probe.txt", { type: "text/plain" }));
    const r = el.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, composed: true, dataTransfer: files,
                 clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
    el.dispatchEvent(new DragEvent("dragenter", at));
    const over = new DragEvent("dragover", at);
    el.dispatchEvent(over);
    el.dispatchEvent(new DragEvent("dragleave", at));
    return over.defaultPrevented;
  }

  function takesDrops(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { here: false, everywhere: false };
    return { here: cancelsDragover(el), everywhere: cancelsDragover(document.documentElement) };
  }

  Object.assign(P, { dragItem, emptyDrop, heardInWalk, holdsDragged, handleOf, settling, dropSide,
                     dropSpot, placeIn, order, zonesFor, frameBoth, takesDrops });
})();
