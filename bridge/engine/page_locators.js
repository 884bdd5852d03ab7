// The page helper: locators (a stable id, a field's name, a link's href, counted once per
// snapshot), and for an element with no accessible name (an icon) a hint and a locator
// built on the evidence in its markup, unique on the page or inside its card.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, SKIP_TAGS, HAS_WORD, clean } = P;

  function stableId(el) {
    const id = el.id;
    if (!id || id.length > 40 || /\d{3,}|^[:_]|[:]/.test(id) || !/^[A-Za-z][\w-]*$/.test(id))
      return null;
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

  // -- icon hints, evidence locators ----------------------------------------------------
  // An element with no accessible name (an icon), or named only by a number (a count on a
  // like button), gets a hint from the markup a person's eye or its developer went by, the
  // first of: its title or tooltip; aria-description; an inner element's title or an
  // image's alt; an SVG <title> or <use href="#icon-trash">; an icon font's ligature;
  // data-testid and like attributes; class tokens that mean something; a background
  // image's file name; last, short class tokens (`asa`, `brq`: often a minifier's). And a
  // CSS locator built on the same evidence: unique on the page, or inside its card
  // (`#post-2 span.like`, or `span.like in "CARD TEXT"`, which queryIn resolves), so it
  // survives a list that changes. Never the page's layout classes, a framework's
  // component classes, nor hashed CSS-module names.
  const TEST_ATTRS = new Set(["data-testid", "data-test", "data-test-id", "data-qa", "data-cy",
                              "data-action", "data-command", "data-icon", "data-icon-name"]);
  const TIP_ATTRS = ["title", "data-tooltip", "data-tip", "data-original-title"];
  const NOISE = new Set(("icon icons ico btn button action actions item link clickable " +
    "pointer active disabled selected hover focus open show hidden visible inline block " +
    "flex grid row col small large sm md lg xl xs left right top bottom center primary " +
    "secondary tertiary default light dark outline outlined filled fill line stroke round " +
    "rounded sharp solid regular duotone thin fa fas far fab fal fad bi mdi glyphicon " +
    "material ion svg img image wrapper container inner outer control controls tool tools " +
    "ripple js ui symbols relative absolute fixed sticky static clearfix pull invisible " +
    "truncate uppercase lowercase bold italic underline content wrap box root base sprite " +
    "sprites bg background lucide octicon feather tabler iconify ti ph ri bx bxs la las " +
    "lar lab danger success warning info muted ghost plain neutral accent subtle " +
    "contained elevated tonal " +
    "material-icons material-symbols-outlined material-symbols-rounded").split(" "));
  const LAYOUT = new RegExp("^(?:[mp][trblxyse]?|text|bg|border|rounded|shadow|d|w|h|min|" +
    "max|gap|space|justify|align|items|self|float|position|order|grid|flex|col|row|font|" +
    "leading|tracking|z|opacity|overflow|cursor|transition|duration|is|has|sm|md|lg|xl)-");
  // made by a build, not a person: a prefix of CSS-in-JS tools, a CSS module's
  // `Name_local__hash`, styled-components' `bZoeiQ`, a long run without a vowel (a digit
  // too, outside an icon set's names: `bi-cart3` is one)
  const HASHED = new RegExp("^(?:_|sc-|css-|jsx-|svelte-|emotion-|ng-)|__|[^\\w-]|" +
    "^[a-z][A-Z]|[A-Z](?![a-z]{2})|[b-df-hj-np-tv-xz]{5}", "");
  // a component framework's class names say what the element is made of, not what it does
  // (`DraftEditor-root`, `MuiIconButton-root`, `ant-btn`, `ag-cell`)
  const FRAMEWORK = /^[A-Z]|^(?:ant|chakra|mat|mdc|mdl|cdk|el|ql|rc|v|q|ag|dx|k|fc|bp\d*)-/;
  // an icon set's prefix: what follows it is the icon's name (`ti-trash`, `ic_share_24px`)
  const ICON_SET = new RegExp("^(?:fa[srbld]?|bi|mdi|ion|ti|ph|la[srb]?|ri|bx[sl]?|gg|icon|" +
    "ico|ic|glyphicon|feather|lucide|octicon|tabler|uil|codicon|fi|lni|typcn|wi|oi)(?:-+|_)");
  const AFFIX = new RegExp(ICON_SET.source + "|^(?:btn|js|i)-|[-_](?:icon|ico|btn|button)$",
                           "g");
  const ICON_FONT = /icon|symbol|glyph|awesome/i;
  // whether n draws its text in an icon font (by its font, or by the class that sets it,
  // whose font may not have loaded)
  const iconFont = (n) => ICON_FONT.test(getComputedStyle(n).fontFamily) ||
    /(?:^|\s)material-(?:icons|symbols)/.test(n.getAttribute("class") || "");
  const IDENT = /^[A-Za-z][\w-]{0,40}$/;
  const HAS_LETTER = /\p{L}/u;

  // "thumb_up", "deleteButton", "icon-trash", "trash-can.8f3a2b1c", "ic_share_24px",
  // "bi-cart3" -> "thumb up", "delete", "trash", "trash can", "share", "cart": no build
  // hash, size, version or number
  function hintWords(s) {
    const w = String(s).replace(AFFIX, "").replace(/([a-z])([A-Z])/g, "$1 $2")
      .split(/[\s_\-.]+/).map((x) => x.toLowerCase().replace(/^([a-z]{3,})\d+$/, "$1"))
      .filter((x) => x && !NOISE.has(x) && !/^\d|^v\d+$|\d\D+\d|^[0-9a-f]{8,}$/.test(x));
    return clean(w.join(" ")).slice(0, 60);
  }

  // A class token's hint and its strength: 1 an icon set's name (`fa-trash`) or a word
  // (`like`), 0 a short token that may be a minifier's (`asa`); null when it says nothing
  // (layout, framework, hashed, one or two letters).
  function classHint(tok) {
    if (!IDENT.test(tok) || NOISE.has(tok) || LAYOUT.test(tok) || FRAMEWORK.test(tok) ||
        HASHED.test(tok)) return null;
    const named = ICON_SET.test(tok);
    if (!named && (/\d/.test(tok) || tok.length <= 2)) return null;
    const words = hintWords(tok);
    if (!words) return null;
    return [words, named || tok.length > 3 ? 1 : 0];
  }

  // {hint, sels}: the first hint of the order, and CSS selectors that match `el`
  // built on evidence, best first.
  function iconEvidence(el) {
    const tag = el.tagName.toLowerCase();
    const hints = [], sels = [];
    const attrSel = (name, v) => v.length <= 60 && !/["\\\n]/.test(v)
      ? "[" + name + "=\"" + v + "\"]" : null;
    // what it holds speaks for it when it is small, as an icon is (not a list of them)
    const inner = fewInside(el, 8);
    const small = inner !== null;
    const nodes = small ? [el, ...inner] : [el];
    const within = (sel) => small ? inner.find((n) => n.matches(sel)) : null;
    const said = (n, a) => {  // a text attribute's words, and a selector on them
      const v = n.getAttribute(a);
      if (!v || !HAS_WORD.test(v)) return false;
      hints.push(clean(v));
      const s = attrSel(a, v);
      if (s) sels.push(n === el ? tag + s : holds(el, n, n.tagName.toLowerCase() + s));
      return true;
    };
    TIP_ATTRS.some((a) => said(el, a));
    said(el, "aria-description");
    const tipped = within("img[alt]:not([alt='']), [title]:not([title=''])");
    if (tipped) said(tipped, tipped.tagName === "IMG" && tipped.getAttribute("alt") ? "alt"
                              : "title");
    const title = within("svg title");
    if (title) hints.push(clean(title.textContent));
    const use = within("use");
    const href = use && (use.getAttribute("href") || use.getAttribute("xlink:href") || "");
    if (href && href.includes("#")) {
      hints.push(hintWords(href.slice(href.lastIndexOf("#") + 1)));
      const s = attrSel(use.hasAttribute("href") ? "href" : "xlink\\:href", href);
      if (s) sels.push(holds(el, use, "use" + s));
    }
    for (const n of small ? nodes : []) {  // an icon font's ligature: text drawn as a glyph
      const t = clean(n.textContent);
      if (/^[a-z_]{3,30}$/.test(t) && iconFont(n)) {
        hints.push(hintWords(t));
        break;
      }
    }
    for (const n of nodes) {
      if (!n.attributes.length) continue;
      for (const { name: a, value: v } of n.attributes) {
        if (!TEST_ATTRS.has(a) || !hintWords(v)) continue;
        hints.push(hintWords(v));
        const s = attrSel(a, v);
        if (s) sels.push(n === el ? tag + s : holds(el, n, s));
      }
    }
    // class tokens (an SVG's too: its className is no string), first those that tell it
    // from its like siblings (`facebook` before the `share` every link of the row has);
    // short ones only after the background image
    const tokens = [];
    for (const n of nodes) {
      const cls = n.getAttribute("class");
      if (!cls) continue;
      for (const tok of cls.trim().split(/\s+/).slice(0, 8)) {
        const got = classHint(tok);
        if (got) tokens.push([n, tok, got[0], got[1], sharedClass(n, tok)]);
      }
    }
    tokens.sort((a, b) => a[4] - b[4]);
    const classSel = (n, tok) => n === el ? tag + "." + tok : holds(el, n, "." + tok);
    for (const [n, tok, words, strength] of tokens) {
      if (!strength) break;
      hints.push(words);
      sels.push(classSel(n, tok));
    }
    for (const n of nodes.slice(0, 2)) {
      const m = /url\(["']?([^"')]*)/.exec(getComputedStyle(n).backgroundImage);
      const file = m && m[1].split(/[?#]/)[0].split("/").pop().replace(/\.\w+$/, "");
      if (file && !file.startsWith("data:") && hintWords(file)) {
        hints.push(hintWords(file));
        break;
      }
    }
    for (const [n, tok, words, strength] of tokens) {
      if (strength) continue;
      hints.push(words);
      sels.push(classSel(n, tok));
    }
    // an unlabeled checkbox or radio: its kind, which its card's words tell apart
    if (tag === "input" && (el.type === "checkbox" || el.type === "radio"))
      sels.push("input[type=" + el.type + "]");
    return { hint: hints.find(Boolean) || "", sels: sels.filter(Boolean) };
  }

  // A selector for `el` by what it holds: `span:has(> i.x)`, through at most two levels
  // (a bare :has would match every ancestor of the same tag too); else null.
  function holds(el, n, sel) {
    const tag = el.tagName.toLowerCase();
    if (n.parentElement === el) return tag + ":has(> " + sel + ")";
    const p = n.parentElement;
    if (p && p.parentElement === el) return tag + ":has(> * > " + sel + ")";
    return null;
  }

  // The element's descendants when there are at most `max`, else null (without listing all).
  function fewInside(el, max) {
    const out = [];
    for (let n = el.firstElementChild; n;) {
      if (out.push(n) > max) return null;
      if (n.firstElementChild) { n = n.firstElementChild; continue; }
      while (n !== el && !n.nextElementSibling) n = n.parentElement;
      n = n === el ? null : n.nextElementSibling;
    }
    return out;
  }

  // Whether the siblings of `n` of its tag share the class token (1) or not (0).
  function sharedClass(n, tok) {
    const p = n.parentElement;
    if (!p) return 0;
    for (const c of p.children) {
      if (c !== n && c.tagName === n.tagName && c.classList.contains(tok)) return 1;
    }
    return 0;
  }

  // Whether `name` is an icon font's glyph name drawn by el ("more_vert"): no name a
  // person reads.
  function glyphName(el, name) {
    if (!/^[a-z_]{3,30}$/.test(name)) return false;
    return [el, ...(fewInside(el, 8) || [])].some((n) => clean(n.textContent) === name &&
      iconFont(n));
  }

  // The hint for an element of this accessible name: only when the name says nothing a
  // person reads as one (none, or only a number); "" else.
  function hintOf(el, name) {
    return name && (HAS_LETTER.test(name) || glyphName(el, name)) ? "" : iconEvidence(el).hint;
  }

  // A row named by nothing a person reads as a name gets its hint (an 11th cell) and,
  // lacking a locator, one on evidence: a row with no name, or named only by a number. A
  // row named by an icon font's glyph gets no hint (the glyph name is its name), but a
  // locator on evidence, else one by its name in its card (glyphLocs, after the walk).
  function hinted(row, el) {
    const name = row[3];
    const glyph = !!name && glyphName(el, name);
    if (name && HAS_LETTER.test(name) && !glyph) return;
    const ev = iconEvidence(el);
    if (!row[7]) row[7] = evidenceLoc(el, ev.sels);
    if (glyph) {
      if (!row[7]) glyphs.push([row, el]);
      return;
    }
    if (!ev.hint) return;
    while (row.length < 10) row.push(row.length === 5 ? "" : row.length === 9 ? [0, 0] : null);
    row[10] = ev.hint;
  }

  const quoted = (s) => "\"" + s.replace(/["\\]/g, "\\$&") + "\"";

  // Rows named by an icon font's glyph that share their role and name with others of the
  // frame get `ROLE "NAME" in "WORDS"`, WORDS their card's, rather than an nth= that
  // breaks as soon as the list changes (tab.py resolves it through pickIn).
  function glyphLocs(rows) {
    const byName = new Map();
    for (const [row, el] of glyphs) {
      const key = row[2] + "\u0000" + row[3];
      let found = byName.get(key);
      if (found === undefined) {
        const same = rows.filter((r) => r[1] === 0 && r[2] === row[2] && r[3] === row[3])
          .map((r) => get(r[4])).filter(Boolean);
        found = same.length > 1 && cardBudget.left > 0 ? cardsAmong(same, cardBudget) : null;
        byName.set(key, found);
      }
      const words = found && cardWords(el, found);
      if (words) row[7] = row[2] + " " + quoted(row[3]) + " in " + quoted(words);
    }
  }

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
  // words (40 characters) of its first 40 text nodes, after those of what comes before the
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
        const k = wordsOf(t.data);
        if (k && !words.has(k)) { words.add(k); texts.push([k, t]); }
        return --left > 0;
      };
      const box = card.parentNode;
      if (card !== m && box && box.nodeType === 1 && box !== document.body &&
          !(i > 0 && paths[i - 1].includes(box))) {
        for (let s = box.firstChild; s && s !== card && left > 0; s = s.nextSibling) {
          if (s.nodeType === 3 && HAS_WORD.test(s.data)) take(s);
          else if (s.nodeType === 1 && !SKIP_TAGS.has(s.tagName)) eachText(s, take);
        }
      }
      if (card !== m && left > 0) eachText(card, take);
      if (budget) budget.left -= 40 - left;
      for (const w of words) count.set(w, (count.get(w) || 0) + 1);
      cards.set(m, [card, texts, words]);
    });
    return { cards, count };
  }

  // during a snapshot: cards per selector, how many more text nodes they may read, and
  // rows named by a glyph waiting for a locator
  let cardsBySel = null, cardBudget = null, glyphs = [];

  // A snapshot's caches (match counts, cards per selector), from its start to its end.
  function countsOn() {
    counts = new Map();
    rootsKept = null;
    cardsBySel = new Map();
    cardBudget = { left: 5000 };
    glyphs = [];
  }

  function countsOff() {
    counts = cardsBySel = rootsKept = null;
    glyphs = [];
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
      if (!p || el.contains(n) || p.closest("[aria-hidden=true]") ||
          iconFont(p) || found.count.get(k) !== 1) continue;
      if (!UNSTABLE.test(k)) return k;
      if (!fallback) fallback = k;
    }
    return fallback;
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
    return out;
  }

  // The element `SEL in "WORDS"` names: the match whose card has a text node beginning
  // with WORDS (every such match, for the caller to refuse more than one).
  function queryIn(selector, text) {
    return inCards(matchesOf(selector, 400), text).slice(0, 5);
  }

  // The element `ROLE "NAME" in "WORDS"` names, among the ids of that role and name.
  function pickIn(ids, text) {
    return inCards(ids.map(get).filter(Boolean), text).slice(0, 5);
  }

  Object.assign(P, { locOf, iconEvidence, hintOf, hinted, glyphLocs, queryIn, pickIn,
                     countsOn, countsOff });
})();
