// The page helper: what a form control holds as a person reads it: a field's value (a
// password's as bullets), a select's chosen options, a slider's value, what a combobox
// shows as chosen, and a select's options for `snapshot --json`.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { clean, masked, textOf } = P;

  // What a combobox whose input is for searching shows as chosen beside it (react-select,
  // Ant Design, vue-select, Choices.js put the choice next to an empty input): the words
  // of the nearest box around the input that has any, within the box that holds nothing
  // else a person acts on and not the field's label; never a placeholder, the list of
  // choices, or what is hidden.
  const OTHER_CONTROLS = "input:not([type=hidden]), select, textarea, button, a[href], " +
    "label, [role=listbox], [role=option], [role=button], [role=combobox]";
  function shownChoice(el) {
    const said = new Set((el.getAttribute("aria-describedby") || "").split(/\s+/)
      .filter(Boolean));
    // words that are not the choice: a placeholder (react-select describes the input by it),
    // what it tells screen readers (PrimeVue's "No results found")
    const aside = (n, box) => {
      for (; n && n !== box; n = n.parentElement) {
        if (said.has(n.id) || n.getAttribute("aria-hidden") === "true" ||
            n.matches("[aria-live], [role=status], [role=alert]") ||
            /placeholder/i.test(n.getAttribute("class") || "")) return true;
      }
      return false;
    };
    let box = el;
    for (let i = 0; i < 3; i++) {
      box = box.parentElement;
      if (!box || box === document.body) return null;
      if ([...box.querySelectorAll(OTHER_CONTROLS)].some((c) => c !== el)) return null;
      const parts = [];
      const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        const p = t.parentElement;
        if (t.data.trim() && !el.contains(t) && !aside(p, box) && p.checkVisibility())
          parts.push(t);
      }
      // (a multiple select's chips, each a box of its own: its choices, listed)
      const said = parts.filter((t) => P.HAS_WORD.test(t.data));  // (not its arrow's glyph)
      const chips = said.length > 1 &&
        said.every((t) => P.standsApart(getComputedStyle(t.parentElement).display));
      const words = chips ? said.map((t) => clean(t.data)).join(", ")
        : clean(parts.map((t) => t.data).join(" "));
      if (words) return words;
    }
    return null;
  }

  // Whether a kit's combobox field laid off the page stands for the choice its box shows
  // (Tom Select's, Selectize's, once one is chosen): it is the field, reached through the box
  const movedAside = (el) => el.getAttribute("role") === "combobox" && !!shownChoice(el);

  // What a collapsed combobox with an empty field says is chosen in the list it controls,
  // where nothing beside the field shows it: its options marked selected (Element Plus
  // draws the choice where it draws its placeholder, and marks the option; Ant Design's
  // list, for screen readers, says the choice's value, not the words shown); while the list
  // is open, a selected option is only the one the keys are on.
  function chosen(el) {
    if (el.getAttribute("aria-expanded") === "true") return null;
    const id = el.getAttribute("aria-controls") || el.getAttribute("aria-owns");
    const list = id && el.getRootNode().getElementById &&
      el.getRootNode().getElementById(id.split(/\s+/)[0]);
    if (!list || list.getAttribute("role") !== "listbox") return null;
    const picked = Array.from(list.querySelectorAll("[role=option][aria-selected=true]"),
                              (o) => clean(o.textContent)).filter(Boolean);
    return picked.length ? picked.join(", ") : null;
  }

  const HOLDS_CHOICES = "input, select, textarea, [contenteditable], [role=listbox], " +
    "[role=option], [role=textbox], [role=tree], [role=grid]";

  // How far a progress bar or a meter is, as a person reads it: the page's own words for
  // it, else its value as a share ("30%") or out of its maximum ("3 of 4"); null while it
  // measures nothing (a busy bar).
  function gauge(el) {
    const said = el.getAttribute("aria-valuetext");
    if (said && said.trim()) return clean(said);
    let now, min, max;
    if (el.tagName === "PROGRESS" || el.tagName === "METER") {
      if (el.tagName === "PROGRESS" && !el.hasAttribute("value")) return null;
      [now, min, max] = [el.value, el.tagName === "METER" ? el.min : 0, el.max];
    } else {
      const num = (attr, or) => {
        const v = parseFloat(el.getAttribute(attr));
        return Number.isFinite(v) ? v : or;
      };
      [now, min, max] = [num("aria-valuenow", NaN), num("aria-valuemin", 0),
                         num("aria-valuemax", 100)];
      if (!Number.isFinite(now)) return clean(el.textContent || "") || null;
    }
    if (min === 0 && (max === 100 || max === 1)) return Math.round(now / max * 100) + "%";
    return `${+now.toFixed(2)} of ${+max.toFixed(2)}`;
  }

  // What an editor a page makes of an element (contenteditable: a code editor, a rich text
  // box) holds, line by line as it shows them: each innermost block a line (an empty one a
  // blank line), each line break a line (not one that ends its block: that only gives an
  // empty line its height). Where its style keeps spaces (a code editor's indentation) they
  // stay, but at a line's end; elsewhere a run of them is one. Not in it: what it hides
  // from assistive technology (Slate's placeholder), zero-width characters. Where it left
  // lines out (CodeMirror 6's gap), a line "…".
  const INLINE = /^(inline|inline-block|inline-flex|inline-grid|contents|none)$/;
  // (the usual tags of an editor's text are taken by their tag: a style read for each of a
  // long document's elements costs more than the rest of its reading)
  const INLINE_TAGS = new Set(["SPAN", "B", "I", "EM", "STRONG", "U", "S", "A", "CODE", "MARK",
                               "SUB", "SUP", "SMALL", "STRIKE", "DEL", "INS", "FONT", "KBD"]);
  const BLOCK_TAGS = new Set(["P", "DIV", "LI", "H1", "H2", "H3", "H4", "H5", "H6", "PRE",
                              "BLOCKQUOTE", "UL", "OL", "TR", "TD", "TH", "TABLE"]);
  const inline = (c) => INLINE_TAGS.has(c.tagName) ||
    (!BLOCK_TAGS.has(c.tagName) && INLINE.test(getComputedStyle(c).display));
  function editorText(el) {
    const keeps = /^(pre|pre-wrap|break-spaces)/.test(getComputedStyle(el).whiteSpace);
    const lines = [];
    let line = null;  // the line being written (null: none begun)
    const end = () => { if (line !== null) lines.push(line); line = null; };
    const walk = (n) => {
      for (let c = n.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) {
          line = (line || "") + (keeps ? c.data : c.data.replace(/\s+/g, " "));
        } else if (c.nodeType === 1 && c.getAttribute("aria-hidden") !== "true") {
          if (c.tagName === "BR") {
            lines.push(line || "");
            line = null;
          } else if (c.classList.contains("cm-gap")) {  // lines it did not draw
            end();
            lines.push("\u2026");
          } else if (inline(c)) walk(c);
          else { end(); walk(c); end(); }
        }
      }
    };
    walk(el);
    end();
    let out = lines.join("\n").replace(/[\u200b\ufeff]/g, "").split("\n")
      .map((l) => keeps ? l.replace(/\s+$/, "") : clean(l));
    while (out.length && !out[0]) out.shift();
    while (out.length && !out[out.length - 1]) out.pop();
    if (!keeps) out = out.filter((l, i) => l || out[i - 1]);  // (one blank line at most)
    return out.join("\n");
  }

  // The label a kit puts on a field over the page's own, which names nothing: one that
  // follows a code editor's caret (Ace's "Cursor at row 3"; the field is then named as one
  // with no label is, hinted by the words before it), or a date picker's instructions put
  // there once it opened (Pikaday's: the field keeps the name its <label> gives it), or
  // the same words on every field a kit draws (Tagify's "Tags input field").
  const KIT_LABEL = /^(?:Cursor at row \d+|Use the arrow keys to pick a date|Tags input field)$/;

  // The code editor whose keys `el` takes, when it is the field such an editor keeps of no
  // size or unseen, its lines drawn beside it (Monaco's EditContext box or text area, Ace's
  // and CodeMirror 5's text area); null for any other element (a field of the editor's own
  // widgets, in a box with a role of its own: Monaco's find and replace boxes).
  const CODE_EDITORS = ".monaco-editor, .ace_editor, .CodeMirror";
  const CODE_LINES = ".view-line, .ace_line, .CodeMirror-line";
  function codeEditorOf(el) {
    if (el.isContentEditable || !(el.tagName === "TEXTAREA" || el.editContext ||
        el.getAttribute("role") === "textbox")) return null;
    const box = el.closest(CODE_EDITORS);
    if (!box) return null;
    for (let n = el.parentElement; n && n !== box; n = n.parentElement)
      if (/^(?!presentation$|none$)./.test(n.getAttribute("role") || "")) return null;
    const tiny = (n) => {
      const r = n.getBoundingClientRect();
      return r.width <= 1 || r.height <= 1;
    };
    const up = el.parentElement;  // (CodeMirror 5 clips its wide text area in a box of none)
    return tiny(el) || getComputedStyle(el).opacity === "0" || (up && up !== box && tiny(up) &&
      getComputedStyle(up).overflow !== "visible") ? box : null;
  }
  // A part of a code editor that draws what its field holds (its lines, gutter, scroll bars,
  // cursor; a child of the editor's box or of its child), when the editor has such a field:
  // its value says it all, and the editor takes a click there for its field. Not a box
  // holding the field or a control of the editor's own (a find box, a list of suggestions).
  const OWN_PARTS = "textarea, input, button, a[href], select, [contenteditable], " +
    "[role]:not([role=presentation]):not([role=none])";
  function drawsForEditor(el) {
    const up = el.parentElement, top = up && up.parentElement;
    const box = up && up.matches(CODE_EDITORS) ? up
      : top && top.matches(CODE_EDITORS) ? top : null;
    return !!box && !el.matches(OWN_PARTS) && !el.querySelector(OWN_PARTS) && editorBox(box);
  }
  // Whether `el` is a code editor's box that has such a field: a click on it goes to the
  // field, which has the ref (Monaco's box listens for clicks once its find box opened).
  function editorBox(el) {
    return el.matches(CODE_EDITORS) && [...el.querySelectorAll("textarea, [role=textbox]")]
      .some((f) => codeEditorOf(f) === el);
  }

  // The line elements a code editor's box drew (not those of an editor inside it).
  const drawnLines = (box) => [...box.querySelectorAll(CODE_LINES)]
    .filter((l) => l.closest(CODE_EDITORS) === box);

  // The lines a code editor shows (codeEditorOf), top to bottom: only those it has drawn (it
  // leaves a long file's others out of the page); null for any other element.
  function codeLines(el) {
    const box = codeEditorOf(el);
    if (!box) return null;
    const lines = drawnLines(box)
      .map((l) => [l.getBoundingClientRect().top, l.textContent.replace(/\u00a0/g, " ")]);
    lines.sort((a, b) => a[0] - b[0]);
    const text = lines.map(([, t]) => t.replace(/[\u200b\ufeff]/g, "").replace(/\s+$/, ""))
      .join("\n");
    return text.replace(/^\n+|\n+$/g, "");
  }

  // Whether an editor may leave lines it holds out of the page, drawing only those around
  // what it shows: CodeMirror 6 puts a gap where they would be; the lines a code editor
  // (codeEditorOf) drew fill its box, or start above it, or after its first line by the
  // numbers in its gutter (it was scrolled). Its scroll height says nothing: Monaco's is
  // 16 million pixels, and it scrolls past its last line.
  const LINE_NUMBERS = ".line-numbers, .CodeMirror-linenumber, .ace_gutter-cell";
  function editorPartial(el) {
    if (el.isContentEditable) return !!el.querySelector(":scope > .cm-gap");
    const box = codeEditorOf(el);
    const lines = box ? drawnLines(box).map((l) => l.getBoundingClientRect()) : [];
    if (!lines.length) return false;
    const b = box.getBoundingClientRect(), line = lines[0].height || 1;
    const first = Math.min(...[...box.querySelectorAll(LINE_NUMBERS)]
      .map((n) => parseInt(n.textContent, 10)).filter((n) => n > 0));  // (none: Infinity)
    return (first > 1 && first < Infinity) ||
      Math.min(...lines.map((r) => r.top)) < b.top - line / 2 ||
      Math.max(...lines.map((r) => r.bottom)) > b.bottom - line;
  }

  function valueOf(el, role) {
    const tag = el.tagName;
    const code = codeLines(el);
    if (code !== null) return code;
    if (tag === "INPUT") {
      const type = (el.type || "").toLowerCase();
      if (type === "password" || (el.value && masked(el)))
        return el.value ? "\u2022\u2022\u2022\u2022" : null;
      if (type === "checkbox" || type === "radio" || type === "button" || type === "submit" ||
          type === "reset" || type === "image" || type === "hidden") return null;
      if (type === "file") {
        return el.files && el.files.length ? Array.from(el.files, (f) => f.name).join(", ") : null;
      }
      if (role === "combobox" && !el.value) return shownChoice(el) || chosen(el) || el.value;
      return el.value;
    }
    if (tag === "TEXTAREA") return el.value;
    if (tag === "SELECT") {
      return Array.from(el.selectedOptions, (o) => clean(o.text)).join(", ");
    }
    if (role === "progressbar" || role === "meter") return gauge(el);
    // a button named otherwise that shows words its name lacks (a date picker's "Choose a
    // month" showing "Dec", a bell's count): what it shows, as a person reads it
    if ((role === "button" || role === "link" || role === "tab") &&
        P.showsOther(el, P.fullNameOf(el, role))) return clean(el.innerText || "");
    if (role === "slider" || role === "spinbutton") {
      return el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow") ||
        (el.value !== undefined ? String(el.value) : null);
    }
    // (an editor's lines stay lines, as a textarea's do: a code editor's, a rich text's)
    if (role === "textbox" && el.isContentEditable) return editorText(el);
    if (role === "combobox") {
      const v = el.getAttribute("aria-valuenow") || el.getAttribute("aria-valuetext");
      if (v) return v;
      // a select made of a button (Radix, Headless UI, MUI): what it shows is its value,
      // unless that is its placeholder (Radix marks the button so while nothing is chosen)
      if (el.hasAttribute("data-placeholder")) return null;
      if (!el.isContentEditable && !el.querySelector(HOLDS_CHOICES)) {
        // its words as assistive technology reads them: not its icon (Radix's arrow, hidden
        // from it; Carbon's, titled "Open menu") nor what its style sheet hides
        let words = "";
        for (let c = el.firstChild; c; c = c.nextSibling) words += textOf(c, 1, { seen: true });
        return clean(words) || null;
      }
      // a box that shows its choice in a field it holds (Syncfusion's drop-down list: the
      // combobox is the box, its read-only input shows the choice)
      const field = el.querySelector("input:not([type=hidden]), textarea");
      if (field && field.value && !masked(field) && field.checkVisibility()) return field.value;
      // one that holds its own list and no field (FAST's select): the options it marks chosen
      if (!el.querySelector("input, textarea, [contenteditable], [role=textbox]")) {
        const picked = Array.from(el.querySelectorAll("[role=option][aria-selected=true]"),
                                  (o) => clean(o.textContent)).filter(Boolean);
        if (picked.length) return picked.join(", ");
      }
    }
    return null;
  }

  // A select's first OPTIONS_MAX options, each {text, value (when it is not the text),
  // selected, disabled (these two when true)}, and how many more it has (`more`).
  const OPTIONS_MAX = 25;
  function optionsOf(el) {
    // (a field's <datalist> suggestions too, which the browser's own popup shows)
    const list = el.tagName === "SELECT" ? el.options : el.tagName === "INPUT" && el.list ?
      el.list.options : null;
    if (!list) return null;
    const items = [];
    for (const o of list) {
      if (items.length >= OPTIONS_MAX) break;
      const item = { text: clean(o.label || o.text || o.value) };
      if (o.value !== item.text) item.value = o.value;
      if (o.selected && el.tagName === "SELECT") item.selected = true;
      if (o.disabled || (o.parentNode && o.parentNode.disabled)) item.disabled = true;
      items.push(item);
    }
    return { items, more: list.length - items.length };
  }
  // Whether a list of the page's own takes several options (`id`: its control, or one of
  // its options once it shows): the list says so (aria-multiselectable), or the kit's class
  // on the control's box or the list's (Ant Design's `ant-select-multiple`, Element Plus's
  // `is-multiple`, `react-select__value-container--is-multi`, Mantine's
  // `mantine-MultiSelect-input`, PrimeReact's `p-multiselect`), up to MANY_UP boxes out,
  // the list found from the control by aria-controls or aria-owns; or its options are items
  // one checks each on its own (Fluent's multiselect Dropdown lists menuitemcheckboxes,
  // Ionic's alert check boxes).
  const MANY_UP = 6;
  const CHECKED_ITEMS = "[role=menuitemcheckbox], [role=checkbox], input[type=checkbox]";
  const MULTI = /^(?:is-)?multiple$|[-_]multiple$|[-_]is-multi$|(?:^|[-_])multi-?select(?:$|[-_])/i;
  function takesMany(id) {
    const el = P.get(id);
    if (!el) return false;
    const marked = (n) => n.getAttribute("aria-multiselectable") === "true" ||
      [...n.classList].some((c) => MULTI.test(c));
    const out = (n) => {
      for (let k = 0; n && n.nodeType === 1 && k <= MANY_UP; k++, n = n.parentElement)
        if (marked(n)) return true;
      return false;
    };
    if (out(el) || el.matches(CHECKED_ITEMS) ||
        [...el.querySelectorAll("[class]")].slice(0, 40).some(marked)) return true;
    const ids = `${el.getAttribute("aria-controls") || ""} ${el.getAttribute("aria-owns") || ""}`;
    const root = el.getRootNode();
    return ids.split(/\s+/).some((i) => {
      const list = i && root.getElementById ? root.getElementById(i) : null;
      return !!list && (out(list) || !!list.querySelector(CHECKED_ITEMS));
    });
  }

  // Whether each element of `ids` (the options a list shows) is of the list the control
  // `controlId` opens: inside it, or inside what it or a part of it names (aria-controls,
  // aria-owns, aria-activedescendant: Select2 draws its list at the end of the page); or,
  // where nothing names the list, one no other list's control names while the control is
  // the only one open (a list button kept beside its list). An option another widget's
  // open list shows is never the control's.
  const LIST_OPENERS = "[role=combobox], [aria-haspopup]:not([aria-haspopup=false])";
  function tiedTo(controlId, ids) {
    const el = P.get(controlId);
    if (!el) return ids.map(() => false);
    const own = listsOf(el);
    const open = (n) => n.getAttribute("aria-expanded") === "true";
    const root = el.getRootNode();
    const scopes = root === document ? [document] : [document, root];
    const others = scopes.flatMap((s) => [...s.querySelectorAll("[aria-expanded=true]")])
      .filter((n) => n.matches(LIST_OPENERS) && !el.contains(n) && !n.contains(el));
    const alone = !others.length && (open(el) || !!el.querySelector("[aria-expanded=true]"));
    const theirs = alone ? [] : others.flatMap(listsOf);
    return ids.map((id) => {
      const o = P.get(id);
      if (!o) return false;
      if (own.some((r) => r.contains(o))) return true;
      return alone && !theirs.some((r) => r.contains(o));
    });
  }

  // The control and the lists it or its parts name, or the menu kept beside it (a button
  // that says nothing of it: page_states.js `besideMenu`), or the box of items it is the
  // search field of (`valueListOf`).
  function listsOf(el) {
    const found = [el], root = el.getRootNode();
    const beside = P.roleOf(el) === "button" && P.besideMenu(el, false);
    if (beside) found.push(beside);
    const values = P.valueListOf(el);  // (a dropdown of divs holds its items)
    if (values) found.push(values);
    const byId = (id) => (id && root.getElementById ? root.getElementById(id) : null);
    const parts = [el, ...[...el.querySelectorAll(
      "[aria-controls], [aria-owns], [aria-activedescendant]")].slice(0, 40)];
    for (const part of parts) {
      const named = [part.getAttribute("aria-controls"), part.getAttribute("aria-owns")];
      for (const id of named.join(" ").split(/\s+/)) {
        const list = byId(id);
        if (list) found.push(list);
      }
      const active = byId(part.getAttribute("aria-activedescendant"));
      if (active) found.push(active.closest(LISTS) || active.parentElement || active);
    }
    return found;
  }
  const LISTS = "[role=listbox], [role=menu], [role=tree], [role=grid], [role=treegrid]";

  // The native <select> a widget library hides and draws its own box for (Chosen and
  // Select2 put their box right after it, bootstrap-select beside it in one box, Choices.js
  // inside its own): the one hidden in the widget, or just before it or before a box around
  // it (SELECT_UP boxes out at most); null where there is none.
  const SELECT_UP = 3;
  function selectFor(el) {
    const unseen = (s) => !s.getClientRects().length || s.tabIndex < 0;
    const inside = el.querySelectorAll("select");
    if (inside.length) return inside.length === 1 && unseen(inside[0]) ? inside[0] : null;
    for (let n = el, k = 0; n && k <= SELECT_UP; n = n.parentElement, k++) {
      if (k && n.querySelector("select")) return null;
      const before = n.previousElementSibling;
      if (before && before.tagName === "SELECT") return unseen(before) ? before : null;
    }
    return null;
  }

  // The text field a widget keeps off the page right after its box (Tagify's original
  // input, which the form sends), up to KEPT_UP boxes out; null where there is none.
  const KEPT_UP = 2;
  function fieldAfter(el) {
    for (let n = el, k = 0; n && k <= KEPT_UP; n = n.parentElement, k++) {
      const next = n.nextElementSibling;
      if (next && P.offPage(next, getComputedStyle(next))) return next;
    }
    return null;
  }

  // The words of the label of the <select> the widget `id` stands for (or ""), whether it
  // takes several, and whether it holds the option `optionId` of the widget's list chosen
  // (by its value or its words: the truth where the list marks the option under the
  // keyboard as selected, Choices.js's); null where it stands for none.
  function selectBehind(id, optionId) {
    const el = P.get(id);
    const kept = el && selectFor(el);
    if (!kept) return null;
    const o = optionId === undefined ? null : P.get(optionId);
    const words = o && clean(o.textContent || ""), value = o && o.getAttribute("data-value");
    return { label: labelOf(kept), multiple: kept.multiple, chosen: o ? [...kept.selectedOptions]
      .some((k) => k.value === value || clean(k.text) === words) : null };
  }
  // (its label's words as its name takes them: not its own options where the label holds it)
  const labelOf = (field) => P.labelsText(field) || clean(field.getAttribute("aria-label") || "");

  // A form field the page keeps out of sight by its own style attribute (the select a
  // kit keeps behind the box it draws: DevExtreme's tag box), or a box its class calls
  // hidden (a player's controls that do not apply, video.js's `vjs-hidden`) unless a class
  // says a hover shows it (Tailwind's `hidden group-hover:flex`): no pointer shows it,
  // though the box around it listens for one (page_walk.js)
  const HIDDEN_CLASS = /(?:^|[\s_-])(?:hidden|hide|d-none)(?=$|\s)/;
  const keptHidden = (el) => (/^(?:SELECT|INPUT|TEXTAREA)$/.test(el.tagName) &&
    el.style.display === "none") || ((c) => HIDDEN_CLASS.test(c) && !c.includes("hover:"))(
    el.getAttribute("class") || "");

  // Whether a hidden box is one of the panels its box shows one at a time (a tab's panel, a
  // slide: a sibling of its kind, by tag and first class, shows): no pointer shows it
  const oneOfPanels = (el) => !!el.parentElement && !!el.classList[0] &&
    [...el.parentElement.children].some((c) => c !== el && c.tagName === el.tagName &&
      c.classList[0] === el.classList[0] && c.checkVisibility());

  // The button that confirms the choices made in the dialog an option is in, where it
  // alone says so (Ionic's alert select: radios or check boxes, then OK; nothing is chosen
  // until it is pressed), and the dialog is the list the control `controlId` opened, not
  // one it is in (a form's modal, whose Save sends the form): {id, role, name}, or null.
  const CONFIRMS = /^(?:ok|okay|done|apply|confirm|select|choose|set|save)$/i;
  const BUTTONS = "button, [role=button], input[type=button], input[type=submit]";
  function confirmOf(id, controlId) {
    let box = P.get(id);
    const control = P.get(controlId);
    while (box && !(box.nodeType === 1 && box.matches("dialog, [role=dialog], [role=alertdialog]")))
      box = box.parentNode || box.host;  // (out through shadow roots)
    if (!box || !control) return null;
    for (let n = control; n; n = n.parentNode || n.host) if (n === box) return null;
    const named = [...box.querySelectorAll(BUTTONS)].map((b) => [b, P.roleOf(b)])
      .map(([b, role]) => ({ b, role, name: P.nameOf(b, role) }))
      .filter((o) => CONFIRMS.test(clean(o.name)) && o.b.checkVisibility());
    if (named.length !== 1) return null;
    const [{ b, role, name }] = named;
    return { id: P.idOf(b), role, name };
  }

  Object.assign(P, { valueOf, optionsOf, takesMany, tiedTo, selectBehind, selectFor, confirmOf,
    keptHidden, oneOfPanels, movedAside,
    fieldAfter, labelOf, editorText, codeEditorOf, drawsForEditor,
    editorBox, editorPartial, KIT_LABEL });
})();
