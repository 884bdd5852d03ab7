// The page helper: the page's text as a person reads it, for `text` (plain, or as
// markdown), a wait for words, and all an element holds (`text @N`).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { get, SKIP_TAGS, roleOf, standIn, clean, hiddenForName, standsApart, breaksLine,
    composedParent, masked, valueOf } = P;

  // All an element holds, for `text @N`: a field's value (a password's stays masked), else
  // its rendered text. Reads only: nothing scrolls, takes focus or changes.
  function fullText(id) {
    const el = get(id);
    if (!el) return null;
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") return { kind: "frame", text: "" };
    const src = standIn(el) || el;
    const role = roleOf(src);
    if (role === "textbox" && (src.isContentEditable || P.codeEditorOf(src)))  // ("lines": in part)
      return { kind: P.editorPartial(src) ? "lines" : "value", text: valueOf(src, role) || "" };
    if (src.tagName === "SELECT") {  // every option, where a snapshot lists the first ones
      return { kind: "options", text: Array.from(src.options, (o) => clean(o.label || o.text) +
        (o.selected ? " [selected]" : "") + (o.disabled || (o.parentNode && o.parentNode.disabled)
          ? " [disabled]" : "")).join("\n") };
    }
    const value = valueOf(src, role);
    if (masked(src)) return { kind: "value", text: value || "" };
    if (value !== null && value !== undefined &&
        (src.tagName === "INPUT" || src.tagName === "TEXTAREA" || src.tagName === "SELECT" ||
         value !== "")) return { kind: "value", text: String(value) };
    // (words of an element not drawn now, a tab's hidden panel, are said to be so)
    const drawn = !el.checkVisibility || el.checkVisibility({ visibilityProperty: true });
    return { kind: drawn ? "text" : "hidden", text: flatText(el) };
  }

  // (none of a frame the page does not draw: a closed chat widget's, a frame in a modal
  // gone with `display: none`, which has no room to lay its document out in)
  const undrawn = () => window !== top && (!innerWidth || !innerHeight);
  function pageText() {
    return document.body && !undrawn() ? P.unfaded(flatText(document.body)) : "";
  }

  // Whether the document's text holds `text` (a wait's poll): in a hidden one, once the
  // page's due timers ran (`secret`: the hook's; page_hits.js `pump`).
  function hasText(text, secret) {
    P.pump(secret);
    return pageText().includes(text);
  }

  // A document's text for `text` (`fmt` "markdown" or "text"): [its URL, the text, 0]; in
  // the top document while timers it armed as it loaded or in reply to input have not run
  // (`secret`: the hook's, hook.js), [its URL, null, how many], for a read once they ran.
  function readText(fmt, secret) {
    P.pump(secret);
    const loading = P.loadTimers(secret);
    const text = loading ? null : fmt !== "markdown" ? pageText() : undrawn() ? "" : P.markdown();
    return [location.href, text, loading];
  }

  // The text a person reads in an element, as its innerText, with what innerText leaves
  // out: the space between two boxes of their own in a line whose words touch (inline-block
  // badges: innerText reads "NewSale", a person two words), and what its shadow roots show.
  // A style is read only between two text nodes whose words innerText shows glued together,
  // not for every element of a big page; a space is put there in innerText's text. With a
  // shadow root or a slot inside, the elements on the way to them and to such boxes are read
  // node by node, in the order the page is drawn (a host's shadow tree, a slot's assigned
  // nodes); every other element by its innerText, as it is.
  function flatText(root) {
    const full = root.innerText;  // none for an element that is no HTML element (svg)
    const onWay = new Set();
    const mark = (n) => {
      for (let up = n; up && !onWay.has(up); up = up === root ? null : composedParent(up))
        onWay.add(up);
    };
    const displays = new Map();  // element -> its display, read once
    const displayOf = (el) => {
      let d = displays.get(el);
      if (d === undefined) displays.set(el, (d = getComputedStyle(el).display));
      return d;
    };
    const closed = new Set();  // closed dialogs still laid out
    const codes = new Map();  // code blocks of numbered lines -> their lines as written
    const apart = [];  // the boxes whose words touch another's
    const spaces = [];  // where in `full` a space keeps them apart (-1: not known)
    const roots = [root];
    while (roots.length) {
      const tree = roots.pop();
      // in the root's tree, words innerText shows glued to the ones before; in a shadow tree
      // (innerText shows none of it), words that touch in the DOM
      const aligned = tree === root && full !== undefined;
      const walker = document.createTreeWalker(
        tree, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      let last = null;  // the text node before (aligned: the last innerText shows)
      const at = { shown: full, lower: null, p: 0, start: 0, slack: 0 };
      for (let n = walker.currentNode; n; n = walker.nextNode()) {
        if (n.nodeType === 3) {
          if (SKIP_TAGS.has(n.parentNode.tagName)) continue;
          let glued;  // a letter or digit right after one, across two text nodes
          if (aligned) {
            const was = at.p;
            if (!shownAt(at, n.data)) continue;  // not shown: hidden, or only spaces
            glued = last !== null && at.start === was &&
              WORD_END.test(full.slice(Math.max(0, was - 2), was)) &&
              WORD_START.test(full.slice(was, was + 2));
          } else {
            glued = last !== null && WORD_END.test(last.data) && WORD_START.test(n.data);
          }
          const box = glued ? boxBetween(last, n, displayOf) : null;
          if (box) {
            apart.push(box);
            spaces.push(aligned ? at.start : -1);
          }
          last = n;
          continue;
        }
        if (n.shadowRoot) roots.push(n.shadowRoot);
        // (a select's words are what it shows: read apart, `selectShows`; a closed dialog a
        // style sheet only made see-through, DaisyUI's, shows none: left out)
        if ((closedDialog(n) && displayOf(n) !== "none") || unseenWords(n) || shutBox(n))
          closed.add(n);
        const code = n.tagName === "PRE" ? numberedCode(n) : null;
        if (code !== null) codes.set(n, code);
        if (n.shadowRoot || n.tagName === "SLOT" || n.tagName === "SELECT" || closed.has(n) ||
            code !== null) mark(n);
      }
    }
    if (!onWay.size && !spaces.includes(-1)) {
      if (full === undefined) return root.textContent;
      let text = "";
      let from = 0;
      for (const i of spaces) {
        text += full.slice(from, i) + " ";
        from = i;
      }
      return text + full.slice(from);
    }
    for (const box of apart) mark(composedParent(box));
    const out = [];
    let line = "";
    const push = () => {
      const t = line.replace(/[ \t]+/g, " ").trim();
      if (t) out.push(t);
      line = "";
    };
    function walk(node) {
      if (node.nodeType === 3) { line += node.data.replace(/\s+/g, " "); return; }
      if (node.nodeType !== 1 || SKIP_TAGS.has(node.tagName) || closed.has(node)) return;
      const cs = getComputedStyle(node);
      if (cs.display === "none" || bare(node, cs)) return;
      if (codes.has(node)) {
        push();
        out.push(codes.get(node));
        return;
      }
      if (node.tagName === "SELECT") {
        line += " " + selectShows(node, cs) + " ";
        return;
      }
      const block = breaksLine(cs.display) && cs.display !== "table-cell";
      const gap = !block && (standsApart(cs.display) || P.boxedInline(cs));  // (a cell, a chip)
      if (block) push();
      else if (gap) line += " ";
      if (!onWay.has(node)) {
        const t = cs.visibility === "hidden" ? "" : node.innerText || "";
        const parts = t.split("\n");
        for (let i = 0; i < parts.length; i++) {
          line += parts[i];
          if (i < parts.length - 1) push();
        }
      } else {
        const assigned = node.tagName === "SLOT" ? node.assignedNodes({ flatten: true }) : [];
        const kids = assigned.length ? assigned : (node.shadowRoot || node).childNodes;
        // (a closed details in a shadow root shows its summary alone: Shoelace's)
        const shut = node.tagName === "DETAILS" && !node.open ? P.summaryOf(node) : undefined;
        for (const c of kids) if (shut === undefined || c === shut) walk(c);
      }
      if (block) push();
      else if (gap) line += " ";
    }
    walk(root);
    push();
    return out.join("\n");
  }

  // An empty box laid out of the flow, which parts no line (Quill's list item's marker, drawn
  // by its ::before); not a host whose shadow root holds its words (Ionic's toast)
  const bare = (el, cs) => (cs.position === "absolute" || cs.position === "fixed") &&
    !el.firstElementChild && !el.shadowRoot && !/\S/.test(el.textContent || "");

  // Words kept for screen readers only, which innerText reads and no one sees: a box its
  // class calls so (sr-only, visually-hidden, a skip or jump link) that a pixel holds or
  // that lies off the page until focused (GitHub's "Footnotes", Wikipedia's "Jump to
  // content", "Skip to main content")
  const SR_CLASS = new RegExp("(?:^|[\\s_-])(?:sr|visually|screen-?reader|a11y|skip|jump|" +
    "off-?screen)(?:[\\s_-]|$)|visuallyhidden|sronly", "i");
  // Whether a box is shut to no height, its words out of sight (an accordion's answer at
  // `max-height: 0`; not a screen reader's pixel, which unseenWords judges), or is a live
  // region kept in a pixel for screen readers alone (dnd-kit's "Draggable item … was
  // dropped", whatever its class)
  const LIVE_SAYS = "[aria-live], [role=status], [role=log], [role=alert]";
  const shutBox = (n) => (n.offsetHeight === 0 && n.offsetWidth > 1 || n.offsetWidth <= 1 &&
    n.offsetHeight <= 1 && n.matches(LIVE_SAYS)) && !!n.firstChild &&
    P.clipsAll(n, getComputedStyle(n));
  function unseenWords(n) {
    if (!SR_CLASS.test(typeof n.className === "string" ? n.className : "")) return false;
    const r = n.getBoundingClientRect();
    return r.right + scrollX <= 0 || r.bottom + scrollY <= 0 ||
      P.clipsAll(n, getComputedStyle(n));
  }

  // A code block drawn as a table of numbered lines (Docusaurus's `showLineNumbers`: a row
  // a line, its number a cell a counter draws or words one cannot select, a <br> in each):
  // its lines as written, as its Copy button copies them; null for any other block
  function numberedCode(pre) {
    const code = pre.querySelector("code") || pre, first = code.firstElementChild;
    const row = (r) => getComputedStyle(r).display === "table-row";
    if (!first || !row(first)) return null;  // (its first line says: a token's span is none)
    const rows = [...code.children].filter(row);
    return rows.map((r) => [...r.childNodes].filter((c) => c.nodeType === 3 ||
      ((cs) => (cs.userSelect || cs.webkitUserSelect) !== "none")(getComputedStyle(c)))
      .map((c) => c.textContent).join("")
      .replace(/\n$/, "")).join("\n");
  }

  // What a person sees of a <select>: its choice (a list box: its options), none for one a
  // widget keeps out of sight behind its own (Tom Select's, Select2's: page_shown.js)
  function selectShows(sel, cs) {
    if (P.leftBehind(sel, cs) || cs.visibility === "hidden") return "";
    const list = sel.multiple || sel.size > 1;
    return [...(list ? sel.options : sel.selectedOptions)].map((o) => clean(o.label))
      .filter(Boolean).join(list ? ", " : " ");
  }

  // Two words read as one when glued; punctuation ("link, and") or a price's parts
  // ("$19.99") glued read as they should, and are not looked at.
  const WORD_END = /[\p{L}\p{N}]$/u;
  const WORD_START = /^[\p{L}\p{N}]/u;

  // Where the innerText `at.shown` shows a text node's words, after `at.p`: true, with
  // at.start and at.p their start and end, or false when it does not (a hidden node, one of
  // spaces only). As they are, or with their spaces collapsed, found at once; else read
  // char by char, spaces and case aside (a pre's spaces, a text-transform), where up to
  // SHOWN_SKIP characters innerText shows of no text node (a list's marker) may come first,
  // and as many as the nodes not found since held (a text-transform that changed a word's
  // length): the reading catches up after them.
  const SHOWN_SKIP = 64;
  function shownAt(at, data) {
    const shown = at.shown;
    let t = data.trim();
    if (!t) return false;
    let q = at.p;
    while (q < shown.length && isSpace(shown.charCodeAt(q))) q++;
    if (!shown.startsWith(t, q) && !(SPACES.test(t) && shown.startsWith(
      (t = t.replace(/\s+/g, " ")), q))) return shownLike(at, data);
    at.start = q;
    at.p = q + t.length;
    at.slack = 0;
    return true;
  }

  const SPACES = /\s\s|[\t\n\r\f]/;

  function shownLike(at, data) {
    if (at.lower === null) at.lower = at.shown.toLowerCase();
    const shown = at.lower;
    const text = data.toLowerCase();
    if (shown.length !== at.shown.length) return false;  // its places would not be innerText's
    let i = 0;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const first = text[i];
    for (let q = shown.indexOf(first, at.p); q >= 0 && q - at.p <= SHOWN_SKIP + at.slack;
         q = shown.indexOf(first, q + 1)) {
      const end = matchFrom(shown, q, text, i);
      if (end >= 0) {
        at.start = q;
        at.p = end;
        at.slack = 0;
        return true;
      }
    }
    at.slack += text.length;
    return false;
  }

  // The end in `shown` of text[i..] read from shown[q], spaces aside; -1 when it differs.
  function matchFrom(shown, q, text, i) {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (isSpace(c)) continue;
      while (q < shown.length && isSpace(shown.charCodeAt(q))) q++;
      if (shown.charCodeAt(q) !== c) return -1;
      q++;
    }
    return q;
  }

  const isSpace = (c) => c === 32 || c === 10 || c === 9 || c === 13 || c === 12;

  // Of two text nodes whose words touch, a (before) and b: the box of its own in a line
  // (standsApart, or an inline one a margin or padding parts: a chip) holding one but not
  // the other, when no line break is between them (innerText keeps the words of two blocks,
  // two cells, apart itself); else null.
  // (so is an item of a list laid in a line, a separator a style sheet draws between them:
  // Wikipedia's `.hlist`, "Chicago · Aurora")
  function boxBetween(a, b, displayOf) {
    let box = null;
    const apart = (n) => standsApart(displayOf(n)) || n.tagName === "LI" ||
      P.boxedInline(getComputedStyle(n));
    let n = b.parentNode;
    for (; n && n.nodeType === 1 && !n.contains(a); n = n.parentNode) {
      if (breaksLine(displayOf(n))) return null;
      if (apart(n)) box = n;
    }
    for (let m = a.parentNode; m && m !== n && m.nodeType === 1; m = m.parentNode) {
      if (breaksLine(displayOf(m))) return null;
      if (apart(m)) box = m;
    }
    return box;
  }

  const closedDialog = (el) => el.tagName === "DIALOG" && !el.open;

  // The marker a person reads before a list item: its number in an ordered list (its
  // `value`, else its place from the list's `start`), else a bullet.
  function listMarker(li) {
    const ol = li.parentElement && li.parentElement.tagName === "OL" ? li.parentElement : null;
    // (a list that shows no numbers, a wizard's steps writing their own "1.": a bullet)
    const cs = ol && getComputedStyle(li);
    if (!ol || cs.display !== "list-item" || cs.listStyleType === "none") return "\u2022";
    return (li.value || [...ol.children].filter((c) => c.tagName === "LI").indexOf(li) +
      (ol.start || 1)) + ".";
  }

  Object.assign(P, { fullText, pageText, hasText, readText, listMarker, bare, unseenWords, shutBox,
    numberedCode, closedDialog });
})();
