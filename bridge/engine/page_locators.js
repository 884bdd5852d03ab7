// The page helper: locators (a stable id, a field's name, a link's href, counted once per
// snapshot), and for an element with no accessible name (an icon) a hint and a locator
// built on the evidence in its markup, unique on the page or inside its card.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, SKIP_TAGS, HAS_WORD, clean, iconEvidence, hintOf, glyphName, iconFont,
    HAS_LETTER } = P;

  // An id a script made, not a person, and may make another next load: a long number;
  // numbers a hyphen parts (Element Plus's `el-id-56-8`, a random number and a counter); a
  // random token, its letters and digits taking turns (`h5psqrh1qa`: three turns or more,
  // at least one in four characters; `step2a`, `h12` are a person's) or five consonants
  // in a row (`gxcgprxevu`), as a browser extension's or a widget's ids per load are; a
  // kit's ids counted per render (React's useId `_r_11_`, Radix's `radix-_r_11_`, Headless
  // UI's `headlessui-menu-button-3`; a counter after a kit's prefix: AG Grid's `ag-49-input`,
  // Angular Material's `mat-select-2`, Vuetify's `input-12`, jQuery UI's `ui-id-5`)
  const MADE_ID = new RegExp("\\d{3,}|\\d-[A-Za-z-]*\\d|^[:_]|[:]|[b-df-hj-np-tv-xz]{5}|_r_|" +
    "^(?:radix|headlessui|react-aria|mantine|downshift|chakra|mui|base-ui|reka)[-_]|" +
    "^(?:ag|mat-[a-z-]+|cdk-[a-z-]+|ui-id|tippy|ember|input|v-[a-z-]+|rc_select|" +
    "react-select)[-_]\\d|^__BVID__");
  function madeId(id) {
    if (MADE_ID.test(id)) return true;
    const turns = (id.match(/[A-Za-z](?=\d)|\d(?=[A-Za-z])/g) || []).length;
    return turns >= 3 && turns >= id.length / 4;
  }

  function stableId(el) {
    const id = el.id;
    if (!id || id.length > 40 || !/^[A-Za-z][\w-]*$/.test(id) || madeId(id)) return null;
    // unique in the frame, its shadow roots too (where a lookup searches)
    return countOf("#" + CSS.escape(id)) === 1 ? "#" + id : null;
  }

  // Match counts for locators, kept for one snapshot: a selector is counted once, and links
  // by href in one pass, so a page of thousands of links stays linear. A count covers the
  // document and every open shadow root in it: a lookup (page_hits.js) searches them all,
  // so a locator unique inside one card's shadow root but repeated in the next is not.
  let counts = null, rootsKept = null;

  function allRoots() {
    if (rootsKept) return rootsKept;
    const out = [document];
    for (let i = 0; i < out.length; i++) {
      for (const el of out[i].querySelectorAll("*")) if (el.shadowRoot) out.push(el.shadowRoot);
    }
    if (counts) rootsKept = out;
    return out;
  }

  function countOf(sel) {
    if (counts && counts.has(sel)) return counts.get(sel);
    let n = 0;
    for (const r of allRoots()) n += r.querySelectorAll(sel).length;
    if (counts) counts.set(sel, n);
    return n;
  }

  // Every match of a selector in the frame's document and its shadow roots (at most max).
  function matchesOf(sel, max) {
    const out = [];
    for (const r of allRoots()) {
      for (const m of r.querySelectorAll(sel)) if (out.push(m) >= max) return out;
    }
    return out;
  }

  function linksTo(href) {
    let byHref = counts && counts.get(null);
    if (!byHref) {
      byHref = new Map();
      for (const r of allRoots()) {
        for (const a of r.querySelectorAll("a[href]")) {
          const h = a.getAttribute("href");
          byHref.set(h, (byHref.get(h) || 0) + 1);
        }
      }
      if (counts) counts.set(null, byHref);
    }
    return byHref.get(href) || 0;
  }

  function locOf(el, role) {
    const id = stableId(el);
    if (id) return id;
    if (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA") {
      const n = el.getAttribute("name");
      if (n && n.length <= 40 && /^[\w.\-\[\]]+$/.test(n)) {
        const sel = el.tagName.toLowerCase() + "[name=\"" + n + "\"]" +
          (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox")
            ? "[value=\"" + CSS.escape(el.value).slice(0, 30) + "\"]" : "");
        try {
          if (countOf(sel) === 1) return sel;
        } catch (e) { /* not a valid selector: fall through */ }
      }
    }
    if (role === "link") {
      const href = el.getAttribute("href");
      if (href && href.length <= 60 && !href.startsWith("javascript:") && !/["\\]/.test(href)) {
        if (el.tagName === "A" && linksTo(href) === 1)
          return "a[href=\"" + href + "\"]";
      }
    }
    return null;
  }

  // -- icon hints' locators (the hints themselves: page_hints.js) -----------------------
  // A row named by nothing a person reads as a name gets its hint (an 11th cell) and,
  // lacking a locator, one on evidence: a row with no name, or named only by a number. A
  // row named by an icon font's glyph gets no hint (the glyph name is its name), but a
  // locator on evidence, else one by its name in its card (cardLocs, after the walk).
  function hinted(row, el) {
    const name = row[3];
    const glyph = !!name && glyphName(el, name);
    if (name && HAS_LETTER.test(name) && !glyph) return;
    const ev = iconEvidence(el);
    if (!row[7]) row[7] = evidenceLoc(el, ev.sels);
    if (glyph) return;
    if (!ev.hint) return;
    while (row.length < 10) row.push(row.length === 5 ? "" : row.length === 9 ? [0, 0] : null);
    row[10] = ev.hint;
  }

  const quoted = (s) => "\"" + s.replace(/["\\]/g, "\\$&") + "\"";

  // Rows that share their role and name with others of the frame and have no locator of
  // their own (a "Delete" in each row of a list, an icon font's glyph in each card) get
  // `ROLE "NAME" in "WORDS"`, WORDS their card's, rather than an nth= that names another
  // element as soon as the list changes (tab.py resolves it through pickIn, and a ref whose
  // element the page replaced through it too). Only where their cards are alike, items of
  // one kind (a list's, a feed's, a table's rows): a link in a page's header and again in
  // its footer keeps its nth=. Not a name that was cut, nor a count (no letter, a digit:
  // its evidence locates it), nor a link named by words (its address tells it, where one
  // does); a glyph's is one (a chip's "×" in "bob@example.com").
  function cardLocs(rows) {
    const groups = new Map();
    for (const r of rows) {
      if (r[1] !== 0 || !r[3] || (!HAS_LETTER.test(r[3]) && /\d/.test(r[3])) ||
          (r[9] && r[9][0])) continue;
      // a link's address tells it (page.js locOf), or it goes where its namesakes go
      if (r[2] === "link" && !glyphName(get(r[4]), r[3])) continue;
      const key = r[2] + "\u0000" + r[3];
      const same = groups.get(key);
      if (same) same.push(r);
      else groups.set(key, [r]);
    }
    for (const same of groups.values()) {
      if (same.length < 2 || same.every((r) => r[7]) || cardBudget.left <= 0) continue;
      const els = same.map((r) => get(r[4]));
      if (els.some((el) => !el)) continue;
      const found = cardsAmong(els, cardBudget);
      if (!alike(els.map((el) => (found.cards.get(el) || [])[0]), els)) continue;
      same.forEach((row, i) => {
        const words = row[7] ? "" : cardWords(els[i], found);
        if (words) row[7] = row[2] + " " + quoted(row[3]) + " in " + quoted(words);
      });
    }
  }

  // Whether matches' cards are items of one kind: of one tag and one class, leaving out
  // what says the state or the place of one of them (a grid's `ag-row-even`,
  // `ag-row-first`, `MuiDataGrid-row--firstVisible`, `Mui-selected`), none the match itself.
  function alike(cards, els) {
    const [a] = cards;
    const kind = kindOf(a);
    return !!a && cards.every((c, i) => c && c !== els[i] && c.nodeType === 1 &&
      c.tagName === a.tagName && kindOf(c) === kind);
  }
  const STATE_CLASS = new RegExp("--|(?:^|[-_])(?:even|odd|first|last|selected|active|" +
                                 "focus|focused|hover|hovered|expanded|collapsed)$", "i");
  const kindOf = (el) => el.nodeType !== 1 ? "" :
    [...el.classList].filter((t) => !STATE_CLASS.test(t)).join(" ");

  // A selector for `el` built on evidence: unique on the page, else inside its card.
  function evidenceLoc(el, sels) {
    for (const sel of sels) {
      let n = 0;
      try { n = countOf(sel); } catch (e) { continue; }
      if (n === 1) return sel;
      if (n > 1) {
        const scoped = cardLoc(el, sel);
        if (scoped) return scoped;
      }
    }
    return null;
  }

  // An element's path from the document's root, through the hosts of shadow roots.
  function pathOf(m) {
    const up = [];
    for (let n = m; n; n = n.parentElement || (n.parentNode && n.parentNode.host) || null)
      up.push(n);
    return up.reverse();
  }

  // Paths in the order the page shows their ends (a host's shadow tree before its children).
  function pathOrder(pa, pb) {
    let k = 0;
    while (k < pa.length && k < pb.length && pa[k] === pb[k]) k++;
    if (k === pa.length || k === pb.length) return pa.length - pb.length;
    const a = pa[k], b = pb[k];
    const sa = a.parentNode && a.parentNode.nodeType === 11;
    const sb = b.parentNode && b.parentNode.nodeType === 11;
    if (sa !== sb) return sa ? -1 : 1;
    return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  }

  // A match's card is its largest ancestor holding no other match: the node below where its
  // path parts from its nearest neighbour's (in page order). Each card's words: the first
  // words (40 characters) of its first 40 text nodes, then those of what comes before the
  // card in its container when the container holds no match before it (a comment's author
  // above the row of its buttons, its replies after them). {cards: match -> [card, texts
  // ([words, node], in reading order), words], count: words -> cards that have them}
  function cardsAmong(found, budget) {
    let all = found.slice(0, 400);
    let paths = all.map(pathOf);
    if (allRoots().length > 1) {  // matches of several roots come root by root
      const order = all.map((_, i) => i).sort((i, j) => pathOrder(paths[i], paths[j]));
      all = order.map((i) => all[i]);
      paths = order.map((i) => paths[i]);
    }
    const cards = new Map(), count = new Map();
    all.forEach((m, i) => {
      let d = 0;
      for (const o of [paths[i - 1], paths[i + 1]]) {
        let k = 0;
        while (o && k < o.length && o[k] === paths[i][k]) k++;
        d = Math.max(d, k);
      }
      const card = paths[i][Math.min(d, paths[i].length - 1)];
      const texts = [], words = new Set();
      let left = 40;
      const take = (t) => {
        if (inRun(t)) return --left > 0;
        const k = wordsOf(runOf(t));
        if (k && !words.has(k)) { words.add(k); texts.push([k, t]); }
        return --left > 0;
      };
      // its own words first: those before it in its box come after them (a page's heading
      // far above the first of its cards names none of them while the card says its own)
      if (card !== m && left > 0) eachText(card, take);
      const box = card.parentNode;
      if (card !== m && box && box.nodeType === 1 && box !== document.body &&
          !(i > 0 && paths[i - 1].includes(box))) {
        // (the words before the first card are its title; not a table's rows above its
        // row)
        for (let s = box.firstChild; s && s !== card && left > 0; s = s.nextSibling) {
          if (s.nodeType === 3 && HAS_WORD.test(s.data)) take(s);
          else if (s.nodeType === 1 && !SKIP_TAGS.has(s.tagName) && !rowAbove(s, card))
            eachText(s, take);
        }
      }
      if (budget) budget.left -= 40 - left;
      for (const w of words) count.set(w, (count.get(w) || 0) + 1);
      cards.set(m, [card, texts, words]);
    });
    return { cards, count };
  }

  // Whether a text node follows words in the same run of text nodes (taken with them, as
  // runOf reads them); empty ones before it do not count (Vue's anchors)
  function inRun(t) {
    for (let p = t.previousSibling; p && p.nodeType === 3; p = p.previousSibling)
      if (HAS_WORD.test(p.data)) return true;
    return false;
  }

  const rowAbove = (a, b) => (b.tagName === "TR" || b.getAttribute("role") === "row") &&
    a.tagName === b.tagName && a.getAttribute("role") === b.getAttribute("role");

  // during a snapshot: cards per selector, and how many more text nodes they may read
  let cardsBySel = null, cardBudget = null;

  // A snapshot's caches (match counts, cards per selector), from its start to its end.
  function countsOn() {
    counts = new Map();
    rootsKept = null;
    cardsBySel = new Map();
    cardBudget = { left: 5000 };
  }

  function countsOff() {
    counts = cardsBySel = rootsKept = null;
  }

  function cardsFor(sel) {
    let found = cardsBySel && cardsBySel.get(sel);
    if (!found) {
      if (cardBudget && cardBudget.left <= 0) return null;
      found = cardsAmong(matchesOf(sel, 400), cardBudget);
      if (cardsBySel) cardsBySel.set(sel, found);
    }
    return found;
  }

  // `#card-id SEL`, or `SEL in "WORDS"` with the words of this card only (cardWords).
  function cardLoc(el, sel) {
    const found = cardsFor(sel);
    const [card] = (found && found.cards.get(el)) || [];
    if (!card || card === el || card === document.body || card === document.documentElement)
      return null;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const id = stableId(a);
      if (id) return id + " " + sel;
      if (a === card) break;
    }
    const words = cardWords(el, found);
    return words ? sel + " in " + quoted(words) : null;
  }

  // Counts, times, scores: words that change while the card stays the same.
  const UNSTABLE = new RegExp("^[^\\p{L}]*$|^\\W*\\d[\\d.,]*\\s*\\p{L}{0,3}\\W*$|\\bago\\b|" +
    "^\\W*\\d[\\d.,]*\\s*(?:points?|comments?|votes?|likes?|repl(?:y|ies)|views?|shares?)\\b",
    "iu");

  // The words that name el's card: the first, in reading order, that begin a text node of
  // this card only, and no count or time while there are other such words (a comment's
  // author rather than its vote count); no hidden text, no icon font's glyph names.
  function cardWords(el, found) {
    const [card, texts] = found.cards.get(el) || [];
    if (!card || card === el) return "";
    let fallback = "", tries = 0;
    for (const [k, n] of texts) {
      if (++tries > 12) break;
      const p = n.parentElement;
      const hid = p && p.closest("[aria-hidden=true]");
      if (!p || el.contains(n) || (hid && !P.hiddenByMistake(hid)) ||
          iconFont(p) || found.count.get(k) !== 1) continue;
      if (!UNSTABLE.test(k)) return k;
      if (!fallback) fallback = k;
    }
    return fallback;
  }

  // A text node's words with those of the text nodes right after it: a framework writes
  // `Invoice {n}` as two, which a person reads as one.
  function runOf(t) {
    let d = t.data;
    for (let n = t.nextSibling; n && n.nodeType === 3 && d.length < 200; n = n.nextSibling)
      d += n.data;
    return d;
  }

  // A text node's first words (up to 40 characters): what `in "WORDS"` compares.
  function wordsOf(data) {
    const t = clean(data.length > 200 ? data.slice(0, 200) : data);
    return !HAS_WORD.test(t) ? "" : t.length <= 40 ? t : t.slice(0, 40).replace(/\s\S*$/, "");
  }

  // Text nodes with words under root (its shadow roots' too), until visit returns false.
  function eachText(root, visit) {
    if (root.shadowRoot && eachText(root.shadowRoot, visit) === false) return false;
    const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (n.nodeType === 1) {
        if (n.shadowRoot && eachText(n.shadowRoot, visit) === false) return false;
        continue;
      }
      const p = n.parentElement;
      if (p && !SKIP_TAGS.has(p.tagName) && HAS_WORD.test(n.data) && visit(n) === false)
        return false;
    }
    return true;
  }

  // The ids of the elements among `els` whose card has a text node beginning with `text`.
  function inCards(els, text) {
    const want = clean(text);
    const out = [];
    for (const [m, [card, , words]] of cardsAmong(els).cards) {
      if (card !== m && words.has(want)) out.push(idOf(m));
    }
    // (a card read from its start may not reach its words: one match alone has the whole
    // page for its card, a toast's Close at its end; a few are looked for from the element
    // up, as `stillIn` does)
    if (!out.length && els.length <= IN_UP_MAX)
      for (const m of els) if (stillIn(idOf(m), want)) out.push(idOf(m));
    return out;
  }
  const IN_UP_MAX = 10;

  // The element `SEL in "WORDS"` names: the match whose card has a text node beginning
  // with WORDS (every such match, for the caller to refuse more than one).
  function queryIn(selector, text) {
    return inCards(matchesOf(selector, 400), text).slice(0, 5);
  }

  // The element `ROLE "NAME" in "WORDS"` names, among the ids of that role and name.
  function pickIn(ids, text) {
    return inCards(ids.map(get).filter(Boolean), text).slice(0, 5);
  }

  // Whether the element still stands in the card whose words its locator gave
  // (`in "WORDS"`): a box around it has a text node beginning with them before any box
  // around it holds another element like it. A table that sorts its rows anew, or a list that
  // reuses its items for other entries, puts another card's words around the same element:
  // a ref to it then names what the agent did not see there.
  function stillIn(id, words) {
    const el = get(id), want = clean(words);
    if (!el || !want) return true;
    const tag = el.tagName, text = clean(el.textContent), role = el.getAttribute("role");
    const twin = (n) => n !== el && clean(n.textContent) === text &&
      n.getAttribute("role") === role;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (Array.prototype.some.call(a.getElementsByTagName(tag), twin)) return false;
      let found = false;
      eachText(a, (n) => !(found = clean(runOf(n)).startsWith(want)));
      if (found) return true;
    }
    return false;
  }

  // The elements that show `words` (a text locator: `loc=text "Alice"`, for a line with no
  // ref): those whose whole text is the words (case and spacing aside), else those with a
  // text node that holds them; shown ones only, in the page's order, at most `max`. With
  // `within`, only those whose card says it.
  const PIECE_UP = 3;
  function byText(words, within, max) {
    const want = clean(words).toLowerCase(), head = want.split(" ")[0];
    const whole = [], part = [], seen = new Set();
    if (!want) return [];
    // (read as a person reads them: parts a padding holds apart, a place's "10 Downing
    // Street" and "London, UK")
    const holds = (el) => clean(el.textContent).toLowerCase().includes(want) ||
      clean(P.textOf(el, 1)).toLowerCase().includes(want);
    eachText(document.documentElement, (n) => {
      const t = clean(n.data).toLowerCase();
      let el = n.parentElement;
      if (!t.includes(want)) {
        // words a page writes in pieces ("Show" and " logs", as React writes `{verb} logs`;
        // a <b> among them; or one ending in their first word): the smallest box around a
        // piece, PIECE_UP up, that holds them
        const from = ` ${t} `.indexOf(` ${head} `);  // (where its words' end begins them)
        if (!(want.startsWith(t + " ") || want.endsWith(" " + t) || want.includes(` ${t} `) ||
              (from >= 0 && want.startsWith(t.slice(from) + " ")))) return true;
        let up = 0;
        while (el && up++ < PIECE_UP && !holds(el)) el = el.parentElement;
        if (!el || !holds(el)) return true;
      }
      const control = slottedControl(n);
      el = control || shownFor(el);
      if (seen.has(el)) return true;
      seen.add(el);
      if (!(el.checkVisibility ? el.checkVisibility({ visibilityProperty: true })
                               : el.getClientRects().length)) return true;
      const text = control ? P.textOf(control, 1) : el.textContent;
      (clean(text).toLowerCase() === want ? whole : part).push(el);
      return whole.length < 400;
    });
    const found = whole.length ? whole : part;
    return (within ? inCards(found, within) : found.map(idOf)).slice(0, max);
  }

  // The control in a web component's shadow root that words slotted into it stand in (its
  // native button, which the snapshot's ref is), SLOT_UP boxes up at most; else null (a
  // control around them outside a shadow root comes first)
  const SLOT_UP = 4;
  function slottedControl(n) {
    for (let m = P.composedParent(n), up = 0; m && up < SLOT_UP; m = P.composedParent(m), up++) {
      if (m.nodeType !== 1 || !m.matches(P.CONTROLS)) continue;
      return m.getRootNode() instanceof ShadowRoot && m.getRootNode() !== n.getRootNode()
        ? m : null;
    }
    return null;
  }

  // The box a person sees for words kept for screen readers only (a calendar's "December
  // 18, 2026" in a box of one pixel, beside the "18" it draws): the nearest box around
  // them of more than a pixel either way, SR_UP boxes up at most; else the words' own (and
  // the words' own when they are not drawn at all: a hidden button's are no box's around it)
  const SR_UP = 3;
  function shownFor(el) {
    if (el.checkVisibility && !el.checkVisibility()) return el;
    for (let n = el, up = 0; n && up <= SR_UP; up++, n = n.parentElement) {
      const r = n.getBoundingClientRect();
      if (r.width > 1 && r.height > 1 && !P.clippedAway(getComputedStyle(n))) return n;
    }
    return el;
  }

  // The element whose words name a line: the control (`src`), or the label standing in for
  // it (`el`) where it has several, each a button of its own (DaisyUI's modal opened by one
  // label and closed by two more: "Edit profile", "Close"), by its own words or aria-label
  const namedBy = (el, src) => src !== el && src.labels && src.labels.length > 1 ? el : src;

  Object.assign(P, { namedBy, locOf, hinted, cardLocs, queryIn, pickIn, byText, stillIn,
                     countsOn, countsOff, allRoots });
})();
