"""Reading the page or an element, answering dialogs, running the agent's script."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..errors import BrowserError, RefNotFound, UsageError
from . import replies
from .acting import Outcome, describe, guarded
from .collect import HOOK_SECRET
from .snapshot import shorten
from .tab import Tab
from .targets import Target


async def read(tab: Tab, fmt: str) -> str:
    """The page's text, then each frame's text under a `[frame URL]` line; read once the
    timers the page armed as it loaded or in reply to input have run, as a snapshot is
    (collect.py)."""
    tab.check_no_dialog()
    kind = json.dumps("markdown" if fmt == "markdown" else "text")
    # (the top document says how many such timers are left instead of its text)
    bodies = await tab.in_every_frame(f"__ts.readText({kind}, {json.dumps(HOOK_SECRET)})")
    if any(frame.id == tab.target_id and body[2] for frame, body in bodies):
        await replies.came(tab, cap=replies.LOAD_TIMERS_WAIT)
        bodies = await tab.in_every_frame(f"__ts.readText({kind}, null)")
    parts: list[str] = []
    for frame, body in bodies:
        if frame.id == tab.target_id:
            parts.insert(0, str(body[1] or ""))
        elif body[1]:
            parts.append(f"[frame {body[0]}]\n{body[1]}")
    return "\n\n".join(parts)


async def read_element(tab: Tab, target: Target) -> tuple[str, str]:
    """All a target element holds, uncut: ("value", a field's value; a password's stays
    masked) or ("text", its rendered text; "hidden" where it is not drawn now, a closed
    tab's panel). Only reads: nothing scrolls or takes focus."""
    tab.check_no_dialog()
    live = await tab.on_live_ref(target, "fullText")
    if live is not None:
        handle, got = live
    else:
        handle = await tab.resolve(target)
        got = await tab.evaluate(handle.frame, f"__ts.fullText({handle.local})")
    if not isinstance(got, dict):
        raise RefNotFound(f"{describe(handle)} is gone from the page; nothing was read")
    if got.get("kind") == "frame":  # the text of the document it shows
        shown = await tab.frame_shown_by(handle)
        if shown is None:
            raise UsageError(f"{describe(handle)} is a frame whose document cannot be read "
                             "(still loading, or of no page); nothing was read")
        return "text", str(await tab.evaluate(shown, "__ts.pageText()") or "")
    return str(got.get("kind") or "text"), str(got.get("text") or "")


async def dialog(tab: Tab, action: str, text: str | None = None) -> Outcome:
    d = tab.state.dialog
    if action == "status":
        if d is None:
            return Outcome("no dialog is open", data={"dialog": None})
        return Outcome(f"{d.type} dialog open: {d.message!r}",
                       data={"dialog": {"type": d.type, "message": d.message,
                                        "default": d.default}})
    if d is None:
        raise UsageError("no dialog is open; nothing was answered")
    await tab.permit("dialog", keys=action, extra={"message": d.message[:200]})
    params: dict[str, Any] = {"accept": action == "accept"}
    if text is not None:
        params["promptText"] = text
    out = Outcome(f"{'accepted' if action == 'accept' else 'dismissed'} the {d.type} "
                  f"dialog {d.message!r}")

    async def answer() -> None:
        await tab.send("Page.handleJavaScriptDialog", params)
        tab.state.dialog = None

    # the page goes on once answered: what it sends then, a page it loads, a dialog it
    # opens next, as after any action
    await guarded(tab, answer(), "dialog", out)
    return out


async def evaluate(tab: Tab, expression: str) -> Outcome:
    tab.check_no_dialog()
    # an "allow once" allows this script, by its hash, and no other
    digest = hashlib.sha256(expression.encode("utf-8", "surrogatepass")).hexdigest()
    await tab.permit("eval", extra={"sha256": digest})
    out = Outcome("evaluated")
    res: dict[str, Any] = {}

    async def act() -> None:
        res.update(await tab.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
            "userGesture": True}, timeout=60))

    await guarded(tab, act(), "eval", out, barrier=False)
    if "exceptionDetails" in res:
        desc = res["exceptionDetails"].get("exception", {}).get("description") or \
            res["exceptionDetails"].get("text")
        raise BrowserError(f"the script threw: {shorten(str(desc), 500)}")
    value = res.get("result", {}).get("value")
    out.data["value"] = value
    # the whole value is in the result's data (--json); the text says where it was cut
    out.did = shorten(json.dumps(value, ensure_ascii=False), 5000) if value is not None \
        else "undefined"
    return out
