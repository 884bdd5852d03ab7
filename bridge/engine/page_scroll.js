// The page helper: scrolling. An element brought into view in every box that clips it (an
// action's first step), and a scroll by an amount where a mouse wheel would scroll.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { get, describe, composedParent } = P;

  // -- bringing an element into view ---------------------------------------------------
  // getBoundingClientRect says nothing about the boxes that clip an element, so every box
  // between it and its document is checked: one that can scroll (overflow auto or scroll)
  // is scrolled until the element shows in it; one that cannot (overflow hidden or clip)
  // and cuts the element off entirely hides it. A box that shows the element already is
  // left alone; one that must scroll puts it in its middle, as a person would, clear of
  // the box's sticky headers and footers (`centre` puts it there in every box).
  function isRoot(n) {
    if (n === document.documentElement) return true;
    if (n !== document.body) return false;
    return getComputedStyle(document.documentElement).overflow === "visible";
  }

  function clipsAs(box, cs, pos) {  // whether `box` clips a descendant positioned `pos`
    if (pos === "fixed") return false;
    if (pos === "absolute" && cs.position === "static" && cs.transform === "none") return false;
    return cs.overflowX !== "visible" || cs.overflowY !== "visible";
  }

  function shift(lo, hi, start, end, centre) {  // how far to scroll one axis
    if (!centre && lo >= start && hi <= end) return 0;
    if (hi - lo > end - start) return lo - start;  // too large to show whole: its start
    return (lo + hi) / 2 - (start + end) / 2;
  }

  // How many of the viewport's pixels one of a box's own is (1 unless zoomed or scaled).
  function scaleOf(shown, own) {
    const k = own > 0 && shown > 0 ? shown / own : 1;
    return Math.abs(k - 1) < 0.02 ? 1 : k;
  }

  // A box whose overflow is hidden but that the page scrolls itself, on the wheel, by its
  // scroll offsets (perfect-scrollbar's): scrolled as one that lets its content scroll, as
  // a person's wheel scrolls it. The elements with wheel listeners (hook.js) are asked once
  // a call, and only when such a box clips.
  let wheeled = null;
  function pageScrolls(box) {
    if (!P.hookKey) return false;
    if (!wheeled) {
      wheeled = P.listened(P.hookKey, "wheel");
      queueMicrotask(() => { wheeled = null; });
    }
    return wheeled.has(box);
  }

  function reveal(el, centre) {
    const b = el.getBoundingClientRect();
    let r = { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    let scrolled = false;
    let pos = getComputedStyle(el).position;
    for (let box = composedParent(el); box && !isRoot(box); box = composedParent(box)) {
      if (pos === "fixed") break;
      const cs = getComputedStyle(box);
      if (!clipsAs(box, cs, pos)) {
        if (cs.position !== "static" || pos !== "absolute") pos = cs.position;
        continue;
      }
      pos = cs.position;
      const br = box.getBoundingClientRect();
      // the box's own pixels to the viewport's: a CSS zoom or a scale on it or around it
      // (its client sizes and scroll offsets are in its own)
      const [kx, ky] = [scaleOf(br.width, box.offsetWidth), scaleOf(br.height, box.offsetHeight)];
      const view = { left: br.left + box.clientLeft * kx, top: br.top + box.clientTop * ky };
      view.right = view.left + box.clientWidth * kx;
      view.bottom = view.top + box.clientHeight * ky;
      // (one axis hidden makes the other's `visible` auto: Ant Design's list hides y alone)
      const own = (!LETS.has(cs.overflowX) || !LETS.has(cs.overflowY)) && pageScrolls(box);
      const sx = (own && !LETS.has(cs.overflowX)) || /^(?:auto|scroll)$/.test(cs.overflowX);
      const sy = (own && !LETS.has(cs.overflowY)) || /^(?:auto|scroll)$/.test(cs.overflowY);
      const dx = sx ? shift(r.left, r.right, view.left, view.right, centre) : 0;
      const dy = sy ? shift(r.top, r.bottom, view.top, view.bottom, centre) : 0;
      if (dx || dy) {
        const x0 = box.scrollLeft, y0 = box.scrollTop;
        box.scrollBy({ left: dx / kx, top: dy / ky, behavior: "instant" });
        const mx = (box.scrollLeft - x0) * kx, my = (box.scrollTop - y0) * ky;
        if (mx || my) scrolled = true;
        r = { left: r.left - mx, top: r.top - my, right: r.right - mx, bottom: r.bottom - my };
      }
      r = { left: Math.max(r.left, view.left), top: Math.max(r.top, view.top),
            right: Math.min(r.right, view.right), bottom: Math.min(r.bottom, view.bottom) };
      if (r.right <= r.left || r.bottom <= r.top) return { hidden: describe(box) };
    }
    const [w, h] = view();
    const dx = shift(r.left, r.right, 0, w, centre);
    const dy = shift(r.top, r.bottom, 0, h, centre);
    if (dx || dy) {
      const x0 = scrollX, y0 = scrollY;
      scrollBy({ left: dx, top: dy, behavior: "instant" });
      const mx = scrollX - x0, my = scrollY - y0;
      if (mx || my) scrolled = true;
      r = { left: r.left - mx, top: r.top - my, right: r.right - mx, bottom: r.bottom - my };
    }
    return { scrolled, shown: r };
  }

  // Whether a box that clips el (or a text node) shows nothing of rect `r`, as the boxes
  // stand (a carousel's slides beside its window, a list's rows scrolled out of its pane):
  // the viewport's look (`snapshot -v`) leaves it out. Each box's view is read once a walk.
  let views = null;
  function viewOf(box) {
    if (!views) {
      views = new Map();
      queueMicrotask(() => { views = null; });
    }
    let v = views.get(box);
    if (v === undefined) {
      const cs = getComputedStyle(box), br = box.getBoundingClientRect();
      const [kx, ky] = [scaleOf(br.width, box.offsetWidth), scaleOf(br.height, box.offsetHeight)];
      const left = br.left + box.clientLeft * kx, top = br.top + box.clientTop * ky;
      v = { cs, left, top, right: left + box.clientWidth * kx,
            bottom: top + box.clientHeight * ky };
      views.set(box, v);
    }
    return v;
  }
  // `stuck`: only by a box that cannot scroll that way (overflow hidden or clip: a facet's
  // options under its "Show more", a carousel's other slides), where nothing reaches it
  function clippedOut(node, r, stuck = false) {
    const text = node.nodeType === 3;
    let pos = text ? "static" : getComputedStyle(node).position;
    for (let box = text ? node.parentElement : composedParent(node); box && !isRoot(box);
         box = composedParent(box)) {
      if (pos === "fixed") return false;
      const v = viewOf(box);
      if (!clipsAs(box, v.cs, pos)) {
        if (v.cs.position !== "static" || pos !== "absolute") pos = v.cs.position;
        continue;
      }
      pos = v.cs.position;
      const across = r.right <= v.left || r.left >= v.right;
      const down = r.bottom <= v.top || r.top >= v.bottom;
      // (stuck: not a box a pixel wide, where a page keeps a field its label or widget draws,
      // nor one that scrolls itself on the wheel: a custom scroll bar's, a kit's list)
      if (stuck && (v.right - v.left <= 2 || v.bottom - v.top <= 2 || pageScrolls(box)))
        continue;
      if (stuck ? (across && STUCK.test(v.cs.overflowX)) || (down && STUCK.test(v.cs.overflowY))
        : across || down) return true;
    }
    return false;
  }
  const STUCK = /^(?:hidden|clip)$/;

  const cutOff = (el) => {
    const r = el.getBoundingClientRect();
    return (r.width > 0 || r.height > 0) && clippedOut(el, r, true);
  };

  // Scroll the element into view in every box that clips it and in its frame's viewport:
  // `{scrolled}`, or `{hidden}` naming a box that cuts it off and cannot scroll.
  function scrollIntoView(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { scrolled: false };
    const res = reveal(el, false);
    delete res.shown;
    return res;
  }

  // -- scrolling by an amount, as a mouse wheel does -----------------------------------
  // A wheel scrolls the box under the pointer that can still move that way, else the one
  // around it, up to the page itself: an app whose page never scrolls (its list pane does)
  // scrolls as a person sees it. `scroll --dy` over an element (id), or over the middle of
  // the frame's viewport (id null) when the page cannot scroll that way. {moved, pos (x,
  // y), size (width, height), view (width, height), box (what scrolled: "" for the page),
  // self (the element itself)}
  const LETS = new Set(["auto", "scroll", "overlay"]);

  function pageOverflow(axis) {  // the viewport's, from the root or else the body
    const of = (el) => getComputedStyle(el)["overflow" + axis];
    const o = of(document.documentElement);
    return o === "visible" && document.body ? of(document.body) : o;
  }

  function room(pos, size, view, d) {
    return d > 0 ? pos + view < size - 1 : d < 0 && pos > 0;
  }

  function canScroll(box, dx, dy) {
    const page = box === document.scrollingElement;
    const cs = page ? null : getComputedStyle(box);
    const lets = (axis) => page ? !/^(hidden|clip)$/.test(pageOverflow(axis))
                                : LETS.has(cs["overflow" + axis]) || pageScrolls(box);
    return !!(dy && lets("Y") && room(box.scrollTop, box.scrollHeight, box.clientHeight, dy) ||
              dx && lets("X") && room(box.scrollLeft, box.scrollWidth, box.clientWidth, dx));
  }

  function boxAround(start, dx, dy) {  // the element or its nearest box that can scroll
    for (let n = start; n && n.nodeType === 1; n = composedParent(n)) {
      if (n === document.documentElement || isRoot(n)) return null;
      if (canScroll(n, dx, dy)) return n;
    }
    return null;
  }

  function largestBox(dx, dy) {  // the page's largest shown box that can scroll that way
    let best = null, area = 0;
    for (const el of document.body ? document.body.querySelectorAll("*") : []) {
      if (el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)
        continue;
      const a = el.clientWidth * el.clientHeight;
      if (a > area && canScroll(el, dx, dy)) { best = el; area = a; }
    }
    return best;
  }

  function wheel(id, dx, dy) {
    const el = id == null ? null : get(id);
    if (id != null && (!el || !el.isConnected)) return null;
    P.saidStart(null);  // (what the scroll brings is watched: a feed's next items, a box
    // enabled once its terms were read to their end; none of it the scrolled box's own)
    const page = document.scrollingElement || document.documentElement;
    let box = el ? boxAround(el, dx, dy) : null;
    if (!box && !canScroll(page, dx, dy) && !el) {
      const under = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
      box = (under && boxAround(under, dx, dy)) || largestBox(dx, dy);
    }
    const moving = box || page;
    const x0 = moving.scrollLeft, y0 = moving.scrollTop;
    moving.scrollBy({ left: dx, top: dy, behavior: "instant" });
    return {
      moved: [moving.scrollLeft - x0, moving.scrollTop - y0],
      pos: [moving.scrollLeft, moving.scrollTop],
      size: [moving.scrollWidth, moving.scrollHeight],
      view: [moving.clientWidth, moving.clientHeight],
      box: box ? describe(box) : "", self: !!box && box === el,
    };
  }

  // How many pixels of a scroll box's content above the first element drawn in it and
  // below the last are not drawn yet, as a virtual list keeps only the rows in view
  // (react-window, TanStack Virtual, react-virtuoso): [above, below], each 0 unless more
  // than a box's height. Its rows: its children, or those of the one child as tall as its
  // content (a sizer holding them, or a wrapper: a terms box's text, its check box after
  // it); a sizer beside them is none.
  const ROWS_LOOK = 50;  // rows looked at, the first and the last ones
  const WRAPPED = 4;  // children a box may have for its one tall one to be looked into
  const scrollsY = (el, cs) => (cs.overflowY === "auto" || cs.overflowY === "scroll") &&
    el.scrollHeight > el.clientHeight + 1;
  function undrawn(box) {
    const full = box.scrollHeight;
    if (full < box.clientHeight * 2) return [0, 0];
    const tall = (n) => n.getBoundingClientRect().height >= full * 0.9;
    let rows = [...box.children];
    // (into the one box as tall as the content, or a box alone: a viewport laid at the
    // top of what scrolls, react-virtuoso's, as tall as the box)
    for (let d = 0, big; d < 3 && rows.length <= WRAPPED &&
      (big = rows.length === 1 ? rows : rows.filter(tall)).length === 1; d++)
      rows = rows.flatMap((r) => r === big[0] ? [...r.children] : [r]);
    let top = Infinity, bottom = -Infinity;
    const n = rows.length, looked = [...Array(Math.min(n, ROWS_LOOK)).keys()];
    for (const i of new Set([...looked, ...looked.map((k) => n - 1 - k)])) {
      const r = rows[i].getBoundingClientRect();
      if (r.height > 0 && r.height < full * 0.9) {
        top = Math.min(top, r.top);
        bottom = Math.max(bottom, r.bottom);
      }
    }
    if (bottom === -Infinity) return [0, 0];
    const at = box.getBoundingClientRect().top - box.scrollTop;  // (its content's top)
    const above = Math.round(top - at), below = Math.round(full - (bottom - at));
    return [above > box.clientHeight ? above : 0, below > box.clientHeight ? below : 0];
  }

  // The viewport's width and height less its scroll bars: a point on a scroll bar hits no
  // element (the root's client box; the body's in quirks mode)
  function view() {
    const root = document.compatMode === "BackCompat" ? document.body : document.documentElement;
    const w = root && root.clientWidth, h = root && root.clientHeight;
    return [Math.min(w || innerWidth, innerWidth), Math.min(h || innerHeight, innerHeight)];
  }

  // Whether el shows (nearly) nothing of what it holds, unless it only keeps a field: a box
  // of its own that clips what overflows it a pixel wide or high (screen readers' words),
  // or one clipped away whole (Chosen keeps its closed list drawn, clip-path inset(100%
  // 100%)). (Not a replaced element: a field's text box is its own.)
  const REPLACED = new Set(["INPUT", "SELECT", "TEXTAREA", "IMG", "VIDEO", "CANVAS",
                            "IFRAME", "FRAME", "OBJECT", "EMBED"]);
  function clipsAll(el, cs) {
    if (REPLACED.has(el.tagName)) return false;
    if (clippedAway(cs) || slidOut(el, cs)) return !P.keepsField(el);
    if ((cs.overflowX === "visible" && cs.overflowY === "visible") ||
        !P.standsApart(cs.display)) return false;
    const r = el.getBoundingClientRect();
    return (r.width <= 1 || r.height <= 1) && !P.keepsField(el);
  }
  // Whether the words of text `node` inside `clipper` (a box that clipsAll) are out of
  // sight: those of a panel shut to no height (an accordion's, `max-height: 0`), a drawer
  // slid out; not a screen reader's words kept in a pixel, which name what they are in
  // (an icon's "Completed"), unless a live region narrates them (a drag kit's)
  function clippedText(clipper, node) {
    const r = clipper.getBoundingClientRect();
    return r.width > 1 || r.height > 1 || P.liveIn(node);
  }
  // Whether a box that takes no pointer and hides its overflow holds only what lies wholly
  // outside it: a drawer slid out of its frame (DaisyUI's, its list moved away by a
  // transform), shut until the page slides it in
  function slidOut(el, cs) {
    if (cs.pointerEvents !== "none" || !/^(?:hidden|clip)$/.test(cs.overflowX) ||
        !el.firstElementChild) return false;
    const box = el.getBoundingClientRect();
    return [...el.children].every((c) => {
      const r = c.getBoundingClientRect();
      return r.right <= box.left || r.left >= box.right || r.bottom <= box.top ||
        r.top >= box.bottom;
    });
  }
  function clippedAway(cs) {
    // (in shares of the box; a side of none is written 0px)
    const inset = /^inset\(((?:[\d.]+%|0px)(?: (?:[\d.]+%|0px)){0,3})\)$/.exec(cs.clipPath);
    if (inset) {
      const [t, r = t, b = t, l = r] = inset[1].split(" ").map(parseFloat);
      // (both ways: a box wiped in one way only is a reveal on scroll, drawn once in view)
      if (t + b >= 100 && l + r >= 100) return true;
    }
    // (a polygon of no area, its points on one line, on a box that takes no pointer: Carbon's
    // batch bar, shut; one that takes it may be a reveal on scroll)
    const poly = cs.pointerEvents === "none" && /^polygon\(([^()]*)\)$/.exec(cs.clipPath);
    const pts = poly ? poly[1].split(",").map((p) => p.trim().split(/\s+/)) : [];
    if (pts.length > 1 && pts.every((p) => p.length === 2) &&
        (pts.every((p) => p[0] === pts[0][0]) || pts.every((p) => p[1] === pts[0][1])))
      return true;
    return cs.position !== "static" && cs.position !== "relative" &&
      /^rect\(0px,? 0px,? 0px,? 0px\)$/.test(cs.clip);
  }

  // Whether el is a text field laid off the page, where no scroll brings it (Tagify keeps its
  // original input at -9999em; a form's trap for bots, which a person never fills): put
  // there by a negative left or top of its own or of a box around it, OFF_UP boxes up at
  // most (not scrolled out of a box: a carousel's slide, a step of a form).
  // So is a box fixed wholly outside the window, or laid wholly before the page's start
  // (a drawer slid away to its side, Flowbite's, Bootstrap's offcanvas): no scroll brings
  // it or what it holds, until the page slides it in.
  const TEXT_TYPES = /^(?:text|search|email|url|tel|number|password)$/, OFF_UP = 2;
  function offPage(el, cs) {
    if ((cs.position === "fixed" || cs.position === "absolute") && slidAway(el, cs))
      return true;
    const text = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && TEXT_TYPES.test(el.type));
    const r = text && cs.direction !== "rtl" ? el.getBoundingClientRect() : null;
    if (!r || (r.right + scrollX > 0 && r.bottom + scrollY > 0)) return false;
    for (let n = el, k = 0; n && k <= OFF_UP; n = n.parentElement, k++) {
      const s = k ? getComputedStyle(n) : cs;
      if (s.position !== "static" && (parseFloat(s.left) < 0 || parseFloat(s.top) < 0))
        return true;
    }
    return false;
  }

  function slidAway(el, cs) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || cs.direction === "rtl") return false;
    // (where it stands with the boxes around it scrolled back to their start: one scrolled
    // past, react-virtuoso's viewport above the rows it holds, did not slide away)
    let [dx, dy] = [scrollX, scrollY];
    for (let n = el.parentElement; n && cs.position !== "fixed" && !isRoot(n); n = n.parentElement)
      [dx, dy] = [dx + n.scrollLeft, dy + n.scrollTop];
    if (r.right + dx <= 0 || r.bottom + dy <= 0) return true;
    // (the viewport's room less its scroll bars: a drawer slid out to the right lies under
    // the bar)
    const [w, h] = view();
    return cs.position === "fixed" && (r.right <= 0 || r.bottom <= 0 || r.left >= w || r.top >= h);
  }

  // Whether a see-through select is laid over the words that say its choice, what the
  // pointer meets at its middle (Pikaday's month): a person clicks it, as the words.
  function overItsWords(el) {
    const r = el.getBoundingClientRect(), o = el.selectedOptions && el.selectedOptions[0];
    if (!o || r.width <= 1 || r.height <= 1 ||
        P.hitTarget(el, r.x + r.width / 2, r.y + r.height / 2) !== el) return false;
    let words = "";
    for (const c of el.parentElement.childNodes) if (c !== el) words += c.textContent;
    return P.clean(words).includes(P.clean(o.text));
  }

  // Whether a text field is drawn with no size at all, and see-through or disabled: one
  // kept for screen readers alone (rc-tree's, antd's Tree), no person sees or reaches it
  const sizeless = (el, cs) => /^(?:INPUT|TEXTAREA)$/.test(el.tagName) &&
    !/^(?:checkbox|radio|file|hidden)$/.test(el.type) && (cs.opacity === "0" || el.disabled) &&
    ((r) => r.width === 0 && r.height === 0)(el.getBoundingClientRect());

  // Whether a form field is parked under the page's content: below it by a negative
  // z-index of its own or of a box around it (PARK_UP out at most), and not what the
  // pointer meets at its middle, where that is in view (Handsontable keeps its closed cell
  // editors under the grid): no person sees it, until the page lifts it.
  const PARK_UP = 2;
  function parkedBelow(el) {
    // (not a check box or radio laid under its words, which a click there reaches)
    if (!/^(?:INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || /^(?:checkbox|radio)$/.test(el.type))
      return false;
    // (nor one a box a pixel wide keeps for screen readers: PrimeVue's, page_shown.js)
    const up = el.parentElement;
    if (up && P.keepsField(up) && ((r) => r.width <= 1 || r.height <= 1)(
      up.getBoundingClientRect())) return false;
    let below = false;
    for (let n = el, k = 0; n && k <= PARK_UP && !below; n = n.parentElement, k++)
      below = parseInt(getComputedStyle(n).zIndex, 10) < 0;
    if (!below) return false;
    const r = el.getBoundingClientRect(), [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;  // (unlooked at)
    const hit = P.hitTarget(el, x, y);
    // (not one under the box close around it that draws it and takes its clicks: a
    // multiple select's field under its tags, Shoelace's, or its frame's: page_covers.js)
    return !!hit && hit !== el && !el.contains(hit) && !(hit.contains(el) &&
      hit !== document.body && hit !== document.documentElement &&
      depthIn(hit, el) <= PARK_UP) && !P.framedWith(el, hit);
  }
  const depthIn = (box, el) => {
    let k = 0;
    for (let n = el.parentElement; n && n !== box; n = n.parentElement) k++;
    return k;
  };

  // `view()`, read once in a call of the helper (a snapshot asks it of every text it walks)
  let viewKept = null;
  function viewNow() {
    if (!viewKept) {
      viewKept = view();
      queueMicrotask(() => { viewKept = null; });
    }
    return viewKept;
  }

  // The point `at` of el, el brought into view in every box that clips it and then, when
  // that point is still out of the window, the window scrolled to it; an error when it lies
  // outside el ("outside", with el's size), out of view, or under something else.
  function pointAt(el, at) {
    let b = el.getBoundingClientRect();
    const [ax, ay] = at;
    if ((b.width === 0 && b.height === 0) || getComputedStyle(el).visibility === "hidden")
      return { error: "hidden", what: describe(el) };
    if (ax > b.width || ay > b.height)
      return { error: "outside", size: [Math.round(b.width), Math.round(b.height)] };
    const shown = reveal(el, false);
    if (shown.hidden) return { error: "hidden", what: describe(el), clip: shown.hidden };
    b = el.getBoundingClientRect();
    const [w, h] = view();
    let x = b.left + ax, y = b.top + ay, scrolled = !!shown.scrolled;
    if (x < 0 || y < 0 || x >= w || y >= h) {
      scrollBy(x < 0 || x >= w ? x - w / 2 : 0, y < 0 || y >= h ? y - h / 2 : 0);
      b = el.getBoundingClientRect();
      x = b.left + ax;
      y = b.top + ay;
      scrolled = true;
    }
    const box = [b.left, b.top, b.width, b.height];
    if (x < 0 || y < 0 || x >= w || y >= h) return { error: "offscreen", rect: box };
    const hit = P.hitTarget(el, x, y);
    if (!P.hits(el, hit))
      return { error: "covered", cover: P.coverName(hit), what: describe(el),
               inert: P.inertPart(el) };
    return scrolled ? { x, y, rect: box, scrolled } : { x, y, rect: box };
  }

  // Whether an element shows in the viewport (a text node: its characters), not cut off by
  // a box; a table's row whose cells stick in view as it scrolls past (its header's) by them
  function inViewport(el) {
    if (el.tagName === "TR" && el.cells.length &&
        getComputedStyle(el.cells[0]).position === "sticky")
      return [...el.cells].some((c) => inViewport(c));
    const range = el.nodeType === 3 ? document.createRange() : null;  // a text node's box:
    if (range) range.selectNodeContents(el);  // its characters'
    const r = (range || el).getBoundingClientRect(), [w, h] = viewNow();  // (less its bars)
    return r.bottom > 0 && r.right > 0 && r.top < h && r.left < w &&
      (r.width > 0 || r.height > 0) && !clippedOut(el, r);
  }

  Object.assign(P, { inViewport, isRoot, reveal, pointAt, scrollIntoView, wheel, scrollsY,
    undrawn, clippedText, view, viewNow, clipsAll, clippedAway, offPage, clippedOut, cutOff,
    sizeless, overItsWords, parkedBelow });
})();
