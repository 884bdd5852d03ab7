// The page helper: what covers a point, as an error names it to the agent, and a cover a
// person sees through (a box drawing nothing, laid over what it lets be seen).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { describe, hitTarget, composedParent } = P;

  // What covers a point, as an error names it to the agent: a veil (a bare box dimming the
  // whole viewport: a cookie wall's, a modal's) by the dialog it holds up, which the agent
  // has to answer or close first, where one shows over it.
  // (a shape drawn over the page is its SVG's: Shepherd's overlay, a hole cut for its step)
  function coverName(hit) {
    for (; hit && hit.ownerSVGElement; hit = hit.ownerSVGElement);
    const held = hit && hit.nodeType === 1 && P.veil(hit, getComputedStyle(hit)) ?
      veiledBy(hit) : null;
    return held ? `${describe(held)} (over ${describe(hit)})` : describe(hit);
  }

  const DIALOGS = "dialog[open], [role=dialog], [role=alertdialog]";
  const LOOKED_AT = 3000;  // elements a search for a veil's box without a dialog role reads
  function veiledBy(veil) {
    const onTop = (d) => {
      const r = d.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return false;
      const at = hitTarget(d, r.left + r.width / 2, r.top + r.height / 2);
      return !!at && d.contains(at);
    };
    let found = null;
    for (const d of document.querySelectorAll(DIALOGS)) if (onTop(d)) found = d;
    if (found) return found;
    // else a box of words and controls over the veil (a cookie wall drawn in plain divs)
    let n = 0;
    for (const d of document.body.querySelectorAll("*")) {
      if (++n > LOOKED_AT) break;
      if (d === veil || d.contains(veil)) continue;
      const p = getComputedStyle(d).position;
      if ((p === "fixed" || p === "absolute") && d.querySelector(P.CONTROLS) &&
          P.HAS_WORD.test(d.innerText || "") && onTop(d)) return d;
    }
    return null;
  }

  // Whether a person sees `el` at (x, y) through `hit`, the element on top there: every box
  // over el at that point draws nothing (or is one the page hides from assistive technology
  // as its decoration: FullCalendar's slot lines over its day columns) and takes no click of
  // its own, and lies inside a box el lies in too, short of the page's body
  // (react-big-calendar's events layer over a day's slots, the day reading a click's slot by
  // where it lands). A click there goes to that box, and up to the boxes el shares with it,
  // as a person's does; so el and the boxes up to that one have no click of their own it
  // would miss (a listener, a native control, a control's role but a grid's cell). A veil,
  // a control, a box with a handler or a pointer, anything fixed on the screen, stays a
  // cover.
  function seenThrough(el, x, y, hit) {
    if (!hit || hit.contains(el)) return false;
    const root = el.getRootNode();
    if (root !== hit.getRootNode() || !root.elementsFromPoint) return false;
    const shared = sharedBox(el, hit);
    if (!shared || shared === document.body || shared === document.documentElement)
      return false;
    const handlers = P.listened(P.hookKey);
    for (let u = el; u && u !== shared; u = composedParent(u))
      if (handlers.has(u) || u.hasAttribute("onclick") ||
          (P.isControl(u) && P.roleOf(u) !== "gridcell")) return false;
    for (const n of root.elementsFromPoint(x, y)) {
      if (n === el || el.contains(n)) return true;
      if (n.contains(el)) return false;
      const decor = !!n.closest("[aria-hidden=true]");
      for (let u = n; u && u !== shared; u = composedParent(u)) {
        const cs = getComputedStyle(u);
        if (u === n ? !decor && !blank(u, cs) : u.contains(el)) return false;
        if (cs.position === "fixed" || P.clickable(u) || handlers.has(u) ||
            P.veil(u, cs)) return false;
      }
    }
    return false;
  }

  function sharedBox(a, b) {
    for (let n = composedParent(a); n; n = composedParent(n)) if (n.contains(b)) return n;
    return null;
  }

  // Whether `n` (`cs` its style) draws nothing of its own: no words, fill, border, shadow or
  // picture; none before or after it either.
  const CLEAR = /^(transparent|rgba\(\d+, \d+, \d+, 0\))$/;
  const DRAWN = new Set(["IMG", "CANVAS", "VIDEO", "IFRAME", "OBJECT", "EMBED", "INPUT",
                         "TEXTAREA", "SELECT", "BUTTON", "PICTURE"]);
  function blank(n, cs) {
    if (n.namespaceURI !== "http://www.w3.org/1999/xhtml" || DRAWN.has(n.tagName)) return false;
    if (!CLEAR.test(cs.backgroundColor) || cs.backgroundImage !== "none" ||
        cs.boxShadow !== "none" || (cs.backdropFilter || "none") !== "none" ||
        parseFloat(cs.outlineWidth) > 0 && cs.outlineStyle !== "none") return false;
    for (const side of ["Top", "Right", "Bottom", "Left"])
      if (parseFloat(cs[`border${side}Width`]) > 0) return false;
    for (const c of n.childNodes) if (c.nodeType === 3 && c.data.trim()) return false;
    return [":before", ":after"].every((p) => {
      const c = getComputedStyle(n, p).content;
      return c === "none" || c === "normal";
    });
  }

  // Whether a field parked under what covers it (`hit`) is its widget's: the box close around
  // it (FRAME_UP out at most) holding that cover, no other field and no grid, takes the
  // clicks for it (a listener, or a pointer or text cursor), and draws its placeholder or
  // chosen tags over it: Element Plus's multiple select, its field shown as it is focused.
  const FRAME_UP = 3, FIELD = "input, textarea, select, [contenteditable=true]";
  function framedWith(el, hit) {
    let box = el.parentElement, k = 1;
    for (; box && k < FRAME_UP && !box.contains(hit); k++) box = box.parentElement;
    // (a field the box keeps hidden from everyone for its form, Shoelace's value, is none)
    if (!box || !box.contains(hit) || box === document.body ||
        box.querySelector("table, [role=grid]") || [...box.querySelectorAll(FIELD)].filter(
          (f) => f === el || f.getAttribute("aria-hidden") !== "true").length > 1)
      return false;
    const handlers = P.listened(P.hookKey);
    for (let n = box; n && k <= FRAME_UP && n !== document.body; n = n.parentElement, k++)
      if (handlers.has(n) || /^(?:pointer|text)$/.test(getComputedStyle(n).cursor)) return true;
    return false;
  }

  // Whether a click at `hit` is one on the field `el` its widget's frame draws over (its
  // chosen tags, its placeholder: `framedWith`), no control of its own there (a tag's ×)
  function drawnOver(el, hit) {
    if (!hit || !el.matches(FIELD) || !framedWith(el, hit)) return false;
    for (let n = hit; n && !n.contains(el); n = n.parentElement) if (P.isControl(n)) return false;
    return true;
  }

  Object.assign(P, { coverName, seenThrough, framedWith, drawnOver });
})();
