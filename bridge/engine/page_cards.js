// The page helper: which containers are cards, for the snapshot's lines of repeated
// containers (issue 13 §4). A container that repeats among its siblings (a list item, a
// post, a card, a feed entry) and is small enough to be one is a line of its own in the
// snapshot, named by its first words, its controls under it.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;

  // What tells an element's kind apart: its first class, or lacking one the names of its
  // attributes (a wrapper a framework repeats per item: `data-testid`), with the value of
  // those that name a kind (`slot="comment"` beside `slot="actions"` are parts of one
  // item); not its style (layout) nor its id (each element's own: sections of a page that
  // have ids are not cards of one kind)
  const KIND_ATTRS = /^(?:slot|data-(?:testid|test-id|test|qa|cy|type|component-type))$/;
  function kindOf(el) {
    if (el.classList.length) return el.classList[0];
    let k = "";
    for (const a of el.attributes) {
      if (a.name === "style" || a.name === "id") continue;
      k += " " + a.name + (KIND_ATTRS.test(a.name) ? "=" + a.value : "");
    }
    return k;
  }

  // Whether el has a sibling of its kind (tag, role, and with byClass kindOf) among the
  // three before or after it.
  function repeats(el, byClass) {
    const tag = el.tagName, role = el.getAttribute("role"), cls = byClass && kindOf(el);
    const same = (s) => s.tagName === tag && s.getAttribute("role") === role &&
      (!byClass || kindOf(s) === cls);
    let s = el.previousElementSibling;
    for (let n = 0; s && n < 3; n++, s = s.previousElementSibling) if (same(s)) return true;
    s = el.nextElementSibling;
    for (let n = 0; s && n < 3; n++, s = s.nextElementSibling) if (same(s)) return true;
    return false;
  }

  // List items and articles that repeat, or whose wrapper (holding only them) repeats;
  // boxes with a class or attributes and custom elements that repeat (a card, a feed
  // entry, a chip), if small: a column of prose is not a card (see small).
  function boxable(el, role) {
    const tag = el.tagName;
    if (role === "listitem" || role === "article" || (tag === "ARTICLE" && !role)) {
      if (repeats(el, false) || lastOfList(el, role)) return true;
      const p = el.parentElement;
      return !!p && p.firstElementChild === el && p.lastElementChild === el &&
        repeats(p, true);
    }
    if (role || !(tag.includes("-") || CARD_TAGS.has(tag) && kindOf(el))) return false;
    // (a chip drawn inline is a card only while it holds a control: a label's words stay
    // one line with the words beside it, "Work" "Travel")
    return repeats(el, true) && (tag.includes("-") ||
      !getComputedStyle(el).display.startsWith("inline") || P.holdsControls(el));
  }

  // (a span too: a chip drawn inline, a recipient's address and its remove button)
  const CARD_TAGS = new Set(["DIV", "SECTION", "SPAN"]);

  // Whether a list item is its list's only one, with words of its own beside its controls
  // (the last file left in an upload's list: "cat.png" and its Remove)
  function lastOfList(el, role) {
    const p = el.parentElement;
    if (role !== "listitem" || !p || p.children.length !== 1) return false;
    const inControls = [...el.querySelectorAll(P.CONTROLS)].reduce(
      (n, c) => n + P.clean(c.textContent).length + 1, 0);
    return P.clean(el.textContent).length > inControls;
  }

  const CARD_CHARS = 600;
  const small = (el, role) => !!role || el.tagName === "ARTICLE" ||
    el.textContent.length <= CARD_CHARS;

  // Whether a box that takes clicks holds content that stays its own: a control (a
  // popover's panel that stops clicks), a table or a list (a wrapper that selects a
  // grid's rows by delegation, as DataTables' does). Such a box keeps its lines under it,
  // and a click inside it is not reported as the box's.
  const CONTENT = "table, [role=table], [role=grid], [role=treegrid], ul, ol, [role=list], " +
    "[role=listbox], [role=tree]";
  const holdsContent = (el) => !!el.querySelector(`${P.CONTROLS}, ${CONTENT}`);

  // Whether a box's words are the name or the value of a field among its lines (`rows`
  // from `start`): the label written beside that field or the choice drawn over it, not the
  // box's title (a row of labelled fields, Material's, Vuetify's, MUI's, is no card); or
  // words under its one field, named (at `nameAt`, after it): the error or help beneath a
  // field in the box that holds it with its label (react-hook-form's "Enter a valid email")
  const FIELDS = new Set(["textbox", "searchbox", "checkbox", "switch", "radio", "combobox",
    "slider", "spinbutton", "listbox"]);
  function labelsField(rows, start, name, nameAt) {
    const refs = rows.slice(start).filter((r) => r[1] === 0);
    if (refs.length === 1 && FIELDS.has(refs[0][2]) && refs[0][3] &&
        rows.indexOf(refs[0]) < nameAt) return true;  // (a named one: an unnamed box's
    // words after it name its card, a to-do's "Walk the dog")
    const words = P.clean(name).toLowerCase();
    const same = (w) => P.clean(String(w || "")).toLowerCase() === words;
    // (or begin with a text field's name: its help beneath it, MUI's "We never share it")
    const leads = (w) => !!w && words.startsWith(P.clean(String(w)).toLowerCase() + " ");
    return rows.slice(start).some((r) => r[1] === 0 && FIELDS.has(r[2]) &&
      (same(r[3]) || same(r[6]) || (TEXT_FIELDS.has(r[2]) && leads(r[3]))));
  }
  const TEXT_FIELDS = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);

  // Whether a box is the track a slider is drawn on, its thumbs the only controls in it and
  // a slider's height (MUI's, whose box listens to set the value where it is pressed): the
  // sliders' drawing (page_shown.js `controlPart`), no control; `fill` moves a slider.
  const SLIDERS = "input[type=range], [role=slider]", TRACK_MAX = 60;  // px high
  function sliderTrack(el) {
    if (!el.firstElementChild || el.getBoundingClientRect().height > TRACK_MAX) return false;
    const inner = [...el.querySelectorAll(P.CONTROLS)];
    return inner.length > 0 && inner.every((c) => c.matches(SLIDERS));
  }

  // Whether a hidden element a hover listener around it may show holds a control that shows
  // nowhere else beside it: not a responsive twin, hidden at this width while its like shows
  // (a pager's phone-sized "previous" next to the desktop one, both named alike)
  function hoverControl(el) {
    const c = el.matches(P.CONTROLS) ? el : el.querySelector(P.CONTROLS);
    const words = c && twinWords(c);
    return !!c && (!words || !el.parentElement || ![...el.parentElement.querySelectorAll(
      c.tagName)].some((t) => !el.contains(t) && twinWords(t) === words && t.checkVisibility()));
  }
  const twinWords = (c) => P.clean(c.getAttribute("aria-label") || c.title || c.textContent);

  // Whether a listening box is a blank part of a field's label (Quasar's empty message line
  // under its field): no words, no drawing, no pointer; a click there is the label's, which
  // goes to the field, no control of its own
  const blankInLabel = (el, cs) => !el.firstElementChild && !P.clean(el.textContent) &&
    cs.cursor !== "pointer" && cs.backgroundImage === "none" &&
    !!(el.closest("label") || {}).control && ["::before", "::after"].every((p) =>
      /^(?:none|normal)$/.test(getComputedStyle(el, p).content));

  // Whether el is an icon hidden from assistive technology that a person clicks all the
  // same: icon-sized, shown, with a pointer cursor of its own or its glyph's (its box's is
  // not), no control in it nor over it (MUI's chip draws its delete so, Syncfusion's in
  // ::before; Vaadin's check box lays its input over it). A box of the page hidden so (a
  // carousel's clone, a closed menu) is no icon.
  const pointed = (n, at) => !!n && getComputedStyle(n, at).cursor === "pointer";
  // (a box's pointer it inherits, unless it listens for clicks itself: Mantine's pill's
  // remove in a field's box that points as a whole; the hook asked once a walk)
  const listens = (el) => el.hasAttribute("onclick") ||
    (P.heardInWalk() || P.listened(P.hookKey)).has(el);
  function clickedIcon(el) {
    if (!(pointed(el) || pointed(el, "::before")) || el.querySelector(P.TABBABLE)) return false;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && r.width <= P.ICON_MAX && r.height <= P.ICON_MAX &&
          el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) ||
        (pointed(el.parentElement || el.getRootNode().host) && !listens(el))) return false;
    const hit = P.hitTarget(null, r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && !el.contains(hit) && hit.matches(P.CONTROLS));
  }

  // Whether a box holds only a label of a control, itself or through its slot (Vaadin's
  // check box draws its label's part so, with a pointer): a click there is the control's
  function holdsLabel(el) {
    let kids = [...el.children];
    if (kids.length === 1 && kids[0].tagName === "SLOT") kids = kids[0].assignedElements();
    return kids.length === 1 && kids[0].tagName === "LABEL" && !!kids[0].control &&
      !kids[0].contains(kids[0].control);
  }

  // Whether a box is laid out see-through, taking no pointer, where a person looks (a closed
  // popover Editor.js keeps in place, Dropzone's marks of a file's success and failure):
  // none of it shows. Not one out of view where the page scrolls: a page that fades its
  // parts in as they are scrolled to (AOS) keeps them so until then; one that does not
  // scroll (a survey of one question at a time) keeps its next ones out of sight.
  // (so is a message the page faded out and left in place, its box see-through: a toast)
  // (not a form's own check box or field drawn by the boxes beside it: a label's click
  // reaches it, Shoelace's; nor a box a pixel wide kept for screen readers, which holds
  // the field a kit draws as a box beside it, PrimeVue's)
  const seeThrough = (el, cs) => ((cs.opacity === "0" && cs.pointerEvents === "none" &&
    !FORM_FIELDS.has(el.tagName) && !((r) => r.width <= 1 || r.height <= 1)(
      el.getBoundingClientRect())) ||
    (el.matches(FADED) && !el.checkVisibility({ opacityProperty: true }) && !fadingIn(el))) &&
    !el.contains(document.activeElement) && (P.inViewport(el) || keptStill());
  const FORM_FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  // (nor a message fading in, see-through on its first frames: Shoelace's toast, whose
  // animation runs on the box around it)
  const FADE_UP = 4;
  function fadingIn(el) {
    for (let n = el, up = 0; n && up < FADE_UP; n = P.composedParent(n), up++) {
      if (n.nodeType === 1 && n.getAnimations().some((a) => a.playState === "running" ||
          a.pending)) return true;
    }
    return false;
  }
  const FADED = "[role=alert], [role=status], [aria-live=polite], [aria-live=assertive]";
  const keptStill = () => [document.documentElement, document.body].some((n) => !!n &&
    /^(?:hidden|clip)$/.test(getComputedStyle(n).overflowY));

  // The box an element is drawn in: its own, or where it has none (a web component whose
  // shadow root lays out all it shows, fixed: Vaadin's dialog), its shadow root's first
  function drawnBox(el) {
    const r = el.getBoundingClientRect();
    if ((r.width && r.height) || !el.shadowRoot) return r;
    for (const c of el.shadowRoot.children) {
      const q = c.getBoundingClientRect();
      if (q.width && q.height) return q;
    }
    return r;
  }

  // Whether an element that is no control says it is the current one of its kind (a
  // pager's page, a trail's crumb, a wizard's step: aria-current on its item), holding no
  // control that would say it itself
  const currentItem = (el, role) => !P.ACTIONABLE.has(role) && role !== "clickable" &&
    !!el.getAttribute && /^(?:page|step|location|date|time|true)$/.test(
      el.getAttribute("aria-current") || "") && !el.querySelector(P.CONTROLS);

  // Whether an inline box stands apart from the words beside it as a person reads them: a
  // chip or a label a margin or a padding of its own parts from them ("Work" "Travel", a
  // name and its time: innerText glues them, "WorkTravel")
  const GAP = 3;  // px
  const SIDES = ["marginLeft", "marginRight", "paddingLeft", "paddingRight"];
  const boxedInline = (cs) => cs.display === "inline" &&
    SIDES.some((side) => parseFloat(cs[side]) >= GAP);

  // The row of a tree's item that holds the group of its children (an ARIA tree's open
  // folder, whose box is all of them): its first shown child holding none of them, where a
  // person clicks it; null for any other element
  function ownRow(el) {
    if (P.roleOf(el) !== "treeitem" || !el.querySelector("[role=group]")) return null;
    for (const c of el.children) {
      if (!c.matches("[role=group]") && !c.querySelector("[role=group]") && c.checkVisibility())
        return c;
    }
    return null;
  }

  // Whether a box names itself (aria-label, aria-labelledby): a group of a page's radios so
  // named ("Size", Bootstrap's btn-group) is a line over them, as a fieldset is
  const namedBox = (el) => !!(el.getAttribute("aria-label") || "").trim() ||
    el.hasAttribute("aria-labelledby");

  Object.assign(P, { namedBox, boxable, small, holdsContent, labelsField, sliderTrack,
                    hoverControl, blankInLabel, clickedIcon, holdsLabel, seeThrough, drawnBox,
                    currentItem, ownRow, boxedInline });
})();
