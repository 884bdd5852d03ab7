// The page helper: locators (a stable id, a field's name, a link's href, counted once per
// snapshot), and for an element with no accessible name (an icon) a hint and a locator
// built on the evidence in its markup, unique on the page or inside its card.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, SKIP_TAGS, HAS_WORD, clean } = P;

  function stableId(el) {
    const id = el.id;
    if (!id || id.length > 40 || /\d{3,}|^[:_]|[:]/.test(id) || !/^[A-Za-z][\w-]*$/.test(id))
      return null;
    const root = el.getRootNode();
    if (root !== document) return null;
    return document.querySelectorAll("#" + CSS.escape(id)).length === 1 ? "#" + id : null;
  }

  // Match counts for locators, kept for one snapshot: a selector is counted once per root,
  // and links by href in one pass, so a page of thousands of links stays linear.
  let counts = null;

  function countOf(root, sel) {
    if (!counts) return root.querySelectorAll(sel).length;
    let mine = counts.get(root);
    if (!mine) counts.set(root, (mine = new Map()));
    if (!mine.has(sel)) mine.set(sel, root.querySelectorAll(sel).length);
    return mine.get(sel);
  }

  function linksTo(root, href) {
    if (!counts) return root.querySelectorAll("a[href=\"" + CSS.escape(href) + "\"]").length;
    let mine = counts.get(root);
    if (!mine) counts.set(root, (mine = new Map()));
    let byHref = mine.get(null);
    if (!byHref) {
      byHref = new Map();
      for (const a of root.querySelectorAll("a[href]")) {
        const h = a.getAttribute("href");
        byHref.set(h, (byHref.get(h) || 0) + 1);
      }
      mine.set(null, byHref);
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
          if (countOf(el.getRootNode(), sel) === 1) return sel;
        } catch (e) { /* not a valid selector: fall through */ }
      }
    }
    if (role === "link") {
      const href = el.getAttribute("href");
      if (href && href.length <= 60 && !href.startsWith("javascript:") && !/["\\]/.test(href)) {
        if (el.tagName === "A" && linksTo(el.getRootNode(), href) === 1)
          return "a[href=\"" + href + "\"]";
      }
    }
    return null;
  }

  // -- icon hints, evidence locators, drag items -----------------------------------------
  // An element with no accessible name (an icon) gets a hint from the markup a person's eye
  // or its developer went by, and a CSS locator built on the same evidence: unique on the
  // page, or inside its card (`#post-2 span.like`, or `span.like in "CARD TEXT"`, which
  // queryIn resolves), so it survives a list that changes. Never the page's layout classes
  // nor hashed CSS-module names.
  const TEST_ATTRS = new Set(["data-testid", "data-test", "data-test-id", "data-qa", "data-cy",
                              "data-action", "data-command", "data-icon"]);
  const NOISE = new Set(("icon icons ico btn button action actions item link clickable " +
    "pointer active disabled selected hover focus open show hidden visible inline block " +
    "flex grid row col small large sm md lg xl xs left right top bottom center primary " +
    "secondary default light dark outline outlined filled round rounded sharp solid " +
    "regular fa fas far fab fal bi mdi glyphicon material ion svg img image wrapper " +
    "container inner outer control controls tool tools ripple js ui symbols relative " +
    "absolute fixed sticky static clearfix pull invisible truncate uppercase lowercase " +
    "bold italic underline content wrap box " +
    "material-icons material-symbols-outlined material-symbols-rounded").split(" "));
  const LAYOUT = new RegExp("^(?:[mp][trblxyse]?|text|bg|border|rounded|shadow|d|w|h|min|" +
    "max|gap|space|justify|align|items|self|float|position|order|grid|flex|col|row|font|" +
    "leading|tracking|z|opacity|overflow|cursor|transition|duration|is|has|sm|md|lg|xl)-");
  // made by a build, not a person: a prefix of CSS-in-JS tools, a digit, a CSS module's
  // `Name_local__hash`, styled-components' `bZoeiQ`, a long run without a vowel
  const HASHED = new RegExp("^(?:_|sc-|css-|jsx-|svelte-|emotion-|ng-)|__|[^\\w-]|\\d|" +
    "^[a-z][A-Z]|[A-Z](?![a-z]{2})|[b-df-hj-np-tv-xz]{5}", "");
  const AFFIX = new RegExp("^(?:fa|bi|mdi|ion|ti|la|icon|ico|glyphicon|feather|i|js)-|" +
    "[-_](?:icon|ico|btn|button)$", "g");
  const ICON_FONT = /icon|symbol|glyph|awesome/i;
  const IDENT = /^[A-Za-z][\w-]{0,40}$/;

  // "thumb_up", "deleteButton", "icon-trash" -> "thumb up", "delete", "trash"
  function hintWords(s) {
    const w = String(s).replace(AFFIX, "").replace(/([a-z])([A-Z])/g, "$1 $2")
      .split(/[\s_\-.]+/).filter((x) => x && !NOISE.has(x.toLowerCase()));
    return clean(w.join(" ").toLowerCase()).slice(0, 60);
  }

  function meaningfulClass(tok) {
    return !HASHED.test(tok) && !LAYOUT.test(tok) && !NOISE.has(tok) && IDENT.test(tok) &&
      !!hintWords(tok);
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
    const desc = el.getAttribute("aria-description");
    if (desc) {
      hints.push(clean(desc));
      const s = attrSel("aria-description", desc);
      if (s) sels.push(tag + s);
    }
    const img = within("img[alt]:not([alt='']), img[title]");
    if (img) {
      const a = img.getAttribute("alt") ? "alt" : "title";
      hints.push(clean(img.getAttribute(a)));
      const s = attrSel(a, img.getAttribute(a));
      if (s) sels.push(holds(el, img, "img" + s));
    }
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
      if (/^[a-z_]{3,30}$/.test(t) && ICON_FONT.test(getComputedStyle(n).fontFamily)) {
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
    // class tokens: first those that tell it from its like siblings (`facebook` before the
    // `share` every link of the row has)
    const tokens = [];
    for (const n of nodes) {
      if (typeof n.className !== "string") continue;
      for (const tok of n.className.trim().split(/\s+/).slice(0, 6)) {
        if (meaningfulClass(tok)) tokens.push([n, tok, sharedClass(n, tok)]);
      }
    }
    tokens.sort((a, b) => a[2] - b[2]);
    for (const [n, tok] of tokens) {
      hints.push(hintWords(tok));
      sels.push(n === el ? tag + "." + tok : holds(el, n, "." + tok));
    }
    for (const n of nodes.slice(0, 2)) {
      const m = /url\(["']?([^"')]*)/.exec(getComputedStyle(n).backgroundImage);
      const file = m && m[1].split(/[?#]/)[0].split("/").pop().replace(/\.\w+$/, "");
      if (file && !file.startsWith("data:") && hintWords(file)) {
        hints.push(hintWords(file));
        break;
      }
    }
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

  // An unnamed row gets its hint (an 11th cell) and, lacking a locator, one on evidence.
  function hinted(row, el) {
    const ev = iconEvidence(el);
    if (!row[7]) row[7] = evidenceLoc(el, ev.sels);
    if (!ev.hint) return;
    while (row.length < 10) row.push(row.length === 5 ? "" : row.length === 9 ? [0, 0] : null);
    row[10] = ev.hint;
  }

  // A selector for `el` built on evidence: unique on the page, else inside its card.
  function evidenceLoc(el, sels) {
    const root = el.getRootNode();
    for (const sel of sels) {
      let n = 0;
      try { n = countOf(root, sel); } catch (e) { continue; }
      if (n === 1) return sel;
      if (n > 1 && root === document) {
        const scoped = cardLoc(el, sel);
        if (scoped) return scoped;
      }
    }
    return null;
  }

  // A match's card is its largest ancestor holding no other match of the selector: the
  // node below where its path parts from its nearest neighbour's (in document order).
  // Each card's words: the first words (40 characters) of its first 40 text nodes.
  function cardsOf(sel, budget) {
    const all = Array.from(document.querySelectorAll(sel)).slice(0, 400);
    const paths = all.map((m) => {
      const up = [];
      for (let n = m; n; n = n.parentElement) up.push(n);
      return up.reverse();
    });
    const cards = new Map(), count = new Map();
    all.forEach((m, i) => {
      let d = 0;
      for (const o of [paths[i - 1], paths[i + 1]]) {
        let k = 0;
        while (o && k < o.length && o[k] === paths[i][k]) k++;
        d = Math.max(d, k);
      }
      const card = paths[i][Math.min(d, paths[i].length - 1)];
      const words = new Set();
      let left = 40;
      if (card !== m) eachText(card, (t) => { words.add(wordsOf(t.data)); return --left > 0; });
      if (budget) budget.left -= 40 - left;
      for (const w of words) count.set(w, (count.get(w) || 0) + 1);
      cards.set(m, [card, words]);
    });
    return { cards, count };
  }

  // during a snapshot: cardsOf per selector, and how many more text nodes they may read
  let cardsBySel = null, cardBudget = null;

  // A snapshot's caches (match counts, cards per selector), from its start to its end.
  function countsOn() {
    counts = new Map();
    cardsBySel = new Map();
    cardBudget = { left: 5000 };
  }

  function countsOff() {
    counts = cardsBySel = null;
  }

  // `#card-id SEL`, or `SEL in "WORDS"` where WORDS begin a text node of this card only, the
  // first such a person reads (no hidden text, no icon font's glyph names).
  function cardLoc(el, sel) {
    let found = cardsBySel.get(sel);
    if (!found) {
      if (cardBudget.left <= 0) return null;
      cardsBySel.set(sel, (found = cardsOf(sel, cardBudget)));
    }
    const [card] = found.cards.get(el) || [];
    if (!card || card === el || card === document.body || card === document.documentElement)
      return null;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const id = stableId(a);
      if (id) return id + " " + sel;
      if (a === card) break;
    }
    let words = "", tries = 0;
    eachText(card, (n) => {
      if (++tries > 8) return false;
      const p = n.parentElement;
      if (el.contains(n) || p.closest("[aria-hidden=true]") ||
          ICON_FONT.test(getComputedStyle(p).fontFamily)) return true;
      const k = wordsOf(n.data);
      if (found.count.get(k) !== 1) return true;
      words = k;
      return false;
    });
    return words ? sel + " in \"" + words.replace(/["\\]/g, "\\$&") + "\"" : null;
  }

  // A text node's first words (up to 40 characters): what `in "WORDS"` compares.
  function wordsOf(data) {
    const t = clean(data.length > 200 ? data.slice(0, 200) : data);
    return !HAS_WORD.test(t) ? "" : t.length <= 40 ? t : t.slice(0, 40).replace(/\s\S*$/, "");
  }

  function eachText(root, visit) {  // text nodes with words, until visit returns false
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const p = n.parentElement;
      if (p && !SKIP_TAGS.has(p.tagName) && HAS_WORD.test(n.data) && visit(n) === false) return;
    }
  }

  // The element `SEL in "WORDS"` names: the match whose card has a text node beginning
  // with WORDS (every such match, for the caller to refuse more than one).
  function queryIn(selector, text) {
    const want = clean(text);
    const out = [];
    for (const [m, [card, words]] of cardsOf(selector).cards) {
      if (card !== m && words.has(want)) out.push(idOf(m));
    }
    return out.slice(0, 5);
  }

  Object.assign(P, { locOf, iconEvidence, hinted, queryIn, countsOn, countsOff });
})();
