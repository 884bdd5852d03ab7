// The page helper: an element's states as a snapshot line shows them (checked, expanded,
// selected, disabled, invalid...), and the error a field shows for its invalid value.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { CONTROLS, NAME_MAX, byIds, clean, cut } = P;

  // The aria-sort of the column header a button is the one control of, or whose words a
  // box that takes the clicks holds (AG Grid sorts on its header's label).
  function headerSort(el, role) {
    const h = el.parentElement && el.parentElement.closest("th, [role=columnheader]");
    const sort = h && h.getAttribute("aria-sort");
    if (!sort) return null;
    if (role === "button")
      return h.querySelectorAll(CONTROLS).length === 1 && P.sortsFor(h, el) ? sort : null;
    const words = clean(el.textContent || "");
    return (!role || role === "clickable") && !!words && words === clean(h.textContent || "")
      ? sort : null;
  }

  // The popover a button opens by markup (popovertarget, or commandfor with a popover
  // command), as the browser's own accessibility tree says such a button is expanded or not.
  function invokedPopover(el) {
    const target = el.popoverTargetElement ||
      (/popover/.test(el.command || "") ? el.commandForElement : null);
    return target && target.hasAttribute("popover") ? target : null;
  }

  // A menu or list kept shut beside a button in the box they share: what the button opens,
  // though it says nothing of it (Shoelace's dropdown: its trigger and its menu in one
  // host). A button drawn in a component's shadow root is its host's place in the box.
  const MENUS = "[role=menu], [role=listbox]", BESIDE_MAX = 6;
  const menuBeside = (el) => !!besideMenu(el, true);
  // That menu, shut (`shut`) or open: the list a `select` on the button chooses from
  // (page_values.js `tiedTo`); null where there is none.
  function besideMenu(el, shut) {
    const root = el.getRootNode();
    const me = root.host && root !== document ? root.host : el;
    const box = me.parentElement;
    // (a dropdown's box holds its trigger, its menu and little more)
    if (!box || box === document.body || box.children.length > BESIDE_MAX) return null;
    for (const c of box.children) {
      if (c === me || c.contains(me)) continue;
      // (a menu component draws its list in its shadow root, or says what it is through
      // its internals: Material Web's)
      const menu = c.matches(MENUS) || /^(?:menu|listbox)$/.test(P.roleOf(c)) ? c
        : c.querySelector(MENUS) || (c.shadowRoot && c.shadowRoot.querySelector(MENUS));
      // (not one held with the control that opens it: a phone field's list of countries, a
      // select widget's list, in a form beside its submit button; a dropdown's trigger that
      // says nothing of it, or says it in its shadow root: Shoelace's, beside a toolbar's
      // buttons)
      if (menu && !(shut && menu.checkVisibility()) && (menu === c ||
          ![...c.querySelectorAll(OPENERS)].some((n) => !menu.contains(n)))) return menu;
    }
    return null;
  }
  const OPENERS = "[aria-haspopup]:not([aria-haspopup=false]), [aria-expanded], " +
    "[role=combobox], select, button, [role=button], [slot=trigger]";

  // A box holding the field a form sends and a list of items that carry the values it
  // takes (Semantic's and Fomantic's dropdown of divs, no ARIA), shut or open (still
  // fading out after a choice, or kept open for a second one): it opens that list, and so
  // does the search field it may hold.
  function valueList(el) {
    if (!el.querySelector(":scope > input[type=hidden]")) return false;
    return [...el.children].some((c) => c.querySelectorAll(":scope > [data-value]").length > 1);
  }
  // That box, for its control (the box, or the search field it holds); null for none.
  const valueListOf = (el) => valueList(el) ? el
    : el.parentElement && valueList(el.parentElement) ? el.parentElement : null;
  // Whether an item of such a list is chosen, as the field it fills says (its values joined
  // by commas); null for an element that is no such item. Its classes do not say: Fomantic
  // marks the item under the pointer or the keyboard `selected` too.
  function chosenItem(el) {
    const box = el.hasAttribute("data-value") && el.parentElement && el.parentElement.parentElement;
    if (!box || !valueList(box)) return null;
    const field = box.querySelector(":scope > input[type=hidden]");
    return field.value.split(",").includes(el.getAttribute("data-value"));
  }

  // The state a page marks only by a class among peers that lack it (selected: Tabulator's
  // rows, `tabulator-selected`), or it alone of them (current: Bootstrap's tabs, Fomantic's
  // menus, `active`), or on the box holding the control alone (Bootstrap's pager says
  // `aria-current` on its list item, Pikaday `aria-selected` on a day's cell, Vuetify's
  // calendar a class on a day's box): "selected", "current" or "pressed"; null for none.
  const MARKED_ROLES = /^(?:link|button|clickable|tab|row|listitem|treeitem|menuitem)$/;
  // (and a date range's days: Litepicker's is-start-date, air-datepicker's -range-from-;
  // its today: is-today, -current-)
  const MARK = new RegExp("^(?:is-)?(active|selected|current)$|[-_](active|selected|current)$|" +
    "^is-(?:start-date|end-date|in-range|today)$|^-(?:range-from|range-to|in-range|current)-$");
  const CHOSEN = /select|start|end|range/;
  const TOOLBAR = "[role=toolbar], [class*=toolbar], [class*=Toolbar]";
  // (an element's first class token: what items alike share, a kit's name for the part)
  const firstClass = (n) => (n.getAttribute("class") || "").trim().split(/\s+/)[0];
  function markedAs(el, role) {
    if (!MARKED_ROLES.test(role)) return null;
    // (its list item only where that says something: no count of its controls for every
    // link of a menu on every snapshot)
    const up = el.parentElement, said = up && up !== document.body &&
      (up.hasAttribute("aria-current") || up.getAttribute("aria-selected") === "true" ||
       [...up.classList].some((c) => MARK.test(c)));
    const li = said && up.querySelectorAll(P.CONTROLS).length === 1 ? up : null;
    const current = li && li.getAttribute("aria-current");
    if (current && current !== "false") return "current";
    if (li && li.getAttribute("aria-selected") === "true") return "selected";
    for (const n of li ? [el, li] : [el]) {
      const tok = [...n.classList].find((c) => MARK.test(c));
      if (!tok || !n.parentElement) continue;
      let peers = [...n.parentElement.children].filter((c) => c !== n &&
        c.tagName === n.tagName);
      // (an item's like ones that show: not a box among others of its tag, a dialog's step
      // shown alone among its hidden steps)
      if (n !== el) peers = peers.filter((c) => firstClass(c) === firstClass(n) &&
        c.checkVisibility());
      // (alone in a box of its own, as a map's state in a group with its label: its like in
      // the boxes beside)
      const box = n.parentElement, outer = box.parentElement;
      if (!peers.length && outer && outer !== document.body) {
        peers = [...outer.children].filter((b) => b !== box && b.tagName === box.tagName)
          .map((b) => [...b.children].find((c) => c.tagName === n.tagName)).filter(Boolean);
      }
      const marked = peers.filter((c) => c.classList.contains(tok)).length;
      // (on every one but those disabled, it says they take presses: Mantine's press effect,
      // `mantine-active` on a pager's buttons but its disabled Previous)
      const lacking = peers.filter((c) => !c.classList.contains(tok));
      if (lacking.length && lacking.every((c) => c.disabled ||
          c.getAttribute("aria-disabled") === "true")) continue;
      // (several selected rows; one current tab or page: a rating's lit stars, an
      // accordion's open title and panel are none; a toolbar's buttons, or buttons several
      // of which are on, are pressed: Tiptap's Bold and Bullet list)
      const toggles = n === el && role === "button" && !CHOSEN.test(tok) &&
        ((marked && marked < peers.length) || !!el.closest(TOOLBAR));
      if (toggles) return "pressed";
      if (CHOSEN.test(tok) ? marked < peers.length : peers.length && !marked)
        return CHOSEN.test(tok) ? "selected" : "current";
    }
    return null;
  }

  // The state a data attribute marks where its like beside it lack it (Mantine's stepper:
  // `data-progress` on the step in progress, no class nor ARIA)
  const DATA_MARKS = ["data-active", "data-current", "data-progress", "data-selected"];
  function dataMark(el, role) {
    const on = (n, a) => n.hasAttribute(a) && n.getAttribute(a) !== "false";
    const attr = MARKED_ROLES.test(role) && DATA_MARKS.find((a) => on(el, a));
    if (!attr || !el.parentElement) return null;
    const peers = [...el.parentElement.children].filter((c) => c !== el &&
      c.tagName === el.tagName);
    return peers.length && !peers.some((c) => on(c, attr))
      ? attr === "data-selected" ? "selected" : "current" : null;
  }

  // A calendar's day of the month before or after the one it shows, drawn greyed among its
  // days (flatpickr's prevMonthDay, bootstrap-datepicker's old and new, the Flowbite
  // datepicker's prev and next, react-day-picker's and MUI's outside): said, for an agent
  // picking "29" not to take last month's
  const OTHER_MONTH = new RegExp("^(?:prev|next|old|new|outside|(?:prev|next)MonthDay)$|" +
    "(?:^|[-_]+)(?:day[-_]*)?(?:outside(?:[-_]*month)?|(?:other|adjacent|prev|next)[-_]?" +
    "month)(?:[-_]?day)?$", "i");
  // (or one lacking the class its month's days carry: Ant Design's `ant-picker-cell-in-view`)
  const IN_MONTH = /(?:^|[-_])in-?(?:view|month)$|(?:^|[-_])(?:current|this)-?month$/i;
  const marks = (n, re) => [...n.classList].some((c) => re.test(c));
  const unmarked = (n) => {
    const grid = !marks(n, IN_MONTH) && n.parentElement && n.parentElement.parentElement;
    return !!grid && [...grid.querySelectorAll(n.tagName)].some((d) => marks(d, IN_MONTH));
  };
  // (or by a data attribute: Mantine's `data-outside`)
  const otherMonth = (el) => /^\d{1,2}$/.test((el.textContent || "").trim()) &&
    [el, el.parentElement].some((n) => !!n && (marks(n, OTHER_MONTH) || unmarked(n) ||
      (n.hasAttribute("data-outside") && n.getAttribute("data-outside") !== "false")));

  // ARIA 1.1's combobox: a box of that role holding the one text field typed into, the
  // combobox a person sees (the box only wraps it); the field, and of a field, its box
  const COMBO_FIELD = "input:not([type]), input[type=text], input[type=search], " +
    "input[type=email], input[type=tel], input[type=url]";
  function comboField(box) {
    const fields = box.querySelectorAll(COMBO_FIELD);
    return fields.length === 1 ? fields[0] : null;
  }
  function comboOf(field) {
    const box = field.parentElement && field.parentElement.closest("[role=combobox]");
    return box && !/^(?:INPUT|TEXTAREA|SELECT)$/.test(box.tagName) &&
      comboField(box) === field ? box : null;
  }

  // The words a control shows only to the eye, all it holds hidden from assistive
  // technology (a calendar day's price, Booking's `aria-hidden` "€54" in a day named "5
  // January 2027"): its value, as no line under it says them; else null
  function eyeOnly(el) {
    const heard = [...el.childNodes].map((c) => P.textOf(c, 1)).join(" ");
    const seen = P.clean(el.innerText || "");
    return P.HAS_WORD.test(seen) && !P.HAS_WORD.test(heard) ? P.cut(seen, P.VALUE_MAX)[0]
      : null;
  }

  // The one check box or radio an item holds with no name of its own: the item's (page_walk.js)
  function heldToggle(el) {
    const held = el.querySelectorAll("input[type=checkbox], input[type=radio]");
    return held.length === 1 && !P.nameOf(held[0], held[0].type) ? held[0] : null;
  }

  // Whether the words a control shows are crossed out, as a shop crosses out a size sold
  // out or a fare no longer offered: a line drawn through them by a box around them (up to
  // where CSS stops drawing it: an inline-block, a box out of the flow) or by <s>, <del>
  // around every word; for a field, through its label's
  const STRIKES = new Set(["S", "DEL", "STRIKE"]), STRUCK_UP = 4;
  const STRUCK_ROLES =
    /^(?:button|link|clickable|radio|checkbox|option|menuitem\w*|tab|switch|gridcell|cell)$/;
  const lined = (n) => STRIKES.has(n.tagName) ||
    getComputedStyle(n).textDecorationLine.includes("line-through");
  // (whether a line drawn around it stops at its box: an inline-block, a box out of the
  // flow; or it is a block, whose line reaches its own words alone)
  const boxed = (cs) => cs.display !== "inline" || cs.position === "absolute" ||
    cs.position === "fixed" || cs.cssFloat !== "none";
  const ownBox = (n) => boxed(getComputedStyle(n));
  function struck(el, role) {
    if (!STRUCK_ROLES.test(role)) return false;
    const words = el.labels && el.labels.length ? el.labels[0] : el;
    if (!words.firstChild) return false;
    for (let n = words, up = 0; n && up < STRUCK_UP; n = n.parentElement, up++) {
      const cs = getComputedStyle(n);
      if (STRIKES.has(n.tagName) || cs.textDecorationLine.includes("line-through"))
        return !!clean(words.textContent);
      if (boxed(cs)) break;
    }
    if (!words.firstElementChild) return false;  // (words of its own alone: not struck)
    const walker = document.createTreeWalker(words, NodeFilter.SHOW_TEXT);
    let any = false;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.data.trim()) continue;
      let n = t.parentElement;
      while (n && n !== words && !lined(n)) n = n.parentElement;
      if (n === words || !n) return false;
      any = true;
    }
    return any;
  }

  function statesOf(el, role) {
    const s = [];
    if (otherMonth(el)) s.push("other-month");
    const aria = (n) => P.ariaAttr(el, n);
    const tag = el.tagName;
    if (role === "checkbox" || role === "radio" || role === "switch" ||
        role === "menuitemcheckbox" || role === "menuitemradio") {
      const a = aria("aria-checked");
      if (tag === "INPUT") {  // (mixed as its script or its markup says: Vuetify's)
        if (el.indeterminate || a === "mixed") s.push("mixed");
        else if (el.checked) s.push("checked");
      } else if (a === "true") s.push("checked");
      else if (a === "mixed") s.push("mixed");
      // (its place among radios alike, where the page says it: a rating's fourth of five
      // stars, each named "star", antd's Rate)
      const at = aria("aria-posinset"), of = aria("aria-setsize");
      if (role === "radio" && /^\d+$/.test(at || "") && /^\d+$/.test(of || ""))
        s.push(`${at}/${of}`);
    } else if ((role === "menuitem" || role === "option") && aria("aria-checked") === null) {
      const box = heldToggle(el);  // (its check box, whose line it is: antd's filter menu)
      if (box && box.checked) s.push("checked");
    }
    const pressed = aria("aria-pressed");
    if (pressed === "true") s.push("pressed");
    const expanded = aria("aria-expanded");
    if (expanded === "true") s.push("expanded");
    else if (expanded === "false") s.push("collapsed");
    else if (tag === "SUMMARY" && el.parentElement && el.parentElement.tagName === "DETAILS")
      s.push(el.parentElement.open ? "expanded" : "collapsed");
    else if ((tag === "BUTTON" || tag === "INPUT") && invokedPopover(el))
      s.push(invokedPopover(el).matches(":popover-open") ? "expanded" : "collapsed");
    // (a radio button a kit makes a tab is selected as it is checked: DaisyUI's)
    if (aria("aria-selected") === "true" || (tag === "OPTION" && el.selected) ||
        (tag === "INPUT" && role === "tab" && el.checked)) s.push("selected");
    if (aria("aria-current") && aria("aria-current") !== "false") s.push("current");
    else if (aria("aria-selected") === null && pressed === null) {
      const chosen = chosenItem(el);
      const marked = chosen === null ? markedAs(el, role) || dataMark(el, role)
        : chosen ? "selected" : null;
      if (marked && !s.includes(marked)) s.push(marked);
    }
    if (disabledOf(el, role)) s.push("disabled");
    else if (struck(el, role)) s.push("struck");
    if (el.required || aria("aria-required") === "true") s.push("required");
    if (el.readOnly || aria("aria-readonly") === "true") s.push("readonly");
    if (invalidOf(el)) s.push("invalid");
    if (tag === "TEXTAREA" || aria("aria-multiline") === "true" ||
        (el.isContentEditable && role === "textbox" && tag !== "INPUT")) s.push("multiline");
    // (an editor that may hold more lines than it drew: its value is those it drew)
    if (role === "textbox" && P.editorPartial(el)) s.push("partial");
    if (aria("aria-haspopup") ? aria("aria-haspopup") !== "false"
      : expanded === null && ((role === "button" && menuBeside(el)) ||
        ((role === "clickable" || !role) && valueList(el)) ||
        (role === "textbox" && !!valueListOf(el))))
      s.push("haspopup");
    // a sortable column's header says how the rows are sorted now (aria-sort); so does the
    // button in it that sorts them (DataTables draws one beside the header's words)
    const sort = aria("aria-sort") || headerSort(el, role);
    if (sort === "ascending" || sort === "descending" || sort === "other") s.push("sort=" + sort);
    if (role === "heading") {
      const level = aria("aria-level") || (/^H[1-6]$/.test(tag) ? tag[1] : "");
      if (level) s.push("level=" + level);
    }
    return s;
  }

  // Whether a field is invalid as a person sees it: the page says so (aria-invalid), or
  // the browser's own check failed once the person changed the field or tried to send its
  // form (:user-invalid; a required field nobody touched yet is not), unless its form
  // checks itself (novalidate: the browser says nothing, and `pattern` may name the page's
  // own rule, as Foundation's do)
  function invalidOf(el) {
    const a = el.getAttribute("aria-invalid");
    if (a && a !== "false") return true;
    return !!el.willValidate && !el.validity.valid && !(el.form && el.form.noValidate) &&
      userInvalid(el);
  }

  function userInvalid(el) {
    try { return el.matches(":user-invalid"); } catch (e) { return false; }
  }

  // What is wrong with an invalid field, in the page's words: the element aria-errormessage
  // names, else those aria-describedby names (where the page says it is invalid), else the
  // browser's own message. A line shows it beside the field; a page's error paragraph
  // carries no role, so -i would not show it otherwise.
  function errorOf(el) {
    if (!invalidOf(el)) return "";
    const a = el.getAttribute("aria-invalid");
    const said = a && a !== "false" ? byIds(el, "aria-errormessage") ||
      byIds(el, "aria-describedby") || inLabel(el) : "";
    return cut(said || clean(el.validationMessage || ""), NAME_MAX)[0];
  }
  // the error its label shows (errorPart)
  const inLabel = (el) => clean([...(el.labels || [])].flatMap((l) => [...l.children])
    .filter((c) => errorPart(c, el) && !P.hiddenForName(c)).map((c) => c.textContent).join(" "));

  // Whether a label's part is the error its field shows (Foundation's form-error inside the
  // label, an alert): no part of the field's name, which would change as the page checks it
  // (it is the field's error= instead)
  const ERRORISH = /(?:^|[\s_-])(?:error|invalid)(?:[\s_-]|$)/i;
  function errorPart(part, field) {
    if (part.nodeType !== 1) return false;
    return part.matches("[role=alert], [aria-live]") ||
      (typeof part.className === "string" && ERRORISH.test(part.className)) ||
      (!!part.id && (field.getAttribute("aria-errormessage") || "").split(/\s+/).includes(part.id));
  }

  // The row with the field's error, if it has one (its 12th cell).
  function withError(row, el) {
    const error = el.getAttribute ? errorOf(el) : "";
    if (!error) return;
    while (row.length < 11) {
      row.push(row.length === 5 ? "" : row.length === 9 ? [0, 0] : null);
    }
    row[11] = error;
  }

  // The roles aria-disabled applies to (WAI-ARIA 1.2): such an element is disabled by the
  // nearest aria-disabled on it or its ancestors, as Playwright's actionability reads it.
  const ARIA_DISABLED_ROLES = new Set([
    "application", "button", "composite", "gridcell", "group", "input", "link", "menuitem",
    "scrollbar", "separator", "tab", "checkbox", "columnheader", "combobox", "grid",
    "listbox", "menu", "menubar", "menuitemcheckbox", "menuitemradio", "option", "radio",
    "radiogroup", "row", "rowheader", "searchbox", "select", "slider", "spinbutton", "switch",
    "tablist", "textbox", "toolbar", "tree", "treegrid", "treeitem",
  ]);

  // Whether a person cannot act on el, the one place that says so (snapshot, actions,
  // waits): a form control disabled natively (by a disabled fieldset or optgroup around it
  // too), an element saying aria-disabled="true", or one of a role aria-disabled applies to
  // inside an element saying it (the nearest "true" or "false" above it decides, across
  // shadow roots). Pages disable a styled button or a whole form step that way, and their
  // handlers still run on a click.
  function disabledOf(el, role) {
    if (!el.getAttribute) return false;
    if (el.matches(":disabled") || shutByClass(el)) return true;
    const own = P.ariaAttr(el, "aria-disabled");
    if (own !== null || !ARIA_DISABLED_ROLES.has(role)) return own === "true";
    for (let n = el.parentElement || hostOf(el); n; n = n.parentElement || hostOf(n)) {
      const a = n.getAttribute("aria-disabled");
      if (a === "true") return true;
      if (a === "false") return false;
    }
    return false;
  }

  // A control a kit disables by a class on it or its item, taking no pointer (Bootstrap's
  // `.page-item.disabled .page-link`, `.btn.disabled`: no person's click reaches it) or
  // showing the pointer that says no (a seat map's taken seat)
  const OFF = /^(?:is-)?disabled$|[-_]disabled$/;
  const shutByClass = (el) => [el, el.parentElement].some((n) => !!n && n !== document.body &&
    [...n.classList].some((c) => OFF.test(c))) && refuses(getComputedStyle(el));
  const refuses = (cs) => cs.pointerEvents === "none" || cs.cursor === "not-allowed";

  // The control a <label> stands for: its form control, else the one ARIA toggle it wraps
  // (Google Forms' options: a `<div role=radio>` and the option's words in one label)
  const ARIA_TOGGLES = "[role=radio], [role=checkbox], [role=switch]";
  function labelledControl(l) {
    if (!l || l.tagName !== "LABEL") return null;
    if (l.control) return l.control;
    const found = l.querySelectorAll(ARIA_TOGGLES);
    return found.length === 1 ? found[0] : null;
  }
  // The words of the label that wraps an ARIA toggle (named by nothing of its own): a person
  // reads them as its name
  function wrappingLabel(el) {
    const l = el.matches(ARIA_TOGGLES) && !el.labels ? el.closest("label") : null;
    return l && labelledControl(l) === el ? P.clean(P.textOf(l, 0)) : "";
  }

  function hostOf(n) {
    const root = n.getRootNode();
    return root !== n && root.host ? root.host : null;
  }

  Object.assign(P, { statesOf, heldToggle, comboField, comboOf, eyeOnly, valueListOf, disabledOf,
                    lined, ownBox, withError, invalidOf, errorOf, userInvalid, errorPart,
                    besideMenu, labelledControl, wrappingLabel, firstClass, MARK });
})();
