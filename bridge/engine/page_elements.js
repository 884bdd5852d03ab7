// The page helper's first file: what an element is to it: its id (per frame, per node,
// stable for the node's life), role and accessible name (its states: page_states.js). It
// opens the namespace the helper's files share while they install (globalThis.__tsParts); each
// file takes what it uses from it and adds what it gives. Their order: PAGE_FILES in
// frames.py (the extension's reader.js lists the same); page.js, the last, publishes them.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts = {};

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
  const idKnown = (el) => ids.get(el) || 0, idsGiven = () => nextId;  // (0: never met)

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
    LI: "listitem", UL: "list", OL: "list" };
  // roles a person acts on: these always get a ref
  const ACTIONABLE = new Set([
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox",
    "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider",
    "spinbutton", "treeitem", "scrollbar",
  ]);
  // a selector of the controls that have refs of their own: what holds one (a cell, a
  // listbox, a card) is not the thing acted on, nor described, through it
  const CONTROLS = ["button", "a[href]", "input:not([type=hidden])", "select", "textarea",
    ...[...ACTIONABLE].map((r) => "[role=" + r + "]")].join(",");
  // roles whose name comes from their content
  const NAME_FROM_CONTENT = new Set([
    "button", "link", "heading", "checkbox", "radio", "option", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "treeitem", "gridcell", "cell",
    "columnheader", "rowheader", "tooltip", "clickable", "summary", "legend", "caption",
  ]);
  // roles ARIA names by their author only, whose elements a page makes act with its words
  // (a menu's list items, a clickable card): named by them when they act
  const WORDS_NAME = new Set(["listitem", "article", "group", "region", "note", "figure",
                              "paragraph", "term", "definition", "blockquote"]);
  const LANDMARKS = new Set([
    "banner", "navigation", "main", "complementary", "contentinfo", "search", "form",
    "region", "dialog", "alertdialog", "alert", "tabpanel", "menu", "menubar", "tablist",
    "tree", "grid", "treegrid", "listbox", "radiogroup", "toolbar", "group", "table", "status",
  ]);
  // widgets and panels a name from content leaves out with what they hold (textOf), as
  // Chrome does (it leaves out landmarks and articles too, where a card's link would then
  // have no name: those stay)
  const NAMELESS_PARTS = new Set(["group", "menu", "menubar", "listbox", "tree", "treegrid",
                                  "grid", "tablist", "tabpanel", "dialog", "alertdialog",
                                  "toolbar", "radiogroup"]);
  const SKIP_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK",
                            "TITLE", "BASE"]);

  const inSectioning = (el) =>
    !!(el.parentElement && el.parentElement.closest("article, aside, main, nav, section"));

  // ARIA a web component set through its ElementInternals (hook.js keeps it; Material Web's
  // radio): {role, ariaLabel, ariaChecked, ...} of a custom element, or null. Asked of the
  // hook once per call of the helper (`P.hookKey`: the hub's secret, once a call gave it).
  let internals = null;
  function internalAria(el) {
    if (!el.tagName.includes("-")) return null;  // (only a custom element has internals)
    if (internals === null) {
      const got = (internals = new Map()), key = P.hookKey;
      queueMicrotask(() => { internals = null; });
      if (key) {
        const take = (e) => {
          try { got.set(e.composedPath()[0], JSON.parse(e.detail)); } catch { /* none */ }
        };
        document.addEventListener("ts-aria-" + key, take, true);
        try {
          document.dispatchEvent(new CustomEvent("ts-ask-aria-" + key));
        } finally {
          document.removeEventListener("ts-aria-" + key, take, true);
        }
      }
    }
    return internals.get(el) || null;
  }
  // an ARIA attribute's value, else what the element's internals say (`aria-checked`:
  // ariaChecked), or what the box of ARIA 1.1's combobox says of its field, or null
  const ARIA_WORDS = { haspopup: "HasPopup", valuenow: "ValueNow", valuemin: "ValueMin",
    valuemax: "ValueMax", valuetext: "ValueText", readonly: "ReadOnly",
    multiselectable: "MultiSelectable", multiline: "MultiLine" };
  const ariaAttr = (el, name) => {
    const own = el.getAttribute(name);
    if (own !== null) return own;
    if (el.tagName === "INPUT") {
      const box = POPUP.test(name) && P.comboOf(el);
      return box ? box.getAttribute(name) : null;
    }
    if (!el.tagName.includes("-")) return own;
    const a = internalAria(el), rest = name.slice(5);
    const key = "aria" + (ARIA_WORDS[rest] || rest[0].toUpperCase() + rest.slice(1));
    return a && typeof a[key] === "string" ? a[key] : null;
  };

  const POPUP = /^aria-(?:expanded|haspopup)$/;
  const FIELD_TAGS = /^(?:INPUT|TEXTAREA|SELECT)$/, NOT_FIELD = new RegExp("^(?:search|" +
    "navigation|main|region|form|group|banner|contentinfo|complementary|none|presentation)$");
  function roleOf(el) {
    const explicit = el.getAttribute("role") ||
      (el.tagName.includes("-") ? (internalAria(el) || {}).role : null);
    const first = explicit ? explicit.trim().split(/\s+/)[0] : "";
    // (a field keeps its kind under a landmark's role or none: Carbon's search field; the
    // box of ARIA 1.1's combobox is none, its field the combobox)
    if (first && !(FIELD_TAGS.test(el.tagName) && NOT_FIELD.test(first)))
      return first === "none" || first === "presentation" ||
        (first === "combobox" && !FIELD_TAGS.test(el.tagName) && P.comboField(el)) ? "" : first;
    const tag = el.tagName;
    switch (tag) {
      case "A": case "AREA": return el.hasAttribute("href") ? "link" : "";
      case "INPUT": {
        const type = (el.getAttribute("type") || "text").toLowerCase();
        if (type === "hidden") return "";
        if (/^(?:text|search|email|tel|url)$/.test(type) &&
            (el.hasAttribute("list") || P.comboOf(el))) return "combobox";
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

  // A label whose control is not rendered (a styled toggle hides its input, draws the label)
  // stands in for it, a person clicking it; not for a field off the page, nor a text field.
  function standIn(el) {
    const c = el.tagName === "LABEL" ? el.control : null;
    if (!c || c.tagName !== "INPUT" || /^(?:text|search|email|url|tel|number|password)$/
      .test(c.type)) return null;
    const r = c.getBoundingClientRect(), cs = getComputedStyle(c);
    if (r.width > 0 && r.height > 0 && cs.visibility === "visible") return null;
    return P.offPage(c, cs) ? null : c;
  }

  // Whether a rendered label stands in for `input` (standIn): the label's line and ref are
  // the control's, and the input, which no person can click, gets none of its own.
  function stoodInFor(input) {
    for (const l of input.labels || []) {
      if (l.getClientRects().length && standIn(l) === input) return true;
    }
    return false;
  }

  // -- accessible names -----------------------------------------------------------------
  const HAS_WORD = /[\p{L}\p{N}]/u;
  // (a zero-width space is no word: MUI's empty select shows one to keep its height)
  const clean = (s) => (!s ? "" : s.indexOf("\u200b") < 0 ? s : s.replace(/\u200b/g, ""))
    .replace(/\s+/g, " ").trim();

  // The longest name and value a snapshot line shows; the rest is counted, not dropped
  // silently (snapshot.py prints the count, and `text @N` reads the whole).
  const NAME_MAX = 150, VALUE_MAX = 300, PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

  // [the first max UTF-16 units of s, never half a character; how many characters (code
  // points, as Python counts them) were left out]; whole when the mark saying so
  // (` [+12 chars]`) would be as long as what it leaves out (snapshot.py `worth_cutting`)
  function cut(s, max) {
    if (s.length - max <= 12) return [s, 0];
    let end = max;
    const c = s.charCodeAt(end - 1);
    if (c >= 0xD800 && c <= 0xDBFF) end--;
    const rest = s.slice(end);
    return [s.slice(0, end), rest.length - (rest.match(PAIR) || []).length];
  }

  // The part of the page the snapshot walks that the page shows under the pointer (page.js
  // `hoverOnly`): its words name what it holds as if shown.
  let shownOnHover = null;
  function revealing(el) {
    const was = shownOnHover;
    shownOnHover = el;
    return was;
  }

  // (`inside` a name's element: nor what no one sees there, a heading's see-through anchor
  // link shown under the pointer, Docusaurus's "Direct link to Requirements")
  function hiddenForName(el, inside) {
    if (el.getAttribute("aria-hidden") === "true") return true;  // (`hidden`: by its style)
    const cs = getComputedStyle(el);
    if (shownOnHover && (el === shownOnHover || shownOnHover.contains(el)))
      return el !== shownOnHover && cs.display === "none";
    return cs.display === "none" || cs.visibility === "hidden" ||
      cs.contentVisibility === "hidden" || P.seeThrough(el, cs) || (!!inside && cs.opacity === "0");
  }

  // Whether the browser shows none of `el`'s content, only its own box: a closed details
  // (but its summary) or `hidden="until-found"`, which a person cannot see before opening.
  function folded(el) {
    return (el.tagName === "DETAILS" && !el.open) || el.getAttribute("hidden") === "until-found";
  }

  // The summary a details shows (its first summary child), or null.
  const summaryOf = (details) =>
    [...details.children].find((c) => c.tagName === "SUMMARY") || null;

  // `own`: {said: false}, without the words of the controls inside that come after words of
  // its own, or that show none (they have lines of their own; a leading link, a card's
  // title, stays); {seen: true}, without an SVG icon's name, which no one sees (what a
  // control shows as its value; a tree node's caret titled "Expand group")
  function textOf(node, depth, own) {
    if (depth > 30) return "";
    if (node.nodeType === 3) {
      if (own && own.said === false && HAS_WORD.test(node.data)) own.said = true;
      return node.data;
    }
    if (node.nodeType !== 1) return "";
    const el = node;
    if (SKIP_TAGS.has(el.tagName) || hiddenForName(el, depth > 0)) return "";
    if (own && own.said !== undefined && depth > 0 && el.matches(CONTROLS) &&
        (own.said || !HAS_WORD.test(el.innerText || ""))) return " ";
    if (own && own.seen && el.tagName === "svg") return "";  // (its title, its label)
    if (el.tagName === "BR") return " ";  // a line break parts words ("Add<br>to cart")
    // what a tree item, a menu item or a tab holds of its own (its sub-items, its submenu)
    // is no part of its name, as Chrome names it: a folder is "src", not all its files
    if (depth > 0 && NAMELESS_PARTS.has((el.getAttribute("role") || "").trim())) return " ";
    if (el.tagName === "SELECT") {  // (its choice, before its label; none laid unseen on words)
      const o = getComputedStyle(el).opacity !== "0" && el.selectedOptions[0];
      return " " + (o ? o.text : "") + " ";
    }
    const label = el.getAttribute("aria-label");
    const says = (words) => {
      if (own && own.said === false && HAS_WORD.test(words)) own.said = true;
      return " " + words + " ";
    };
    if (label && label.trim()) return depth && P.iconBeside(el, label) ? " " : says(label);
    if (el.tagName === "IMG" || (el.tagName === "INPUT" && el.type === "image"))
      return says(el.getAttribute("alt") || "");
    // a checkbox's or radio's value is what the form sends, never shown (HTML-AAM names only
    // button, submit and reset inputs by their value)
    if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) return " ";
    // a password's value (one the browser filled in too) is no part of any name
    if (el.tagName === "INPUT" && masked(el)) return " ";
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") return " " + (el.value || "") + " ";
    const block = apart(el);
    let out = "";
    const root = el.shadowRoot || el;
    for (let c = root.firstChild; c; c = c.nextSibling) out += textOf(c, depth + 1, own);
    if (el.tagName === "SLOT") {
      for (const c of el.assignedNodes()) out += textOf(c, depth + 1, own);
    }
    return block ? " " + out + " " : out;
  }

  // Whether el's words are `name`, which it has from elsewhere (a title, a label): it says
  // them once (a pager's item titled "2" holding "2")
  const SAID_ONCE = 80;  // characters of a name looked for so
  const saysName = (el, name) => !!name && name.length <= SAID_ONCE &&
    clean(el.textContent || "") === name;

  // Whether a control named by aria-label, aria-labelledby or a label's `for` shows words its
  // name does not hold (a date picker's "Choose Month" button showing "December", a bell's
  // count, Mantine's date button): said under its line. Not an icon font's glyph name.
  function showsOther(el, name) {
    if (!el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby") &&
        !(el.tagName === "BUTTON" && el.labels && el.labels.length)) return false;
    const words = clean(el.innerText || "");
    return !!words && words.length <= SAID_ONCE && HAS_WORD.test(words) &&
      !clean(name).toLowerCase().includes(words.toLowerCase()) &&
      ![el, ...el.querySelectorAll("*")].slice(0, 8).some((n) => P.iconFont(n));
  }

  // Whether one of two texts holds the other's words whole, case aside ("Drag Alpha" and
  // "Alpha"; "Grace" and "Grace wrote").
  function sharesWords(a, b) {
    const x = ` ${clean(a).toLowerCase()} `, y = ` ${clean(b).toLowerCase()} `;
    return x.trim() !== "" && y.trim() !== "" && (x.includes(y) || y.includes(x));
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

  const FIELD_IN_HOST = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON"]);
  function labelsText(el) {
    const labels = el.labels || (el.tagName.includes("-") ? hostLabels(el) : null);
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
        if (!P.errorPart(c, el)) t += textOf(c, 0);
      }
      parts.push(clean(t));
    }
    return clean(parts.join(" "));
  }

  // the labels of a custom element that takes part in forms (a label holds it, or names it
  // by `for`): the browser makes it their control
  function hostLabels(el) {
    const found = [];
    const around = el.closest("label");
    if (around && around.control === el) found.push(around);
    const root = el.getRootNode();
    if (el.id && root.querySelectorAll) {
      for (const l of root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`))
        if (l !== around && l.control === el) found.push(l);
    }
    return found;
  }

  function textOfExcept(node, skip) {
    if (node === skip) return "";
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return "";
    if (node.tagName === "BR") return " ";
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
    // (not the label a kit puts on its field over the page's: page_values.js `KIT_LABEL`)
    if (!name) name = clean(ariaAttr(el, "aria-label")).replace(P.KIT_LABEL, "");
    // a web component labelled as a form's field is (Material Web's radio, a <label>
    // around it), and a field in its shadow root by its host's label (its check box)
    if (!name && el.tagName.includes("-")) name = labelsText(el);
    if (!name && FIELD_IN_HOST.has(el.tagName) && !(el.labels && el.labels.length)) {
      const host = el.getRootNode().host;
      if (host && host.tagName.includes("-")) name = labelsText(host);
    }
    if (!name) {
      const tag = el.tagName;
      if (tag === "INPUT") {
        const type = (el.type || "text").toLowerCase();
        if (type === "button" || type === "submit" || type === "reset") {
          name = clean(el.value) ||
            (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
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
      // what acts only through a page's script (a clickable card, a dialog's header one drags
      // it by) is named by its words, not by the controls after them
      if (role === "clickable") {
        name = clean(textOf(el, 0, { said: false, seen: true })) ||
          clean(textOf(el, 0, { said: false }));
      }
      if (!name) name = clean(textOf(el, 0));
      if (!name && el.tagName === "A") {
        const img = el.querySelector("img[alt], svg title");
        if (img) name = clean(img.getAttribute ? img.getAttribute("alt") || img.textContent : "");
      }
      // (not for links: a page marks its places with hundreds of empty ones)
      if (!name && role !== "link" && (ACTIONABLE.has(role) || role === "clickable"))
        name = P.drawnWords(el);  // (page_hints.js, there when a snapshot runs)
    }
    if (!name) name = clean(el.getAttribute("title")) || P.wrappingLabel(el);
    // a text box of ARIA's (an editor, a chat box) is named by its placeholder last, as a
    // field's placeholder names it, and as Chrome names it
    if (!name && (role === "textbox" || role === "searchbox" || role === "combobox"))
      name = clean(el.getAttribute("aria-placeholder"));
    if (!name && el.tagName === "svg") {
      const t = el.querySelector("title");
      if (t) name = clean(t.textContent);
    }
    return name;
  }

  // The row with its name set; when the name or the value (valueLeft) was cut, a 10th cell
  // [characters left out of the name, of the value].
  function namedRow(row, el, role, valueLeft) {
    // (a dialog with no name of its own is named by what it says first, page_shown.js)
    const [name, left] = cut(fullNameOf(el, role) || (/dialog$/.test(role) ?
      P.dialogName(el, role) : ""), NAME_MAX);
    row[3] = name;
    if (left || valueLeft) {
      while (row.length < 9) row.push(row.length === 5 ? "" : null);
      row.push([left, valueLeft || 0]);
    }
    return row;
  }

  // -- layout helpers --------------------------------------------------------------------
  // How a box of a `display` sits among its neighbours' words, for the snapshot, names and
  // the page's text alike. standsApart: its words are apart from theirs: a block, a cell,
  // and a box of its own in a line (an inline-block badge, an inline-flex chip), unlike
  // inline text. breaksLine: it is on lines of its own (a block, a list item, a table row or
  // cell; a flex or grid item is a block to CSS).
  const standsApart = (d) => d !== "inline" && d !== "contents";
  const breaksLine = (d) => !(d.startsWith("inline") || d === "contents");

  // (or a margin or a padding parts it: a place's "10 Downing Street" and "London, UK")
  const apart = (el) => ((cs) => standsApart(cs.display) || P.boxedInline(cs))(
    getComputedStyle(el));

  function isBlock(el) {  // a table's cells share their row's line
    const d = getComputedStyle(el).display;
    return breaksLine(d) && d !== "table-cell";
  }

  // A field whose value the page hides as a password's: type=password, or a text field
  // shown as dots by CSS (a PIN, a key), which the page means as secret just the same.
  function masked(el) {
    if (el.tagName !== "INPUT") return false;
    if ((el.type || "").toLowerCase() === "password") return true;
    const css = getComputedStyle(el).webkitTextSecurity;
    return !!css && css !== "none";
  }

  Object.assign(P, { idOf, get, ACTIONABLE, CONTROLS, NAME_FROM_CONTENT, LANDMARKS, SKIP_TAGS,
    roleOf, standIn, stoodInFor, HAS_WORD, clean, NAME_MAX, VALUE_MAX, cut, hiddenForName,
    revealing, labelsText, idKnown, idsGiven, textOf, nameOf, fullNameOf, namedRow,
    standsApart, breaksLine, isBlock, masked, folded, summaryOf, byIds, sharesWords,
    saysName, showsOther, WORDS_NAME, ariaAttr });
})();
