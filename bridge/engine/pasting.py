"""A long multi-line text put into a field in one edit, as a paste puts it, not line by line.

Chromium's Input.insertText turns each line break into an edit of its own, with its own
input events: thousands of lines take seconds to minutes and fire thousands of events. One
`insertHTML` edit of the same text, written as markup, takes milliseconds and fires one.
"""

from __future__ import annotations

import html
import json
import re

from ..policy import keystrokes
from .model import Handle
from .tab import Tab

# an editable element (a rich-text editor) gets its lines as typed below this many: such
# editors follow each line's own events; past it, one edit (typing would take seconds)
RICH_LINES = 20

_SPACE = re.compile(r"(?<= ) |^ | $")  # spaces a browser would fold, as typing keeps them


def markup(text: str, rich: bool) -> str:
    """The text as markup for `insertHTML`: for a textarea its lines between `<br>`s (its
    value comes out exactly as the text); for an editable element a block per line, with
    runs of spaces and tabs kept visible as a person's typing keeps them."""
    parts = keystrokes.lines(text)
    if not rich:
        return "<br>".join(html.escape(p, quote=False) for p in parts)

    def block(line: str) -> str:
        shown = _SPACE.sub("&nbsp;", html.escape(line, quote=False))
        shown = shown.replace("\t", '<span style="white-space:pre">\t</span>')
        return f"<div>{shown or '<br>'}</div>"
    return "".join(block(p) for p in parts)


def wanted(tag: str, text: str) -> bool | None:
    """Whether text goes into an element with this tag in one edit: None when typed as is,
    else whether the element is rich (an editable element, not a textarea)."""
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    if tag == "textarea" and breaks:
        return False
    if tag not in ("input", "textarea") and breaks >= RICH_LINES:
        return True
    return None


async def paste(tab: Tab, handle: Handle, text: str, rich: bool) -> bool:
    """Replace the element's selection (set by the caller) with text in one edit; False
    when the page's document took no such edit (the caller then types the text)."""
    body = json.dumps(markup(text, rich))
    return bool(await tab.evaluate(handle.frame, f"(e => !!e && e.ownerDocument.execCommand("
                                   f"'insertHTML', false, {body}))(__ts.get({handle.local}))"))


async def into_editor(tab: Tab, handle: Handle, text: str) -> bool:
    """Give text to a code editor's own field as a paste (its handler takes it as it is; typed,
    each line break would be an Enter it indents after): False when the editor did not take
    it (the caller then types the text)."""
    return bool(await tab.evaluate(handle.frame,
                                   f"__ts.pasteInto({handle.local}, {json.dumps(text)})"))
