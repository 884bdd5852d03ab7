// The page helper's snapshot walk: the page's tree as snapshot rows, each element once,
// with data tables as rows of cells (page_tables.js) and repeated containers as named lines
// with their controls under them (page_cards.js). page.js runs it for a snapshot.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, ACTIONABLE, NAME_FROM_CONTENT, LANDMARKS, SKIP_TAGS, roleOf, standIn,
    stoodInFor, nameOf, HAS_WORD, clean, NAME_MAX, VALUE_MAX, cut, namedRow, standsApart,
    breaksLine, inViewport, statesOf, valueOf, optionsOf, locOf, hinted, listened, hoverShown,
    revealing, leftBehind, shownOnly, ownClick, tabStop, labels, clipsAll, WORDS_NAME,
    namesControl, wrapsControl, ariaHidden, pageModal, veil, dialogName, dragItem, zonesFor,
    folded, summaryOf, CELL_ROLES, tableState, dataTable, tableMet, isRow, isCell, tableOf,
    headerRow, spanOf, columns, cellActs, cellWords, withError, boxable, small, gridPlace,
    mergeRow, orderGrid, scrollsY, undrawn, tells, sharesWords, saysName, showsOther } = P;
  const RANGES = new Set(["slider", "spinbutton", "scrollbar"]);
  const WHOLE = new Set(["checkbox", "radio", "switch", "button", "combobox", "menuitemcheckbox",
    "menuitemradio"]), PARTS = new Set(["tab", "option", "menuitem"]);  // (their parts: face)

  // -- repeated containers (issue 13 §4; cards: page_cards.js; tables: page_tables.js) -------
  // A container that repeats among its siblings and holds text and a ref (a list item, a
  // post, a card) is one line, its controls under it.
  const ROWS_MAX = 100;  // rows of one table in an unscoped snapshot; the rest are counted
  const MARKER = /^(?:\u2022|\d+\.)\s*$/, MARKER_AT = /^(?:\u2022|\d+\.) /;  // an item's mark
  const LEAD_REFS = 3;  // refs a container's first words may follow and still name it

  // A row: [depth, kind, role, name, id, states, value, loc, extra]
  //   kind 0 = element with a ref, 1 = structure (no ref; id its element's, for a locator
  //   by its role and name), 2 = text, 3 = frame placeholder,
  //   4 = table row: role "row" or "header", extra its cells' text (id set when the row
  //   itself is clickable, a 10th cell its element's id either way); role "more" /
  //   "unloaded": extra is how many rows were left out / are not in the page yet
  //   (aria-rowcount); role "items": how many items of a list were left out
  function walk(opts) {
    // a list (the parent of list items or articles) -> [items met, items left out]; an
    // unscoped snapshot shows ROWS_MAX items of each, as of a table's rows
    const rows = [], lists = new Map();
    const labelIds = new Map();  // root -> ids its controls are labelled by (namesControl)
    const interactiveOnly = !!opts.interactive, viewportOnly = !!opts.viewport;
    let focused = document.activeElement;
    while (focused && focused.shadowRoot && focused.shadowRoot.activeElement)
      focused = focused.shadowRoot.activeElement;
    // whether the element whose children are walked is visible, so its text is (inherited)
    let pending = "", pendingDepth = 0, textVisible = true;
    // whether the element walked takes no input: inside an `inert` subtree, or outside the
    // modal dialog that is open (the browser makes the rest of the page inert; a page's own
    // modal lays a veil over it). Its words are still shown; no ref: no person reaches it
    // (a modal fading out, in the page or a shadow root, takes no input from the rest)
    const open = document.querySelector("dialog:modal") || pageModal();
    const leaving = P.fadingOut(P.rootsAbove(open));
    const modal = open && ![...leaving].some((el) => el.contains(open)) ? open : null;
    let inert = !!modal;
    // the box that shows nothing of what is walked: hiding its overflow, it is at most a
    // pixel wide or high (a screen-reader-only text, a collapsed panel). What it holds gets
    // no ref either; a box positioned outside it (fixed, or absolute above it) escapes it
    let clipper = null;
    // what the page shows only while the pointer is over a box around it (its `:hover`
    // rules, or a hover listener), and the one the element walked is in (null: none): its
    // controls get refs, marked hover-only, and its words name them as if shown
    const onHover = hoverShown(opts.hook);
    let hoverOnly = null;
    let consumed = 0; // > 0 while inside an element whose text is its name
    let face = null;  // the control whose inside is walked: {name, range, value, whole, role}
    let count = 0, refCount = 0;  // nodes visited, rows with a ref so far
    const limit = opts.maxNodes || 200000, handlers = listened(opts.hook);
    const at = (depth) => interactiveOnly ? 0 : depth;  // -i: indented only under containers
    let tr = null;  // the table row being read: {cells, cur (the open cell's text or null)}
    // open containers: {start, refs, name, nameAt, lead (names of refs before its words), said}
    const boxes = [];
    // whether the innermost container still waits for its name: its first words, after at
    // most LEAD_REFS refs (a card may begin with its author's link, a checkbox, a button)
    const unnamed = () => boxes.length > 0 && boxes[boxes.length - 1].name === null &&
      refCount - boxes[boxes.length - 1].refs <= LEAD_REFS;
    // the innermost container is named by the words `t` (said by the line at `at`) after
    // its refs' names before them, unless such a name repeats them (a link "Grace" before
    // "Grace wrote"): words alone
    const nameBox = (t, line, heading = false) => {  // (`heading`: a heading's words)
      const box = boxes[boxes.length - 1];
      const lead = box.lead && !sharesWords(box.lead, t) ? box.lead : "";
      Object.assign(box, { name: lead + t, nameAt: line, heading });
    };
    zonesFor([handlers, listened(opts.hook, "drop")]);

    function flush() {
      const t = clean(pending);
      pending = "";
      // text with no letter or digit (a lone bullet or separator) says nothing
      if (!t || !HAS_WORD.test(t)) return;
      for (const b of boxes) b.said = true;
      if (unnamed()) nameBox(t, rows.length);
      if (!interactiveOnly) rows.push([pendingDepth, 2, "", t]);
    }

    function addText(t, depth) {
      if (consumed) return;
      if (interactiveOnly && !unnamed()) {  // not shown, but a container's own words
        if (boxes.length && HAS_WORD.test(t)) for (const b of boxes) b.said = true;
        return;
      }
      if (!pending) pendingDepth = depth;
      pending += t;
    }

    function nest(start, line) {  // rows from start on go one level under line, put before
      for (let i = start; i < rows.length; i++) rows[i][0]++;
      rows.splice(start, 0, line);
    }

    // A container line when the box holds a ref and starts with words: named by them.
    function closeBox(box, el, depth, role) {
      boxes.pop();
      if (!box.name || refCount === box.refs || !small(el, role)) return;
      const name = box.name.replace(MARKER_AT, "");
      // one ref and no words but its own (a headline's link), one line holding all the rest
      // (a dialog in the box that places it), a field's label, or a heading beside its
      // anchor or edit links alone (GitHub's, MediaWiki's): it would only repeat it
      const lone = refCount - box.refs === 1 && !box.said, first = rows[box.start];
      const only = lone && rows.slice(box.start).find((r) => r[1] === 0);
      if ((only && only[3] && clean(name) === clean(only[3])) || (first && first[1] === 1 &&
          rows.slice(box.start + 1).every((r) => r[0] > first[0])) ||
          P.labelsField(rows, box.start, name, box.nameAt) || (box.heading && !interactiveOnly &&
          rows.slice(box.start).every((r, i) => i + box.start === box.nameAt ||
            (r[1] === 0 && r[2] === "link")))) return;
      if (!interactiveOnly) {
        const [gone] = rows.splice(box.nameAt, 1);  // a heading's lines move up with it
        for (let i = box.nameAt; gone[1] === 1 && i < rows.length && rows[i][0] > gone[0]; i++)
          rows[i][0]--;
      }
      nest(box.start, [at(depth), 1, role || (el.tagName === "ARTICLE" ? "article" : "group"),
                       name, idOf(el), ""]);
    }

    // One line for a table row: its cells' text in order, the controls in them under it.
    function tableRow(el, depth, acts) {
      const table = tableOf(el);
      const css = el.tagName !== "TR" && !el.hasAttribute("role");
      const st = table ? tableState(table) : { rows: 0, shown: 0, left: 0, section: null };
      const header = headerRow(el, css, st.rows === 0);
      st.rows++;
      if (!header && !opts.scope && !viewportOnly && st.shown >= ROWS_MAX) return void st.left++;
      if (viewportOnly && !inViewport(el)) return;
      flush();
      const outer = tr, start = rows.length, before = refCount;
      tr = { cells: [], spans: [], cols: [], cur: null, css, acts };
      walkChildren(el, depth);
      const own = tr.cells.map(clean);
      const cells = columns(st, el, own, tr.spans);
      const place = !css && !acts ? gridPlace(el, tr.cols, tr.spans) : null;
      const cols = tr.cols;
      tr = outer;
      if (!header) st.shown++;
      // drawn in another pane of its grid before: one line (or its words, kept aside)
      const kept = place && place.lines.get(place.index);
      if (refCount === before && !acts && (interactiveOnly || !own.some(Boolean))) {
        rows.length = start;  // an empty spacer row, or -i and nothing to act on
        if (place && own.some(Boolean)) {  // (-i) its words go on its line, if it has one
          if (kept) mergeRow(rows, kept, start, 0, cells, cols);
          else place.lines.set(place.index, Object.assign([], { 8: cells, cols }));
        }
        return;
      }
      if (kept && kept.kids) {
        mergeRow(rows, kept, start, at(depth), cells, cols);
        return;
      }
      const states = statesOf(el, "row");
      if (el.hasAttribute("aria-level")) states.push("level=" + el.getAttribute("aria-level"));
      if (acts) refCount++;
      const line = [at(depth), 4, header ? "header" : "row",
                    acts ? cut(clean(own.join(" ")), NAME_MAX)[0] : "", acts ? idOf(el) : 0,
                    states.join(" "), null, acts ? locOf(el, "row") : null, cells, idOf(el)];
      nest(start, line);
      if (place) {
        line.cols = cols;
        line.kids = rows.slice(start + 1);
        if (kept) mergeRow(rows, line, rows.length, 0, kept[8], kept.cols);
        place.lines.set(place.index, line);
      }
    }

    function walkChildren(el, depth) {
      if (folded(el)) {  // what shows of a closed details: its summary
        const summary = el.tagName === "DETAILS" ? summaryOf(el) : null;
        if (summary) walk(summary, depth);
        return;
      }
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
      const was = textVisible, wasInert = inert, wasClipper = clipper, wasHover = hoverOnly;
      if (tr && tr.cur === null && node.nodeType === 1 && (tr.css
        ? getComputedStyle(node).display === "table-cell" : isCell(node))) {
        if (getComputedStyle(node).display === "none") return;
        tr.cur = "";
        visit(node, depth);
        tr.cells.push(cellWords(node, tr.cur));
        tr.spans.push(spanOf(node));
        tr.cols.push(parseInt(node.getAttribute("aria-colindex"), 10) || 0);
        tr.cur = null;
      } else visit(node, depth);
      [textVisible, inert, clipper] = [was, wasInert, wasClipper];
      if (hoverOnly !== wasHover) revealing((hoverOnly = wasHover));
    }

    function visit(node, depth) {
      if (++count > limit) return;
      if (node.nodeType === 3) {
        // (a row's words as a person sees them; none a box clips away: page_scroll.js)
        if (!textVisible || (tr && hoverOnly) || (clipper && P.clippedText(clipper, node))) return;
        if (tr) {
          if (tr.cur !== null) tr.cur += node.data;
          else if (node.data.trim()) {
            tr.cells.push(node.data);
            tr.spans.push([1, 1]);
          }
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
      if (ariaHidden(el, focused, modal) || leaving.has(el)) return;  // (or fading out)
      const cs = getComputedStyle(el);
      // (hidden by itself, not in a hidden box: a closed calendar's days, their box listening;
      // or see-through where a person looks, taking no pointer: a closed popover. Nor seen:
      // content-visibility: hidden, a browser's cached view; a closed <dialog>, DaisyUI's)
      const through = P.seeThrough(el, cs);
      if ((cs.display === "none" || (cs.visibility === "hidden" && textVisible) || through) &&
          onHover.has(el) && !P.keptHidden(el)) revealing((hoverOnly = el));
      else if (cs.display === "none" || through) return;
      if (cs.contentVisibility === "hidden" || (tag === "DIALOG" && !el.open)) return;
      if (leftBehind(el, cs) || P.drawsForEditor(el)) return;  // a kept field; editor lines
      if (el === modal || (inert && modal && P.overVeil(el, cs, modal))) inert = false;
      else if (el.hasAttribute("inert")) inert = true;
      if (clipper && (cs.position === "fixed" ||
          (cs.position === "absolute" && !clipper.contains(el.offsetParent)))) clipper = null;
      const unseen = inert || !!clipper;  // no person reaches it
      // (a box the pointer grows from nothing over its box shows what it holds then)
      if (!clipper && !hoverOnly && clipsAll(el, cs) && !P.codeEditorOf(el)) {
        if (onHover.grows(el) && !P.clippedAway(cs)) revealing((hoverOnly = el));
        else clipper = el;
      }
      if (tag === "INPUT" && el.type === "hidden") return;
      const visible = !!hoverOnly || (cs.visibility !== "hidden" && cs.visibility !== "collapse");
      textVisible = visible && !(tr && cs.opacity === "0");  // (walk() restores the parent's)
      let role = wrapsControl(el) ? "" : roleOf(el);
      const block = breaksLine(cs.display);
      // a box of its own in a line (a badge, a chip), or a line break: its words stand apart
      const apart = !block && (standsApart(cs.display) || tag === "BR" || P.boxedInline(cs));
      const proxy = visible ? standIn(el) : null;
      if (proxy) role = roleOf(proxy);
      let clickable = false;
      const dragging = visible && dragItem(el, cs) && !P.codeEditorOf(el);
      if (dragging && !ACTIONABLE.has(role)) clickable = true;
      else if (!ACTIONABLE.has(role) && visible && !P.editorBox(el)) {
        const own = ownClick(el, cs, role, handlers);
        if (CELL_ROLES.has(role) ? cellActs(el, role, own, !!tr && tr.acts, handlers)
          : own || tabStop(el, role)) {
          if (tag === "LABEL" ? !labels(el) : !namesControl(el, labelIds)) clickable = true;
        }
      }
      if (tag === "IFRAME" || tag === "FRAME") {
        if (!visible || inert) return;  // (nor one behind a modal: none of it takes input)
        if (viewportOnly && !inViewport(el)) return;
        flush();
        refCount++;
        rows.push(namedRow([at(depth), 3, "iframe", "", idOf(el)], el, "iframe", 0));
        return;
      }
      const actionable = visible && !unseen && (ACTIONABLE.has(role) || clickable) &&
        !(tag === "INPUT" && stoodInFor(el)) && !shownOnly(el, role) &&
        !(interactiveOnly && !hoverOnly && P.cutOff(el));  // (-i: what no scroll brings)
      if (!consumed && visible && isRow(el, role, cs.display))
        return tableRow(el, depth, actionable);
      if ((role === "listitem" || role === "article" || (tag === "ARTICLE" && !role)) &&
          !tr && !opts.scope && !viewportOnly && el.parentElement) {
        let st = lists.get(el.parentElement);
        if (!st) lists.set(el.parentElement, (st = [0, 0]));
        if (++st[0] > ROWS_MAX) return void st[1]++;  // (a row left out, counted)
      }
      if (actionable && clickable && !role) role = "clickable";
      const inView = !viewportOnly || inViewport(el);
      if (tr && tr.cur && (block || apart || actionable)) tr.cur += " ";
      // a data table in a cell: its rows are lines of their own, under the row (said there)
      if (tr && tr.cur !== null && !consumed && visible && (tag === "TABLE" ? dataTable(el)
        : role === "table" || role === "grid" || role === "treegrid")) tr.cur += " [table] ";
      if (block || actionable) {  // (a list item's marker stays for the words in its block)
        if (pending && pendingDepth >= depth && !MARKER.test(pending)) flush();
        else if (pending) pending += " ";
      } else if (apart && pending) pending += " ";
      if (actionable && inView) {
        flush();
        const src = proxy || el;
        const states = statesOf(src, role);
        if (src === focused) states.push("focused");
        if (hoverOnly) states.push("hover-only");
        if (dragging) states.push("draggable");
        const value = valueOf(src, role), extra = optionsOf(el);
        const [shown, valueLeft] = value === null || value === undefined || value === ""
          ? [null, 0] : cut(String(value), VALUE_MAX);
        refCount++;
        // a list item or other part that acts or is dragged (Vuetify's menu items) is named
        // by its words, a long one (a card) keeping its lines; one named otherwise whose
        // words are its name says them once (a dialog dragged about, jQuery UI's, its own)
        const byWords = WORDS_NAME.has(role) && !NAME_FROM_CONTENT.has(role);
        const row = namedRow([at(depth), 0, role, "", idOf(el), states.join(" "), shown,
                              locOf(el, role), extra], P.namedBy(el, src),
                             byWords ? "clickable" : role, valueLeft);
        // (an item named by a line of dashes is a menu's separator drawn as one: no control)
        if (/^[-_=.\u2013\u2014\u2500]{3,}$/.test(row[3])) { refCount--; return; }
        const holds = role === "clickable" && !dragging && P.holdsContent(el);  // keeps lines
        const fromContent = (NAME_FROM_CONTENT.has(role) && !holds &&
                             (row[6] !== null || !showsOther(el, row[3]))) ||
          tag === "SELECT" || role === "textbox" || (role === "combobox" && row[6] !== null) ||
          (byWords && !(row.length > 9 && row[9][0])) || saysName(el, row[3]);
        // (not a named control in a grid's cell much smaller than it: a calendar day's event)
        if (face && !(row[3] && P.apartIn(face, el)) && ((((face.whole && role === face.role) ||
            PARTS.has(face.role)) && (row[3] === face.name || (!row[3] &&
            P.heldToggle(face.el) === el))) ||
            (role === "clickable" && (face.range || (row[3] ? row[3] === face.name ||
            row[3] === face.value || (face.whole && !HAS_WORD.test(row[3])) :
            face.whole && [face.role, ""].includes(P.hintOf(el, ""))))))) {
          // a part of a control that takes its clicks (a web component's showing its value
          // or none and nothing saying what else it does, or its kind, as Ionic's host holds
          // its native check box; a rating's stars; a tab's link named as it is, a menu
          // item's nameless check box; a button's glyph, Material's icon slotted in): its own
          refCount--;
          walkChildren(el, depth);
          return;
        }
        if (role === "combobox" && row[6] !== null && row[6] === row[3]) row[6] = null;
        else if (row[6] === null && !fromContent && NAME_FROM_CONTENT.has(role))
          row[6] = P.eyeOnly(el);  // (what it shows hidden from assistive technology)
        hinted(row, el);
        withError(row, src);
        if (row[3] && !consumed && unnamed()) boxes[boxes.length - 1].lead += row[3] + " ";
        rows.push(row);
        if (fromContent) consumed++;
        const wasFace = face;
        face = { name: row[3], range: RANGES.has(role), value: row[6], role, el,
                 whole: WHOLE.has(role) };
        if (tag !== "SELECT" && tag !== "TEXTAREA" && tag !== "INPUT") walkChildren(el, depth + 1);
        face = wasFace;
        if (fromContent) consumed--;
        return;
      }
      // (not a label of a field hidden from the tree, whose words nothing else says: MUI's
      // date field labels the input it keeps for the form, and its group by id)
      if ((tag === "LABEL" && el.control && !el.control.closest("[aria-hidden=true]")) ||
          (tag === "CAPTION" && !tr) ||
          (!actionable && (!role || tag === "LABEL") && namesControl(el, labelIds)) ||
          (tag === "LEGEND" && el.parentElement && el.parentElement.tagName === "FIELDSET") ||
          (!actionable && !tr && cs.cursor === "pointer" && P.fieldShown(el))) {
        // a label's text is its control's name, a legend's its fieldset's, a caption its
        // table's, a field's box's its value or hint: not repeated as text
        consumed++;
        walkChildren(el, depth);
        consumed--;
        return;
      }
      // (a virtual list holding a ref says what it has not drawn yet: the refs before it)
      const scrolls = visible && !tr && scrollsY(el, cs) ? refCount : -1, rowsAt = rows.length;
      let box = null;  // boxable roles are never the structure below
      // a custom element is inline unless styled, whatever it holds
      if (!tr && !consumed && visible && inView && (block || apart || tag.includes("-")) &&
          boxable(el, role)) {
        flush();
        boxes.push(box = { start: rows.length, refs: refCount, name: null, nameAt: -1,
                           lead: "", said: false });
      }
      // -i keeps what the page tells the person (an error, "3 results"), for an agent that
      // just acted, not what only a screen reader hears (a region a pixel wide); and every
      // snapshot the current one of items that is no link (a pager's page 3, a last crumb)
      const current = !consumed && !tr && P.currentItem(el, role);
      if ((interactiveOnly || current) && !consumed && !tr && visible && inView && !clipper &&
          (current || tells(el, role))) {
        const [words, left] = P.cutFor(P.shownWords(el), role);
        if (words) {
          flush();
          const row = current ? [interactiveOnly ? 0 : depth, 1, role || "text", words, idOf(el),
            "current"] : [0, 1, role === "alert" ? "alert" : "status", words, idOf(el), ""];
          if (left) row.push(null, null, null, [left, 0]);
          rows.push(row);
          consumed++;
          walkChildren(el, depth + 1);
          consumed--;
          return;
        }
      }
      if (interactiveOnly && (role === "dialog" || role === "alertdialog") && !consumed &&
          !tr && visible) {
        // -i keeps a dialog's line over its controls: what it asks ("Delete this file?")
        const before = refCount, start = rows.length;
        flush();
        walkChildren(el, depth + 1);
        flush();
        if (refCount > before) nest(start, [0, 1, role, dialogName(el, role), idOf(el), ""]);
        return;
      }
      let structural = false;
      if (interactiveOnly && (role === "heading" || tag === "FIELDSET") && !consumed && !tr &&
          visible && inView && unnamed()) {  // -i shows no heading nor legend: still its name
        const name = nameOf(el, role);
        if (name) nameBox(name, -1);
      }
      if (!interactiveOnly && !consumed && !tr && visible && inView) {
        if (role === "heading") {
          flush();
          const states = statesOf(el, role);
          const line = namedRow([depth, 1, "heading", "", idOf(el), states.join(" ")], el, role,
                              0);
          if (line[3] && unnamed()) nameBox(line[3], rows.length, true);
          rows.push(line);
          consumed++;
          walkChildren(el, depth + 1);
          consumed--;
          return;
        }
        if (role === "img") {
          const row = namedRow([depth, 1, "img", "", idOf(el), ""], el, role, 0);
          if (row[3]) { flush(); rows.push(row); }
          if (P.holdsControls(el)) walkChildren(el, depth + 1);  // (a map's states: controls)
          return;
        }
        if (role === "progressbar" || role === "meter") {  // how far: an upload, a step
          flush();
          rows.push(namedRow([depth, 1, role, "", idOf(el), "", valueOf(el, role)], el, role, 0));
          return;  // (what it holds is its fallback, or presentational)
        }
        if (LANDMARKS.has(role) && role !== "group" && role !== "table" ||
            (role === "group" && (tag === "FIELDSET" || P.namedBox(el))) ||
            (role === "table" && (tag !== "TABLE" || dataTable(el)))) {
          flush();
          rows.push(namedRow([depth, 1, role, "", idOf(el), statesOf(el, role).join(" ")], el,
                             role, 0));
          if (unnamed()) boxes[boxes.length - 1].name = "";  // (its words name no box: a panel)
          structural = true;
        } else if (role === "listitem") {  // its marker: a bullet, or its number in an <ol>
          flush();
          [pendingDepth, pending] = [depth, P.listMarker(el) + " "];
        }
      }
      const inner = structural ? depth + 1 : depth;
      walkChildren(el, inner);
      if (apart) {
        if (tr && tr.cur) tr.cur += " ";
        else if (pending) pending += " ";
      }
      if (!tr && (tag === "TD" || tag === "TH")) addText(" | ", inner);
      if (block || structural || box) {
        if (MARKER.test(pending)) pending = "";
        flush();
      }
      const last = rows[rows.length - 1];  // (an unnamed part holding nothing says nothing)
      if (structural && last[4] === idOf(el) && !last[3]) rows.pop();
      const list = lists.get(el);
      if (list && list[1]) rows.push([at(inner), 4, "items", "", 0, "", null, null, list[1]]);
      const [above, below] = scrolls >= 0 && refCount > scrolls ? undrawn(el) : [0, 0];
      if (above) rows.splice(rowsAt, 0, [at(inner), 4, "before", "", 0, "", null, null, above]);
      if (below) rows.push([at(inner), 4, "beyond", "", 0, "", null, null, below]);
      const st = tableMet(el);
      if (st) {  // a table: the rows it does not show, and (a virtual grid holding some of
        // its rows) the rows aria-rowcount says it has beyond those in the page
        if (st.left) rows.push([at(inner), 4, "more", "", 0, "", null, null, st.left]);
        const all = parseInt(el.getAttribute("aria-rowcount"), 10);
        if (all > st.rows)
          rows.push([at(inner), 4, "unloaded", "", 0, "", null, null, all - st.rows]);
      }
      orderGrid(el, rows);
      if (box) closeBox(box, el, depth, role);
    }
    const start = opts.scope ? get(opts.scope) : document.documentElement;
    if (opts.scope) {
      if (!start) return { error: "scope" };
      inert = (!!modal && !modal.contains(start)) || !!(start.closest && start.closest("[inert]"));
    }
    if (start) walk(start, 0);
    flush();
    return {
      url: location.href, title: document.title, rows, modal: !!modal, truncated: count > limit,
      scroll: [scrollX, scrollY, document.documentElement.scrollHeight, innerHeight],
    };
  }

  Object.assign(P, { walk });
})();
