// The page helper: what markup says of an element no words name (an icon): its hint, the
// words a style sheet draws into it (its name, as Chrome's), and the evidence a locator for
// it is built on (page_locators.js builds and checks those).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { clean, HAS_WORD, CONTROLS, SKIP_TAGS, byIds, nameOf, NOISE, ICON_SET, hintWords,
    iconName, fileWords } = P;

  // An element with no accessible name (an icon), or named only by a number (a count on a
  // like button), gets a hint from the markup a person's eye or its developer went by, the
  // first of: its title or tooltip; aria-description; an editor's placeholder; for a field,
  // the words written before it (fieldLabel); an inner element's title or an image's alt;
  // an SVG <title> or <use href="#icon-trash">; an icon font's ligature; data-testid and
  // like attributes; class tokens that mean something; a background image's file name,
  // else an image's (one of no alt); last, short class tokens (`asa`, `brq`: often a
  // minifier's). And a CSS locator built on the same evidence: unique on the page, or
  // inside its card (`#post-2 span.like`, or `span.like in "CARD TEXT"`, which queryIn
  // resolves), so it survives a list that changes. Never the page's layout classes, a
  // framework's component classes, nor hashed CSS-module names.
  const TEST_ATTRS = new Set(["data-testid", "data-test", "data-test-id", "data-qa", "data-cy",
                              "data-action", "data-command", "data-icon", "data-icon-name",
                              "data-direction", "data-pc-section", "data-item-name",
                              "data-tool", "data-cmd"]);
  // a tooltip's words, as the page or its tooltip library keeps them (Bootstrap moves the
  // title to data-bs-original-title; Tippy.js, react-tooltip, balloon.css have their own)
  const TIP_ATTRS = ["title", "data-tooltip", "data-tip", "data-original-title",
                     "data-bs-original-title", "data-bs-title", "data-title",
                     "data-tippy-content", "data-tooltip-content", "data-balloon"];
  const LAYOUT = new RegExp("^(?:[mp][trblxyse]?|text|bg|border|rounded|shadow|d|w|h|min|" +
    "max|gap|space|justify|align|items|self|float|position|order|grid|flex|col|row|font|" +
    "leading|tracking|z|opacity|overflow|cursor|transition|duration|is|has|sm|md|lg|xl)-");
  // made by a build, not a person: a prefix of CSS-in-JS tools, a CSS module's
  // `Name_local__hash` (not BEM's `toast__dismiss-btn`, words after its `__`),
  // styled-components' `bZoeiQ`, a long run without a vowel (a digit too, outside an icon
  // set's names: `bi-cart3` is one)
  const HASHED = new RegExp("^(?:_|sc-|css-|jsx-|svelte-|emotion-|ng-)|__(?![a-z][a-z-]*$)|" +
    "[^\\w-]|^[a-z][A-Z]|[A-Z](?![a-z]{2})|[b-df-hj-np-tv-xz]{5}", "");
  // a component framework's class names say what the element is made of, not what it does
  // (`DraftEditor-root`, `MuiIconButton-root`, `ant-btn`, `ag-cell`, `tabulator-cell`,
  // DataTables' `dt-paging-button`), or how it looks (jQuery UI's `ui-state-highlight`,
  // `ui-corner-all`)
  const FRAMEWORK = new RegExp("^[A-Z]|^(?:ant|chakra|mat|mdc|mdl|cdk|el|ql|rc|v|q|ag|dx|k|" +
    "fc|bp\\d*|dt|tabulator|gridjs|mantine|mud|fui|ms|n|arco|semi|t|ivu|van|layui|p|e|pf|" +
    "pf-v\\d|slds|bx-|cds-)-|^eui[A-Z]|^ui-(?:state|corner|widget|helper|priority)-");
  const ICON_FONT = /icon|symbol|glyph|awesome/i;
  // whether n draws its text in an icon font (by its font, or by the class that sets it,
  // whose font may not have loaded). Its first font is the one: the system font stack many
  // pages set for all their text (Bootstrap's, Ant Design's, GitHub's) ends in fallbacks
  // such as "Segoe UI Symbol"
  const iconFont = (n) => ICON_FONT.test(getComputedStyle(n).fontFamily.split(",")[0]) ||
    /(?:^|\s)material-(?:icons|symbols)/.test(n.getAttribute("class") || "");
  const IDENT = /^[A-Za-z][\w-]{0,40}$/;
  const PART_DOES = new Set(("clear close delete remove add edit copy search refresh reload " +
    "reset expand collapse more menu play pause prev next upload download send share filter " +
    "sort minus plus increase decrease toggle").split(" "));
  const HAS_LETTER = /\p{L}/u;
  const LIGATURE = /^[a-z_]{3,30}$/;  // an icon font's glyph by its name ("delete")

  // A class token's hint and its strength: 2 an icon set's name (`fa-trash`), 1 a word
  // (`like`), 0 a short token that may be a minifier's (`asa`); null when it says nothing
  // (layout, framework, hashed, one or two letters).
  function classHint(tok) {
    // a framework's own icon set names its icon after `icon-` (`ag-icon-filter`,
    // Element's `el-icon-delete`, `anticon-delete`)
    const framed = /^(?:[a-z]{1,6}-icon|anticon)-([a-z][a-z-]{2,30})$/.exec(tok);
    if (framed && (FRAMEWORK.test(tok) || tok.startsWith("anticon-")) && hintWords(framed[1]))
      return [hintWords(framed[1]), 2];
    // a framework's name for a part of its widget that is an icon of a kind (MUI's
    // `MuiChip-deleteIcon`, `MuiAutocomplete-clearIndicator`, Ant Design's
    // `ant-tag-close-icon`): the kind
    const part = /[-_]([a-z]{3,20})(?:Icon|Indicator|-icon|-indicator)$/.exec(tok);
    if (part && FRAMEWORK.test(tok) && !NOISE.has(part[1])) return [part[1], 1];
    // or a part named by what it does (Element Plus's `el-input__clear`, PrimeReact's
    // `p-paginator-next`, Mantine's `mantine-PasswordInput-visibilityToggle`)
    const does = /(?:__|[-_])([a-z]{2,20}(?:[A-Z][a-z]{1,20}){0,3})$/.exec(tok);
    const parts = does && does[1].replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    if (parts && FRAMEWORK.test(tok) && parts.split(" ").some((w) => PART_DOES.has(w)))
      return [parts, 1];
    if (!IDENT.test(tok) || NOISE.has(tok) || LAYOUT.test(tok) || FRAMEWORK.test(tok) ||
        HASHED.test(tok)) return null;
    const named = ICON_SET.test(tok);
    if (!named && (/\d/.test(tok) || tok.length <= 2)) return null;
    const words = named ? iconName(tok) : hintWords(tok);
    if (!words) return null;
    return [words, named ? 2 : tok.length > 3 ? 1 : 0];
  }

  // Whether el holds letters a person reads (not a script's, a style's, a noscript's).
  function lettered(el) {
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const p = n.parentElement;
      if (HAS_LETTER.test(n.data) && !(p && SKIP_TAGS.has(p.tagName))) return true;
    }
    return false;
  }

  // {hint, sels}: the first hint of the order, and CSS selectors that match `el`
  // built on evidence, best first.
  function iconEvidence(el) {
    const tag = el.tagName.toLowerCase();
    const hints = [], sels = [];
    const attrSel = (name, v) => v.length <= 60 && !/["\\\n]/.test(v)
      ? "[" + name + "=\"" + v + "\"]" : null;
    // what it holds speaks for it when it is small, as an icon is (not a list of them),
    // holds no control of its own (a listbox's options say what they are, not it) and no
    // words but an icon font's ligature (a sortable list's items are not its handles)
    const inner = fewInside(el, 8);
    const small = inner !== null && !inner.some((n) => n.matches(CONTROLS)) &&
      (!lettered(el) || LIGATURE.test(clean(el.textContent)));
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
    // a field whose label shows only a glyph (a star rating's): the label's title, and (after
    // the words beside it) a check box's or radio's value (an unnamed one's may be a row's id)
    const toggle = tag === "input" && (el.type === "checkbox" || el.type === "radio");
    for (const l of el.labels || []) if (HAS_WORD.test(l.title)) hints.push(clean(l.title));
    // an editor a page names only by the placeholder it draws while empty (a chat box; a
    // rich text editor: ProseMirror and Tiptap mark its empty paragraph, Quill the editor)
    if (el.isContentEditable) {
      const shows = el.matches("[data-placeholder], [placeholder]") ? el
        : el.querySelector("[data-placeholder]");
      if (shows) said(shows, shows.hasAttribute("data-placeholder") ? "data-placeholder"
                                                                     : "placeholder");
      // Draft.js draws it in an element of its own, which describes the editor
      else if (el.hasAttribute("aria-describedby")) hints.push(byIds(el, "aria-describedby"));
    }
    hints.push(boxWords(el), fieldLabel(el), toggleLabel(el));
    if (toggle && el.value !== "on" && P.nameOf(el, el.type)) said(el, "value");  // (a glyph's)
    const tipped = within("img[alt]:not([alt='']), [title]:not([title=''])");
    if (tipped) said(tipped, tipped.tagName === "IMG" && tipped.getAttribute("alt") ? "alt"
                              : "title");
    const title = within("svg title");
    if (title) hints.push(clean(title.textContent));
    const use = within("use");
    const href = use && (use.getAttribute("href") || use.getAttribute("xlink:href") || "");
    if (href && href.includes("#")) {
      hints.push(hintWords(href.slice(href.lastIndexOf("#") + 1)));
      // (an xlink:href is in XLink's namespace, which a bare [xlink\:href] never matches)
      const s = attrSel(use.hasAttribute("href") ? "href" : "*|href", href);
      if (s) sels.push(holds(el, use, "use" + s));
    }
    for (const n of small ? nodes : []) {  // an icon font's ligature: text drawn as a glyph
      const t = clean(n.textContent);
      if (LIGATURE.test(t) && iconFont(n)) {
        hints.push(hintWords(t));
        break;
      }
    }
    for (const n of nodes) {
      if (!n.attributes.length) continue;
      for (const { name: a, value: v } of n.attributes) {
        // (PrimeReact names a part's section with its kind glued on: "incrementbutton")
        // (and its label sections, words of their own, and every part's root, none)
        const said = a !== "data-pc-section" ? v : /label$|^root$/.test(v) ? ""
          : v.replace(/(?:button|icon)$/, "");
        // (an icon component's name: Shoelace's `<sl-icon name="trash">`, Ionic's)
        const icon = (a === "name" || a === "icon") && n.tagName.includes("-") &&
          /ICON/.test(n.tagName);
        // (one word that is all of it says what the tool is, a style's word as it may be:
        // Editor.js's data-item-name="bold")
        const words = hintWords(said) || (/^[a-z]{3,20}$/i.test(said) ? said.toLowerCase() : "");
        if ((!TEST_ATTRS.has(a) && !icon) || !words) continue;
        hints.push(words);
        const s = attrSel(a, v);
        if (s) sels.push(n === el ? tag + s : holds(el, n, s));
      }
    }
    // class tokens (an SVG's too: its className is no string), first those that tell it
    // from its like siblings (`facebook` before the `share` every link of the row has),
    // then an icon set's name before a word (`ri-external-link-line` before `remixicon`);
    // short ones only after the background image
    const tokens = [];
    for (const n of nodes) {
      const cls = n.getAttribute("class");
      if (!cls) continue;
      const toks = cls.trim().split(/\s+/).slice(0, 8);
      // (less a kit's namespace, the first part all its tokens share: Pikaday's "pika-";
      // one known to say what a part is stays, read by classHint, and an icon set's)
      const ns = toks.length > 1 && !FRAMEWORK.test(toks[0]) && !P.ICON_SET.test(toks[0])
        ? /^[a-z]+-/i.exec(toks[0]) : null;
      const cut = ns && toks.every((t) => t.startsWith(ns[0])) ? ns[0].length : 0;
      for (const tok of toks) {
        const got = classHint(tok.slice(cut));
        if (got) tokens.push([n, tok, got[0], got[1], sharedClass(n, tok)]);
      }
    }
    tokens.sort((a, b) => a[4] - b[4] || b[3] - a[3]);
    const classSel = (n, tok) => n === el ? tag + "." + tok : holds(el, n, "." + tok);
    for (const [n, tok, words, strength] of tokens) {
      if (!strength) break;
      hints.push(words);
      sels.push(classSel(n, tok));
    }
    let drawn = "";
    for (const n of nodes.slice(0, 2)) {
      const m = /url\(["']?([^"')]*)/.exec(getComputedStyle(n).backgroundImage);
      if ((drawn = m ? fileWords(m[1]) : "")) break;
    }
    // else an image's file name, where no alt or title said what it shows
    const img = drawn ? null : tag === "img" ? el : within("img[src]");
    const src = img ? img.getAttribute("src") || "" : "";
    if (!drawn && (drawn = fileWords(src))) {
      const s = attrSel("src", src);
      if (s) sels.push(img === el ? tag + s : holds(el, img, "img" + s));
    }
    if (drawn) hints.push(drawn);
    for (const [n, tok, words, strength] of tokens) {
      if (strength) continue;
      hints.push(words);
      sels.push(classSel(n, tok));
    }
    // an unlabeled checkbox or radio: its kind, which its card's words tell apart
    if (toggle) sels.push("input[type=" + el.type + "]");
    // last, what a button of a form does when nothing else says (a search box's magnifier),
    // or a handle's pointer (a table's column edge that resizes it)
    if ((tag === "button" || tag === "input") && el.type === "submit" && el.form)
      hints.push("submit");
    if (!hints.some(Boolean)) hints.push(P.pagerHint(el));  // (page_pager.js: its siblings)
    if (/^(?:col|row|[nsew]{1,2})-resize$/.test(getComputedStyle(el).cursor))
      hints.push("resize");
    return { hint: hints.find(Boolean) || "", sels: sels.filter(Boolean) };
  }

  // A label that names no control beside the field, before or after it in its box or the
  // box around it, which holds no other control a person sees but the one `kept` the field
  // stands for (Materialize lays it after the field, and draws it above; its select keeps
  // the page's own in a box of no size).
  const tiny = (b) => {  // (a box that shows nothing of what it holds, no wider than a pixel)
    const r = b ? b.getBoundingClientRect() : null;
    return !!r && (r.width <= 1 || r.height <= 1) && getComputedStyle(b).overflow !== "visible";
  };
  function besideLabel(el, kept) {
    for (let n = el, up = 0; n.parentElement && up < 2; n = n.parentElement, up++) {
      const box = n.parentElement;
      const label = [...box.children].find((c) => c.tagName === "LABEL" && !c.htmlFor &&
        !c.control);
      if (!label) continue;
      const t = clean(label.innerText || "");
      const alone = [...box.querySelectorAll(CONTROLS)].every((c) => c === el || c === kept ||
        c.contains(el) || !c.checkVisibility({ opacityProperty: true }) || tiny(c.parentElement));
      return alone && HAS_LETTER.test(t) && t.length <= 60 ? t : "";
    }
    return "";
  }

  // The words a page writes before a field it left unlabelled, as a person reads them for
  // its label (a div or a table cell beside it, a span above it: forms built of divs, and
  // old forms laid out in tables): the nearest text before it in its box, or up to two
  // boxes up, with no other control between; "" for none, or for more than a label's words.
  // In a table with a header row, its column's header names it (the cell before it holds
  // the row's data, not a label).
  const FIELD_ROLES = /^(?:textbox|searchbox|combobox|spinbutton|slider)$/;
  const NOT_FIELDS = /^(?:checkbox|radio|button|submit|reset|image|hidden|file|range|color)$/;
  function fieldLabel(el) {
    const tag = el.tagName;
    if (tag === "INPUT" ? NOT_FIELDS.test(el.type) : tag !== "TEXTAREA" && tag !== "SELECT" &&
        !el.isContentEditable && !FIELD_ROLES.test(el.getAttribute("role") || "")) return "";
    // (a widget drawn for a <select> it hides, as Select2's is, or a field it keeps off the
    // page, as Tagify's is: that field's label; or the label a kit turned to the widget
    // itself, as jQuery UI's selectmenu does)
    const kept = tag !== "SELECT" && (P.selectFor(el) || P.fieldAfter(el));
    const moved = el.id && !el.labels &&
      document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    const said = kept ? P.labelOf(kept) || (moved ? clean(moved.textContent) : "") : "";
    if (HAS_WORD.test(said)) return said.length <= 60 ? said : "";
    const cell = el.closest("td");
    const inGrid = cell ? "" : gridHeading(el);
    if (inGrid) return inGrid;
    const head = cell && headerRow(cell.closest("table"));
    // (a title over a form laid out in a table, one cell across it, heads no column)
    if (head && cell.parentElement && head.cells.length === cell.parentElement.cells.length) {
      const th = head.cells[cell.cellIndex];
      const t = th ? clean(th.innerText || "") : "";
      if (HAS_WORD.test(t)) return t.length <= 60 ? t : "";
    }
    const beside = besideLabel(el, kept);
    if (beside) return beside;
    let n = el;
    for (let up = 0; n && up < 3; up++, n = n.parentElement) {
      let k = 0;
      for (let s = n.previousSibling; s && k < 4; s = s.previousSibling) {
        // (words without a letter are no label: a code editor's line numbers, a step's)
        if (s.nodeType === 3) {
          if (HAS_LETTER.test(s.data)) return clean(s.data).length <= 60 ? clean(s.data) : "";
          continue;
        }
        if (s.nodeType !== 1 || SKIP_TAGS.has(s.tagName)) continue;
        k++;
        // another field's words (an editor's block beside it too), or more than a label's
        // (not read whole: an article)
        if (s.matches(CONTROLS) || (s.textContent || "").length > 400 ||
            s.querySelector(CONTROLS) || s.isContentEditable ||
            s.querySelector("[contenteditable]:not([contenteditable=false])")) return "";
        const t = clean(s.innerText || "");
        if (HAS_LETTER.test(t)) return t.length <= 60 ? t : "";
      }
      const p = n.parentElement;
      if (!p || p.tagName === "FORM" || p.tagName === "FIELDSET" || p.tagName === "BODY") break;
    }
    return "";
  }

  // The words the box around a field draws over it while the field shows no value
  // (page_shown.js `fieldWrap`: Element Plus's select draws its placeholder so), as a
  // person reads them in the field; "" for none, for more than a prompt's words, or for an
  // editor's (its gutter's line numbers).
  function boxWords(el) {
    if (!el.matches(P.ENTRY) || el.isContentEditable ||
        P.valueOf(el, el.getAttribute("role") || "")) return "";
    let box = el.parentElement;
    for (let up = 0; box && up < 4; up++, box = box.parentElement) {
      if (!P.fieldWrap(box)) continue;
      let words = "";
      const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t && words.length <= 60; t = walk.nextNode()) {
        if (!el.contains(t) && t.parentElement.checkVisibility()) words += t.data + " ";
      }
      const w = clean(words);
      if (HAS_LETTER.test(w)) return w.length <= 60 ? w : "";
    }
    return "";
  }

  // The header of the column of an ARIA grid's cell holding `el` (a grid drawn in divs, as
  // Tabulator draws one, whose cell editor is a bare field): by aria-colindex where both say
  // it, else by place when the row has as many cells as the grid has column headers.
  function gridHeading(el) {
    const cell = el.closest("[role=gridcell], [role=cell]");
    const row = cell && cell.closest("[role=row]");
    const grid = row && row.closest("[role=grid], [role=treegrid], [role=table]");
    if (!grid) return "";
    const heads = Array.from(grid.querySelectorAll("[role=columnheader]")).slice(0, 200);
    const col = parseInt(cell.getAttribute("aria-colindex"), 10);
    let th = col ? heads.find((h) => parseInt(h.getAttribute("aria-colindex"), 10) === col)
      : null;
    if (!th) {
      const cells = Array.from(row.querySelectorAll("[role=gridcell], [role=cell], " +
        "[role=rowheader]")).filter((c) => c.closest("[role=row]") === row);
      if (cells.length === heads.length) th = heads[cells.indexOf(cell)];
    }
    const t = th ? clean(th.innerText || "") : "";
    return HAS_WORD.test(t) && t.length <= 60 ? t : "";
  }

  // The words a page writes right after a checkbox or radio button it left unlabelled
  // (`<input type=checkbox> Remember me`), as a person reads them for its label: the text
  // that follows it in its box, up to the next field or line break, links' words included
  // (`I agree to the terms`); "" for none, or for more than a label's words. In a box that
  // lays its children in a row (a flex row: Element Plus's switch, its track and then its
  // words), a block among them stands in the same line; so does a label that names no
  // control, a block or not (Fomantic draws its box and words there).
  const STOPS = /^(?:INPUT|SELECT|TEXTAREA|BUTTON|BR|HR)$/;
  function toggleLabel(el) {
    if (el.tagName !== "INPUT" || (el.type !== "checkbox" && el.type !== "radio")) return "";
    const row = el.parentElement && getComputedStyle(el.parentElement);
    const inRow = !!row && /flex$/.test(row.display) && row.flexDirection.startsWith("row");
    let words = "";
    for (let s = el.nextSibling; s && words.length <= 60; s = s.nextSibling) {
      if (s.nodeType === 3) {
        words += s.data;
        continue;
      }
      if (s.nodeType !== 1 || SKIP_TAGS.has(s.tagName)) continue;
      if (s.tagName === "LABEL" && !s.htmlFor && !s.control) {  // (Fomantic's: a block)
        words += " " + (s.innerText || "");
        break;
      }
      if (STOPS.test(s.tagName) || s.querySelector("input, select, textarea, button") ||
          (!inRow && /^(?:block|flex|grid|table|list-item)$/.test(getComputedStyle(s).display)))
        break;
      words += " " + P.shownText(s) + " ";  // (a title, the label chip a margin parts)
    }
    const t = clean(words);
    return HAS_WORD.test(t) && t.length <= 60 ? t : "";
  }

  // A table's row of column headers (its head's first row, else a first row of <th>s).
  function headerRow(table) {
    if (!table) return null;
    if (table.tHead && table.tHead.rows.length) return table.tHead.rows[0];
    const first = table.rows[0];
    return first && first.cells.length && Array.from(first.cells).every((c) =>
      c.tagName === "TH") ? first : null;
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

  // Words a style sheet draws into a wordless control (`content` before or after it or its
  // first elements: Quill's "Normal" heading picker), as Chrome names it by them; an icon
  // font's glyphs are no words (`has`: what words must hold; a cell's numbers count).
  function drawnWords(el, has = HAS_LETTER) {
    const nodes = [el];
    for (let n = el.firstElementChild; n && nodes.length < 3; n = n.firstElementChild)
      nodes.push(n);
    for (const n of nodes) {
      for (const at of ["::before", "::after"]) {
        const c = getComputedStyle(n, at).content;
        const attr = /^attr\(([\w-]+)\)$/.exec(c);
        const words = attr ? n.getAttribute(attr[1]) || ""
          : c.length > 2 && c[0] === '"' ? c.slice(1, -1).replace(/\\(.)/g, "$1") : "";
        if (has.test(words)) return clean(words);
      }
    }
    return "";
  }

  // Whether el (of `role`) is a bare icon: icon-sized, with no words and no name
  const ICON_MAX = 64;  // px, either side
  function bareIcon(el, role) {
    const r = el.getBoundingClientRect();
    return r.width <= ICON_MAX && r.height <= ICON_MAX && !HAS_WORD.test(el.textContent || "") &&
      !nameOf(el, role);
  }

  // Whether el is an icon drawn in a field's own box that opens only what the field opens
  // (a date field's calendar, a select's or cascader's arrow: Element Plus listens on
  // them): no name, no words, and nothing it or its drawing says (classes, labels, titles)
  // tells of anything else (a clear button's `el-input__clear` does). The field's line
  // says it all.
  const FIELD_ICON = new Set(("arrow caret chevron triangle angle expand dropdown drop " +
    "down up calendar date time clock select suffix prefix icon icons input inner wrapper " +
    "el ant anticon mui svg i").split(" "));
  function fieldIcon(el) {
    if (el.matches(CONTROLS) || !bareIcon(el, "")) return false;
    let box = el.parentElement;
    for (let up = 0; box && up < 4 && !box.querySelector(CONTROLS); up++) {
      box = box.parentElement;
    }
    if (!box || !P.fieldWrap(box)) return false;
    for (const n of [el, ...el.querySelectorAll("*")].slice(0, 8)) {
      const said = ["class", "aria-label", "title", "alt", "data-icon"]
        .map((a) => n.getAttribute(a) || "").join(" ")
        .replace(/(^|\s)css-\S*/g, " ")  // a CSS-in-JS library's hashed class
        .replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
      for (const w of said.split(/[^a-z0-9]+/)) {
        if (w && !/\d/.test(w) && !FIELD_ICON.has(w)) return false;
      }
    }
    return true;
  }

  Object.assign(P, { iconEvidence, hintOf, glyphName, iconFont, HAS_LETTER, drawnWords,
    boxWords, fieldIcon, bareIcon, ICON_MAX });
})();
