// The page helper: data tables as the snapshot reads them (issue 13 §2): which tables hold
// data, which elements are their rows, header rows and cells, and each row's cells placed in
// their columns across spans. A data table's row is one line of cells (page.js's walk).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { roleOf, clean, CONTROLS, HAS_WORD } = P;

  const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  const HEAD_ROLES = new Set(["columnheader", "rowheader"]);
  let tables = null;  // per snapshot: table element -> its state (tableState)
  let grids = null;  // per snapshot: grid element -> Map(aria-rowindex -> its row's line)

  // A snapshot's tables start afresh (`on`), and are let go when it ends.
  function tablesFor(on) {
    tables = on ? new Map() : null;
    grids = on ? new Map() : null;
  }

  // The state of a table this snapshot met (a row of it), or undefined.
  function tableMet(table) {
    return tables.get(table);
  }

  function tableState(table) {
    let st = tables.get(table);
    if (!st) {
      tables.set(table, (st = { data: null, rows: 0, shown: 0, left: 0, section: null,
                                 carry: null }));
    }
    return st;
  }

  // Not a layout table: no presentational role, and a header cell or a caption of its own,
  // or two rows of two cells or more and no table inside (a page laid out in nested tables).
  function dataTable(table) {
    const st = tableState(table);
    if (st.data === null) {
      const r = (table.getAttribute("role") || "").trim();
      let wide = 0;
      let head = !!table.caption;
      for (let i = 0; i < table.rows.length && i < 20; i++) {
        const cells = table.rows[i].cells;
        if (cells.length > 1) wide++;
        for (let j = 0; j < cells.length && !head; j++) head = cells[j].tagName === "TH";
      }
      st.data = r === "grid" || r === "treegrid" || r === "table" ||
        (r !== "presentation" && r !== "none" &&
         (head || (wide > 1 && !table.querySelector("table"))));
    }
    return st.data;
  }

  // A table drawn by CSS (display: table-row in a display: table, no table elements or
  // roles) whose rows hold data: two rows of two cells or more. Else a layout (a centred
  // box) its text stays.
  function cssTableOf(row) {
    let t = row.parentElement;
    if (t && /^table-(row|header|footer)-group$/.test(getComputedStyle(t).display))
      t = t.parentElement;
    if (!t || !/^(inline-)?table$/.test(getComputedStyle(t).display)) return null;
    const st = tableState(t);
    if (st.data === null) {
      let wide = 0;
      const rows = t.querySelectorAll(":scope > *, :scope > * > *");
      for (let i = 0; i < rows.length && i < 40 && wide < 2; i++) {
        if (getComputedStyle(rows[i]).display !== "table-row") continue;
        let cells = 0;
        for (const c of rows[i].children)
          if (getComputedStyle(c).display === "table-cell" && ++cells > 1) break;
        if (cells > 1) wide++;
      }
      st.data = wide > 1;
    }
    return st.data ? t : null;
  }

  function isRow(el, role, display) {
    if (role === "row") return true;
    if (el.hasAttribute("role")) return false;
    if (el.tagName !== "TR") return display === "table-row" && !!cssTableOf(el);
    const t = el.closest("table");
    return !!t && dataTable(t);
  }

  function isCell(el) {
    const t = el.tagName;
    return t === "TD" || t === "TH" || CELL_ROLES.has(roleOf(el));
  }

  function tableOf(row) {
    if (row.tagName !== "TR" && !row.hasAttribute("role")) return cssTableOf(row);
    return row.closest("table,[role=grid],[role=treegrid],[role=table]");
  }

  // A header row: in a thead, or of header cells only; of a CSS table, in its header group,
  // or its first row with every cell bold.
  function headerRow(el, css, first) {
    const p = el.parentElement;
    if (p && p.tagName === "THEAD") return true;
    if (css) {
      if (p && getComputedStyle(p).display === "table-header-group") return true;
      if (!first || !el.children.length) return false;
      for (const c of el.children) {
        const cs = getComputedStyle(c);
        if (cs.display !== "table-cell" || parseInt(cs.fontWeight, 10) < 600) return false;
      }
      return true;
    }
    let cells = 0;
    for (const c of el.children) {
      if (!isCell(c)) continue;
      if (c.tagName !== "TH" && !HEAD_ROLES.has(roleOf(c))) return false;
      cells++;
    }
    return cells > 0;
  }

  // How many columns and rows a cell spans (a table's colspan and rowspan, a grid's
  // aria-colspan and aria-rowspan); a rowspan of 0 spans the rest of its rows.
  const SPAN_MAX = 50;  // columns a span keeps empty at most (colspan=1000 is a full row)
  function spanOf(cell) {
    if (cell.tagName === "TD" || cell.tagName === "TH")
      return [Math.min(cell.colSpan, SPAN_MAX), cell.rowSpan || Infinity];
    const n = (a) => Math.max(1, parseInt(cell.getAttribute(a), 10) || 1);
    return [Math.min(n("aria-colspan"), SPAN_MAX), n("aria-rowspan")];
  }

  // A row's cells in their columns, so that each value stays under its header: a cell that
  // spans rows above fills its column in this row too (its text: the row is read on its
  // own), and one that spans columns leaves the others empty. Spans end with their table
  // section (thead, tbody).
  function columns(st, row, texts, spans) {
    if (st.section !== row.parentElement) {
      st.section = row.parentElement;
      st.carry = new Map();
    }
    const carry = st.carry;
    const out = [];
    const fill = (upTo) => {  // the spanned columns from out.length on, up to upTo
      while (out.length < upTo) {
        const above = carry.get(out.length);
        if (above === undefined) {
          if (upTo === Infinity) return;
          out.push(null);
          continue;
        }
        out.push(above.text);
        if (--above.left <= 0) carry.delete(out.length - 1);
      }
    };
    for (let i = 0; i < texts.length; i++) {
      fill(Infinity);
      const [cols, rows] = spans[i];
      const col = out.length;
      out.push(texts[i]);
      for (let k = 1; k < cols; k++) out.push(null);
      if (rows > 1) {
        for (let k = 0; k < cols; k++)
          carry.set(col + k, { text: k ? null : texts[i], left: rows - 1 });
      }
    }
    if (carry.size) fill(Math.max(...carry.keys()) + 1);
    while (out.length && out[out.length - 1] === null) out.pop();  // a span's, at the end
    return out.map((t) => t === null ? "" : t);
  }

  // A cell is acted on when it says so: a header that sorts its column, a grid cell that
  // takes selection, a cell with a click handler of its own (`own`); never when it wraps a
  // control, which has the ref. A grid's roving tabindex (every cell focusable by arrow
  // keys) says nothing: the cell's text is the row's. Nor does a handler of a data cell
  // with words whose row acts (`rowActs`: Grid.js listens on every row and every cell):
  // the row's ref takes its click, `click text=` its words.
  // (and a calendar's day whose press a box around the grid takes, its cell marked by its
  // date alone: FullCalendar's `dateClick`; the events it holds are controls of their own)
  function cellActs(el, role, own, rowActs, handlers) {
    if (own && rowActs && (role === "cell" || role === "gridcell") &&
        HAS_WORD.test(el.textContent || "")) own = false;
    const day = !own && dayTaken(el, role, handlers);
    if (!own && !day && !(HEAD_ROLES.has(role) && el.hasAttribute("aria-sort")) &&
        !(role === "gridcell" && el.hasAttribute("aria-selected"))) return false;
    // (a header that sorts on its words beside a control that does something else does
    // both: antd's column title sorts, its filter button filters)
    const inner = el.querySelectorAll(CONTROLS);
    return !inner.length || day || (HEAD_ROLES.has(role) && inner.length === 1 &&
                                    !sortsFor(el, inner[0]));
  }
  // Whether `el`, a control in the grid's cell `face` (the walk's control it is in), is one
  // of its own: much smaller than the cell (half its size at most), an event in a
  // calendar's day, which a click on the day's middle misses
  const apartIn = (face, el) => (face.role === "gridcell" || face.role === "cell") &&
    ((a, b) => a.width * a.height * 2 <= b.width * b.height)(el.getBoundingClientRect(),
      face.el.getBoundingClientRect());
  const DAY_UP = 8, DATE = /^\d{4}-\d{2}-\d{2}/;
  function dayTaken(el, role, handlers) {
    if ((role !== "gridcell" && role !== "cell") || !handlers ||
        !DATE.test(el.getAttribute("data-date") || "")) return false;
    for (let n = el.parentElement, k = 0; n && k < DAY_UP; n = n.parentElement, k++)
      if (handlers.has(n)) return true;
    return false;
  }

  // Whether the one control in header `h` is what sorts its column: it holds the header's
  // words, or sits beside them named for them or for sorting (DataTables' button, "Name:
  // Activate to sort"); not one named for something else beside them (antd's "filter").
  function sortsFor(h, control) {
    let beside = "";
    const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t && beside.length < 60; t = walk.nextNode())
      if (!control.contains(t)) beside += t.data;
    const words = clean(beside), name = P.nameOf(control, roleOf(control) || "");
    return !HAS_WORD.test(words) || /sort|order/i.test(name) ||
      name.toLowerCase().includes(words.toLowerCase());
  }

  // A cell's words on its row's line: those it holds, or, holding none, the mark it draws
  // for the aria-checked it says (Tabulator's true and false, a tick and a cross), or for
  // the class of the check box it draws with no field (Syncfusion's `e-checkbox-wrapper`
  // holding a `check` frame).
  const CHECK_MARKS = { true: "✓", false: "✗", mixed: "–" };
  const DRAWN_BOX = "[class*=checkbox i]", TICKED = /^(?:e-)?check(?:ed)?$|[-_]checked$/i;
  function cellWords(cell, text) {
    if (HAS_WORD.test(text)) return text;
    // (what a style sheet writes into it: GitHub's line numbers, `attr(data-line-number)`)
    const drawn = P.drawnWords(cell, HAS_WORD);
    if (drawn) return drawn;
    const said = CHECK_MARKS[cell.getAttribute("aria-checked")];
    const box = !said && !cell.querySelector("input, [role=checkbox]") &&
      cell.querySelector(DRAWN_BOX);
    if (!box) return said || text;
    const ticked = [box, ...box.querySelectorAll("*")].some((n) =>
      typeof n.className === "string" && n.className.split(/\s+/).some((c) => TICKED.test(c)));
    return ticked ? CHECK_MARKS.true : CHECK_MARKS.false;
  }

  // A wordless handle in a data row that resizes its column (Tabulator draws one at the
  // edge of every cell, its cursor shown only under the pointer): the column's header has
  // its own, where a person resizes it; in the cells it is no control.
  const RESIZE = /^(?:col|row|ew|ns|e|w)-resize$/;
  function cellResizer(el, cs) {
    const named = /resiz/i.test(typeof el.className === "string" ? el.className : "");
    if (!(named || RESIZE.test(cs.cursor)) || HAS_WORD.test(el.textContent || "")) return false;
    const at = el.parentElement &&
      el.parentElement.closest("td, [role=gridcell], [role=cell], tr, [role=row]");
    return !!at && !at.closest("thead, [role=columnheader]") &&
      !at.querySelector("th, [role=columnheader]");
  }

  // A listener's box inside a sortable header that holds all its words (AG Grid sorts on
  // the header's label): its click is the header's, whose ref the header has (not when the
  // header holds a control: then the box keeps its own, see cellActs).
  function headerTakes(el) {
    const h = el.parentElement && el.parentElement.closest("[aria-sort]");
    return !!h && HEAD_ROLES.has(roleOf(h)) && !h.querySelector(CONTROLS) &&
      clean(h.textContent) === clean(el.textContent);
  }

  // -- one row drawn in several places ---------------------------------------------------
  // A grid with frozen panes may draw a row more than once: Handsontable clones its header
  // row and its first columns over the body, a pinned column has a container of its own.
  // Rows of the same aria-rowindex in the same grid are one line, each cell in its column
  // by aria-colindex, the lines in aria-rowindex order. Lines are snapshot rows (page.js):
  // [depth, kind, role, name, id, states, value, loc, cells, ...].

  // Where a row's line goes among its grid's: {lines, index} when the row says its
  // aria-rowindex in a grid and every cell its aria-colindex, spanning nothing; else null.
  function gridPlace(row, cols, spans) {
    const index = parseInt(row.getAttribute("aria-rowindex"), 10);
    if (!(index > 0) || !cols.length || !cols.every((c) => c > 0) ||
        !spans.every(([c, r]) => c === 1 && r === 1)) return null;
    const grid = row.closest("[role=grid],[role=treegrid],[role=table]");
    if (!grid) return null;
    let lines = grids.get(grid);
    if (!lines) grids.set(grid, (lines = new Map()));
    return { lines, index };
  }

  // The line of a row met first (`kept`, with `cols` and the lines under it `kids`; or only
  // the words of one that had no line, -i) takes another drawing's cells (the first words
  // of each column win) and the lines made for it from `start` on (at depth `depth`),
  // which go after its own.
  function mergeRow(rows, kept, start, depth, cells, cols) {
    const byCol = new Map();
    kept.cols.forEach((c, i) => byCol.set(c, kept[8][i] || ""));
    cols.forEach((c, i) => { if (!byCol.get(c)) byCol.set(c, cells[i] || ""); });
    kept.cols = [...byCol.keys()].sort((a, b) => a - b);
    kept[8] = kept.cols.map((c) => byCol.get(c));
    const moved = rows.splice(start);
    if (!moved.length) return;
    for (const r of moved) r[0] += kept[0] + 1 - depth;
    const last = kept.kids.length ? kept.kids[kept.kids.length - 1] : kept;
    rows.splice(rows.indexOf(last) + 1, 0, ...moved);
    kept.kids.push(...moved);
  }

  // As the walk leaves `el`: when it is a grid with rows met in several places, its row
  // lines (each with its own lines under it) in aria-rowindex order, from where the first
  // of them stood, at its depth.
  function orderGrid(el, rows) {
    const lines = grids.get(el);
    if (!lines) return;
    grids.delete(el);
    const sorted = [...lines.keys()].sort((a, b) => a - b).map((k) => lines.get(k))
      .filter((l) => l.kids);  // (not words kept aside for a line that never came)
    const at = sorted.map((l) => rows.indexOf(l));
    if (at.every((i, k) => k === 0 || at[k - 1] < i)) return;
    const taken = new Set(sorted.flatMap((l) => [l, ...l.kids]));
    const first = Math.min(...at.filter((i) => i >= 0));
    const base = rows[first][0];
    const rest = rows.filter((r, i) => i < first && !taken.has(r));
    const after = rows.filter((r, i) => i > first && !taken.has(r));
    rows.length = 0;
    for (const r of rest) rows.push(r);
    for (const l of sorted) {
      const shift = base - l[0];
      for (const r of [l, ...l.kids]) {
        r[0] += shift;
        rows.push(r);
      }
    }
    for (const r of after) rows.push(r);
  }

  Object.assign(P, { gridPlace, mergeRow, orderGrid, CELL_ROLES, headerTakes, sortsFor, cellResizer,
    cellWords, tablesFor,
    tableState, tableMet, dataTable, isRow, isCell, tableOf, headerRow, spanOf, columns,
    cellActs, apartIn });
})();
