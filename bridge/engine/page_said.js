// The page helper: what the page said in reply to an action, where a page speaks to the
// person who acts: its live regions (an alert, a status line, a toast that announces
// itself, an <output>). The words there that were not there when the action began go in
// the action's report (acting.py), as a screen reader would read them out; and whether the
// dialog the action's element was in went with it.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { clean, cut, textOf, hiddenForName, CONTROLS, SKIP_TAGS, HAS_WORD } = P;

  const LIVE = "[role=alert],[role=status],[aria-live=polite],[aria-live=assertive],output";
  const liveIn = (node) => !!node.parentElement && !!node.parentElement.closest(LIVE);
  const REGIONS_MAX = 30;  // regions looked at: a page of hundreds is read as its first
  const SHOWN = 3;
  const SAID_MAX = 150;  // characters of one message
  // the words of each region when the action began (saidStart), and how many elements it
  // held then (a toast stacked is one more; a status line's words rewritten are not)
  let before = new Map(), held = new WeakMap();
  // (and those that hid themselves from assistive technology then: one that lifts its own
  // aria-hidden says its words as it does, Shoelace's toast shown a frame after it came)
  const muted = new WeakSet();
  const kept = (now) => {
    for (const el of now.keys()) {
      held.set(el, el.getElementsByTagName("*").length);
      if (el.getAttribute("aria-hidden") === "true") muted.add(el);
      else muted.delete(el);
    }
    return now;
  };

  // A region's words as a person sees them: no script or style, nothing hidden, not the
  // region's own label (a toast stack's "Notifications"), and not its controls' (a toast's
  // "Undo", a dialog's "Cancel": what it says, not what it offers); with `links`, a link's
  // words are the box's (a comment that came: its author's name a link)
  function wordsOf(el, links = false, depth = 0) {
    let out = "";
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1) out += textOf(c, 0);
      else if ((c.matches(CONTROLS) && !(links && c.matches("a[href]") &&
          !c.querySelector(CONTROLS))) || SKIP_TAGS.has(c.tagName) || hiddenForName(c))
        out += " ";
      else if (depth < 20 && c.querySelector(CONTROLS))
        out += " " + wordsOf(c, links, depth + 1) + " ";
      else out += textOf(c, 0);
    }
    return clean(out);
  }

  // Whether a live region is, or holds, a table, a list or a dialog: a page that tells of
  // its changes there (Carbon's table body, a list of results, Blueprint's overlay) lays out
  // what it holds, no message; it is read as it stands.
  // (a carousel's track, live as it slides, holds its slides as groups or articles)
  const LAID_OUT = "table, thead, tbody, tfoot, tr, ul, ol, [role=table], [role=grid], " +
    "[role=treegrid], [role=rowgroup], [role=row], [role=list], [role=listbox], [role=feed], " +
    "dialog, [role=dialog], [role=alertdialog], [role=group], article, [role=article]";
  const laidOut = (el) => el.matches(LAID_OUT) || !!el.querySelector(LAID_OUT);

  // Whether the element shows (a box of its own hidden, or one it is inside)
  const shows = (el) => el.checkVisibility ? el.checkVisibility({ visibilityProperty: true })
    : !hiddenForName(el);

  // Whether the page made shadow roots (the hook counts them; hook.js): a web component's
  // toast speaks from inside its own
  function shadowsMade() {
    const key = P.hookKey;
    let made = 0;
    if (!key) return false;
    const take = (e) => { made = Number(e.detail) || 0; };
    document.addEventListener("ts-shadows-are-" + key, take, true);
    try {
      document.dispatchEvent(new CustomEvent("ts-ask-shadows-" + key));
    } finally {
      document.removeEventListener("ts-shadows-are-" + key, take, true);
    }
    return made > 0;
  }

  // The outermost live regions of the document (and of its shadow roots) that show, and
  // their words (one inside another speaks through it; one inside a region read as it
  // stands speaks for itself: a toast in a live list of toasts, and so does each item of a
  // short live list: sonner's toasts, `li`s in an `ol`). Those a modal or a popup hides
  // from assistive technology (aria-hidden on the app behind) count, unsaid: what they say
  // as it lifts is no news.
  const TOASTS_MAX = 5, ITEMS = "li, [role=listitem]", NOT_TOASTS = "table, [role=table], " +
    "[role=grid], [role=treegrid], [role=listbox], [role=feed], dialog, [role=dialog]";
  function regions() {
    const out = new Map();
    let all;
    try {
      all = shadowsMade() ? P.allRoots().flatMap((r) => [...r.querySelectorAll(LIVE)]) :
        document.querySelectorAll(LIVE);
    } catch (e) { return out; }
    for (const el of all) {
      if (out.size >= REGIONS_MAX) break;
      let up = el.parentElement && el.parentElement.closest(LIVE);
      while (up && !out.has(up)) up = up.parentElement && up.parentElement.closest(LIVE);
      if (up || !shows(el)) continue;
      if (el.hasAttribute("aria-live") && !el.matches("[role=alert],[role=status]") &&
          laidOut(el)) {
        const items = el.querySelectorAll(ITEMS);
        if (items.length <= TOASTS_MAX && !el.querySelector(NOT_TOASTS))
          for (const item of items) if (shows(item)) out.set(item, wordsOf(item));
        continue;
      }
      if (narrates(el)) continue;
      out.set(el, wordsOf(el));
    }
    for (const el of messageBoxes(out)) out.set(el, wordsOf(el));
    return out;
  }

  // Whether a region is a list widget's narration for screen readers, a pixel wide beside
  // its combobox or listbox (PrimeVue's "6 results are available", "1 items selected"):
  // what the list shows, told again, no reply of the page's
  const LIST_WIDGETS = "[role=combobox], [role=listbox]";
  function narrates(el) {
    const r = el.getBoundingClientRect();
    if (r.width > 1 && r.height > 1) return false;
    // (not one the page keeps for the whole page, at the body's end: a drag kit's)
    for (let n = el.parentElement, k = 0; n && n !== document.body && k < 2;
      n = n.parentElement, k++) if (n.querySelector(LIST_WIDGETS)) return true;
    return false;
  }

  // Where a page says something with no live region, as many do: a box its classes call a
  // message (an error line, a toast: "err", "n-message", "toast", "flash", ...), short
  // words and no field in it, outside the regions found and any row or list; outermost.
  const MESSAGE = new RegExp("(?:^|[\\s_-])(?:err|errors?|alert|toast|snackbar|notice|" +
    "notification|message|msg|feedback|flash|success|warning|invalid|danger|status)(?:$|[\\s_-])",
    "i");
  const MESSAGE_CSS = ["err", "alert", "toast", "snack", "notice", "notif", "message", "msg",
    "feedback", "flash", "success", "warn", "invalid", "danger", "status"]
    .map((w) => `[class*="${w}" i]`).join(",");
  const MESSAGE_CHARS = 200, MESSAGE_LOOKS = 300;
  const FIELDS = "input:not([type=hidden]), select, textarea, [contenteditable], " +
    "[role=textbox], [role=combobox], [role=searchbox], [role=slider], [role=spinbutton], " +
    "[role=switch], [role=checkbox], [role=radio], [role=listbox]";
  // (nor a field's label or a question's title a page marks wrong: SurveyJS's)
  const namesField = (el) => el.matches("label, legend, h1, h2, h3, h4, h5, h6, [role=heading]") ||
    (!!el.id && !!document.querySelector(`[aria-labelledby~="${CSS.escape(el.id)}"]`));
  function messageBoxes(found) {
    const out = [];
    let looked = 0;
    for (const el of document.querySelectorAll(MESSAGE_CSS)) {
      if (++looked > MESSAGE_LOOKS || found.size + out.length >= REGIONS_MAX) break;
      // (its class's words apart where they run together: "formError", "errorMessage")
      // (not a field's box marked by how its check went: "has-error", antd's
      // "ant-form-item-has-success"; its message, if any, is a box of its own)
      const cls = typeof el.className === "string" ? el.className
        .replace(/\S*has-\S*/g, "").replace(/([a-z])([A-Z])/g, "$1 $2") : "";
      if (!MESSAGE.test(cls) || el.closest(CONTROLS) || el.closest(LIVE) ||
          el.closest("tr, li, [role=row], [role=listitem]") ||
          out.some((m) => m.contains(el)) || [...found.keys()].some((r) => el.contains(r)) ||
          el.querySelector(FIELDS) || laidOut(el) || namesField(el) ||
          (el.textContent || "").length > MESSAGE_CHARS || !shows(el)) continue;
      out.push(el);
    }
    return out;
  }

  // The popups that show: the words a live region says as its popup opens (a date
  // picker's month and year) are what the popup shows, no reply
  const POPUPS = "dialog, [role=dialog], [role=alertdialog], [role=tooltip], [role=menu], " +
    "[role=listbox]";
  function popups() {
    const out = new Set();  // (a web component's in its shadow root: Carbon's modal)
    const all = shadowsMade() ? P.allRoots().flatMap((r) => [...r.querySelectorAll(POPUPS)])
      : document.querySelectorAll(POPUPS);
    for (const p of all) {
      if (out.size >= REGIONS_MAX) break;
      if (shows(p) && !(p.tagName === "DIALOG" && !p.open)) out.add(p);  // (shut, see-through)
    }
    return out;
  }
  let popupsAt = new Set();
  // whether a record was taken in this document: until one is, the regions it loaded with
  // say only their alerts (as a screen reader reads a page that loads: a status line's
  // "Draft", "idle", is what it shows)
  let started = false;
  const alerts = (el) => el.matches("[role=alert],[aria-live=assertive]");

  // An action begins (info() begins every one, on its element): what the regions say now,
  // and the dialog the element is in, or the modal one, if one shows
  let dialogAt = null;
  let startedOn = null;  // the element the action began on
  let shutAt = false;  // (whether it said then that it was collapsed)
  function saidStart(el) {
    startedOn = el;
    shutAt = !!el && !!el.getAttribute && el.getAttribute("aria-expanded") === "false";
    P.watchStart(el);
    before = kept(regions());
    const fields = document.querySelectorAll(NEAR);  // (read once: the two below use it)
    nearAt = nearFields(el, fields);
    focusAt = deepFocus();
    fieldsAt = new WeakSet([...fields, ...document.querySelectorAll(KEYED)]);
    idsAt = P.idsGiven();
    boxesAt = boxesNow();
    popupsAt = popups();
    listsAt = listsOf(popupsAt);
    started = true;
    dialogAt = null;
    // (as drawn: through the slot it is put in, out through shadow roots)
    for (let n = el; n; n = n.assignedSlot || n.parentNode || n.host) {
      if (n.nodeType === 1 && asks(n)) {
        if (shows(n)) dialogAt = n;
        break;
      }
    }
    // (else the modal one open over the page: an Escape, a click on its veil may close it;
    // one focus stays outside of, in the box that holds it: MUI's, looked for over the page
    // only while a dialog shows)
    if (!dialogAt) dialogAt = [...document.querySelectorAll(MODAL)].find(shows) ||
      ([...document.querySelectorAll(DIALOGS)].some(shows) ? P.pageModal() : null);
    // (named while it shows: one named by its first words has none once hidden)
    if (dialogAt) named.set(dialogAt, dialogNamed(dialogAt).name);
  }
  const named = new WeakMap();

  // The page's check boxes as the action began (BOXES_LOOK at most), whether each was
  // checked: a Select all's rows a script ticked (no attribute says so) are counted as they
  // changed, the box acted on apart
  const BOXES_LOOK = 200;
  let boxesAt = new Map();
  const boxesNow = () => new Map([...document.querySelectorAll("input[type=checkbox]")]
    .slice(0, BOXES_LOOK).map((b) => [b, b.checked]));
  // (not the one acted on: in it, holding it, its label, or the box it is drawn in)
  const actedBox = (b) => !!startedOn && (b === startedOn || startedOn.contains(b) ||
    b.contains(startedOn) || [...(b.labels || [])].some((l) => l.contains(startedOn) ||
      startedOn.contains(l)) || ((box) => !!box && box.contains(startedOn))(P.toggleBox(b)));
  function boxesFlipped() {
    const flipped = [0, 0];  // [now checked, now unchecked]
    for (const [b, was] of boxesAt)
      if (b.isConnected && b.checked !== was && !actedBox(b)) flipped[b.checked ? 0 : 1]++;
    boxesAt = new Map();
    return flipped;
  }

  // The fields beside the element an action begins on, with their values then (in the
  // first box around it holding any, NEAR_UP boxes up at most, if it holds few: the number a
  // quantity's − and + step): one that changed is said, as a person sees the number change
  // (an editor too: its words, read cheaply until they changed, Lexical's Clear and Undo)
  const NEAR_UP = 3, NEAR_FIELDS = 4, NEAR = "input:not([type=hidden]):not([type=checkbox])" +
    ":not([type=radio]):not([type=file]), select, textarea, [role=spinbutton], [role=slider]," +
    "[contenteditable=true]:not([contenteditable] *)," +
    "[contenteditable='']:not([contenteditable] *)";
  // (and, for where keys go, a field of ARIA's: a grid's select editor, a div combobox)
  const KEYED = "[role=combobox], [role=textbox], [role=searchbox]";
  const editor = (f) => f.isContentEditable && !/^(?:INPUT|TEXTAREA)$/.test(f.tagName);
  const read = (f) => editor(f) ? f.textContent : P.valueOf(f, P.roleOf(f));
  let nearAt = new Map();
  // (and on a page of few fields, every one that shows: the one a popup writes to, a date
  // picker's range, the count a passengers' stepper sets; else the one that has the focus)
  // (not one a kit keeps off the page for the form's sake: Tagify's, holding JSON)
  // (nor one hidden from people: see-through, or aria-hidden, the value a kit's own widget
  // shows kept for the form: MUI's select)
  // (but a see-through select laid over what shows its choice: a phone field's country
  // over its flag, react-phone-number-input's)
  const PAGE_FIELDS = 20, offPage = (f) => P.offPage(f, getComputedStyle(f)) ||
    !!f.closest("[aria-hidden=true]") || (!f.checkVisibility({ opacityProperty: true }) &&
    !(f.tagName === "SELECT" && ((r) => r.width > 4 && r.height > 4)(f.getBoundingClientRect())));
  function nearFields(el, all) {  // (`all`: the page's fields, NEAR)
    const out = new Map();
    if (!el || !el.matches) return out;
    // (a field's own: the other end of a range its thumb's move pushed, MUI's)
    for (let box = el.parentElement, up = 0; box && up < NEAR_UP; up++, box = box.parentElement) {
      const found = [...box.querySelectorAll(NEAR)].filter((f) => !f.contains(el));
      if (found.length > NEAR_FIELDS) break;
      for (const f of found) if (!offPage(f)) out.set(f, read(f));
      if (found.length) break;
    }
    const focused = document.activeElement;
    const more = all.length <= PAGE_FIELDS
      ? [...all].filter((f) => f.checkVisibility())
      : focused && focused.matches(NEAR) ? [focused] : [];
    for (const f of more.filter((f) => !offPage(f)))
      if (f !== el && !f.contains(el) && !out.has(f)) out.set(f, read(f));
    return out;
  }
  function fieldsChanged() {
    const out = [];
    for (const [f, was] of nearAt) {
      const now = f.isConnected ? read(f) : was;
      if (now === was || now === null || now === undefined) continue;
      nearAt.set(f, now);
      const role = P.roleOf(f), value = editor(f) ? P.valueOf(f, role) : now;
      out.push([P.nameOf(f, role) || role || "field", cut(String(value), SAID_MAX)[0]]);
    }
    return out;
  }
  const MODAL = "dialog:modal, [aria-modal=true]:is([role=dialog], [role=alertdialog])";
  const DIALOGS = "dialog, [role=dialog], [role=alertdialog]";
  // (so is a tooltip holding buttons: a question it asks, antd's Popconfirm)
  const asks = (n) => n.matches(DIALOGS) ||
    (n.matches("[role=tooltip]") && !!n.querySelector("button, [role=button]"));
  // Whether that dialog went with the action (gone, hidden, shut, or fading out: a Save or
  // a Cancel closing it): its role and name, for the report
  let dialogWas = null;  // the dialog the last action's element was in, still shown then
  function dialogGone() {
    const d = dialogAt;
    dialogAt = dialogWas = null;
    // (one in a web component's shadow root fades there: Web Awesome's, Shoelace's)
    const root = d && d.getRootNode();
    const fading = d ? P.fadingOut(root instanceof ShadowRoot ? [root] : []) : null;
    if (!d || (d.isConnected && shows(d) && !(d.tagName === "DIALOG" && !d.open) &&
               ![...fading].some((f) => f.contains(d)))) {
      dialogWas = d;
      return null;
    }
    return dialogNamed(d);
  }
  function dialogNamed(d) {
    const role = P.roleOf(d) || "dialog";
    // (one that names itself by no attribute: by its heading, or what it says first; a
    // tooltip as a dialog, not by all its words)
    return { role, name: P.dialogName(d, role === "tooltip" ? "dialog" : role) ||
             named.get(d) || "" };
  }
  // A dialog that shows now and did not as the action began (a button opening a modal
  // one, a step of a wizard following the last): its role and name, for the report
  function dialogCame(pops) {
    for (const p of pops) {
      if (!popupsAt.has(p) && asks(p) && !p.closest("[aria-hidden=true]"))
        return dialogNamed(p);
    }
    return null;
  }

  // A menu or a list of options that shows now and did not as the action began (a button
  // opening its menu that says nothing of it, Material's; suggestions a field's typing
  // brought): its role, name and how many items it holds, for the report
  const ITEMS_OF = "[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option]";
  // (or one that showed then and shows other items now: the suggestions a field's list
  // offers as more is typed, `again`)
  function listCame(pops) {
    const owned = P.ownList(startedOn, shutAt);
    if (owned) return owned;
    let again = null;
    for (const p of pops) {
      // (not the one whose item the action chose in: a select's list)
      if (!p.matches("[role=menu], [role=listbox]") ||
          p.closest("[aria-hidden=true]") ||
          [...pops].some((o) => o !== p && o.contains(p) && !popupsAt.has(o)) ||
          (startedOn && startedOn.isConnected && p.contains(startedOn))) continue;
      const role = P.roleOf(p), shown = itemsOf(p);
      const items = shown.length;
      if (!items || (popupsAt.has(p) && (again || listsAt.get(p) === listWords(shown))))
        continue;
      const found = { role, name: P.nameOf(p, role) || "", items };
      if (!popupsAt.has(p)) return found;
      again = Object.assign(found, { again: true });
    }
    return again;
  }
  // The menu or list of options that showed as the action began and shows no more (an
  // Escape, a click elsewhere closing a field's suggestions): its role and name; not the
  // one whose item the action chose (`pops`: those that show now)
  function listWent(pops) {
    for (const p of listsAt.keys()) {
      if (pops.has(p) || listsAt.get(p).startsWith("0\n") ||
          (startedOn && startedOn.isConnected && p.contains(startedOn)) ||
          (startedOn && !startedOn.isConnected && !p.isConnected)) continue;
      const role = P.roleOf(p);
      return { role, name: P.nameOf(p, role) || "" };
    }
    return null;
  }
  const itemsOf = (p) => [...p.querySelectorAll(ITEMS_OF)].filter(shows);
  const LIST_WORDS = 50;  // items whose words tell a list's offer from the one before
  const listWords = (items) => items.length + "\n" +
    items.slice(0, LIST_WORDS).map((i) => clean(i.textContent || "")).join("\n");
  // The words of the menus and lists of options that show (`pops`), by list
  let listsAt = new Map();
  const listsOf = (pops) => new Map([...pops].filter((p) => p.matches(
    "[role=menu], [role=listbox]")).map((p) => [p, listWords(itemsOf(p))]));

  // Whether the dialog the last action's element was in, shown as it ended, went since
  // (a kit's that starts to fade out frames later: Vue's transition): its role and name
  function dialogLater() {
    dialogAt = dialogWas;
    return dialogGone();
  }
  const inDialog = () => !!dialogWas;

  // The words the regions took on since the action began (what a region added at its end,
  // or all it says now; not words as many regions said before, as a toast redrawn says
  // them, while a second toast of the same words is news), {said: [[words, characters
  // cut]], more}, or null; the record starts anew.
  function saidFound() {
    const now = regions();
    const count = (m) => {
      const c = new Map();
      for (const w of m.values()) if (w) c.set(w, (c.get(w) || 0) + 1);
      return c;
    };
    const had = count(before), has = count(now);
    const said = [];
    for (const [el, words] of now) {
      const lifted = muted.has(el) && el.getAttribute("aria-hidden") !== "true";
      const was = lifted ? "" : before.get(el) || "";
      if (!words || words === was || (!lifted && has.get(words) <= (had.get(words) || 0)) ||
          el.closest("[aria-hidden=true]")) continue;
      if (!before.has(el) || lifted) {  // a region that came, or showed, since
        const pop = el.parentElement && el.parentElement.closest(POPUPS);
        if ((!started && !alerts(el)) || (pop && !popupsAt.has(pop))) continue;
      }
      // (what a region added in an element of its own, a toast stacked under one; not a
      // status line that grew its own sentence: "3 files uploaded, 2 failed", "sorted:"
      // that became "sorted: age asc", are said whole)
      const fresh = was && words.startsWith(was + " ") && HAS_WORD.test(words[was.length + 1]) &&
        el.getElementsByTagName("*").length > (held.get(el) || 0)
        ? clean(words.slice(was.length)) : words;
      if (fresh && !said.includes(fresh)) said.push(fresh);
    }
    const pops = popups(), opened = started ? dialogCame(pops) : null;
    const focused = started && !opened ? focusCame() : null;
    let listed = started && !opened ? listCame(pops) : null;
    const shut = started && !listed ? listWent(pops) : null;
    // (a tooltip or popover that came, asking nothing: Bootstrap's popover a click opens)
    const tip = started && !opened ? [...pops].find((p) => !popupsAt.has(p) &&
      p.matches("[role=tooltip]") && !asks(p) && !p.closest("[aria-hidden=true]")) : null;
    const tipWords = tip ? cut(clean(tip.innerText || ""), SAID_MAX)[0] || null : null;
    const popsBefore = popupsAt;
    focusAt = deepFocus();
    before = kept(now);
    popupsAt = pops;
    listsAt = listsOf(pops);
    started = true;
    const closed = dialogGone(), values = fieldsChanged();
    const changed = P.watched(now.keys(), popsBefore);
    if (!opened && !listed && !shut) listed = changed.list;  // (a plain list that came)
    const came = changed.came.filter((w) => !said.includes(w) && w !== tipWords);
    const { moved, items, parts, sorted, gone, veiled, buttons } = changed;
    const went = changed.went.filter((w) => !came.includes(w));  // (not words that came too)
    const columns = changed.columnsWent.length + changed.columnsCame.length;
    const boxes = boxesFlipped();
    if (!said.length && !closed && !opened && !tipWords && !values.length && !came.length &&
        !moved.length && !items && !parts.length && !listed && !sorted && !gone && !veiled &&
        !focused && !buttons.length && !went.length && !columns && !boxes[0] && !boxes[1] &&
        !shut) return null;
    return { said: said.slice(0, SHOWN).map((w) => cut(w, SAID_MAX)),
             more: Math.max(0, said.length - SHOWN), closed, opened, shows: tipWords, values,
             came: came.slice(0, SHOWN).map((w) => cut(w, SAID_MAX)), parts, listed, moved,
             movedMore: changed.movedMore, items, addedWords: changed.addedWords, gone,
             goneWords: changed.goneWords,
             put: changed.put, putWords: changed.putWords, sorted, veiled, focused, buttons,
             cameMore: came.length - SHOWN, went: went.map((w) => cut(w, SAID_MAX)),
             columnsWent: changed.columnsWent, columnsCame: changed.columnsCame, boxes, shut };
  }

  // The field the action put the focus in, where typing now goes (the editor a cell's
  // double click opened, a title an Edit turned into a field, the next field a Tab went
  // to): its role, name and value, and whether it came with the action; not the element
  // acted on or what holds it, nor one that had the focus as the action began
  // (a field in a shadow root, which `fieldsAt` does not look into, came unless the helper
  // met it before the action: Shoelace's select's own field)
  let focusAt = null, fieldsAt = new WeakSet(), idsAt = 0;
  const met = (f) => fieldsAt.has(f) || (P.idKnown(f) > 0 && P.idKnown(f) < idsAt);
  function deepFocus() {
    let f = document.activeElement;
    while (f && f.shadowRoot && f.shadowRoot.activeElement) f = f.shadowRoot.activeElement;
    return f;
  }
  // (nor one the element acted on held, a counter's own field, unless it came: a cell's
  // editor; nor one of a dialog that opened, said as it)
  function focusCame() {
    const f = deepFocus();
    if (!f || f === focusAt || f === startedOn || !f.isConnected ||
        !(f.matches(NEAR) || f.matches(KEYED)) || (startedOn && f.contains(startedOn)) ||
        (startedOn && startedOn.contains && startedOn.contains(f) && met(f)))
      return null;
    const role = P.roleOf(f) || "textbox", value = P.valueOf(f, role);  // (an editor's lines)
    return { role, name: P.nameOf(f, role) || "", came: !met(f),
             value: value === null || value === undefined ? "" : cut(String(value), SAID_MAX)[0] };
  }

  // A region's words as -i says them, cut: a log's (a chat's) keeps its end, the newest
  // lines, and says how much came before it (a negative count); others keep their start
  function cutFor(words, role) {
    const max = P.NAME_MAX;
    if (role !== "log" || words.length - max <= 12) return cut(words, max);
    return [words.slice(-max), -(words.length - max)];
  }

  // Whether `el` is where the page tells the person something: an alert, a status, a live
  // region (the snapshot keeps its words in -i). Not a live region `laidOut`.
  function tells(el, role) {
    if (role === "alert" || role === "status") return true;
    if (role === "dialog" || role === "alertdialog") return false;  // (SweetAlert2's is live)
    const live = el.getAttribute("aria-live");
    return (live === "polite" || live === "assertive") && !laidOut(el);
  }

  // A region's words as the interactive snapshot shows them (page_walk.js): its links'
  // and buttons' with its own, a select's choice, not all its options
  const shownWords = (el) => clean([...el.childNodes].map((c) => textOf(c, 0)).join(""));

  Object.assign(P, { cutFor, saidStart, saidFound, shownWords, tells, dialogLater,
    inDialog, wordsOf, shows, LIVE, liveIn, POPUPS, FIELDS, MESSAGE_CHARS, shadowsMade });
})();
