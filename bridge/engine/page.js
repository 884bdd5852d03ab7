// Tabsteward's page-side helper, installed once per frame in an isolated world.
// It reads the DOM (never writes to it): snapshot rows, element lookup by id, geometry,
// hit tests and text. Ids are per frame, per node, stable for the node's life.
(() => {
  if (globalThis.__ts) return "present";

  const ids = new WeakMap();
  const byId = new Map();
  let nextId = 1;

  function idOf(el) {
    let id = ids.get(el);
    if (!id) {
      id = nextId++;
      ids.set(el, id);
      byId.set(id, new WeakRef(el));
    }
    return id;
  }

  function get(id) {
    const ref = byId.get(id);
    const el = ref && ref.deref();
    if (!el) { byId.delete(id); return null; }
    return el;
  }

  // -- roles ------------------------------------------------------------------------
  const INPUT_ROLES = {
    button: "button", submit: "button", reset: "button", image: "button",
    checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton",
    search: "searchbox", email: "textbox", tel: "textbox", text: "textbox", url: "textbox",
    password: "textbox", date: "textbox", "datetime-local": "textbox", month: "textbox",
    time: "textbox", week: "textbox", color: "button", file: "button",
  };
  const TAG_ROLES = {
    BUTTON: "button", SELECT: "combobox", TEXTAREA: "textbox", NAV: "navigation",
    MAIN: "main", ASIDE: "complementary", H1: "heading", H2: "heading", H3: "heading",
    H4: "heading", H5: "heading", H6: "heading", IMG: "img", DIALOG: "dialog",
    OPTION: "option", PROGRESS: "progressbar", SUMMARY: "button", FIELDSET: "group",
    TABLE: "table", SEARCH: "search", METER: "meter", IFRAME: "iframe", FRAME: "iframe",
    LI: "listitem", UL: "list", OL: "list",
  };
  // roles a person acts on: these always get a ref
  const ACTIONABLE = new Set([
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox",
    "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider",
    "spinbutton", "treeitem", "scrollbar",
  ]);
  // roles whose name comes from their content
  const NAME_FROM_CONTENT = new Set([
    "button", "link", "heading", "checkbox", "radio", "option", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "treeitem", "gridcell", "cell",
    "columnheader", "rowheader", "tooltip", "clickable", "summary", "legend", "caption",
  ]);
  const LANDMARKS = new Set([
    "banner", "navigation", "main", "complementary", "contentinfo", "search", "form",
    "region", "dialog", "alertdialog", "alert", "tabpanel", "menu", "menubar", "tablist",
    "tree", "grid", "treegrid", "listbox", "radiogroup", "toolbar", "group", "table", "status",
  ]);
  const SKIP_TAGS = new Set([
    "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "TITLE", "BASE",
  ]);

  function inSectioning(el) {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const t = p.tagName;
      if (t === "ARTICLE" || t === "ASIDE" || t === "MAIN" || t === "NAV" || t === "SECTION")
        return true;
    }
    return false;
  }

  function roleOf(el) {
    const explicit = el.getAttribute("role");
    if (explicit) {
      const first = explicit.trim().split(/\s+/)[0];
      if (first && first !== "none" && first !== "presentation") return first;
      if (first) return "";
    }
    const tag = el.tagName;
    switch (tag) {
      case "A": case "AREA": return el.hasAttribute("href") ? "link" : "";
      case "INPUT": {
        const type = (el.getAttribute("type") || "text").toLowerCase();
        if (type === "hidden") return "";
        if ((type === "text" || type === "search" || type === "email" || type === "tel" ||
             type === "url") && el.hasAttribute("list")) return "combobox";
        return INPUT_ROLES[type] || "textbox";
      }
      case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "HEADER": return inSectioning(el) ? "" : "banner";
      case "FOOTER": return inSectioning(el) ? "" : "contentinfo";
      case "FORM": return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ||
          el.hasAttribute("name") ? "form" : "";
      case "SECTION": return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")
          ? "region" : "";
      case "IMG": return el.getAttribute("alt") === "" ? "" : "img";
      case "TD": return "cell";
      case "TH": return "columnheader";
      case "DETAILS": return "group";
      default: break;
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable))
      return "textbox";
    return TAG_ROLES[tag] || "";
  }

  // A label whose control is not rendered (a styled toggle hides its input and draws the
  // label) is what a person clicks: it stands in for the control.
  function standIn(el) {
    if (el.tagName !== "LABEL") return null;
    const c = el.control;
    if (!c || c.tagName !== "INPUT") return null;
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(c).visibility === "visible") return null;
    return c;
  }

  // -- accessible names -----------------------------------------------------------------
  const HAS_WORD = /[\p{L}\p{N}]/u;
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();

  // The longest name and value a snapshot line shows; the rest is counted, not dropped
  // silently (snapshot.py prints the count, and `text @N` reads the whole).
  const NAME_MAX = 150;
  const VALUE_MAX = 300;
  const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

  // [the first max UTF-16 units of s, never half a character; how many characters (code
  // points, as Python counts them) were left out]
  function cut(s, max) {
    if (s.length <= max) return [s, 0];
    let end = max;
    const c = s.charCodeAt(end - 1);
    if (c >= 0xD800 && c <= 0xDBFF) end--;
    const rest = s.slice(end);
    return [s.slice(0, end), rest.length - (rest.match(PAIR) || []).length];
  }

  function hiddenForName(el) {
    if (el.hidden || el.getAttribute("aria-hidden") === "true") return true;
    const cs = getComputedStyle(el);
    return cs.display === "none" || cs.visibility === "hidden";
  }

  function textOf(node, depth) {
    if (depth > 30) return "";
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return "";
    const el = node;
    if (SKIP_TAGS.has(el.tagName) || hiddenForName(el)) return "";
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return " " + label + " ";
    if (el.tagName === "IMG" || (el.tagName === "INPUT" && el.type === "image"))
      return " " + (el.getAttribute("alt") || "") + " ";
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") return " " + (el.value || "") + " ";
    if (el.tagName === "SELECT") {
      const o = el.selectedOptions && el.selectedOptions[0];
      return " " + (o ? o.text : "") + " ";
    }
    const block = isBlock(el);
    let out = "";
    const root = el.shadowRoot || el;
    for (let c = root.firstChild; c; c = c.nextSibling) out += textOf(c, depth + 1);
    if (el.tagName === "SLOT") {
      for (const c of el.assignedNodes()) out += textOf(c, depth + 1);
    }
    return block ? " " + out + " " : out;
  }

  function byIds(el, attr) {
    const list = (el.getAttribute(attr) || "").trim().split(/\s+/).filter(Boolean);
    const root = el.getRootNode();
    const parts = [];
    for (const id of list) {
      const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      if (ref) parts.push(clean(textOfForLabel(ref)));
    }
    return clean(parts.join(" "));
  }

  function textOfForLabel(el) {
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return label;
    let out = "";
    for (let c = el.firstChild; c; c = c.nextSibling) out += textOf(c, 0);
    return out;
  }

  function labelsText(el) {
    const labels = el.labels;
    if (!labels || !labels.length) return "";
    const parts = [];
    for (const l of labels) {
      let t = "";
      for (let c = l.firstChild; c; c = c.nextSibling) {
        if (c === el || (c.nodeType === 1 && c.contains(el))) {
          // the field inside its own label: take the label's other text
          if (c !== el) t += textOfExcept(c, el);
          continue;
        }
        t += textOf(c, 0);
      }
      parts.push(clean(t));
    }
    return clean(parts.join(" "));
  }

  function textOfExcept(node, skip) {
    if (node === skip) return "";
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return "";
    let out = "";
    for (let c = node.firstChild; c; c = c.nextSibling) out += textOfExcept(c, skip);
    return out;
  }

  // The accessible name as a snapshot line shows it (at most NAME_MAX); fullNameOf has all.
  function nameOf(el, role) {
    return cut(fullNameOf(el, role), NAME_MAX)[0];
  }

  function fullNameOf(el, role) {
    let name = "";
    if (el.hasAttribute("aria-labelledby")) name = byIds(el, "aria-labelledby");
    if (!name) name = clean(el.getAttribute("aria-label"));
    if (!name) {
      const tag = el.tagName;
      if (tag === "INPUT") {
        const type = (el.type || "text").toLowerCase();
        if (type === "button" || type === "submit" || type === "reset") {
          name = clean(el.value) || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
        } else if (type === "image") {
          name = clean(el.getAttribute("alt")) || clean(el.value) || "Submit";
        } else {
          name = labelsText(el);
        }
        if (!name) name = clean(el.getAttribute("title")) || clean(el.getAttribute("placeholder"));
      } else if (tag === "TEXTAREA" || tag === "SELECT" || tag === "METER" ||
                 tag === "PROGRESS" || tag === "BUTTON") {
        name = labelsText(el);
        if (!name && tag === "TEXTAREA") name = clean(el.getAttribute("placeholder"));
      } else if (tag === "IMG" || tag === "AREA") {
        name = clean(el.getAttribute("alt"));
      } else if (tag === "FIELDSET") {
        const legend = el.querySelector(":scope > legend");
        if (legend) name = clean(textOf(legend, 0));
      } else if (tag === "TABLE") {
        const cap = el.querySelector(":scope > caption");
        if (cap) name = clean(textOf(cap, 0));
      } else if (tag === "IFRAME" || tag === "FRAME") {
        name = clean(el.getAttribute("title")) || clean(el.getAttribute("name"));
      }
    }
    if (!name && (NAME_FROM_CONTENT.has(role) || el.tagName === "BUTTON")) {
      name = clean(textOf(el, 0));
      if (!name && el.tagName === "A") {
        const img = el.querySelector("img[alt], svg title");
        if (img) name = clean(img.getAttribute ? img.getAttribute("alt") || img.textContent : "");
      }
    }
    if (!name) name = clean(el.getAttribute("title"));
    if (!name && el.tagName === "svg") {
      const t = el.querySelector("title");
      if (t) name = clean(t.textContent);
    }
    return name;
  }

  // The row with its name set; when the name or the value (valueLeft) was cut, a 10th cell
  // [characters left out of the name, of the value].
  function namedRow(row, el, role, valueLeft) {
    const [name, left] = cut(fullNameOf(el, role), NAME_MAX);
    row[3] = name;
    if (left || valueLeft) {
      while (row.length < 9) row.push(row.length === 5 ? "" : null);
      row.push([left, valueLeft || 0]);
    }
    return row;
  }

  // -- layout helpers --------------------------------------------------------------------
  function isBlock(el) {
    const d = getComputedStyle(el).display;
    return !(d.startsWith("inline") || d === "contents" || d === "table-cell");
  }

  function inViewport(el) {
    let r;
    if (el.nodeType === 3) {  // a text node: the box of its characters
      const range = document.createRange();
      range.selectNodeContents(el);
      r = range.getBoundingClientRect();
    } else r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth &&
      (r.width > 0 || r.height > 0);
  }

  // -- states ---------------------------------------------------------------------------
  function statesOf(el, role) {
    const s = [];
    const aria = (n) => el.getAttribute(n);
    const tag = el.tagName;
    if (role === "checkbox" || role === "radio" || role === "switch" ||
        role === "menuitemcheckbox" || role === "menuitemradio") {
      const a = aria("aria-checked");
      if (tag === "INPUT") {
        if (el.indeterminate) s.push("mixed");
        else if (el.checked) s.push("checked");
      } else if (a === "true") s.push("checked");
      else if (a === "mixed") s.push("mixed");
    }
    const pressed = aria("aria-pressed");
    if (pressed === "true") s.push("pressed");
    const expanded = aria("aria-expanded");
    if (expanded === "true") s.push("expanded");
    else if (expanded === "false") s.push("collapsed");
    else if (tag === "SUMMARY" && el.parentElement && el.parentElement.tagName === "DETAILS")
      s.push(el.parentElement.open ? "expanded" : "collapsed");
    if (aria("aria-selected") === "true" || (tag === "OPTION" && el.selected)) s.push("selected");
    if (aria("aria-current") && aria("aria-current") !== "false") s.push("current");
    if ((el.matches && el.matches(":disabled")) || aria("aria-disabled") === "true")
      s.push("disabled");
    if (el.required || aria("aria-required") === "true") s.push("required");
    if (el.readOnly || aria("aria-readonly") === "true") s.push("readonly");
    if (aria("aria-invalid") === "true") s.push("invalid");
    if (tag === "TEXTAREA" || aria("aria-multiline") === "true" ||
        (el.isContentEditable && role === "textbox" && tag !== "INPUT")) s.push("multiline");
    if (aria("aria-haspopup") && aria("aria-haspopup") !== "false") s.push("haspopup");
    if (role === "heading") {
      const level = aria("aria-level") || (/^H[1-6]$/.test(tag) ? tag[1] : "");
      if (level) s.push("level=" + level);
    }
    return s;
  }

  function valueOf(el, role) {
    const tag = el.tagName;
    if (tag === "INPUT") {
      const type = (el.type || "").toLowerCase();
      if (type === "password") return el.value ? "\u2022\u2022\u2022\u2022" : null;
      if (type === "checkbox" || type === "radio" || type === "button" || type === "submit" ||
          type === "reset" || type === "image" || type === "hidden") return null;
      if (type === "file") {
        return el.files && el.files.length ? Array.from(el.files, (f) => f.name).join(", ") : null;
      }
      return el.value;
    }
    if (tag === "TEXTAREA") return el.value;
    if (tag === "SELECT") {
      return Array.from(el.selectedOptions, (o) => clean(o.text)).join(", ");
    }
    if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter") {
      return el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow") ||
        (el.value !== undefined ? String(el.value) : null);
    }
    if (role === "textbox" && el.isContentEditable) return clean(el.innerText);
    if (role === "combobox") {
      const v = el.getAttribute("aria-valuenow") || el.getAttribute("aria-valuetext");
      if (v) return v;
    }
    return null;
  }

  function optionsOf(el) {
    if (el.tagName !== "SELECT") return null;
    const opts = [];
    for (const o of el.options) {
      opts.push(clean(o.label || o.text));
      if (opts.length >= 25) break;
    }
    return { list: opts, more: Math.max(0, el.options.length - opts.length) };
  }

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

  // Elements whose click listeners the main-world hook saw (see hook.js); empty without it.
  // `drop`: those with drop listeners instead.
  function listened(secret, drop) {
    const found = new Set();
    if (!secret) return found;
    const collect = (e) => found.add(e.target);
    const [ask, mark] = drop ? ["ts-ask-drop-", "ts-drop-"] : ["ts-ask-", "ts-mark-"];
    document.addEventListener(mark + secret, collect, true);
    try {
      document.dispatchEvent(new CustomEvent(ask + secret));
    } finally {
      document.removeEventListener(mark + secret, collect, true);
    }
    return found;
  }

  // -- tables and repeated containers (issue 13 §2, §4) -----------------------------------
  // A data table's row is one line of cells; a container that repeats among its siblings
  // and holds text and a ref (a list item, a post, a card) is one line, its controls under it.
  const ROWS_MAX = 100;  // rows of one table in an unscoped snapshot; the rest are counted
  const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  const HEAD_ROLES = new Set(["columnheader", "rowheader"]);
  let tables = null;  // per snapshot: table element -> {data, rows, shown, left}

  function tableState(table) {
    let st = tables.get(table);
    if (!st) tables.set(table, (st = { data: null, rows: 0, shown: 0, left: 0 }));
    return st;
  }

  // Not a layout table: no presentational role, no table inside, and a header cell, a
  // caption, or two rows of two cells or more.
  function dataTable(table) {
    const st = tableState(table);
    if (st.data === null) {
      const r = (table.getAttribute("role") || "").trim();
      let wide = 0;
      for (let i = 0; i < table.rows.length && i < 20 && wide < 2; i++)
        if (table.rows[i].cells.length > 1) wide++;
      st.data = r === "grid" || r === "treegrid" || r === "table" ||
        (r !== "presentation" && r !== "none" && !table.querySelector("table") &&
         (wide > 1 || !!table.querySelector("th,caption")));
    }
    return st.data;
  }

  function isRow(el, role) {
    if (role === "row") return true;
    if (el.tagName !== "TR" || el.hasAttribute("role")) return false;
    const t = el.closest("table");
    return !!t && dataTable(t);
  }

  function isCell(el) {
    const t = el.tagName;
    return t === "TD" || t === "TH" || CELL_ROLES.has(roleOf(el));
  }

  function tableOf(row) {
    return row.closest("table,[role=grid],[role=treegrid],[role=table]");
  }

  function headerRow(el) {
    const p = el.parentElement;
    if (p && p.tagName === "THEAD") return true;
    let cells = 0;
    for (const c of el.children) {
      if (!isCell(c)) continue;
      if (c.tagName !== "TH" && !HEAD_ROLES.has(roleOf(c))) return false;
      cells++;
    }
    return cells > 0;
  }

  // A header cell is acted on only when it says so (a sortable column without a button of
  // its own); a grid cell when it takes focus or selection. Else their text is the row's.
  function cellActs(el, role) {
    if (role === "gridcell") return el.hasAttribute("tabindex") || el.hasAttribute("aria-selected");
    return HEAD_ROLES.has(role) && el.hasAttribute("aria-sort") &&
      !el.querySelector("button,a[href],input,select,[role=button]");
  }

  const firstClass = (el) => el.classList.length ? el.classList[0] : "";

  // Whether el has a sibling of its kind (tag, role, first class) among the three before or
  // after it.
  function repeats(el, byClass) {
    const tag = el.tagName, role = el.getAttribute("role"), cls = byClass && firstClass(el);
    const same = (s) => s.tagName === tag && s.getAttribute("role") === role &&
      (!byClass || firstClass(s) === cls);
    let s = el.previousElementSibling;
    for (let n = 0; s && n < 3; n++, s = s.previousElementSibling) if (same(s)) return true;
    s = el.nextElementSibling;
    for (let n = 0; s && n < 3; n++, s = s.nextElementSibling) if (same(s)) return true;
    return false;
  }

  // List items and articles that repeat; classed blocks and custom elements that repeat
  // (a card, a feed entry), if small: a column of prose is not a card (see small).
  function boxable(el, role) {
    const tag = el.tagName;
    if (role === "listitem" || role === "article" || (tag === "ARTICLE" && !role))
      return repeats(el, false);
    if (role || !(tag.includes("-") || (tag === "DIV" || tag === "SECTION") && el.classList.length))
      return false;
    return repeats(el, true);
  }

  const CARD_CHARS = 600;
  const small = (el, role) => !!role || el.tagName === "ARTICLE" ||
    el.textContent.length <= CARD_CHARS;

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

  // -- the snapshot walk -----------------------------------------------------------------
  // A row: [depth, kind, role, name, id, states, value, loc, extra]
  //   kind 0 = element with a ref, 1 = structure (no ref), 2 = text, 3 = frame placeholder,
  //   4 = table row: role "row" or "header", extra its cells' text (id set when the row
  //   itself is clickable); role "more" / "unloaded": extra is how many rows were left out
  //   / are not in the page yet (aria-rowcount)
  function snapshot(opts) {
    counts = new Map();
    tables = new Map();
    cardsBySel = new Map();
    cardBudget = { left: 5000 };
    try {
      return walk(opts);
    } finally {
      counts = tables = null;
      zones = null;
      cardsBySel = null;
      lastParent = null;
    }
  }

  function walk(opts) {
    const rows = [];
    const interactiveOnly = !!opts.interactive;
    const viewportOnly = !!opts.viewport;
    const deep = document.activeElement;
    let focused = deep;
    while (focused && focused.shadowRoot && focused.shadowRoot.activeElement)
      focused = focused.shadowRoot.activeElement;
    let pending = "";
    let pendingDepth = 0;
    let consumed = 0; // > 0 while inside an element whose text is its name
    let count = 0;
    const limit = opts.maxNodes || 200000;
    const handlers = listened(opts.hook);
    const at = (depth) => interactiveOnly ? 0 : depth;  // -i: indented only under containers
    let refCount = 0;  // rows with a ref so far
    let tr = null;  // the table row being read: {cells, cur (the open cell's text or null)}
    const boxes = [];  // open containers: {start, refs, name, nameAt}
    // whether the innermost container still waits for its name: words before any ref
    const unnamed = () => boxes.length > 0 && boxes[boxes.length - 1].name === null &&
      boxes[boxes.length - 1].refs === refCount;
    zones = [handlers, listened(opts.hook, true)];

    function flush() {
      const t = clean(pending);
      pending = "";
      // text with no letter or digit (a lone bullet or separator) says nothing
      if (!t || !HAS_WORD.test(t)) return;
      if (unnamed()) Object.assign(boxes[boxes.length - 1], { name: t, nameAt: rows.length });
      if (!interactiveOnly) rows.push([pendingDepth, 2, "", t]);
    }

    function addText(t, depth) {
      if (consumed || (interactiveOnly && !unnamed())) return;
      if (!pending) pendingDepth = depth;
      pending += t;
    }

    // rows from start on go one level under line, which is put before them
    function nest(start, line) {
      for (let i = start; i < rows.length; i++) rows[i][0]++;
      rows.splice(start, 0, line);
    }

    // A container line when the box holds a ref and starts with words: named by them (taken
    // from the text or heading line that said them).
    function closeBox(box, el, depth, role) {
      boxes.pop();
      if (box.name === null || refCount === box.refs || !small(el, role)) return;
      const name = box.name.replace(/^\u2022 /, "");
      if (!interactiveOnly) {
        const [gone] = rows.splice(box.nameAt, 1);  // a heading's lines move up with it
        for (let i = box.nameAt; gone[1] === 1 && i < rows.length && rows[i][0] > gone[0]; i++)
          rows[i][0]--;
      }
      nest(box.start, [at(depth), 1, role || (el.tagName === "ARTICLE" ? "article" : "group"),
                       name, 0, ""]);
    }

    // One line for a table row: its cells' text in order, the controls in them under it.
    function tableRow(el, depth, acts) {
      const header = headerRow(el);
      const table = tableOf(el);
      const st = table ? tableState(table) : { rows: 0, shown: 0, left: 0 };
      st.rows++;
      if (!header && !opts.scope && !viewportOnly && st.shown >= ROWS_MAX) {
        st.left++;
        return;
      }
      if (viewportOnly && !inViewport(el)) return;
      flush();
      const outer = tr;
      const start = rows.length;
      const before = refCount;
      tr = { cells: [], cur: null };
      walkChildren(el, depth);
      const cells = tr.cells.map(clean);
      tr = outer;
      if (!header) st.shown++;
      if (refCount === before && !acts && (interactiveOnly || !cells.some(Boolean))) {
        rows.length = start;  // an empty spacer row, or -i and nothing to act on
        return;
      }
      const states = statesOf(el, "row");
      if (el.hasAttribute("aria-level")) states.push("level=" + el.getAttribute("aria-level"));
      if (acts) refCount++;
      nest(start, [at(depth), 4, header ? "header" : "row",
                   acts ? cut(clean(cells.join(" ")), NAME_MAX)[0] : "", acts ? idOf(el) : 0,
                   states.join(" "), null, acts ? locOf(el, "row") : null, cells]);
    }

    function walkChildren(el, depth) {
      const root = el.shadowRoot || el;
      if (el.tagName === "SLOT") {
        const assigned = el.assignedNodes({ flatten: false });
        if (assigned.length) {
          for (const c of assigned) walk(c, depth);
          return;
        }
      }
      for (let c = root.firstChild; c; c = c.nextSibling) walk(c, depth);
    }

    // A cell of the row being read gathers its text (a control's too) into the row's line.
    function walk(node, depth) {
      if (tr && tr.cur === null && node.nodeType === 1 && isCell(node)) {
        if (getComputedStyle(node).display === "none") return;
        tr.cur = "";
        visit(node, depth);
        tr.cells.push(tr.cur);
        tr.cur = null;
        return;
      }
      visit(node, depth);
    }

    function visit(node, depth) {
      if (++count > limit) return;
      if (node.nodeType === 3) {
        if (tr) {
          if (tr.cur !== null) tr.cur += node.data;
          else if (node.data.trim()) tr.cells.push(node.data);
          return;
        }
        if (viewportOnly && !consumed && !interactiveOnly && node.data.trim() &&
            !inViewport(node)) return;
        addText(node.data, depth);
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.tagName;
      if (SKIP_TAGS.has(tag)) return;
      if (el.getAttribute("aria-hidden") === "true" && !el.contains(focused)) return;
      const cs = getComputedStyle(el);
      if (cs.display === "none") return;
      if (tag === "INPUT" && el.type === "hidden") return;
      const visible = cs.visibility !== "hidden" && cs.visibility !== "collapse";
      let role = roleOf(el);
      const block = !(cs.display.startsWith("inline") || cs.display === "contents");
      const proxy = visible ? standIn(el) : null;
      if (proxy) role = roleOf(proxy);
      let clickable = false;
      const dragging = visible && dragItem(el);
      if (dragging && !ACTIONABLE.has(role)) clickable = true;
      else if (!ACTIONABLE.has(role) && visible) {
        const parent = el.parentElement || (el.getRootNode() && el.getRootNode().host);
        const parentCursor = parent ? getComputedStyle(parent).cursor : "auto";
        if ((cs.cursor === "pointer" && parentCursor !== "pointer") ||
            el.hasAttribute("onclick") || handlers.has(el) ||
            (el.hasAttribute("tabindex") && el.tabIndex >= 0 && tag !== "IFRAME" &&
             role !== "dialog" && role !== "tabpanel" && !LANDMARKS.has(role) &&
             tag !== "BODY" && tag !== "HTML" && role !== "list") || cellActs(el, role)) {
          if (tag !== "LABEL" || !el.control) clickable = true;
        }
      }
      if (tag === "IFRAME" || tag === "FRAME") {
        if (!visible) return;
        if (viewportOnly && !inViewport(el)) return;
        flush();
        refCount++;
        rows.push(namedRow([at(depth), 3, "iframe", "", idOf(el)], el, "iframe", 0));
        return;
      }
      const actionable = visible && (ACTIONABLE.has(role) || clickable);
      if (!consumed && visible && isRow(el, role)) return tableRow(el, depth, actionable);
      if (actionable && clickable && !role) role = "clickable";
      const inView = !viewportOnly || inViewport(el);
      if (tr && tr.cur && (block || actionable || tag === "BR")) tr.cur += " ";
      if (block || actionable) {
        if (pending && pendingDepth >= depth) flush();
        else if (pending) pending += " ";
      }
      if (actionable && inView) {
        flush();
        const src = proxy || el;
        const states = statesOf(src, role);
        if (src === focused) states.push("focused");
        if (dragging) states.push("draggable");
        const value = valueOf(src, role);
        const extra = optionsOf(el);
        const [shown, valueLeft] = value === null || value === undefined || value === ""
          ? [null, 0] : cut(String(value), VALUE_MAX);
        refCount++;
        const row = namedRow([at(depth), 0, role, "", idOf(el), states.join(" "), shown,
                              locOf(el, role), extra], src,
                             dragging && !NAME_FROM_CONTENT.has(role) ? "clickable" : role,
                             valueLeft);
        // a drag item is named by its words; a long one (a card) keeps its text lines too
        const fromContent = NAME_FROM_CONTENT.has(role) || tag === "SELECT" ||
          role === "textbox" || (dragging && !(row.length > 9 && row[9][0]));
        if (!row[3]) hinted(row, el);
        rows.push(row);
        if (fromContent) consumed++;
        if (tag !== "SELECT" && tag !== "TEXTAREA" && tag !== "INPUT")
          walkChildren(el, depth + 1);
        if (fromContent) consumed--;
        return;
      }
      if ((tag === "LABEL" && el.control) || (tag === "CAPTION" && !tr) ||
          (tag === "LEGEND" && el.parentElement && el.parentElement.tagName === "FIELDSET")) {
        // a label's text is its control's name, a legend's its fieldset's, a caption its
        // table's: not repeated as text
        consumed++;
        walkChildren(el, depth);
        consumed--;
        return;
      }
      let box = null;  // boxable roles are never the structure below
      // a custom element is inline unless styled, whatever it holds
      if (!tr && !consumed && visible && inView && (block || tag.includes("-")) &&
          boxable(el, role)) {
        flush();
        boxes.push(box = { start: rows.length, refs: refCount, name: null, nameAt: -1 });
      }
      let structural = false;
      if (!interactiveOnly && !consumed && !tr && visible && inView) {
        if (role === "heading") {
          flush();
          const states = statesOf(el, role);
          const line = namedRow([depth, 1, "heading", "", 0, states.join(" ")], el, role, 0);
          if (line[3] && unnamed())
            Object.assign(boxes[boxes.length - 1], { name: line[3], nameAt: rows.length });
          rows.push(line);
          consumed++;
          walkChildren(el, depth + 1);
          consumed--;
          return;
        }
        if (role === "img") {
          const row = namedRow([depth, 1, "img", "", 0, ""], el, role, 0);
          if (row[3]) { flush(); rows.push(row); }
          return;
        }
        if (LANDMARKS.has(role) && role !== "group" && role !== "table" ||
            (role === "group" && tag === "FIELDSET") ||
            (role === "table" && (tag !== "TABLE" || dataTable(el)))) {
          flush();
          rows.push(namedRow([depth, 1, role, "", 0, statesOf(el, role).join(" ")], el, role,
                             0));
          structural = true;
        } else if (role === "listitem") {
          flush();
          pendingDepth = depth;
          pending = "\u2022 ";
        }
      }
      const inner = structural ? depth + 1 : depth;
      walkChildren(el, inner);
      if (!tr && (tag === "TD" || tag === "TH")) addText(" | ", inner);
      if (block || structural || box) {
        if (pending.trim() === "\u2022") pending = "";
        flush();
      }
      const st = tables.get(el);
      if (st) {  // a table: the rows it does not show, and (a virtual grid holding some of
        // its rows) the rows aria-rowcount says it has beyond those in the page
        if (st.left) rows.push([at(inner), 4, "more", "", 0, "", null, null, st.left]);
        const all = parseInt(el.getAttribute("aria-rowcount"), 10);
        if (all > st.rows)
          rows.push([at(inner), 4, "unloaded", "", 0, "", null, null, all - st.rows]);
      }
      if (box) closeBox(box, el, depth, role);
    }

    let start = document.documentElement;
    if (opts.scope) {
      start = get(opts.scope);
      if (!start) return { error: "scope" };
    }
    if (start) walk(start, 0);
    flush();
    return {
      url: location.href, title: document.title, rows,
      truncated: count > limit,
      scroll: [scrollX, scrollY, document.documentElement.scrollHeight, innerHeight],
    };
  }

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

  function query(selector, limit) {
    const out = [];
    deepQuery(document, selector, out, limit || 50);
    return out.map(idOf);
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
    return false;
  }

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

  // Another element on the path the click also runs: one with a page-given button role or
  // an onclick (a role=button holding a real button, a role=button span inside one), or
  // another button or link around the target (Chromium follows a link around a button).
  // The nearest one.
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

  // The point a click on `id` goes to and, when `secret` is given, what it activates there:
  // `target` (its info, with `id`), or `frame` when the point is inside a child frame.
  function aim(id, secret) {
    const res = point(id);
    if (res.error) return res;
    const el = get(id);
    const hit = hitTarget(el, res.x, res.y);
    const t = hit ? activationOf(hit, secret) : null;
    if (t && (t.tagName === "IFRAME" || t.tagName === "FRAME")) {
      res.frame = describe(t);
      return res;
    }
    if (t) {
      res.target = info(idOf(t));
      res.target.id = idOf(t);
    }
    const also = hit ? alsoOf(hit, t) : null;
    if (also) {
      res.also = info(idOf(also));
      res.also.id = idOf(also);
    }
    if (hit) res.hit = idOf(hit);
    return res;
  }

  // What the click a press on one element and a release on another makes activates: the
  // browser sends it to their nearest common ancestor. Its info (with `id`), or null.
  function commonTarget(a, b, secret) {
    const down = get(a), up = get(b);
    if (!down || !up) return null;
    const above = new Set();
    for (let n = down; n; n = composedParent(n)) above.add(n);
    let common = up;
    while (common && !above.has(common)) common = composedParent(common);
    const t = common ? activationOf(common, secret) : null;
    if (!t) return null;
    const found = info(idOf(t));
    found.id = idOf(t);
    return found;
  }

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
      const view = { left: br.left + box.clientLeft, top: br.top + box.clientTop };
      view.right = view.left + box.clientWidth;
      view.bottom = view.top + box.clientHeight;
      const sx = cs.overflowX === "auto" || cs.overflowX === "scroll";
      const sy = cs.overflowY === "auto" || cs.overflowY === "scroll";
      const dx = sx ? shift(r.left, r.right, view.left, view.right, centre) : 0;
      const dy = sy ? shift(r.top, r.bottom, view.top, view.bottom, centre) : 0;
      if (dx || dy) {
        const x0 = box.scrollLeft, y0 = box.scrollTop;
        box.scrollBy({ left: dx, top: dy, behavior: "instant" });
        const mx = box.scrollLeft - x0, my = box.scrollTop - y0;
        if (mx || my) scrolled = true;
        r = { left: r.left - mx, top: r.top - my, right: r.right - mx, bottom: r.bottom - my };
      }
      r = { left: Math.max(r.left, view.left), top: Math.max(r.top, view.top),
            right: Math.min(r.right, view.right), bottom: Math.min(r.bottom, view.bottom) };
      if (r.right <= r.left || r.bottom <= r.top) return { hidden: describe(box) };
    }
    const dx = shift(r.left, r.right, 0, innerWidth, centre);
    const dy = shift(r.top, r.bottom, 0, innerHeight, centre);
    if (dx || dy) {
      const x0 = scrollX, y0 = scrollY;
      scrollBy({ left: dx, top: dy, behavior: "instant" });
      const mx = scrollX - x0, my = scrollY - y0;
      if (mx || my) scrolled = true;
      r = { left: r.left - mx, top: r.top - my, right: r.right - mx, bottom: r.bottom - my };
    }
    return { scrolled, shown: r };
  }

  // Scroll the element into view in every box that clips it and in its frame's viewport:
  // `{scrolled}`, or `{hidden}` naming a box that cuts it off and cannot scroll.
  function scrollIntoView(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { scrolled: false };
    const res = reveal(el, false);
    delete res.shown;
    return res;
  }

  // Where a click lands: the element is brought into view, then the centre of its shown part
  // if a click there reaches it, else another uncovered point. When a sticky header or a
  // fixed bar lies on it, it is brought to the middle of every box and tried again, as a
  // person scrolls a row out from under a list's header; a modal is reported as it is.
  function point(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { error: "gone" };
    const b = el.getBoundingClientRect();
    if ((b.width === 0 && b.height === 0) || getComputedStyle(el).visibility === "hidden")
      return { error: "hidden", what: describe(el) };
    let shown = reveal(el, false);
    if (shown.hidden) return { error: "hidden", what: describe(el), clip: shown.hidden };
    let scrolled = shown.scrolled;
    let res = spot(el, shown.shown);
    if (res.error === "covered" && res.bar) {
      shown = reveal(el, true);
      if (shown.hidden) return { error: "hidden", what: describe(el), clip: shown.hidden };
      scrolled = scrolled || shown.scrolled;
      res = spot(el, shown.shown);
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

  function spot(el, shown) {  // a point of `shown` (its visible part) that reaches `el`
    const r = el.getBoundingClientRect();
    const box = [r.left, r.top, r.width, r.height];
    const left = Math.max(shown.left, 0), top = Math.max(shown.top, 0);
    const right = Math.min(shown.right, innerWidth), bottom = Math.min(shown.bottom, innerHeight);
    if (right <= left || bottom <= top) return { error: "offscreen", rect: box };
    const cx = (left + right) / 2, cy = (top + bottom) / 2;
    const first = hitTarget(el, cx, cy);
    if (hits(el, first)) return { x: cx, y: cy, rect: box };
    const fx = [0.5, 0.25, 0.75, 0.1, 0.9], fy = [0.5, 0.25, 0.75, 0.1, 0.9];
    for (const a of fy) for (const b of fx) {
      const x = left + (right - left) * b, y = top + (bottom - top) * a;
      if (hits(el, hitTarget(el, x, y))) return { x, y, rect: box };
    }
    return { error: "covered", cover: describe(first), what: describe(el), bar: bar(first) };
  }

  // Offset of an iframe's content box inside this frame's viewport.
  function frameOffset(id) {
    const el = get(id);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return [r.left + el.clientLeft + parseFloat(cs.paddingLeft),
            r.top + el.clientTop + parseFloat(cs.paddingTop)];
  }

  function info(id) {
    const el = get(id);
    if (!el) return null;
    const src = standIn(el) || el;
    const role = roleOf(src);
    const dragged = dragItem(el) && !NAME_FROM_CONTENT.has(role);
    const [name, nameLeft] = cut(fullNameOf(src, dragged ? "clickable" : role), NAME_MAX);
    return {
      role, name, nameLeft, tag: el.tagName.toLowerCase(),
      hint: name ? "" : iconEvidence(el).hint,
      type: src.type || null, editable: !!el.isContentEditable,
      value: valueOf(src, role), checked: src.checked === undefined ? null : src.checked,
      disabled: !!(src.matches && src.matches(":disabled")), connected: el.isConnected,
      states: statesOf(src, role),
      autocomplete: src.getAttribute ? src.getAttribute("autocomplete") : null,
      field: src.getAttribute ? [src.getAttribute("name"), src.id].filter(Boolean).join(" ") : "",
      href: linkOf(el), frameUrl: window === window.top ? "" : location.href,
      form: formOf(src), box: boxOf(el), text: shownText(src), near: nearText(src),
    };
  }

  // What a person reads on the element itself, whatever its accessible name says.
  function shownText(el) {
    if (el.tagName === "INPUT") {
      const t = (el.type || "").toLowerCase();
      return t === "submit" || t === "button" || t === "reset" ? clean(el.value) : "";
    }
    if (el.tagName === "SELECT" || el.tagName === "TEXTAREA") return "";
    return clean(el.innerText || "").slice(0, 300);
  }

  // The text around the element a person reads with it: its form's, or that of the largest
  // of the four nearest containers of its form (or of itself) that stays short (a card, a
  // checkout summary, a dialog). A form or container that spans a page region counts not.
  // Amounts read from it count only for a button that sends its form and says nothing.
  const NEAR_CHARS = 600;
  const REGION = 4000;
  function nearText(el) {
    const found = el.form || (el.closest && el.closest("form"));
    const form = found && (found.textContent || "").length <= REGION ? found : null;
    let near = form ? clean(form.innerText || "") : "";
    let n = composedParent(form || el);
    for (let i = 0; n && i < 4; i++, n = composedParent(n)) {
      if (n.tagName === "BODY" || n.tagName === "HTML") break;
      if ((n.textContent || "").length > REGION) break;
      const t = clean(n.innerText || "");
      if (t.length > 400) break;
      near = t;
    }
    return near.slice(0, NEAR_CHARS);
  }

  function boxOf(el) {  // in page coordinates, for a picture of it beside a question
    const r = el.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.width, r.height];
  }

  // -- what policy reads: where a link leads and what a form holds --
  // The element with keyboard focus in this document; a frame element holding focus comes
  // back as {frame: id}, for the caller to ask that frame's document in turn.
  function focusedInfo() {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") return { frame: idOf(el) };
    return info(idOf(el));
  }

  function linkOf(el) {
    const a = el.closest && el.closest("a[href], area[href]");
    return a ? a.href : "";
  }

  const PAYMENT = /\b(cc-|card|cvc|cvv|csc|iban|expir)/i;
  const OTP = /one-time-code|\b(otp|totp|2fa|mfa)\b|verification.?code/i;

  function kindOf(input) {
    const hints = [input.getAttribute("autocomplete"), input.name, input.id].join(" ");
    if (input.type === "password") return "password";
    if (PAYMENT.test(hints)) return "payment";
    if (OTP.test(hints)) return "otp";
    return "";
  }

  function formOf(el) {
    const form = el.form || (el.closest && el.closest("form"));
    if (!form) return null;
    const kinds = new Set(Array.from(form.elements).map(kindOf));
    const submitter = form.querySelector(
      "button:not([type]), button[type=submit], input[type=submit], input[type=image]");
    const submits = form === el.form && (
      (el.tagName === "BUTTON" && (el.type || "submit") === "submit")
      || (el.tagName === "INPUT" && (el.type === "submit" || el.type === "image")));
    const action = form.getAttribute("action") === null ? "" : form.action;
    return {
      action, method: (form.getAttribute("method") || "get").toLowerCase(),
      name: form.getAttribute("aria-label") || form.getAttribute("name") || form.id || "",
      submitName: submitter ? nameOf(submitter, roleOf(submitter)) : "",
      submitText: submitter ? shownText(submitter) : "",
      hasPassword: kinds.has("password"), hasPayment: kinds.has("payment"),
      hasOtp: kinds.has("otp"), submits,
    };
  }

  // All an element holds, for `text @N`: a field's value (a password's stays masked), else
  // its rendered text. Reads only: nothing scrolls, takes focus or changes.
  function fullText(id) {
    const el = get(id);
    if (!el) return null;
    const src = standIn(el) || el;
    const role = roleOf(src);
    if (role === "textbox" && src.isContentEditable)
      return { kind: "value", text: src.innerText || "" };
    const value = valueOf(src, role);
    if (src.tagName === "INPUT" && src.type === "password")
      return { kind: "value", text: value || "" };
    if (value !== null && value !== undefined &&
        (src.tagName === "INPUT" || src.tagName === "TEXTAREA" || src.tagName === "SELECT" ||
         value !== "")) return { kind: "value", text: String(value) };
    return { kind: "text", text: el.innerText !== undefined ? el.innerText : el.textContent };
  }

  function pageText() {
    return document.body ? document.body.innerText : "";
  }

  function markdown() {
    const out = [];
    let line = "";
    const push = () => { const t = line.replace(/[ \t]+/g, " ").trim(); if (t) out.push(t); line = ""; };
    function md(node, listDepth) {
      if (node.nodeType === 3) { line += node.data.replace(/\s+/g, " "); return; }
      if (node.nodeType !== 1) return;
      const el = node;
      if (SKIP_TAGS.has(el.tagName) || hiddenForName(el)) return;
      const tag = el.tagName;
      if (/^H[1-6]$/.test(tag)) { push(); line = "#".repeat(+tag[1]) + " " + clean(el.innerText); push(); return; }
      if (tag === "A" && el.hasAttribute("href")) {
        const t = clean(el.innerText);
        if (t) line += "[" + t + "](" + el.href + ")";
        return;
      }
      if (tag === "IMG") { const alt = clean(el.getAttribute("alt")); if (alt) line += "![" + alt + "]"; return; }
      if (tag === "BR") { push(); return; }
      if (tag === "LI") { push(); line = "  ".repeat(Math.max(0, listDepth - 1)) + "- "; }
      if (tag === "PRE") { push(); out.push("```\n" + el.innerText + "\n```"); return; }
      const block = isBlock(el);
      if (block && tag !== "LI") push();
      const nextDepth = tag === "UL" || tag === "OL" ? listDepth + 1 : listDepth;
      const root = el.shadowRoot || el;
      for (let c = root.firstChild; c; c = c.nextSibling) md(c, nextDepth);
      if (tag === "TD" || tag === "TH") line += " | ";
      if (block) push();
    }
    if (document.body) md(document.body, 0);
    push();
    return out.join("\n");
  }

  // Wait helpers: state of an element by id, for `wait`.
  function state(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { attached: false, visible: false };
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return {
      attached: true,
      visible: r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && cs.display !== "none",
      enabled: !(el.matches && el.matches(":disabled")),
      checked: (standIn(el) || el).checked === true ||
        el.getAttribute("aria-checked") === "true",
    };
  }

  // What covers the element at (x, y) of this frame's viewport, or null when it is on top.
  function coverOf(id, x, y) {
    const el = get(id);
    if (!el) return "nothing (it is gone)";
    const hit = hitTarget(el, x, y);
    return hits(el, hit) ? null : describe(hit);
  }

  // The border box in this frame's viewport, covered or not.
  function rect(id) {
    const el = get(id);
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  }

  globalThis.__ts = {
    idOf, get, snapshot, query, point, aim, commonTarget, scrollIntoView, frameOffset, info,
    queryIn, order, dropSpot, handleOf,
    focusedInfo, describe, pageText, fullText,
    markdown, state, rect, coverOf,
  };
  return "installed";
})()
