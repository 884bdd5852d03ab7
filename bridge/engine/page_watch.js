// The page helper: what the page changed while an action ran, read from its changes (a
// MutationObserver from the action's start, page_said.js `saidStart`, until the next): the
// words that came in plain boxes, the other controls whose state it changed, the items it
// added to lists.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { HAS_WORD, SKIP_TAGS, ITEMS, textIn, ownWords, addedIn, alikeItem } = P;

  // Words that came in a plain box while the action ran (no live region, no class that calls
  // it a message: a form's "Account created" written into a bare div, a field's error put in
  // beside it, a "Saved" line shown): what a person sees come. An element added, an empty
  // box its words went into, one shown (its `hidden`, a display none, or a class that hid it
  // taken away); and words rewritten in place (a cart's "Cart (1)", a stepper's "Step 2 of
  // 3", a pager's "6–10 of 13", a price), read whole in the block they are inline in, or in
  // the link or button they name (not the element acted on, whose own change is said of
  // it); none without a letter or a sum (a clock's). Not a box put where words went (a list
  // redrawn), a field's, nor what a popup, a row, a list or a table holds; many boxes at
  // once are a view drawn anew, no message; a page redrawing without pause (more than
  // RECORDS_MAX changes) says none.
  const CAME_MAX = 5, RECORDS_MAX = 500, BOXES_MAX = 200;
  const ROWS = "tr, li, table, [role=row], [role=listitem], [role=table], [role=grid], " +
    "[role=treegrid], [role=list], [role=listbox], [role=option], [role=feed], [role=log]";
  const HID = /(?:^|\s)(?:hidden|d-none|is-hidden|invisible|hide|collapsed?)(?:\s|$)/;
  const HID_STYLE = /display:\s*none|visibility:\s*hidden|max-height:\s*0(?:px)?(?![.\d])/;
  let records = [], overflowed = false, actedOn = null;
  const watcher = new MutationObserver((list) => take(list));
  function take(list) {
    if (overflowed || !list.length) return;
    for (const r of list) records.push(r.target.nodeType === 11 ? hosted(r) : r);
    if (records.length > RECORDS_MAX) {
      overflowed = true;
      records = [];
      watcher.disconnect();
    }
  }
  // A change of a shadow root's own children, as its host's (what reads it asks elements)
  const hosted = (r) => ({ type: r.type, target: r.target.host, addedNodes: r.addedNodes,
    removedNodes: r.removedNodes, previousSibling: r.previousSibling,
    nextSibling: r.nextSibling, attributeName: r.attributeName, oldValue: r.oldValue });
  function watchStart(el) {
    watcher.disconnect();
    records = [];
    overflowed = false;
    actedOn = el;
    const what = { childList: true, subtree: true, characterData: true,
      characterDataOldValue: true, attributes: true, attributeOldValue: true,
      attributeFilter: ["hidden", "style", "class", ...STATE_ATTRS] };
    watcher.observe(document, what);
    // (and the page's shadow roots, where it made some: a web component's status line)
    if (P.shadowsMade()) for (const r of P.allRoots()) if (r !== document) watcher.observe(r, what);
  }
  // Whether a node is in the body, also from inside a shadow root (its host's place)
  function inBody(n) {
    for (let r = n.getRootNode(); r instanceof ShadowRoot; r = n.getRootNode()) n = r.host;
    return !!document.body && document.body.contains(n);
  }
  // whether an attribute's change showed its element: what it was hid it and what it is does
  // not, or it took a class that shows it (a survey's thank-you page `.page.on`), not around
  // the element acted on (a card marked active) unless that now says it is expanded (an
  // accordion's item marked open around its question: what it shows beside the question)
  const SHOWS = /^(?:(?:is-)?(?:shown?|open(?:ed)?|visible|active)|in|on)$/;
  const expanded = () => !!actedOn && actedOn.getAttribute("aria-expanded") === "true";
  function showedBy(r) {
    if (!["hidden", "style", "class"].includes(r.attributeName)) return false;  // (a state's)
    const el = r.target, was = r.oldValue || "", now = el.getAttribute(r.attributeName) || "";
    if (r.attributeName === "hidden") return r.oldValue !== null && !el.hidden;
    const hid = r.attributeName === "style" ? HID_STYLE : HID;
    const had = new Set(was.split(/\s+/)), has = new Set(now.split(/\s+/));
    // (not one that lost the class showing it: Bootstrap's `collapse show` for `collapsing`)
    if (hid.test(was) && !hid.test(now)) return r.attributeName === "style" ||
      ![...had].some((c) => SHOWS.test(c) && !has.has(c));
    return r.attributeName === "class" && !(actedOn && el.contains(actedOn) && !expanded()) &&
      now.split(/\s+/).some((c) => SHOWS.test(c) && !had.has(c));
  }
  // The box a change of words in `box` rewrote, as a person reads it: the link or button it
  // names (no other control: a field's, an option's), else the block it is inline in
  // (words rewritten in a table's row or a list's item are read as the row or item: an
  // order summary's "Total $37.49", a password rule's "✓ One symbol"; not an option's, a
  // feed's or a log's, which say their own)
  const ITEM_ROWS = "tr, li, [role=row], [role=listitem]";
  const OWN_NEWS = "[role=listbox], [role=option], [role=feed], [role=log], [role=menu], " +
    "[role=tree], [role=combobox]";
  function readAs(box, added) {  // (`added`: elements that came; one where words went redraws)
    const control = box.closest(P.CONTROLS);
    if (control) return /^(?:button|link)$/.test(P.roleOf(control)) ? control : null;
    // (a box that came in a row that stayed is read as the row: a cell htmx swapped in)
    const item = box.closest(ITEM_ROWS);
    if (item) return item.closest(OWN_NEWS) || [...added].some((n) => n.contains(item)) ? null
      : item;
    // (not up into a field's box: a password's strength beside it, Strength: Strong)
    let n = box;
    while (n.parentElement && n.parentElement !== document.body &&
           getComputedStyle(n).display.startsWith("inline") &&
           !n.parentElement.querySelector(P.FIELDS)) n = n.parentElement;
    return n;
  }
  // (in a control whose words it would be; not in one holding controls, a card dnd-kit
  // makes a button holding its own menu's)
  const inControl = (box) => ((c) => !!c && !c.querySelector(P.CONTROLS))(
    box.closest(P.CONTROLS));
  // (an element put into a table's cell that was there, its row not drawn anew: an event a
  // calendar's day took; read as a row's words are, a table's rows apart)
  const CELLS = "td, th, [role=gridcell], [role=cell]";
  const inOldCell = (box, added) => ((cell) => !!cell && added.has(box) &&
    !box.querySelector(P.FIELDS) && ![...added].some((n) => n !== box && n.contains(box)))(
    box.parentElement && box.parentElement.closest(CELLS));
  function cameWords(list, added, regionsNow) {
    listCame = null;
    const had = new Map();  // box -> the words it lost meanwhile (what it had)
    const boxes = new Set();
    const lost = (box, words) => had.set(box, (had.get(box) || "") + " " + words);
    // (what a box had as the action began: not the words of a node the action itself put
    // in and took out again, nor a text's later values: rules a password field rewrites at
    // each key of a `type`)
    const putIn = new Set(), rewrote = new Set();
    for (const r of list) {
      if (r.type === "characterData") {
        if (r.target.parentElement) {
          boxes.add(r.target.parentElement);
          if (!rewrote.has(r.target)) lost(r.target.parentElement, r.oldValue || "");
          rewrote.add(r.target);
        }
      } else if (r.type === "attributes") {
        if (showedBy(r)) boxes.add(r.target);
      } else {
        for (const n of r.removedNodes) if (!putIn.has(n)) lost(r.target, textIn(n));
        for (const n of r.addedNodes) putIn.add(n);
        for (const n of r.addedNodes) {
          if (n.nodeType === 1) boxes.add(n);
          else if (n.nodeType === 3 && HAS_WORD.test(n.data)) boxes.add(r.target);
        }
      }
    }
    const body = document.body, spoken = [...regionsNow];
    const came = [], rewritten = new Map();  // box read -> the words it and its box lost
    const parts = [];  // [box, the part of a form it is]
    const drawn = new Set();  // boxes read for elements that came (not words rewritten)
    let looked = 0;
    for (const box of boxes) {
      if (box.nodeType !== 1 || !box.isConnected || box === body || !body ||
          !inBody(box) || SKIP_TAGS.has(box.tagName)) continue;
      if (++looked > BOXES_MAX) break;
      // (a box that had words changed them: read where a person reads them)
      const was = (had.get(box) || "") + " " + (had.get(box.parentElement) || "");
      if (HAS_WORD.test(was)) {
        // (not words put back as they were: a count set again to the same number)
        if (P.clean(had.get(box) || "") === P.clean(textIn(box))) continue;
        // (nor a box drawn anew with the words its box lost: a cell a framework drew again)
        if (added.has(box) &&
            P.clean(had.get(box.parentElement) || "").includes(P.clean(textIn(box)))) continue;
        const at = readAs(box, added);
        if (at) rewritten.set(at, (rewritten.get(at) || "") + " " + was);
        if (at && added.has(box)) drawn.add(at);
        continue;
      }
      // (not an item like those beside it: a grid's cards a Load more added, counted)
      // (a box shown, not added, is one among like boxes still shown: a tab's panel shown
      // as the one before hides is news)
      // (nor one of like items an expanded control opened: a FAQ's answer, its like others)
      const opened = expanded() && box.contains(actedOn);
      if (!inControl(box) && (opened || !alikeItem(box, added, !added.has(box)))) {
        const words = plainWords(box, spoken, inOldCell(box, added), true);
        const part = words ? null : formPart(box, spoken);
        if (!words && !part && !listCame) listCame = longList(box, spoken);
        came.push([box, words]);
        drawn.add(box);
        if (part) parts.push([box, part]);
      }
    }
    // (not words drawn again as they were: a view a refresh draws anew)
    for (const [box, was] of rewritten) {
      // (a number beside the control acted on, in the box that holds it or its own box
      // beside it, is its count: a vote's, a stepper's flex item; not a clock's elsewhere)
      const up = box.parentElement, beside = !!actedOn && actedOn.isConnected &&
        (box.contains(actedOn) || (!!up && up !== document.body &&
         up.childElementCount <= BESIDE_MAX && up.contains(actedOn)));
      const words = plainWords(box, spoken, box.matches(ITEM_ROWS), false, beside, was);
      if (words && !P.clean(was).includes(words)) came.push([box, words]);
      const part = words || P.clean(was).includes(P.clean(box.textContent)) ? null
        : formPart(box, spoken);  // (a form's next step put where its last one was)
      if (part) parts.push([box, part]);
    }
    const told = came.filter(([, w]) => w);
    // (the outermost of boxes that came one inside another: an element added and the
    // words put in it)
    const outer = told.filter(([b]) => !told.some(([o]) => o !== b && o.contains(b)));
    const formed = parts.filter(([b]) => !parts.some(([o]) => o !== b && o.contains(b)))
      .slice(0, PARTS_MAX).map(([, part]) => part);
    // (many boxes that came are a view drawn anew, which says nothing; words rewritten in
    // place beside it still do: a filter's count over its results drawn anew)
    // (and of many rewritten in place, those that are no control's: a calendar's Next
    // rewrote its days' headers, buttons, and its range "December 13 – 19", which is said)
    let news = outer.length > CAME_MAX ? outer.filter(([b]) => !drawn.has(b)) : outer;
    if (news.length > CAME_MAX) news = news.filter(([b]) => !b.matches(P.CONTROLS));
    if (news.length > CAME_MAX) return { words: [], parts: formed };
    return { words: [...new Set(news.map(([, w]) => w))], parts: formed };
  }
  // A list of plain items that came, more than a short one (a combobox of the page's own
  // making that shows its countries, Alpine's; a menu of links): {role: "list", name,
  // items: how many, first: the words of the first LIST_SAID}; null for a popup's, a row's,
  // a live region's, a field's, or one that holds fields
  let listCame = null;
  function longList(box, spoken) {
    const up = box.parentElement;
    if (!box.matches("ul, ol, [role=list]") || !up || up.closest(ROWS + ", " + P.POPUPS) ||
        box.closest(P.LIVE) || box.closest(P.FIELDS) || box.querySelector(P.FIELDS) ||
        !P.shows(box) || spoken.some((r) => r.contains(box) || box.contains(r))) return null;
    const items = [...box.children].filter((c) => c.matches("li, [role=listitem]") &&
      P.shows(c));
    const first = items.slice(0, LIST_SAID).map((i) => P.cut(P.wordsOf(i, true), 40)[0]);
    if (items.length <= LIST_SAID || !first.every(Boolean)) return null;
    return { role: "list", name: P.nameOf(box, "list") || "", items: items.length, first };
  }
  // A part of a form that came (a checkout's next step, an address added): its heading
  // and its fields' names, FIELDS_SAID at most, and how many more; null for a popup's, a
  // row's, a live region's, one in the element acted on, or one that does not show
  const FIELDS_SAID = 3, PARTS_MAX = 2;
  function formPart(box, spoken) {
    if (box.closest(ROWS) || box.closest(P.POPUPS) || box.closest(P.LIVE) ||
        box.closest(P.FIELDS) || !P.shows(box) ||
        (actedOn && actedOn.isConnected && actedOn.contains(box)) ||
        spoken.some((r) => r.contains(box) || box.contains(r))) return null;
    // (not the field it shows, nor a list of options: a search's with none yet, named as
    // its field is, or a select's that opened, said as a list: Mantine's, react-select's)
    const fields = [...box.querySelectorAll(P.FIELDS)].filter((f) => f.checkVisibility() &&
      f !== actedOn && !P.leftBehind(f, getComputedStyle(f)) && !f.matches("[role=listbox]"));
    if (!fields.length) return framePart(box);
    const head = box.querySelector("h1, h2, h3, h4, h5, h6, [role=heading], legend");
    const names = fields.slice(0, FIELDS_SAID).map((f) => ((role) =>
      P.cut(P.nameOf(f, role) || role || "field", P.NAME_MAX)[0])(P.roleOf(f)));
    return { lead: head ? P.cut(P.clean(head.innerText || ""), P.NAME_MAX)[0] : "",
             fields: names, more: fields.length - names.length };
  }
  // (or the frame it is or holds, named: a chat widget's a launcher shows; its fields are
  // its document's, which this one does not read)
  function framePart(box) {
    const f = box.matches("iframe, frame") ? box : box.querySelector("iframe, frame");
    if (!f || !f.checkVisibility() || ((r) => r.width < 2 || r.height < 2)(
      f.getBoundingClientRect())) return null;
    return { lead: "", fields: [], more: 0,
             frame: P.cut(P.nameOf(f, "iframe") || "", P.NAME_MAX)[0] || "" };
  }
  // The words of a box that came or changed, if a person reads them as the page's news: ""
  // for a field's, a row's, a list's, a popup's, a live region's (said as such), the
  // element acted on's, one that does not show, or words too long or with no letter, sum
  // or share (a clock's tick; not a price: "$129.00")
  const NEWS = /[\p{L}\p{Sc}%]/u;
  // (a short list of words alone that came is news too: a file's rejection, a form's
  // errors listed; not a menu of links, results, a table, nor one rewritten: a list's
  // "Loading…" while its results come)
  const LIST_SAID = 3;
  const shortList = (box) => ((rows) => rows.length <= LIST_SAID &&
    rows.every((r) => r.matches("li, [role=listitem]")) && !box.querySelector(P.CONTROLS))(
    [...box.querySelectorAll(ROWS)]);
  // (`item`: a row rewritten, read whole; `came`: a box that came, a short list's too;
  // `count`: a number alone is news; `was`: the words a box rewritten had, whose change is
  // read where it holds a list)
  function plainWords(box, spoken, item = false, came = false, count = false, was = null) {
    // (one a popup hides from assistive technology while it is open is still seen:
    // Headless UI's menu makes the rest of the page aria-hidden and inert)
    // (words that came in a dialog open as the action began are news: a gallery's caption
    // its Next put in, a modal form's error; a dialog that came is said as one)
    const pop = box.closest(P.POPUPS);
    const list = !item && !!box.querySelector(ROWS) && !(came && shortList(box));
    if (box.closest(P.FIELDS) || (!item && (box.closest(ROWS) || box.querySelector(P.FIELDS) ||
        (list && was === null))) || (pop && (!pop.matches(DIALOGS) || !openBefore.has(pop))) ||
        box.closest(P.LIVE) || !P.shows(box)) return "";
    // (not the words of the element acted on, said as its name; but what came in a control
    // holding controls, the card dnd-kit makes a button, whose own menu's button was pressed)
    if ((actedOn && actedOn.isConnected && actedOn.contains(box) &&
         !actedOn.querySelector(P.CONTROLS)) ||
        spoken.some((r) => r.contains(box) || box.contains(r))) return "";
    const words = list ? changedWords(was, box) : P.wordsOf(box, true);
    return words && words.length <= P.MESSAGE_CHARS &&
      (NEWS.test(words) || (count && /\d/.test(words))) ? words : "";
  }

  // What a box holding a list, drawn anew, shows in place of what it showed (a plan's card
  // a Yearly switch drew again: "$23/month" where "$29/month" was): its words between those
  // kept before them and after them, if few (not a list's items that all changed)
  const CHANGED_MAX = 80;
  const BESIDE_MAX = 6;  // boxes in a control's own row (a stepper's -, number and +)
  function changedWords(was, box) {
    const a = P.clean(was).split(" "), b = P.clean(textIn(box)).split(" ");
    let i = 0, j = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j])
      j++;
    const part = b.slice(i, b.length - j).join(" ");
    return part.length <= CHANGED_MAX ? part : "";
  }

  // Other controls whose state the action changed, as their attributes or their class mark
  // say (a carousel's Next moved its current dot, a Select all checked the rows, Save came
  // to be enabled): [name, what it is now] of MOVED_MAX at most, for the report ("Go to
  // slide 2" now current), and how many more; not the element acted on, what it holds or
  // what holds it, nor what it stopped being (the dot it left), but a control enabled
  const STATE_ATTRS = ["aria-current", "aria-selected", "aria-checked", "aria-pressed",
    "aria-expanded", "aria-disabled", "disabled", "open", "aria-activedescendant"];
  const GAINS = { "aria-current": "current", "aria-selected": "selected",
    "aria-checked": "checked", "aria-pressed": "pressed", "aria-expanded": "expanded" };
  const MOVED_MAX = 3, MOVED_LOOK = 100;
  const onIn = (attr, v) => attr === "aria-current" ? v !== null && v !== "false"
    : attr === "disabled" ? v !== null : v === "true";
  function statesMoved(list) {
    const gained = new Map();  // element -> the states it came to have
    for (const r of list) {
      if (r.type !== "attributes" || gained.size >= MOVED_LOOK) continue;
      let el = r.target;
      const attr = r.attributeName, now = el.getAttribute(attr);
      // (the option a combobox's keys made active, its list drawn anew at each: DocSearch's)
      if (attr === "aria-activedescendant") {
        const to = now && el.getRootNode().getElementById ? el.getRootNode().getElementById(now)
          : null;
        if (to && to !== el) gained.set(to, new Set(["selected"]));
        continue;
      }
      // (a <details> opened or shut: its summary says so, expanded or collapsed)
      if (attr === "open") {
        const summary = el.tagName === "DETAILS" && el.querySelector(":scope > summary");
        if (!summary) continue;
        el = summary;
      }
      if (actedOn && (el === actedOn || el.contains(actedOn) || actedOn.contains(el))) continue;
      const words = gained.get(el) || new Set();
      if (attr === "open") words.add(now === null ? "collapsed" : "expanded");
      else if (GAINS[attr] && onIn(attr, now) && !onIn(attr, r.oldValue)) words.add(GAINS[attr]);
      else if ((attr === "disabled" || attr === "aria-disabled") &&
               onIn(attr, r.oldValue) !== onIn(attr, now)) words.add("enabled");
      else if (attr === "class") {
        const had = new Set((r.oldValue || "").split(/\s+/));
        if ((now || "").split(/\s+/).some((c) => P.MARK.test(c) && !had.has(c)))
          ["current", "selected", "pressed"].forEach((w) => words.add(w));
      }
      if (words.size) gained.set(el, words);
    }
    const moved = [];
    for (const [el, words] of gained) {
      // (nor an option of a list that opened with the action: its look as it opened)
      const pop = el.isConnected && el.closest(P.POPUPS);
      if (!el.isConnected || !P.shows(el) || (pop && !openBefore.has(pop))) continue;
      const role = P.roleOf(el), name = role && P.nameOf(el, role);
      if (!name) continue;
      // (what its states say now: a class mark may be one of three; `disabled` toggled
      // either way says which it ended)
      const states = new Set(P.statesOf(el, role));
      const now = [...words].map((w) => w !== "enabled" ? w
        : P.disabledOf(el, role) ? "disabled" : "enabled")
        .filter((w) => w === "enabled" || w === "disabled" || states.has(w));
      if (now.length) moved.push([name, now.join(" ")]);
    }
    return moved;
  }

  // The words of boxes the action took out of sight, which say nothing of it themselves (a
  // popover's panel closing as focus left it, a panel its Hide took away): removed, or
  // hidden by an attribute, not shown now, and none of: an item of a list (counted), a
  // popup's or a live region's (said as such), a message or a loader (going is how it
  // ends), a tab's panel (its tab says it), the element acted on or what holds it, what a
  // control that collapsed hid (it says so), one drawn again in its place or beside like
  // ones of its class, words the page still shows;
  // WENT_MAX boxes at most, else a view drawn anew that says nothing
  const WENT_MAX = 2;
  const PASSING = new RegExp("(?:^|[\\s_-])(?:toast|snack(?:bar)?|alert|notice|notification|" +
    "message|msg|flash|spinner|loader|loading|skeleton|placeholder|tooltip|tip)(?:$|[\\s_-])", "i");
  const STILL = "[role=tabpanel], [role=progressbar], [aria-busy=true]";
  function hidBy(r) {
    const el = r.target, was = r.oldValue || "", now = el.getAttribute(r.attributeName) || "";
    if (r.attributeName === "hidden") return r.oldValue === null && el.hidden;
    if (r.attributeName === "style") return !HID_STYLE.test(was) && HID_STYLE.test(now);
    const has = new Set(now.split(/\s+/));
    return r.attributeName === "class" && ((!HID.test(was) && HID.test(now)) ||
      was.split(/\s+/).some((c) => SHOWS.test(c) && !has.has(c)));
  }
  // (but a field's own message, in a box that holds that field alone, FIELD_UP out at
  // most: Vuetify's "Name is required" gone as the name is typed is news)
  const FIELD_UP = 4;
  function ofField(box) {
    for (let n = box, k = 0; n && n !== document.body && k < FIELD_UP; n = n.parentElement, k++) {
      const fields = n.querySelectorAll(P.FIELDS).length;
      if (fields) return fields === 1;
    }
    return false;
  }
  function boxesWent(list, added) {
    if (actedOn && actedOn.getAttribute("aria-expanded") === "false") return [];
    const went = [];
    let page = null;  // the page's words now, read once
    let going = null;  // what fades or folds out of it now, read once
    const shown = (n) => P.shows(n) && ![...(going = going || P.fadingOut())].some(
      (g) => g.contains(n));
    // (or a class set it leaving, fading or folding out: Vue's leave transition)
    const leaving = (r) => r.attributeName === "class" &&
      [...(going = going || P.fadingOut())].some((g) => g.contains(r.target));
    for (const r of list) {
      const nodes = r.type === "childList" ? [...r.removedNodes].filter((n) =>
        n.nodeType === 1 && !n.isConnected && !added.has(n))
        : r.type === "attributes" && (hidBy(r) || leaving(r)) ? [r.target] : [];
      for (const n of nodes) {
        const box = r.target, cls = P.firstClass(n);
        if (n.matches(ITEMS) || SKIP_TAGS.has(n.tagName) || n.matches(STILL) ||
            (PASSING.test(n.getAttribute("class") || "") && !ofField(box)) ||
            box.closest(P.POPUPS) ||
            box.closest(P.LIVE) || n.matches(P.POPUPS) || n.matches(P.LIVE) ||
            (actedOn && (n === actedOn || n.contains(actedOn))) || (n !== box &&
            (r.type === "childList" && [...r.addedNodes].some((a) => a.tagName === n.tagName) ||
             (cls && [...box.children].some((c) => c.tagName === n.tagName &&
               P.firstClass(c) === cls))))) continue;
        const words = n.matches(P.CONTROLS) ? P.clean(textIn(n)) : ownWords(n);
        if (!/\p{L}/u.test(words) || words.length > P.MESSAGE_CHARS) continue;
        if (n.isConnected ? shown(n)
          : (page = page === null ? P.clean(textIn(document.body, true)) : page).includes(words))
          continue;
        if (!went.includes(words) && went.push(words) > WENT_MAX) return [];
      }
    }
    return went;
  }

  // Whether a veil came over the page (page_shown.js `veil`) while a modal waits unshown in
  // it (Bootstrap's backdrop, its `.modal` shown once that faded in; not a busy page's veil
  // alone, which a look after waits for)
  const UNSHOWN_MODALS = ".modal, [role=dialog], [role=alertdialog], dialog:not([open])";
  const veilCame = (came) =>
    [...document.querySelectorAll(UNSHOWN_MODALS)].some((m) => !m.checkVisibility()) &&
    [...came].some((n) => n.nodeType === 1 && n.isConnected && P.veil(n, getComputedStyle(n)));
  // The names of the buttons that came with the action, each added itself or in a bar of
  // controls that came (a list's bulk actions once a row is checked: "Close issues",
  // "Label"); not one in a box of words that came (a comment's Reply, said by its words),
  // a row, a popup or a live region (said as such), one drawn again as it was, nor many (a
  // view drawn anew)
  const BUTTONS = "button, [role=button]", BUTTONS_MAX = 6;
  const buttonsIn = (n) => n.nodeType !== 1 ? [] : n.matches(BUTTONS) ? [n]
    : [...n.querySelectorAll(BUTTONS)];
  const buttonWords = (b) => P.clean(b.getAttribute("aria-label") || b.textContent || "");
  function buttonsCame(list, added) {
    const found = [], had = new Set(list.flatMap((r) => r.type !== "childList" ? []
      : [...r.removedNodes].flatMap(buttonsIn).map(buttonWords)));
    for (const n of added) {
      if (n.nodeType !== 1 || !n.isConnected) continue;
      const own = n.matches(BUTTONS) ? [n] : P.wordsOf(n) ? [] : n.querySelectorAll(BUTTONS);
      for (const b of own) {
        if (b.closest(ROWS) || b.closest(P.POPUPS) || b.closest(P.LIVE) || !P.shows(b) ||
            had.has(buttonWords(b)) ||
            (actedOn && actedOn.isConnected && (actedOn.contains(b) || b.contains(actedOn))))
          continue;
        if (found.push(b) > BUTTONS_MAX) return [];
      }
    }
    // (one named by no words by its hint: an icon's `data-tooltip="Archive"`)
    return found.map((b) => ((name) => P.cut(name || P.hintOf(b, name) || "", P.NAME_MAX)[0])(
      P.nameOf(b, "button"))).filter(Boolean);
  }

  // What the page changed since the action began (the records taken, the record starts
  // anew): {came: words, parts: parts of forms, list: a long list that came (longList),
  // moved: [name, states], movedMore: a count,
  // items: a count, gone: items taken out, goneWords: theirs where one or two, sorted: rows
  // put in another order, veiled: a veil came over the page, a modal's backdrop whose
  // dialog may show only once it faded in, buttons: the names of those that came, went:
  // the words of boxes taken out of sight}
  const DIALOGS = "dialog, [role=dialog], [role=alertdialog]";
  let openBefore = new Set();  // the popups that showed as the action began
  function watched(regionsNow, popupsBefore) {
    openBefore = popupsBefore;
    take(watcher.takeRecords());
    const list = records;
    records = [];
    if (overflowed || !list.length) {
      return { came: [], parts: [], moved: [], movedMore: 0, items: 0, addedWords: [], gone: 0,
               goneWords: [],
               put: 0, putWords: [], sorted: 0, columnsWent: [], columnsCame: [], veiled: false,
               buttons: [], went: [] };
    }
    const moved = statesMoved(list);
    const added = addedIn(list), came = cameWords(list, added, regionsNow);
    return { came: came.words, parts: came.parts, list: listCame,
             moved: moved.slice(0, MOVED_MAX), movedMore: Math.max(0, moved.length - MOVED_MAX),
             ...P.itemsChanged(list, added),
             veiled: veilCame(added), buttons: buttonsCame(list, added),
             went: boxesWent(list, added) };
  }

  Object.assign(P, { watchStart, watched });
})();
