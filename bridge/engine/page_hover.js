// The page helper: what the page's style sheets do while the pointer is over a box (its
// `:hover` rules): what they show inside it, and where they alone give it a pointer; the
// tooltips that show under it.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { clean, cut, HAS_WORD, CONTROLS } = P;

  const HOVER_RULES_MAX = 20000;  // rules of one style sheet read for them
  // what hovering a box shows: the `:hover` is on an element that holds the one styled
  const HOVERED_ABOVE = /^[^\s>+~]*(\s*>|\s+(?![+~]))/;
  // a style sheet -> [its rule count, the selectors of what its :hover rules show, those of
  // the boxes they give a pointer]: a sheet is read again only when its rules changed in
  // number (20,000 rules take about 9 ms)
  const hoverRules = new WeakMap();

  // a rule giving a box a size (its width or height; Ant Design's number field grows its
  // steppers' box from nothing): what it shows, where the box has none until then
  const SIZES = ["width", "height", "max-width", "max-height"];
  const grows = (style) => SIZES.some((p) =>
    !/^(?:0(?:px|%|em|rem)?)?$/.test(style.getPropertyValue(p).trim()));

  function readSheet(sheet) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      return [[], [], []];  // another origin's sheet keeps its rules to itself
    }
    const known = hoverRules.get(sheet);
    if (known && known[0] === rules.length) return known[1];
    const found = [], pointers = [], steady = [];
    let left = HOVER_RULES_MAX;
    const scan = (list) => {
      for (const r of list) {
        if (--left < 0) return;
        const sel = r.selectorText;
        if (sel === undefined) {  // @media, @supports, @layer: the rules inside
          if (r.cssRules) scan(r.cssRules);
          continue;
        }
        if (!sel.includes(":hover") || sel.includes(":not(:hover")) {
          // (a pointer it has whether the pointer is over it or not: flatpickr's days)
          if (r.style.cursor === "pointer") steady.push(sel);
          continue;
        }
        // (a pointer the box has only while the pointer is over it: `.row:hover`)
        if (r.style.cursor === "pointer") {
          for (const one of sel.split(",")) {
            if (/:hover\s*$/.test(one)) pointers.push(one.replace(/:hover\s*$/, ""));
          }
        }
        const d = r.style.display, v = r.style.visibility, o = r.style.opacity;  // (fades in)
        const shows = (!!d && d !== "none") || v === "visible" || (!!o && o !== "0");
        if (!shows && !grows(r.style)) continue;
        for (const one of sel.split(",")) {
          const at = one.indexOf(":hover");
          if (at >= 0 && HOVERED_ABOVE.test(one.slice(at + 6)))
            found.push([one.replaceAll(":hover", ""), shows]);
        }
      }
    };
    scan(rules);
    const read = [found, pointers, steady];
    hoverRules.set(sheet, [rules.length, read]);
    return read;
  }

  // The selectors of what a sheet's :hover rules show in a box the pointer is over, each
  // with whether they show it (else only give it a size)
  const hoverSelectors = (sheet) => readSheet(sheet)[0];

  // Whether el's pointer is one a `:hover` rule gives it while the pointer is over it (a
  // grid's row, Tabulator's): no sign of a control, where the pointer happens to rest
  function pointerByHover(el) {
    if (!el.matches(":hover") || el.style.cursor === "pointer") return false;
    const matches = (sel) => {
      try {
        return el.matches(sel);
      } catch { return false; }  // (a selector split inside :is())
    };
    const sheets = [...document.styleSheets].map(readSheet);
    return sheets.some(([, pointers]) => pointers.some(matches)) &&
      !sheets.some(([, , steady]) => steady.some(matches));
  }

  // Where the pointer may rest outside what it holds open over an element: `cover` (what
  // lies on the element) inside a box under the pointer (a mega menu its item's `:hover`
  // shows, left open by a hover before): a corner or an edge's middle of the view, outside
  // that box and the cover, {x, y, id, what} of what lies there; else null
  function awayFrom(cover) {
    let held = cover && cover.parentElement;
    while (held && held !== document.body && !held.matches(":hover")) held = held.parentElement;
    if (!held || held === document.body) return null;
    const [w, h] = P.view(), boxes = [held, cover].map((n) => n.getBoundingClientRect());
    for (const [x, y] of [[1, h - 2], [w - 2, h - 2], [w / 2, h - 2], [1, h / 2],
      [w - 2, h / 2], [1, 1], [w - 2, 1]]) {
      if (boxes.some((b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom))
        continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && !held.contains(hit)) return { x, y, id: P.idOf(hit), what: P.describe(hit) };
    }
    return null;
  }

  // The words of the tooltips that show: the page's [role=tooltip] and what the element
  // `id` says describes it, once shown (a hover's report says which it brought: pointer.py)
  // (and a box its classes call a tooltip, with a few words and no control: a kit's that
  // says no role, CKEditor's, TinyMCE's, a page's own `.tip`)
  const TIP = /(?:^|[\s_-])(?:tooltip|tip|tippy|balloon|popup|popover)(?:$|[\s_-])/i;
  const TIP_CSS = '[class*="tip" i], [class*="balloon" i], [class*="tippy" i], ' +
    '[class*="popup" i], [class*="popover" i]';
  // The words a style sheet draws beside an element or a box around it as a tooltip, while
  // they show (`[data-tooltip]:hover::after { content: attr(data-tooltip) }`: Fomantic's,
  // Balloon.css's); not a mark or an icon's glyph (a letter at least, two characters)
  function drawnTips(el, out) {
    for (let n = el, k = 0; n && n.nodeType === 1 && k < 3; n = n.parentElement, k++) {
      for (const at of ["::after", "::before"]) {
        const cs = getComputedStyle(n, at), c = cs.content;
        if (!c || c[0] !== '"' || cs.display === "none" || cs.visibility !== "visible" ||
            !(parseFloat(cs.opacity) > 0)) continue;
        const words = clean(c.slice(1, -1).replace(/\\(.)/g, "$1"));
        if (words.length >= 2 && /\p{L}/u.test(words)) out.add(words);
      }
    }
  }
  // `rested`: the pointer rests on it: the browser's own tooltip, the `title` of it or of a
  // box around it (HOVER_TITLE_UP up at most), shows too
  const HOVER_TITLE_UP = 3, TIP_MAX = 150, TIP_LOOKS = 300;  // (characters; boxes read)
  function tooltips(id, rested = false) {
    // (before the hover's move: the timers its moves arm count, hook.js)
    if (!rested && P.hookKey) document.dispatchEvent(new CustomEvent("ts-hovering-" + P.hookKey));
    const el = P.get(id), found = new Set(document.querySelectorAll("[role=tooltip]"));
    let titled = el;
    for (let k = 0; titled && !titled.title && k < HOVER_TITLE_UP; k++)
      titled = titled.parentElement;
    const title = rested && titled && HAS_WORD.test(titled.title) ? clean(titled.title) : "";
    for (const n of [...document.querySelectorAll(TIP_CSS)].slice(0, TIP_LOOKS)) {
      if (TIP.test(typeof n.className === "string" ? n.className : "") &&
          !n.matches(CONTROLS) && !n.querySelector(CONTROLS) &&
          (n.textContent || "").length <= TIP_MAX) found.add(n);
    }
    const root = el ? el.getRootNode() : null;
    for (const d of (el && el.getAttribute("aria-describedby") || "").split(/\s+/)) {
      const n = d && root.getElementById ? root.getElementById(d) : null;
      if (n) found.add(n);
    }
    const fading = P.fadingOut(), drawn = new Set();
    if (el) drawnTips(el, drawn);
    // (a tooltip's parts its classes call tooltips too are its words, not tooltips of their
    // own: recharts' label and items in its wrapper)
    const shown = [...found].filter((n) => n.checkVisibility({ opacityProperty: true,
      visibilityProperty: true }) && !fading.has(n));
    const words = shown.filter((n) => !shown.some((m) => m !== n && m.contains(n)))
      .map((n) => cut(clean(n.innerText || n.textContent || ""), TIP_MAX)[0]);
    return [...new Set([...words, ...[...drawn].map((w) => cut(w, TIP_MAX)[0]),
      cut(title, TIP_MAX)[0]].filter(Boolean))];
  }

  Object.assign(P, { hoverSelectors, pointerByHover, awayFrom, tooltips });
})();
