"""Text for eyes, made inert: strings from pages and processes cannot move a terminal's
cursor, recolour or retitle it, reorder text or forge a line. Hidden characters show as
<U+XXXX>: `printable` for page text an agent reads, `shown` for what a person reads."""

from __future__ import annotations

import re
import unicodedata

# What a page must never get to a terminal or a prompt raw: control characters (C0, DEL,
# C1: ESC sequences, carriage returns), line and paragraph separators, bidirectional
# controls, and lone surrogates. Joiners, soft hyphens and private-use characters stay:
# page text is full of them (emoji sequences, icon fonts).
_CONTROLS = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
             "\u2066-\u2069\ud800-\udfff")
_ONE_LINE = re.compile(f"[\t\n{_CONTROLS}]")
_LINES = re.compile(f"[{_CONTROLS}]")
_ASCII_CONTROLS = tuple(chr(c) for c in (*range(0x09), *range(0x0b, 0x20), 0x7f))

# For the person (console, panel, their commands' output) every character of these Unicode
# categories is shown as an escape too: controls, format characters (bidi, zero-width), lone
# surrogates, private use, unassigned, and the line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def escape(ch: str) -> str:
    """One hidden character as a visible escape: <U+001B>."""
    return f"<U+{ord(ch):04X}>"


def _escape(m: re.Match[str]) -> str:
    return escape(m.group())


def printable(text: str, lines: bool = False) -> str:
    """Page text safe to show on a terminal or to a model: every control, separator and
    bidi character as <U+XXXX>; with `lines`, line breaks and tabs stay."""
    pattern = _LINES if lines else _ONE_LINE
    return pattern.sub(_escape, text) if pattern.search(text) else text


def inert(text: str) -> bool:
    """Whether `printable(text, lines=True)` would leave `text` as it is. Measured on a
    128 KB snapshot: 0.07 ms for ASCII text (the regex takes 0.5 ms there), 0.5 ms
    otherwise."""
    if text.isascii():
        return not any(ch in text for ch in _ASCII_CONTROLS)
    return _LINES.search(text) is None


def shown(text: str, *, lines: bool = False) -> str:
    """What a person is shown of a string from a page or a process: every character that
    could move the cursor, recolour or retitle a terminal, reorder text or forge a line as
    <U+XXXX>, a tab as a space. `lines`: newlines stay (text meant to span lines)."""
    out = []
    for ch in text:
        if ch == "\n" and lines:
            out.append(ch)
        elif ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch) in _HIDDEN:
            out.append(escape(ch))
        else:
            out.append(ch)
    return "".join(out)
