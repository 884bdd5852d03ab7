// The page helper: drag items (what a person drags, its handle and list), where a drop
// lands, and a list's order.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, SKIP_TAGS, roleOf, HAS_WORD, clean, cut, textOf, hitTarget, hits,
    activationOf } = P;

  // Items a person drags: draggable, grabbed, a drag handle, or a child of a sortable list.
  const DRAG_CLASS = new RegExp("(?:^|\\s)(?:drag-?handle|sortable-handle|ui-sortable-handle|" +
    "cdk-drag|grip|draggable|sortable-item|dnd-item)(?:\\s|$)", "i");
  const SORTABLE = new RegExp("(?:^|\\s)(?:sortable|ui-sortable|cdk-drop-list|sortable-list|" +
    "dnd-list|reorderable)(?:\\s|$)", "i");
  const DRAG_WORDS = /drag|sortable|reorder/i;

  // During a walk: [elements with click or press listeners, elements with drop listeners]
  // (a list that takes both is a sortable library's, SortableJS's among them).
  let zones = null;

  function sortableList(el) {
    if (!el || el.tagName === "TABLE") return false;  // a sortable table sorts its columns
    return ((typeof el.className === "string" && SORTABLE.test(el.className)) ||
      (!!zones && zones[1].has(el) && zones[0].has(el) && el.children.length > 1) ||
      el.hasAttribute("data-sortable") || el.hasAttribute("data-rbd-droppable-id") ||
      DRAG_WORDS.test(el.getAttribute("aria-roledescription") || ""));
  }

  // During a walk, whether the last parent met is sortable: siblings come one after another.
  let lastParent = null, lastSortable = false;

  // A walk's zones when it starts; null when it ends.
  function zonesFor(found) {
    zones = found;
    lastParent = null;
  }

  function dragItem(el) {
    const p = el.parentElement;
    if (!zones) return dragHandle(el) || sortableList(p);
    if (p !== lastParent) { lastParent = p; lastSortable = sortableList(p); }
    return lastSortable || dragHandle(el);
  }

  function dragHandle(el) {
    if (!el.attributes.length) return false;
    const cls = typeof el.className === "string" ? el.className : "";
    return el.getAttribute("draggable") === "true" || el.hasAttribute("aria-grabbed") ||
      DRAG_WORDS.test(el.getAttribute("aria-roledescription") || "") ||
      el.hasAttribute("data-drag-handle") || el.hasAttribute("data-rbd-drag-handle-draggable-id") ||
      DRAG_CLASS.test(cls) ||
      (/(?:^|\s)handle(?:\s|$)/.test(cls) && !HAS_WORD.test(el.textContent));
  }

  // The drag handle inside an item, if it has one: where a person takes hold of it.
  function handleOf(id) {
    const el = get(id);
    const inner = el ? Array.from(el.querySelectorAll("*")).slice(0, 60) : [];
    const found = inner.find((n) => dragHandle(n) && n.getBoundingClientRect().width > 0);
    return found ? idOf(found) : 0;
  }

  // The list a dragged element belongs to: its nearest sortable or list ancestor (else its
  // item's parent), and the item holding it there.
  function listOf(el) {
    let item = el;
    for (let a = el.parentElement; a && a !== document.body; item = a, a = a.parentElement) {
      const r = roleOf(a);
      if (sortableList(a) || r === "list" || r === "listbox" || a.tagName === "TBODY")
        return [a, item];
    }
    return [el.parentElement, el];
  }

  // Where a person drops `src` on `dst`: past the middle of `dst`, on the far side from
  // where `src` comes (below it when moving down), at a point where the release activates
  // what it does at the aimed point `hitId`; else null (the aimed point is used).
  function dropSpot(dstId, srcId, hitId, secret) {
    const d = get(dstId), s = get(srcId), aimed = get(hitId);
    if (!d || !s || !aimed) return null;
    const a = d.getBoundingClientRect(), b = listOf(s)[1].getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    const down = Math.abs(dy) >= Math.abs(dx);
    const f = (down ? dy : dx) > 0 ? 0.8 : 0.2;
    const x = down ? a.left + a.width / 2 : a.left + a.width * f;
    const y = down ? a.top + a.height * f : a.top + a.height / 2;
    const hit = hitTarget(d, x, y);
    if (!hits(d, hit) || activationOf(hit, secret) !== activationOf(aimed, secret)) return null;
    const side = down ? (f > 0.5 ? "below" : "above") : (f > 0.5 ? "after" : "before");
    return { x, y, side };
  }

  // [list id, the drag item's index, each item's first words] for the list holding `id`.
  function order(id, listId) {
    const el = get(id);
    const list = listId ? get(listId) : el && listOf(el)[0];
    if (!list) return null;
    const items = Array.from(list.children).filter((c) => !SKIP_TAGS.has(c.tagName) &&
      getComputedStyle(c).display !== "none");
    const mine = el ? items.findIndex((c) => c.contains(el)) : -1;
    return [idOf(list), mine, items.slice(0, 30).map((c) => cut(clean(textOf(c, 0)), 40)[0])];
  }

  Object.assign(P, { dragItem, handleOf, dropSpot, order, zonesFor });
})();
