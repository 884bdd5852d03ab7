// The page helper: the page's text as markdown writes it, for `text --markdown`: headings,
// links, lists, emphasis, code blocks and data tables.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { SKIP_TAGS, roleOf, clean, hiddenForName, standsApart, breaksLine, bare, unseenWords,
    shutBox, numberedCode, listMarker, closedDialog } = P;

  // Inline emphasis as markdown writes it (an empty one, an icon's <i>, says nothing)
  const MARKS = { STRONG: "**", B: "**", EM: "*", I: "*", CODE: "\u0060" };
  const MARKED = /^(?:- |\d+\. )$/;  // a list item's line holding its marker only

  // A data table (as the snapshot tells one, page_tables.js) is written as markdown writes
  // one: a line a row, "| a | b |", each cell's words on it, a line of dashes under a first
  // row of headers; a table in a cell is "[table]" there, its rows after the row's.
  const TABLES = "table, [role=grid], [role=table], [role=treegrid]";
  const rowLike = (el, cs) => (el.tagName === "TR" || el.hasAttribute("role") ||
    cs.display === "table-row") && P.isRow(el, roleOf(el), cs.display);

  const tableLine = (cells) => "| " + cells.join(" | ") + " |";
  const dashes = (n) => "|" + " --- |".repeat(n);

  function markdown() {
    const out = [], leaving = P.fadingOut();
    let line = "";
    let row = null;  // the data table's row being written: its cells, table, inner tables
    const headed = new Set(), later = new Set();  // tables begun; tables a cell holds
    // rows a grid places by aria-rowindex (drawn in panes, or in an order of their own):
    // grid -> {mark: where its lines go, rows: index -> (aria-colindex -> words), heads}
    const placed = new Map();
    const inner = (el, depth) => {
      const root = el.shadowRoot || el;
      for (let c = root.firstChild; c; c = c.nextSibling) md(c, depth);
    };
    function tableRow(el, depth) {
      push();
      const table = P.tableOf(el), css = el.tagName !== "TR" && !el.hasAttribute("role");
      row = { texts: [], spans: [], cols: [], css, table, tables: [] };
      inner(el, depth);
      const { texts, spans, cols, tables } = row, stray = line.replace(/\s+/g, " ").trim();
      row = null;
      line = "";
      if (stray) {  // (words in the row beside its cells)
        texts.push(stray);
        spans.push([1, 1]);
        cols.push(0);
      }
      if (!texts.some(Boolean)) texts.length = 0;  // (an empty row is left out)
      const first = !headed.has(table), head = !!texts.length && P.headerRow(el, css, first);
      if (texts.length) headed.add(table);
      const index = parseInt(el.getAttribute("aria-rowindex"), 10);
      if (index > 0 && texts.length && cols.every((c) => c > 0) &&
          spans.every(([c, r]) => c === 1 && r === 1)) {
        place(el.closest("[role=grid], [role=treegrid], [role=table]") || table, index, texts,
              cols, head);
      } else if (texts.length) {
        const cells = P.columns(P.tableState(table), el, texts, spans);
        out.push(tableLine(cells));
        if (first && head) out.push(dashes(cells.length));
      }
      for (const t of tables) {
        later.delete(t);
        md(t, depth);
      }
    }
    function place(grid, index, texts, cols, head) {
      let g = placed.get(grid);
      if (!g) {
        placed.set(grid, (g = { mark: "\u0000" + placed.size, rows: new Map(), heads: [] }));
        out.push(g.mark);
      }
      let byCol = g.rows.get(index);
      if (!byCol) g.rows.set(index, (byCol = new Map()));
      cols.forEach((c, i) => { if (!byCol.get(c)) byCol.set(c, texts[i]); });
      if (head) g.heads.push(index);
    }
    function tableCell(el, depth) {
      const cells = row, kept = out.length, before = line;
      for (const t of el.querySelectorAll(TABLES)) {
        if (t.parentElement.closest(TABLES) !== cells.table) continue;
        later.add(t);
        cells.tables.push(t);
      }
      row = null;
      line = "";
      inner(el, depth);
      push();
      const words = out.splice(kept).join(" ").replace(/\|/g, "\\|");
      row = cells;
      line = before;
      row.texts.push(words);
      row.spans.push(P.spanOf(el));
      row.cols.push(parseInt(el.getAttribute("aria-colindex"), 10));
    }
    // Each placed grid's rows, in aria-rowindex order, where its first row was met.
    function placeRows() {
      for (const g of placed.values()) {
        const lines = [];
        [...g.rows.keys()].sort((a, b) => a - b).forEach((k, i) => {
          const byCol = g.rows.get(k);
          const cells = [...byCol.keys()].sort((a, b) => a - b).map((c) => byCol.get(c));
          lines.push(tableLine(cells));
          if (!i && g.heads.includes(k)) lines.push(dashes(cells.length));
        });
        const at = out.indexOf(g.mark);
        if (at >= 0) out.splice(at, 1, ...lines);
      }
    }
    const push = () => {
      const t = line.replace(/[ \t]+/g, " ").trim();
      if (t) out.push(t);
      line = "";
    };
    function md(node, listDepth) {
      if (node.nodeType === 3) { line += node.data.replace(/\s+/g, " "); return; }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.tagName;
      if (SKIP_TAGS.has(tag) || hiddenForName(el) || leaving.has(el) || closedDialog(el) ||
          unseenWords(el) || shutBox(el)) return;
      if (/^H[1-6]$/.test(tag)) {
        push();
        line = "#".repeat(+tag[1]) + " " + clean(el.innerText);
        push();
        return;
      }
      if (tag === "A" && el.hasAttribute("href")) {
        const t = clean(el.innerText);
        if (t) line += "[" + t + "](" + el.href + ")";
        return;
      }
      if (tag === "IMG") {
        const alt = clean(el.getAttribute("alt"));
        if (alt) line += "![" + alt + "]";
        return;
      }
      if (tag === "BR") { push(); return; }
      // (a check box in a list item: a task's, ticked or not as GitHub's task lists say)
      if (tag === "INPUT" && el.type === "checkbox") {
        line += el.checked ? "[x] " : "[ ] ";
        return;
      }
      if (tag === "LI") {
        const marker = listMarker(el);
        push();
        line = "  ".repeat(Math.max(0, listDepth - 1)) +
          (marker === "\u2022" ? "-" : marker) + " ";
      }
      if (tag === "PRE") {
        push();
        out.push("```\n" + (numberedCode(el) ?? el.innerText) + "\n```");
        return;
      }
      const mark = MARKS[tag] && clean(el.innerText) ? MARKS[tag] : "";
      if (mark) {
        line += mark + clean(el.innerText) + mark;
        return;
      }
      const cs = getComputedStyle(el);
      if (bare(el, cs)) return;
      if (later.has(el)) { line += "[table]"; return; }
      if (row && (P.isCell(el) || row.css && cs.display === "table-cell"))
        return tableCell(el, listDepth);
      if (!row && rowLike(el, cs)) return tableRow(el, listDepth);
      // (a row's boxes that are no cells keep its line whole)
      const block = !row && breaksLine(cs.display) && cs.display !== "table-cell";  // (isBlock)
      // (a box of its own in a line keeps its words apart: a row of sizes, "8 9 10")
      const spaced = !block && (standsApart(cs.display) || P.boxedInline(cs));
      // (a line of words a line is drawn through: a price no longer asked, ~~$120.00~~)
      const struck = P.lined(el) && !/\n/.test(el.innerText.trim()) && !!clean(el.innerText);
      // (a block in a list item, its <p>, goes on the line of the item's marker)
      if (block && tag !== "LI" && !MARKED.test(line.trimStart())) push();
      if (spaced) line += " ";
      let before = line;
      if (struck) line = "";
      const cross = () => {  // the words since `before` crossed out, after it
        const words = line.replace(/\s+/g, " ").trim();
        before += words ? line.match(/^\s*/)[0] + "~~" + words + "~~" + line.match(/\s*$/)[0]
          : line;
        line = "";
      };
      const nextDepth = tag === "UL" || tag === "OL" ? listDepth + 1 : listDepth;
      const root = el.shadowRoot || el;
      // (a closed details shows its summary alone)
      const only = tag === "DETAILS" && !el.open ? P.summaryOf(el) || el : null;
      for (let c = root.firstChild; c; c = c.nextSibling) {
        if (only && c !== only) continue;
        // (the line stops at a box of its own in them: a button beside struck words)
        if (struck && c.nodeType === 1 && P.ownBox(c) && !P.lined(c)) {
          cross();
          line = before;
          md(c, nextDepth);
          before = line;
          line = "";
        } else md(c, nextDepth);
      }
      if (struck) {
        cross();
        line = before;
      }
      if (tag === "TD" || tag === "TH") line += " | ";
      if (spaced) line += " ";
      if (block) push();
    }
    P.tablesFor(true);
    try {
      if (document.body) md(document.body, 0);
    } finally {
      P.tablesFor(false);
    }
    push();
    placeRows();
    return out.join("\n");
  }

  Object.assign(P, { markdown });
})();
