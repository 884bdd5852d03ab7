"""Text for people's eyes: strings from processes and pages, made inert before they reach a
terminal or a window (control, escape, bidi and format characters shown as escapes)."""

from __future__ import annotations

import unicodedata

# Unicode categories never shown raw: controls (C0, DEL, C1: ESC starts terminal sequences),
# format characters (bidi overrides, zero-width), lone surrogates, private use, unassigned,
# and the line and paragraph separators (they break lines like a newline).
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(ch: str) -> str:
    point = ord(ch)
    if point <= 0xFF:
        return f"\\x{point:02x}"
    if point <= 0xFFFF:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def shown(text: str, *, lines: bool = False) -> str:
    """`text` with every character that could move the cursor, recolour or retitle a
    terminal, reorder text or forge a line written as a visible escape (`\\x1b`, `\\u202e`).
    `lines`: keep newlines (text meant to span lines); otherwise a newline is escaped too."""
    out = []
    for ch in text:
        if ch == "\n" and lines:
            out.append(ch)
        elif ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch) in _HIDDEN:
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)
