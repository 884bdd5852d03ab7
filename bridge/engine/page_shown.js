// The page helper: what a person is shown and what they use of it. What the page shows only
// while the pointer is over a box around it (its `:hover` rules, a hover listener); a modal
// of the page's own and the veil it lays over the rest; and which shown elements are no
// controls (a field left behind, a text box only shown, a box passing clicks on, regions).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { roleOf, cut, clean, nameOf, HAS_WORD, NAME_MAX, CONTROLS, listened, ICON_MAX } = P;
  // -- what the pointer shows ------------------------------------------------------------
  // A page may show a row's actions only while the pointer is over the row (a mail's
  // archive and delete, a post's edit link): hidden (display none, visibility hidden), put
  // off screen, or in a box of no size until a `:hover` rule of a box around them applies.
  // The elements the `:hover` rules of the document's style sheets show (`has`), and a test
  // of whether a hidden element holding a control is one a box around it shows by script
  // while the pointer is over it (a hover listener the hook saw, at most HOVER_UP up; no tab
  // panel, dialog or slide, which no pointer shows); `grows`: those the rules only give a size.
  const HOVER_UP = 4, PANELS = new Set(["tabpanel", "dialog", "alertdialog"]);
  // Whether a hidden box (or one around it, up to HOVER_UP) is what a collapsed button opens
  // (`aria-controls` names it: Plyr's settings menu in a bar that listens for the pointer)
  function byButton(el) {
    for (let n = el, up = 0; n && up <= HOVER_UP; n = n.parentElement, up++) {
      if (n.id && document.querySelector(`[aria-controls~="${CSS.escape(n.id)}"]` +
                                         "[aria-expanded=false]")) return true;
    }
    return false;
  }
  function hoverShown(secret) {
    const shown = new Set(), grown = new Set();
    let listening = null;  // asked of the hook once a hidden element is met
    const byScript = (el) => {
      if (listening === null) listening = listened(secret, "hover");
      if (!listening.size || PANELS.has(roleOf(el)) || P.oneOfPanels(el) || byButton(el))
        return false;
      let n = el.parentElement;
      for (let up = 0; n && up < HOVER_UP && n !== document.body; up++, n = n.parentElement) {
        if (listening.has(n)) return P.hoverControl(el);
      }
      return false;
    };
    for (const sheet of document.styleSheets) {
      for (const [sel, shows] of P.hoverSelectors(sheet)) {
        try {
          for (const el of document.querySelectorAll(sel)) (shows ? shown : grown).add(el);
        } catch { /* a selector split inside :is() */ }
      }
    }
    // (not by a rule where the element's own style hides it, which no sheet's rule lifts:
    // Vue's `v-show`, a field's clear icon shown once the field has a value)
    const has = (el) => (shown.has(el) && el.style.display !== "none") || byScript(el);
    return { has, grows: (el) => grown.has(el) || has(el) };
  }

  // An open dialog a page makes modal itself (aria-modal, or not saying so: Webix's, a tour's
  // open <dialog>; with a veil over the rest, as Bootstrap's and SweetAlert2's are), or
  // null. Only where the veil is there: all corners of the viewport but one (a toast's)
  // reach the dialog, or a fixed box over (nearly) all the viewport, taken INSET px in, off
  // a scroll bar or the gutter a page keeps for one while its modal stops the scrolling.
  const INSET = 24, MODALS = "[aria-modal=true], [role=dialog], [role=alertdialog], dialog[open]";
  function pageModal() {
    const veiled = (d, x, y) => {
      const hit = P.hitTarget(null, x, y);  // (into shadow roots: Ionic draws its veil there)
      if (!hit || drawnIn(d, hit)) return !!hit;
      for (let n = hit; n; n = P.composedParent(n)) {
        if (getComputedStyle(n).position !== "fixed") continue;
        const b = n.getBoundingClientRect();
        return b.width >= innerWidth * 0.9 && b.height >= innerHeight * 0.9;
      }
      return false;
    };
    for (const d of P.allRoots().flatMap((r) => [...r.querySelectorAll(MODALS)])) {
      const role = roleOf(d);
      if (role !== "dialog" && role !== "alertdialog") continue;
      const r = P.drawnBox(d);
      if (!r.width || !r.height || getComputedStyle(d).visibility === "hidden") continue;
      const [w, h] = P.view().map((n) => n - INSET);
      if ([[INSET, INSET], [w, INSET], [INSET, h], [w, h]].filter(([x, y]) => veiled(d, x, y))
        .length >= 3) return d;
    }
    return null;
  }

  // Whether a box outside the open modal, at most 3 boxes into the body, is drawn over its
  // veil (the list a modal's select opens: Ant Design's, MUI's): it is reached there.
  function overVeil(el, cs, modal) {
    if (cs.position !== "fixed" && cs.position !== "absolute") return false;
    let up = el.parentElement;
    for (let k = 0; up && up !== document.body && k < 3; k++) up = up.parentElement;
    const b = up === document.body && !el.contains(modal) && !el.closest("[inert]") &&
      el.getBoundingClientRect();
    const hit = b && b.width > 1 && b.height > 1 &&
      P.hitTarget(null, b.left + b.width / 2, b.top + b.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  }

  // Whether `el`, which a click listener alone makes clickable, only passes its clicks on:
  // - a box taking its children's clicks (a calendar's days, a list's rows: jQuery's
  //   `.on(event, selector)`): DELEGATES or more of its first DELEGATE_LOOK elements are
  //   controls (more than a clickable row or card holds: its checkbox, edit, delete, menu);
  // - one showing no pointer whose controls are only 2+ parts showing one (Fomantic's
  //   accordion, its titles): they are the clickables;
  // - the frame a widget library draws around one field, focusing it on a click anywhere
  //   in the frame (MUI's text field, select and autocomplete): it holds a field one types
  //   or chooses in, and at most WRAPPED controls in all (its open and clear buttons);
  // - a box its only control covers at least half of (MUI's switch and checkbox lay their
  //   see-through input over the box that listens);
  // - a box that only frames its controls (`framesOnly`);
  // - a box around a grid or its rows, listening for its cells (Handsontable's holder): the
  //   rows are read, their cells clicked by their words;
  // - a dialog's panel holding all of its controls, listening to keep its clicks from the
  //   veil that closes it (Headless UI's); what says it holds controls (FAST's radio group),
  //   or a message with its links (GOV.UK's error summary: an alert, focused, listening).
  // - a box whose children are items alike and no control (a list's words, a strip's
  //   thumbnails: the same tag and first class, each with words or an image's; three at
  //   least, or a list's: not a card's two lines): a click there picks one, and each is a
  //   clickable of its own (`ownClick`).
  // Its controls get the refs; it none.
  const DELEGATES = 6, DELEGATE_LOOK = 60, WRAPPED = 3, ITEMS_MAX = 200;
  let alikeRead = null;  // box -> whether it holds items alike, in one call of the helper
  function alikeItems(el) {
    if (!alikeRead) {
      alikeRead = new Map();
      queueMicrotask(() => { alikeRead = null; });
    }
    if (!alikeRead.has(el)) alikeRead.set(el, readAlike(el));
    return alikeRead.get(el);
  }
  function readAlike(el) {
    const kids = el.children, first = kids[0];
    const list = /^(?:UL|OL)$/.test(el.tagName) || /^list(?:box)?$/.test(roleOf(el));
    if (kids.length < (list ? 2 : 3) || kids.length > ITEMS_MAX ||
        /^(?:TABLE|T[A-Z]{1,4})$/.test(el.tagName)) return false;
    return [...kids].every((k) => k.tagName === first.tagName && P.firstClass(k) ===
      P.firstClass(first) && (HAS_WORD.test(k.textContent) || !!k.querySelector("img[alt]"))) &&
      !el.querySelector(CONTROLS);
  }
  const COMPOSITES = new Set(["radiogroup", "tablist", "menu", "menubar", "toolbar", "tree"]);
  const GRIDS = "[role=grid], [role=treegrid], [role=row]", TELLS = "[role=alert]";
  const DIALOGS = "dialog, [role=dialog], [role=alertdialog]";
  const ENTRY = "input:not([type]), input[type=text], input[type=search], input[type=email], " +
    "input[type=url], input[type=tel], input[type=number], input[type=password], textarea, " +
    "[contenteditable]:not([contenteditable=false]), [role=combobox], [role=textbox], " +
    "[role=searchbox], [role=spinbutton]";
  const pointer = (n, at) => !!n && getComputedStyle(n, at).cursor === "pointer";
  const byLook = (n) => !n.matches(`${CONTROLS}, [tabindex], [onclick]`);
  // (not a web component's host around the one button its shadow root draws, Fluent's
  // fluent-button saying it opens a menu: that button is the control)
  const hostOfOne = (el) => !!el.shadowRoot && ((found) => found.length === 1 &&
    found[0].getRootNode() === el.shadowRoot && found[0].matches("button, a[href]"))(
    controlsIn(el));
  function passesOn(el) {
    if (opens(el) && !hostOfOne(el)) return false;
    if (alikeItems(el)) return true;
    if (el.querySelector(GRIDS) || P.holdsDragged(el)) return true;
    const found = controlsIn(el);
    if (!found.length) return false;
    if (found.length > 1 && !pointer(el) && found.every(byLook)) return true;
    if (COMPOSITES.has(el.getAttribute("role")) || el.querySelector(TELLS)) return true;
    const dialog = el.parentElement && el.parentElement.closest(DIALOGS);
    if (dialog && controlsIn(dialog).length === found.length) return true;
    if (found.length >= DELEGATES || !wordsOutside(el, found)) return true;
    if (found.length > WRAPPED) return false;
    if (found.some((n) => n.matches(ENTRY))) return true;
    if (found.length > 1) return false;
    const a = el.getBoundingClientRect(), b = found[0].getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 && w * h * 2 >= a.width * a.height;
  }

  // Whether `el`, clickable by its look or a listener, only frames the controls it holds:
  // it has no words of its own beside theirs (a tab's frame around the tab, a strip around
  // its tabs, as Ant Design draws them). A click on it is theirs; they get the refs.
  function framesOnly(el) {
    if (opens(el) || (!el.shadowRoot && !el.querySelector(CONTROLS) && !holdsHeard(el)))
      return false;
    const found = controlsIn(el);
    return found.length > 0 && !wordsOutside(el, found);
  }

  // Whether `el`, clickable by its look, is the frame of the field it holds with at most
  // WRAPPED controls (Element Plus's select of many: its chosen tags, their close buttons
  // and its field): a click on it is the field's, and the field gets the ref.
  function framesField(el) {
    if (opens(el) || !el.querySelector(ENTRY)) return false;
    const found = controlsIn(el);
    return found.length <= WRAPPED && found.some((n) => n.matches(ENTRY));
  }

  // Whether el, no control by its role, takes clicks of its own: by its look (a pointer of
  // its own, an onclick) unless it only frames controls or a field, or by a listener unless
  // it passes them on; never a landmark, a veil, a grid's header or cell edge, a focus
  // guard, nor a control's own drawing (page_walk.js, for a `clickable` line).
  let heard = null;  // the elements listening for clicks, in the walk that asks (ownClick)
  const holdsHeard = (el) => !!heard && heard.size > 0 && !!el.firstElementChild &&
    [...el.querySelectorAll("*")].slice(0, DELEGATE_LOOK).some((n) => heard.has(n));
  // whether an element holds controls (one image whose parts are: a map's states, seats)
  const holdsControls = (el) => !!el.querySelector(`${CONTROLS}, [tabindex]`) || holdsHeard(el);
  function ownClick(el, cs, role, handlers) {
    heard = handlers;
    const parent = el.parentElement || (el.getRootNode() && el.getRootNode().host);
    const parentCursor = parent ? getComputedStyle(parent).cursor : "auto";
    // (a pointer inside a label is its control's, or around a label alone: a click there is
    // the control's; so too a pointer drawing most of a button or link that shows none)
    const shows = (cs.cursor === "pointer" && parentCursor !== "pointer" &&
                   !P.labelledControl(el.closest("label")) && !drawingOf(el) && !P.holdsLabel(el) &&
                   !P.pointerByHover(el)) || el.hasAttribute("onclick");
    // (a listener alone: a box may take its children's clicks for them; a dialog or a
    // landmark listening so is no control)
    // (nor a label around the one ARIA toggle it names, whose line is the toggle's; an item
    // of a box that takes its items' clicks is one: `passesOn`)
    const item = !!parent && !!handlers && handlers.has(parent) && alikeItems(parent);
    return ((shows && !framesOnly(el) && !framesField(el)) || item ||
            ((handlers.has(el) || P.emptyDrop(el)) && !passesOn(el) && !P.blankInLabel(el, cs) &&
             !(el.tagName === "LABEL" && P.labelledControl(el)))) &&
      !REGIONS.has(role || el.tagName) && !veil(el, cs) && !P.headerTakes(el) && !guardOnly(el) &&
      !P.cellResizer(el, cs) && !controlPart(el, handlers) && !P.fieldIcon(el);
  }

  // Whether el is in the tab order as a control is: not a frame, dialog, panel, landmark,
  // list or the page itself, nor a box focusable for its keys' sake that holds the
  // controls (a calendar's panel), nor a focus guard.
  function tabStop(el, role) {
    const tag = el.tagName;
    return el.hasAttribute("tabindex") && el.tabIndex >= 0 && tag !== "IFRAME" &&
      role !== "dialog" && role !== "tabpanel" && !P.LANDMARKS.has(role) && tag !== "BODY" &&
      tag !== "HTML" && role !== "list" && !passesOn(el) && !guardOnly(el);
  }
  // (a box that says it opens something, a menu's trigger around its link, is a control)
  const opens = (el) => el.hasAttribute("aria-haspopup") || el.hasAttribute("aria-expanded");

  // The controls among el's first DELEGATE_LOOK elements, those of its shadow root first (a
  // web component's host: Shoelace's button is a <button> in it).
  // (and, during a walk, a word listening for clicks: a mail's star in its row's cell)
  function controlsIn(el) {
    const found = [];
    let k = 0;
    for (const root of el.shadowRoot ? [el.shadowRoot, el] : [el]) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n && k < DELEGATE_LOOK; n = walker.nextNode(), k++) {
        const p = n.parentElement || el;  // (a shadow tree's top: its host's)
        // (not a box focusable by script alone, tabindex=-1: a chart's layer in its svg)
        if (n.matches(CONTROLS) || n.tabIndex >= 0 && n.hasAttribute("tabindex") ||
            n.hasAttribute("onclick") ||
            (!!heard && heard.has(n) && !n.firstElementChild && !!n.textContent.trim() &&
             n.tagName !== "TD" && n.tagName !== "TH") ||
            (getComputedStyle(n).cursor === "pointer" &&
             (!p || getComputedStyle(p).cursor !== "pointer") && !drawingOf(n))) found.push(n);
      }
    }
    return found;
  }

  // The button or link `n` draws, when it shows a pointer in one that shows none (Element
  // Plus's tag: the icon of its close button): most of the control is `n`, whose click is
  // the control's. null when it is none's, or only a small part of one (a star on a card).
  function drawingOf(n) {
    const c = n.parentElement && n.parentElement.closest("button, a[href]");
    if (!c) return null;
    const a = c.getBoundingClientRect(), b = n.getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 && w * h * 2 >= a.width * a.height ? c : null;
  }

  // Whether `n` is inside `c` as drawn: a host's words slotted into its shadow root's are.
  function drawnIn(c, n) {
    for (let p = n; p; p = p.assignedSlot || p.parentNode || p.host) if (p === c) return true;
    return false;
  }

  // Whether el holds words outside its controls `found`, its pictures' alt text among them
  // (a card's photo is its own; too many words to look through: it does). A label's words
  // are its control's (MUI's rating: each star's label beside its radio).
  function wordsOutside(el, found) {
    const labelled = (n) => {
      const label = n.parentElement && n.parentElement.closest("label");
      return !!label && el.contains(label) && found.includes(label.control);
    };
    const outside = (n) => !found.some((c) => c.contains(n)) && !labelled(n) &&
      !(el.shadowRoot && found.some((c) => drawnIn(c, n)));
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(), k = 0; t; t = walker.nextNode()) {
      if (++k > DELEGATE_LOOK) return true;
      if (HAS_WORD.test(t.data) && outside(t)) return true;
    }
    for (const img of el.querySelectorAll("img[alt]")) {
      if (HAS_WORD.test(img.alt) && outside(img)) return true;
    }
    return false;
  }

  // A box no person clicks: no size (a pixel at most), no words, nothing in it with a size.
  // A focus guard the page makes focusable only to catch the keyboard at a widget's or a
  // dialog's edge (AG Grid's tab guards, a modal's sentinels, Radix's toast focus proxies:
  // a key press reaching it moves on), or a pane a grid keeps empty, listening as its
  // others do (Handsontable's bottom clones).
  const GUARD_LOOK = 30;  // elements inside looked at, at most
  function guardOnly(el) {
    const sized = (n) => ((r) => r.width > 1 && r.height > 1)(n.getBoundingClientRect());
    if (sized(el) || HAS_WORD.test(el.textContent || "")) return false;
    const inner = el.firstElementChild ? el.querySelectorAll("*") : [];
    return inner.length <= GUARD_LOOK && !Array.prototype.some.call(inner, sized);
  }

  // A box that says it is a check box, radio or switch around the native one it draws
  // (PrimeReact's check box and switch), or a combobox around the text field it draws that
  // says it is the combobox too (Vuetify's select; not ARIA 1.1's combobox around a text
  // box and its list): the field inside is the control, the box no line.
  const TOGGLE_ROLES = /^(?:checkbox|radio|switch)$/;
  function wrapsControl(el) {
    const role = el.getAttribute("role") || "";
    if (el.tagName === "INPUT" || el.hasAttribute("tabindex") ||
        (role !== "combobox" && !TOGGLE_ROLES.test(role))) return false;
    const box = el.querySelector(role === "combobox"
      ? "input[role=combobox], textarea[role=combobox]"
      : "input[type=checkbox], input[type=radio]");
    return !!box && box.getClientRects().length > 0;
  }

  // The box a check box or radio button is drawn in with its words (page_hits.js
  // `toggleBox`: Element Plus's switch, its track and words beside an input of no size), or
  // a part of it showing a pointer, no listener of its own (`handlers` listen): a click there
  // is the toggle's, as on its label; so too a wordless part beside that box in a small box
  // holding no other control (Vuetify's switch track, which listens itself).
  const TOGGLES = "input[type=checkbox], input[type=radio]";
  function togglePart(el, handlers) {
    for (let box = el; box && box !== document.body; box = box.parentElement) {
      const toggle = box.querySelector(P.CONTROLS);
      if (!toggle) continue;
      if (!toggle.matches(TOGGLES)) return false;
      const drawn = P.toggleBox(toggle);
      if (drawn === box) return box === el || !handlers.has(el);
      const r = box.getBoundingClientRect();
      return !!drawn && box !== el && box.contains(drawn) && !HAS_WORD.test(el.textContent) &&
        r.width * r.height <= P.TOGGLE_BOX && box.querySelectorAll(P.CONTROLS).length === 1;
    }
    return false;
  }

  // A box showing a pointer around one text field or combobox and the words it draws over it,
  // the size of a field (Element Plus's select draws its placeholder, then its choice, over
  // a read-only field): a click there is the field's, which has the line.
  const FIELD_BOX = { height: 60, area: 1600 * 60 };  // (a field across a wide page)
  function fieldWrap(el) {
    if (!el.firstElementChild) return false;  // (no field in it: the cheap answer first)
    const r = el.getBoundingClientRect();
    if (r.height > FIELD_BOX.height || r.width * r.height > FIELD_BOX.area) return false;
    // (what is not drawn is none of its controls; an icon without a name beside the field
    // is the field's own: Vuetify's arrow)
    const found = Array.from(el.querySelectorAll(CONTROLS))
      .filter((c) => c.getClientRects().length > 0);
    const fields = found.filter((c) => c.matches(ENTRY));
    // (not a chip's remove, words beside it in its chip: Mantine's pill's, a choice's own)
    const chip = (c) => c.parentElement !== el && HAS_WORD.test(
      (c.parentElement.textContent || "").replace(c.textContent || "", ""));
    return fields.length === 1 &&
      found.every((c) => c === fields[0] || (P.bareIcon(c, roleOf(c) || "") && !chip(c)));
  }

  // Whether el is such a box drawing over its field only what its line says, not the page's
  // text: its value (a select's choice), or its prompt while it has none nor a name (its
  // hint, page_hints.js boxWords; a named one's are the page's: a multiple select's choices)
  function fieldShown(el) {
    if (!fieldWrap(el)) return false;
    const field = el.querySelector(ENTRY), role = roleOf(field) || "";
    const value = P.valueOf(field, role), words = value ? "" : P.boxWords(field);
    return value ? clean(el.innerText || "") === clean(String(value))
      : !!words && [words, ""].includes(clean(nameOf(field, role)));
  }

  // Whether a box of the page's body hidden from assistive technology (aria-hidden) holds a
  // control a person sees and can tab to: a page's mistake (a modal that closed without
  // giving the app back: react-modal and MUI hide the body's other boxes while one is
  // open, and can leave them so), read as shown while no modal is open. Deeper in the page,
  // aria-hidden is taken at its word (a menu a style sheet hides, a carousel's clone).
  const TABBABLE = "button, a[href], input:not([type=hidden]), select, textarea, [tabindex]";
  function hiddenByMistake(el) {
    if (seenControl(el)) return true;
    if (el.parentElement !== document.body) return false;
    for (const c of el.querySelectorAll(TABBABLE)) {
      if (c.tabIndex < 0 || c.disabled || c.closest("[inert]")) continue;
      const r = c.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && c.checkVisibility({ visibilityProperty: true }))
        return true;
    }
    return false;
  }

  // (or a control marked so itself that a person sees and may press, disabled or not:
  // PrimeReact's FileUpload draws its Upload and Cancel buttons so)
  function seenControl(el) {
    if (!el.matches(TABBABLE) || el.matches("[tabindex]") && el.tabIndex < 0 ||
        el.closest("[inert]")) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true });
  }

  // Whether the snapshot's walk leaves el out as hidden from assistive technology: not one
  // holding the focus, nor a page's mistake while no `modal` is open, nor a clicked icon.
  const ariaHidden = (el, focused, modal) => el.getAttribute("aria-hidden") === "true" &&
    !el.contains(focused) && (!!modal || !hiddenByMistake(el)) && !P.clickedIcon(el);

  // Whether el is a control's own drawing, not a control: the box a toggle is drawn in or
  // a part of it (`togglePart`), the box of a field (`fieldWrap`), a slider's track.
  const controlPart = (el, on) => togglePart(el, on) || fieldWrap(el) || P.sliderTrack(el);

  // A label that names its control by aria-labelledby, not `for` (MUI's select), or by a
  // `for` a widget kit moved to the box it draws for the field (jQuery UI's selectmenu): a
  // click on it is the control's, which a script of the page passes on (it focuses it).
  function labels(el) {
    if (el.control) return true;
    const root = el.getRootNode();
    const moved = el.htmlFor && root.getElementById ? root.getElementById(el.htmlFor) : null;
    if (moved && moved !== el && (moved.tabIndex >= 0 || moved.hasAttribute("role"))) return true;
    if (!el.id) return false;
    const named = `[aria-labelledby~="${CSS.escape(el.id)}"]`;
    return !!(root.querySelector && root.querySelector(named));
  }

  // Whether el is what names a control by id (React Aria draws a date field's or a
  // select's label as a span, its click focusing the field; Headless UI's label has no
  // for=): a label, its words the control's name, its click the control's. Not a label of
  // what is no control (a field's group: the group's line may not say it). `seen`: root ->
  // the ids controls of that root are labelled by, kept for a snapshot's walk.
  function namesControl(el, seen) {
    if (!el.id) return false;
    const root = el.getRootNode();
    let ids = seen.get(root);
    if (!ids) {
      seen.set(root, (ids = new Set()));
      for (const n of root.querySelectorAll ? root.querySelectorAll("[aria-labelledby]") : []) {
        if (!n.matches(CONTROLS)) continue;
        for (const id of n.getAttribute("aria-labelledby").split(/\s+/)) if (id) ids.add(id);
      }
    }
    return ids.has(el.id) && !el.matches(CONTROLS);
  }

  // A box a pixel wide that only keeps a native field for the keyboard and screen readers
  // (React Aria's VisuallyHidden around a switch's check box, a slider thumb's range input):
  // the field is the control the widget around it draws, as an sr-only field is.
  function keepsField(el) {
    const only = el.children.length === 1 ? el.firstElementChild : null;
    return !!only && FIELD_TAGS.has(only.tagName) && only.type !== "hidden" &&
      !HAS_WORD.test(el.textContent || "");
  }

  // A native field a widget library keeps behind its own (Select2, Tom Select and Choices.js
  // keep the original <select> for the form): out of the tab order and drawn invisible
  // (see-through, clipped away, a pixel wide). No person reaches it; they use the widget.
  const FIELD_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  // So is a text field laid off the page (page_scroll.js `offPage`), but not one moved aside
  function leftBehind(el, cs) {
    if (P.offPage(el, cs)) return !P.movedAside(el);
    if (P.parkedBelow(el) || P.sizeless(el, cs)) return true;  // (or parked under content)
    // (a file input laid see-through over the button it is drawn as is what takes files)
    if (!FIELD_TAGS.has(el.tagName) || !el.hasAttribute("tabindex") || el.tabIndex >= 0 ||
        el.type === "file") return false;
    // (a see-through box laid over the one a grid draws for it is what takes the click:
    // AG Grid's row and header selection, its true/false cells)
    const box = el.type === "checkbox" || el.type === "radio";
    // (so is a select laid see-through over the words it stands for: Pikaday's month)
    if ((cs.opacity === "0" && !box && !P.overItsWords(el)) || cs.clipPath === "inset(50%)" ||
        /^rect\(0px,? 0px,? 0px,? 0px\)$/.test(cs.clip)) return true;
    const r = el.getBoundingClientRect();
    return r.width <= 1 || r.height <= 1;
  }

  // A text box that is only shown, never typed into: read-only, taking no focus, no field
  // of the browser's (Select2 draws its combobox's choice so).
  // (nor a list a kit keeps empty, with no size, until it shows options: Lexical's
  // typeahead menu, on every page of its editor)
  function shownOnly(el, role) {
    if (LISTS.has(role) && !el.firstElementChild &&
        ((r) => !r.width || !r.height)(el.getBoundingClientRect())) return true;
    return role === "textbox" && !FIELD_TAGS.has(el.tagName) && !el.isContentEditable &&
      el.getAttribute("aria-readonly") === "true" && !el.hasAttribute("tabindex");
  }
  const LISTS = new Set(["listbox", "menu", "tree", "grid", "tablist"]);

  // never a control, however they listen: a page's parts, a table or its body (DataTables')
  const REGIONS = new Set(["dialog", "alertdialog", "main", "navigation", "banner", "contentinfo",
    "complementary", "region", "form", "search", "table", "rowgroup", "TBODY", "THEAD", "TFOOT"]);

  // Whether `el` is a veil over the page (a modal's backdrop, fading out or not): empty (an
  // SVG's shapes: a tour's), over (nearly) all the viewport; a click there closes: no control.
  function veil(el, cs) {
    if ((cs.position !== "fixed" && cs.position !== "absolute") || HAS_WORD.test(
      el.textContent || "") || (el.firstElementChild && el.tagName !== "svg")) return false;
    const r = el.getBoundingClientRect();
    return r.width >= innerWidth * 0.9 && r.height >= innerHeight * 0.9;
  }

  Object.assign(P, { hoverShown, pageModal, overVeil, passesOn, ownClick, tabStop, guardOnly,
    wrapsControl, fieldWrap, fieldShown, ENTRY, hiddenByMistake, ariaHidden, labels, TABBABLE,
    namesControl, keepsField, leftBehind, shownOnly, REGIONS, veil, holdsControls });
})();
