// The page helper: where a click on an element lands (brought into view in every box that
// clips it, at a point that reaches it) and what a click there really activates; lookups
// by selector, and what covers a point.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, roleOf, cut, fullNameOf, folded, summaryOf, allRoots, ending } = P;
  // (page_scroll.js, the file after this one, brings an element into view)
  const reveal = (el, centre) => P.reveal(el, centre);
  // -- lookups used by actions ----------------------------------------------------------------
  function deepQuery(root, selector, out, limit) {
    for (const el of root.querySelectorAll(selector)) {
      out.push(el);
      if (out.length >= limit) return;
    }
    for (const host of root.querySelectorAll("*")) {
      if (host.shadowRoot) deepQuery(host.shadowRoot, selector, out, limit);
      if (out.length >= limit) return;
    }
  }

  const query = (selector, limit, out = []) =>
    (deepQuery(document, selector, out, limit || 50), out.map(idOf));

  // The closed details (named by its summary) or `hidden="until-found"` box that keeps `el`
  // from showing, or null. The browser lays out their content for a script that asks, so
  // its box looks real, and a hit test there reaches whatever lies below.
  function foldOf(el) {
    for (let n = el, child = null; n && n.nodeType === 1; child = n, n = composedParent(n)) {
      if (n !== el && folded(n) && !(child && child.tagName === "SUMMARY" &&
                                     n.tagName === "DETAILS" && summaryOf(n) === child)) {
        const summary = n.tagName === "DETAILS" ? summaryOf(n) : null;
        return summary ? describe(summary) : describe(n);
      }
    }
    return null;
  }

  function describe(el) {
    if (!el) return "nothing";
    let d = el.tagName.toLowerCase();
    if (el.id) d += "#" + el.id;
    if (typeof el.className === "string" && el.className.trim())
      d += "." + el.className.trim().split(/\s+/).slice(0, 2).join(".");
    const role = roleOf(el);
    const [name, left] = cut(fullNameOf(el, role || "clickable"), 40);
    // the mark as snapshot.py's left_out writes it
    if (name) d += " \"" + name + "\"" + (left ? " [+" + left.toLocaleString("en-US") +
                                              (left === 1 ? " char]" : " chars]") : "");
    return d;
  }

  function hitTarget(el, x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  function hits(el, hit) {
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    // a label forwards clicks to its control, and a control's own label is fine to hit
    if (hit.tagName === "LABEL" && hit.control === el) return true;
    for (let n = hit; n; n = n.parentNode || n.host) {
      if (n === el) return true;
    }
    // a control that lets the pointer through to its own box (Vuetify's select field, the
    // button in the shadow root of Ionic's segment button), not the page's: the box's click
    const up = composedParent(el), upper = up && composedParent(up);  // is the control's
    return (hit === up || hit === upper) && getComputedStyle(el).pointerEvents === "none" &&
      hit !== document.body && hit !== document.documentElement;
  }

  // Elements whose click listeners the main-world hook saw (see hook.js); empty without it.
  // `kind`: "drop", "hover" (pointer-over), "wheel" or "keys" (a key's down, up or press):
  // those with such listeners instead.
  const LISTENED = { click: ["ts-ask-", "ts-mark-"], drop: ["ts-ask-drop-", "ts-drop-"],
                     hover: ["ts-ask-hover-", "ts-hover-"], wheel: ["ts-ask-wheel-", "ts-wheel-"],
                     keys: ["ts-ask-keys-", "ts-keys-"] };
  function listened(secret, kind = "click") {
    const found = new Set();
    if (!secret) return found;
    P.hookKey = secret;
    const collect = (e) => found.add(e.target);
    const [ask, mark] = LISTENED[kind];
    document.addEventListener(mark + secret, collect, true);
    try {
      document.dispatchEvent(new CustomEvent(ask + secret));
    } finally {
      document.removeEventListener(mark + secret, collect, true);
    }
    return found;
  }

  // The timers the page armed in reply to input or as it loaded that have not run (hook.js):
  // [how many, ms until the last is due, how many were armed as it loaded]; 0s without it.
  function armed(secret) {
    let got = [0, 0, 0];
    if (!secret) return got;
    const collect = (e) => {
      const d = e.detail;
      if (Array.isArray(d) && d.length === 3 && d.every((n) => Number.isFinite(n))) got = d;
    };
    document.addEventListener("ts-armed-are-" + secret, collect, true);
    try {
      document.dispatchEvent(new CustomEvent("ts-armed-" + secret));
    } finally {
      document.removeEventListener("ts-armed-are-" + secret, collect, true);
    }
    return got;
  }

  // In a hidden document, have the page's timers that are due run now (hook.js: a hidden
  // tab runs them late, once a second at best), so that a read sees the page as a person
  // looking at it would; nothing in a shown one, or without the hook.
  function pump(secret) {
    if (secret) P.hookKey = secret;  // (for what asks the hook without being given it)
    if (secret && document.visibilityState === "hidden") {
      document.dispatchEvent(new CustomEvent("ts-pump-" + secret));
    }
  }

  // How many of those the top document has not run yet, armed as it loaded or in reply to
  // the last input (0 in a frame, or without the hook): a read waits for them (page.js
  // `snapshot`, page_info.js `readText`), as a person waits for a grid a click sorts.
  const loadTimers = (secret) => secret && window === top ? armed(secret)[0] : 0;

  // -- what a click really activates ---------------------------------------------------
  // The element whose own behaviour a click at a point runs: walking up the composed tree
  // from the hit element, the first with a browser-given activation (a button, a link, a
  // form control, a summary; a label stands for its control), else the nearest one a page
  // made clickable (an ARIA role, a click handler, a pointer cursor). null when none.
  const SOFT_ROLES = new Set([
    "button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "checkbox",
    "switch", "radio", "option", "treeitem", "textbox", "searchbox", "combobox", "slider",
    "spinbutton", "gridcell",
  ]);

  function composedParent(n) {
    if (n.assignedSlot) return n.assignedSlot;
    if (n.parentElement) return n.parentElement;
    const root = n.getRootNode && n.getRootNode();
    return root && root !== n && root.host ? root.host : null;
  }

  function nativeTarget(n) {
    const tag = n.tagName;
    if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA" || tag === "IFRAME" ||
        tag === "FRAME") return n;
    if (tag === "INPUT") return n.type === "hidden" ? null : n;
    if ((tag === "A" || tag === "AREA") && n.hasAttribute("href")) return n;
    if (tag === "SUMMARY" && n.parentElement && n.parentElement.tagName === "DETAILS" &&
        n.parentElement.querySelector(":scope > summary") === n) return n;
    if (tag === "LABEL" && n.control) return n.control;
    if (n.isContentEditable && !(n.parentElement && n.parentElement.isContentEditable))
      return n;
    return null;
  }

  function softTarget(n, handlers) {
    const role = roleOf(n);
    if (SOFT_ROLES.has(role) || n.hasAttribute("onclick") || handlers.has(n)) return true;
    const parent = composedParent(n);
    return getComputedStyle(n).cursor === "pointer" &&
      !(parent && getComputedStyle(parent).cursor === "pointer");
  }

  // Whether a click on `n` runs a control's behaviour (a button, a link, a field, an
  // element with a control's role), not only the handlers a page put on a container.
  function isControl(n) {
    return !!nativeTarget(n) || SOFT_ROLES.has(roleOf(n));
  }

  // Whether `n` is clickable on its own, as `activationOf` finds clickables (without the
  // listeners only a hooked walk knows of).
  const NO_HANDLERS = new Set();
  function clickable(n) {
    return !!nativeTarget(n) || softTarget(n, NO_HANDLERS);
  }

  function activationOf(hit, secret) {
    let handlers = null;
    let soft = null;
    for (let n = hit; n && n.nodeType === 1; n = composedParent(n)) {
      if (n.tagName === "BODY" || n.tagName === "HTML") break;
      const native = nativeTarget(n);
      if (native) return native;
      if (!soft) {
        if (!handlers) handlers = listened(secret);
        if (softTarget(n, handlers)) soft = n;
      }
    }
    return soft;
  }

  // What a click at `hit` aimed at `el` activates, and another element it runs too: a switch
  // clicked in the box it is drawn in (`ownBox`) is the switch's, its box's handler beside.
  function clickOf(el, hit, secret) {
    const t = hit ? activationOf(hit, secret) : null;
    const ctl = (el.tagName === "LABEL" && P.standIn(el)) || el;
    if (t && t !== ctl && ctl.tagName === "INPUT" && TOGGLE_TYPES.has(ctl.type) &&
        !isControl(t) && t.contains(ctl)) return [ctl, t];
    return [t, hit ? alsoOf(hit, t) : null];
  }

  // Another element on the path the click also runs: one with a page-given button role or
  // an onclick (a role=button holding a real button, a role=button span inside one), or
  // another button or link around the target (Chromium follows a link around one): nearest.
  function alsoOf(hit, target) {
    for (let n = hit; n && n.nodeType === 1; n = composedParent(n)) {
      if (n.tagName === "BODY" || n.tagName === "HTML") break;
      if (n === target) continue;
      const native = nativeTarget(n);
      if (native && native !== target && native.tagName !== "IFRAME" &&
          native.tagName !== "FRAME") return native;
      const role = (n.getAttribute("role") || "").trim().split(/\s+/)[0];
      if ((SOFT_ROLES.has(role) && role !== "gridcell") || n.hasAttribute("onclick"))
        return n;
    }
    return null;
  }

  // Where a person puts the pointer to show an element that is not shown: over the nearest
  // box around it that is (its row, its card; not one put off screen with it). `{x, y, id}`
  // of a point that reaches that box (and `what` it is), or null (the page's body is no row).
  function hoverSpot(el) {
    for (let box = composedParent(el); box && box.nodeType === 1; box = composedParent(box)) {
      if (box === document.body || box === document.documentElement) return null;
      const b = box.getBoundingClientRect();
      if (b.width === 0 || b.height === 0 || getComputedStyle(box).visibility === "hidden")
        continue;
      const res = pointOn(box, (hit) => hits(box, hit));
      if (!res.error) return { x: res.x, y: res.y, id: idOf(box), what: describe(box) };
    }
    return null;
  }

  // Where a click lands (`at`: the point asked for, page_scroll.js `pointAt`): the element
  // brought into view, the centre of its shown part if a click there reaches it, else another
  // uncovered point; under a sticky header or a fixed bar it is brought to the middle of every
  // box and tried again, as a person scrolls a row out from under a header; a modal is said.
  function point(id, at) {
    const el = get(id);
    if (!el || !el.isConnected) return { error: "gone" };
    const fold = foldOf(el);
    if (fold) return { error: "hidden", what: describe(el), folded: fold };
    const own = !at && el.tagName === "LABEL" ? ownBox(P.standIn(el) || el) : null;
    if (own) return own;  // (a label standing in for a switch that is clicked in its box)
    const res = at ? P.pointAt(el, at) : pointOn(P.ownRow(el) || el);  // (a folder: its row)
    if (at && res.error) return res;
    if (!res.error) {
      // the page runs animations that end (a panel opening above it slides it down): the
      // click waits for it to stand still (placing.py `_standing`), as two looks with a
      // frame between them (`drawn`: the time of the frame it was drawn in) place it
      const root = el.getRootNode();
      const running = document.getAnimations().filter(ending);
      if (root !== document && root.getAnimations) running.push(...root.getAnimations()
        .filter(ending));
      if (running.length) {
        res.moving = true;
        // (one about to start has not moved anything yet: no look counts until it did)
        res.drawn = running.some((a) => a.pending) ? null : document.timeline.currentTime;
      }
      return res;
    }
    // (a field its own box covers is pressed there, as a person does, before its label: a
    // box may open on the press, which the label's click passed on to the field never makes;
    // a field kept in a widget drawn for it is reached through that widget before its label:
    // PrimeReact's dropdown opens on a click of its box, its label's only focuses the field)
    const kept = keptIn(el, res) && !TOGGLE_TYPES.has(el.type);
    const label = viaWrapper(el, res) || (kept && viaWidget(el, res)) || viaLabel(el) ||
      viaWidget(el, res);
    if (label) return label;
    // not shown (or put off screen, or letting the pointer through to the box around it)
    // until the pointer is over its row: where that is
    const spot = res.error !== "covered" || res.around ? hoverSpot(el) : null;
    delete res.around;
    if (spot) res.hover = spot;
    // what covers it may be on its way out (a menu or a modal fading as it closes; a web
    // component's in its shadow root, which the document's animations leave out), what
    // hides it on its way in (a box growing under the pointer, a menu unfolding)
    if ((res.error === "covered" && !spot) || res.error === "hidden" ||
        res.error === "offscreen")
      res.moving = allRoots().some((r) => r.getAnimations().some(ending));
    return res;
  }
  // A switch drawn in a box of its own that takes the click, its form's label apart (Element
  // Plus's, whose box cancels the click a label passes on): a person clicks the switch, not
  // the words beside it. A point of that box, or null.
  function ownBox(el) {
    const labels = [...(el.labels || [])];
    const box = el.tagName === "INPUT" && TOGGLE_TYPES.has(el.type) && labels.length &&
      !labels.some((l) => l.contains(el)) ? toggleBox(el) : null;
    const own = box && !labels.some((l) => box.contains(l)) && pointOn(box, (hit) => {
      const act = box.contains(hit) && activationOf(hit, P.hookKey);
      return !!act && act !== el && act.contains(el);
    });
    return own && !own.error ? own : null;
  }

  // A control the page hides behind its own label (a visually hidden checkbox beside a
  // styled switch, a radio drawn as a pill): a person clicks the label, and the browser
  // passes the click on to the control. A point of a label's visible part whose click
  // activates the control (not a link inside the label), or null.
  function viaLabel(el) {
    const own = ownBox(el);
    if (own) return own;
    for (const label of el.labels || []) {
      const res = pointOn(label, (hit) => !!hit && activationOf(hit) === el);
      if (!res.error) return res;
    }
    return null;
  }

  // A native field the page keeps unseen inside the widget it draws for it (MUI's slider
  // keeps its range input in its thumb, clipped away; React Aria's, in a box a pixel wide
  // in its thumb, page_shown.js `keepsField`): a person reaches it there, at the nearest
  // box around it that is drawn. So too a check box or radio button the page draws as a
  // switch beside it, no size of its own (Element Plus's; Syncfusion's grid's, its cell
  // clipping it) or unseen under its words (Fomantic's), when that box holds no other
  // control and is no bigger than a switch with its words: it takes the click (a code
  // editor's field, `codeEditorOf`: in it).
  // Whether a field is kept in a box a pixel wide inside its widget (PrimeVue's: scaled away)
  const keptIn = (el, res) => res.error === "hidden" && P.keepsField(el.parentElement) &&
    (!!res.clip || !el.getBoundingClientRect().width);
  function viaWidget(el, res) {
    const editor = res.error ? P.codeEditorOf(el) : null;
    if (!editor && !FIELDS.has(el.tagName)) return null;
    const kept = keptIn(el, res);
    const toggle = el.tagName === "INPUT" && TOGGLE_TYPES.has(el.type) && (res.error ===
      "hidden" || res.error === "offscreen" || res.error === "covered" && !res.around);
    if (!editor && !kept && !toggle && (res.error !== "covered" || !res.around)) return null;
    const cs = getComputedStyle(el), r = el.getBoundingClientRect();
    if (!editor && !kept && cs.opacity !== "0" && cs.clipPath !== "inset(50%)" && r.width > 1 &&
        r.height > 1 && !/^rect\(0px,? 0px,? 0px,? 0px\)$/.test(cs.clip)) return null;
    const box = editor || (toggle ? toggleBox(el) : drawnAround(el));
    if (!box) return null;
    const there = pointOn(box, (hit) => !!hit && (hit === box || box.contains(hit)));
    return there.error ? null : there;
  }
  const TOGGLE_BOX = 300 * 60;  // px²: a switch and its words, not a card around them

  // The nearest box around `el` that is drawn (null: none).
  function drawnAround(el) {
    for (let box = el.parentElement; box; box = box.parentElement) {
      const b = box.getBoundingClientRect();
      if (b.width > 1 && b.height > 1) return box;
    }
    return null;
  }

  // The box a check box, radio button or switch is drawn in (or null): the nearest drawn
  // box around it, holding no other control, no bigger than a switch with its words.
  function toggleBox(el) {
    const box = drawnAround(el);
    if (!box) return null;
    const b = box.getBoundingClientRect();
    return b.width * b.height <= TOGGLE_BOX &&
      !Array.from(box.querySelectorAll(P.CONTROLS)).some((c) => c !== el) ? box : null;
  }
  const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  const TOGGLE_TYPES = new Set(["checkbox", "radio"]);

  // A field the box around it covers with its own drawing (Element Plus's select's value;
  // a floating label; a multiple select's chips of its values, with Remove buttons): a
  // person clicks the box there, and it takes the click for the field. A point of the field
  // whose click activates that box, when the box is little more than the field (not a
  // card) and holds no other control but buttons a quarter of its size, the point missed.
  function viaWrapper(el, res) {
    if (res.error !== "covered" || !el.matches(P.CONTROLS)) return null;
    const r = el.getBoundingClientRect(), area = Math.max(r.width * r.height, 1);
    let box = null;
    const there = pointOn(el, (hit) => {
      const act = hit && hit !== el && !el.contains(hit) ? activationOf(hit) : null;
      if (!act || act === el || !act.contains(el) || !act.contains(hit)) return false;
      const b = act.getBoundingClientRect();
      if (b.width * b.height > 6 * area) return false;
      const alone = Array.from(act.querySelectorAll(P.CONTROLS)).every((c) => c === el ||
        el.contains(c) || c.contains(el) || (isPart(c, area) && !c.contains(hit)));
      if (alone) box = act;
      return alone;
    });
    return there.error || !box ? null : there;
  }
  const isPart = (c, area, b = c.getBoundingClientRect()) => !c.checkVisibility(UNSEEN) ||
    (!FIELDS.has(c.tagName) && !c.isContentEditable && b.width * b.height * 4 <= area);
  const UNSEEN = { opacityProperty: true, visibilityProperty: true };  // (Shoelace's form value)

  function pointOn(el, reaches) {
    const b = el.getBoundingClientRect();
    if ((b.width === 0 && b.height === 0) || getComputedStyle(el).visibility === "hidden")
      return { error: "hidden", what: describe(el) };
    let shown = reveal(el, false);
    if (shown.hidden) return { error: "hidden", what: describe(el), clip: shown.hidden };
    let scrolled = shown.scrolled;
    let res = spot(el, shown.shown, reaches);
    if (res.error === "covered" && res.bar) {
      shown = reveal(el, true);
      if (shown.hidden) return { error: "hidden", what: describe(el), clip: shown.hidden };
      scrolled = scrolled || shown.scrolled;
      res = spot(el, shown.shown, reaches);
    }
    delete res.bar;
    if (scrolled) res.scrolled = true;
    return res;
  }

  function bar(n) {  // whether `n` sits in a sticky header or a fixed bar (not a modal's veil)
    for (; n && n.nodeType === 1; n = composedParent(n)) {
      const cs = getComputedStyle(n);
      if (cs.position === "sticky") return true;
      if (cs.position === "fixed") return n.getBoundingClientRect().height <= innerHeight / 4;
    }
    return false;
  }

  // A point of `shown` (el's visible part) that reaches el, or shows it through a box over
  // it that draws nothing, or where its widget draws over it (page_covers.js); or that
  // `reaches` accepts
  function spot(el, shown, reaches) {
    let through = false;  // (whether the point shows el through such a box)
    const at = reaches ? (x, y, hit) => reaches(hit) :
      (x, y, hit) => hits(el, hit) ||
        (through = P.seenThrough(el, x, y, hit) || P.drawnOver(el, hit));
    const r = el.getBoundingClientRect();
    const box = [r.left, r.top, r.width, r.height];
    const left = Math.max(shown.left, 0), top = Math.max(shown.top, 0);
    const [w, h] = P.view();
    const right = Math.min(shown.right, w), bottom = Math.min(shown.bottom, h);
    if (right <= left || bottom <= top) return { error: "offscreen", rect: box };
    const cx = (left + right) / 2, cy = (top + bottom) / 2;
    const first = hitTarget(el, cx, cy);
    const found = (x, y) => through ? { x, y, rect: box, through } : { x, y, rect: box };
    if (at(cx, cy, first)) return found(cx, cy);
    const fx = [0.5, 0.25, 0.75, 0.1, 0.9], fy = [0.5, 0.25, 0.75, 0.1, 0.9];
    for (const a of fy) for (const b of fx) {
      const x = left + (right - left) * b, y = top + (bottom - top) * a;
      if (at(x, y, hitTarget(el, x, y))) return found(x, y);
    }
    return { error: "covered", cover: P.coverName(first), what: describe(el), bar: bar(first),
             around: !!first && first !== el && hits(first, el), away: P.awayFrom(first),
             inert: inertPart(el) };
  }
  // Whether an element lies in a part of the page made inert (its `inert`, through shadow
  // roots): the browser sends it no input, whatever its hit test finds there instead
  function inertPart(el) {
    for (let n = el; n; n = composedParent(n)) if (n.nodeType === 1 && n.inert) return true;
    return false;
  }

  // Offset of an iframe's content box inside this frame's viewport.
  function frameOffset(id) {
    const el = get(id);
    if (!el) return null;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return [r.left + el.clientLeft + parseFloat(cs.paddingLeft),
            r.top + el.clientTop + parseFloat(cs.paddingTop)];
  }

  // What covers the element at (x, y) of this frame's viewport, or null when it is on top.
  function coverOf(id, x, y) {
    const el = get(id), hit = el && hitTarget(el, x, y);
    return !el ? "nothing (it is gone)" : hits(el, hit) ? null : P.coverName(hit);
  }

  // The border box in this frame's viewport, covered or not.
  function rect(id) {
    const el = get(id);
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  }

  Object.assign(P, { query, describe, hitTarget, hits, listened, armed, pump, loadTimers,
    composedParent, toggleBox, activationOf, isControl, clickable, alsoOf, clickOf, point,
    inertPart, frameOffset, coverOf, rect, TOGGLE_BOX });
})();
