"""Reading a snapshot's text as an agent does: lines with their depth, role, name and ref,
for tabsteward's format and agent-browser's; and the questions tasks ask of them (the row
a key is in, the card a word is in, the line that means "delete")."""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE = re.compile(r'^(\s*)(?:- )?([\w-]+)?(?: "((?:[^"\\]|\\.)*)")?(.*)$')
CELL_ROLES = ("cell", "gridcell", "columnheader", "rowheader")
TS_REF = re.compile(r"(?<![\w@])@(\d+)\b")
AB_REF = re.compile(r"\bref=(e\d+)[,\]]")


@dataclass
class Line:
    depth: int
    role: str
    name: str
    ref: str  # "@12" / "@e12"; "" when the line has none
    raw: str  # the line without its indentation

    def mentions(self, *words: str) -> bool:
        low = self.raw.lower()
        return any(re.search(rf"(?<![a-z]){re.escape(w.lower())}(?![a-z])", low)
                   for w in words)


def parse(text: str, tool: str) -> list[Line]:
    """The snapshot's lines, in order; header and untrusted-data marker lines included."""
    out = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        body = raw.lstrip()
        depth = (len(raw) - len(body)) // 2
        m = LINE.match(body)
        role = (m.group(2) or "") if m and body.startswith("- ") else ""
        name = (m.group(3) or "").replace('\\"', '"') if m else ""
        if tool == "tabsteward":
            if body.startswith(">"):
                role, name = "text", body[1:].strip()
            refs = TS_REF.findall(body)
            ref = f"@{refs[0]}" if refs else ""
        else:
            if not name and ":" in body and role:  # - paragraph: words
                name = body.split(":", 1)[1].strip()
            refs = AB_REF.findall(body)
            ref = f"@{refs[0]}" if refs else ""
        out.append(Line(depth, role, name, ref, body))
    return out


def subtree(lines: list[Line], i: int) -> list[int]:
    """Indexes of the lines nested under line i."""
    out = []
    for j in range(i + 1, len(lines)):
        if lines[j].depth <= lines[i].depth:
            break
        out.append(j)
    return out


def ancestors(lines: list[Line], i: int) -> list[int]:
    """Indexes of the lines that hold line i, nearest first."""
    out, depth = [], lines[i].depth
    for j in range(i - 1, -1, -1):
        if lines[j].depth < depth:
            out.append(j)
            depth = lines[j].depth
    return out


def pipe_cells(raw: str) -> list[str] | None:
    """`| Gender | Female |` (any prefix before the first bar) -> ["Gender", "Female"]."""
    if raw.count("|") < 2:
        return None
    inner = raw[raw.index("|") + 1:raw.rindex("|")]
    return [c.strip() for c in inner.split("|")]


def cell_text(cell: str) -> str:
    """A cell's words without a control's role, ref or locator around them."""
    cell = re.sub(r"\s*(?:@\d+|\[[^\]]*\bref=e\d+\]|loc=\S+|nth=\d+)", "", cell).strip()
    m = re.fullmatch(r'(?:[\w-]+ )?"((?:[^"\\]|\\.)*)"', cell)
    return m.group(1) if m else cell.strip('"')


def row_of(lines: list[Line], i: int) -> tuple[int, list[str]] | None:
    """The row line i belongs to, and its cells' words in order: a line of `|` cells, or a
    row line whose children are cells."""
    cells = pipe_cells(lines[i].raw)
    if cells is not None:
        return i, [cell_text(c) for c in cells]
    for j in [i, *ancestors(lines, i)]:
        if lines[j].role == "row":
            kids = [k for k in subtree(lines, j) if lines[k].depth == lines[j].depth + 1]
            words = [lines[k].name for k in kids if lines[k].role in CELL_ROLES]
            return (j, words) if words else None
    return None


def rows(lines: list[Line]) -> list[tuple[int, list[str]]]:
    seen, out = set(), []
    for i in range(len(lines)):
        found = row_of(lines, i)
        if found and found[0] not in seen:
            seen.add(found[0])
            out.append(found)
    return out


def value_by_key(lines: list[Line], key: str) -> str | None:
    """The cell right of the cell that says `key`, on the same row."""
    for _, cells in rows(lines):
        if key in cells and cells.index(key) + 1 < len(cells):
            return cells[cells.index(key) + 1]
    return None


def value_by_column(lines: list[Line], row_key: str, column: str) -> str | None:
    """The cell under header `column` on the row whose first cell is `row_key`."""
    table = rows(lines)
    header = next((c for _, c in table if column in c), None)
    for _, cells in table:
        if header and cells and cells[0] == row_key and len(cells) == len(header):
            return cells[header.index(column)]
    return None


def ref_on_row(lines: list[Line], row_key: str, *words: str) -> str | None:
    """The ref of the control that mentions `words` on the row holding `row_key`."""
    for j, cells in rows(lines):
        if row_key not in cells:
            continue
        for k in [j, *subtree(lines, j)]:
            line = lines[k]
            if line.ref and line.mentions(*words):
                return _ref_after(line, words) or line.ref
    return None


def _ref_after(line: Line, words: tuple[str, ...]) -> str | None:
    """On a line with several refs, the first ref after the word."""
    low = line.raw.lower()
    for w in words:
        at = low.find(w.lower())
        if at >= 0:
            m = re.search(r"@(\d+)\b|\bref=(e\d+)\b", line.raw[at:])
            if m:
                return "@" + (m.group(1) or m.group(2))
    return None


def ref_in_card(lines: list[Line], anchor: str, *words: str) -> str | None:
    """The one control that mentions `words` in the smallest container holding `anchor`
    (the card of that author, product or flight). None when no container tells it apart."""
    for i, line in enumerate(lines):
        if anchor.lower() not in line.raw.lower():
            continue
        for j in [i, *ancestors(lines, i)]:
            found = [lines[k] for k in [j, *subtree(lines, j)]
                     if lines[k].ref and lines[k].mentions(*words)]
            if len(found) == 1:
                return _ref_after(found[0], words) or found[0].ref
            if len(found) > 1:
                break  # this container holds several: the anchor does not tell them apart
    return None


def ref_meaning(lines: list[Line], *words: str) -> str | None:
    """The one line with a ref whose words (name, hint, locator) mean one of `words`."""
    found = [ln for ln in lines if ln.ref and ln.mentions(*words)]
    return found[0].ref if len(found) == 1 else None


def ref_named(lines: list[Line], name: str, roles: tuple[str, ...] = ()) -> str | None:
    """The first line with a ref whose name is `name` (or starts with it)."""
    for exact in (True, False):
        for ln in lines:
            if ln.ref and (not roles or ln.role in roles) and (
                    ln.name == name if exact else ln.name.startswith(name)):
                return ln.ref
    return None
