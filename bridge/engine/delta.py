"""What changed between two snapshots of one page, as lines: `snapshot --delta`."""

from __future__ import annotations

import difflib

NEW = " [new]"  # the mark build() puts last on a line whose ref the last snapshot lacked


def unmarked(line: str) -> str:
    """A snapshot line without its `[new]` mark (a page's words, `> ...`, never carry one:
    a text line ending in those letters keeps them)."""
    return line if line.lstrip().startswith(">") else line.removesuffix(NEW)


def delta(before: list[str], after: list[str]) -> tuple[list[str], int, int]:
    """The lines of `after` (a snapshot's body) that differ from `before` (the last one of
    the same page and kind): each run of changes under the unchanged line before it (`  `,
    where it is), the lines gone (`- `) then the lines come (`+ `). Returns those lines and
    how many lines went and came; no lines when nothing changed."""
    old = [unmarked(line) for line in before]
    new = [unmarked(line) for line in after]
    out: list[str] = []
    gone = came = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if j1 > 0 and (not out or out[-1][2:] != new[j1 - 1]):
            out.append("  " + new[j1 - 1])
        out += ["- " + line for line in old[i1:i2]]
        out += ["+ " + line for line in new[j1:j2]]
        gone += i2 - i1
        came += j2 - j1
    return out, gone, came


def summary(gone: int, came: int, lines: int, kind: str) -> str:
    """The line that heads a delta: how much changed since the last snapshot of its kind."""
    if not gone and not came:
        return f"no change since your last {kind} of this page ({lines} lines)"
    return (f"changed since your last {kind} of this page: {came} line{'' if came == 1 else 's'}"
            f" came (+), {gone} went (-); unchanged lines are left out ({lines} lines now)")
