"""Mouse input that reaches only the frame it is meant for: while it is sent, the frames of
every other process ignore trusted mouse events (hook.js) and say whether any came."""

# The browser sends mouse input to an out-of-process frame by the layout it last drew. A
# hidden background tab may not have drawn since its page scrolled or moved, so a click
# sent at a button of the page can land in a frame of another site that stood there
# before: one policy never judged (measured: 6 clicks in 8 through the extension, with the
# wait for a drawn frame). The shield turns such a click into one that did nothing there,
# and the caller sends it again once the tab has drawn, or says that nothing was clicked.

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING

from ..errors import BrowserError, TabError, TargetError, UsageError
from .collect import HOOK_SECRET
from .model import Frame

if TYPE_CHECKING:
    from .tab import Tab

log = logging.getLogger("tabsteward.engine")


def _tell(event: str, answer: str) -> str:
    """Helper-world code that dispatches `event` to the frame's hook and, when the hook
    answered `answer`, says the frame's origin, else "" (events named with the secret: the
    page cannot name them). A browser's error page is left alone: ERROR_PAGE."""
    name, said = (json.dumps(f"ts-shield{e}-{HOOK_SECRET}") for e in (event, answer))
    return (f"(() => {{ if (location.protocol === 'chrome-error:') return"
            f" {json.dumps(ERROR_PAGE)}; let said = false; const h = () => {{ said = true; }};"
            f" document.addEventListener({said}, h);"
            f" document.dispatchEvent(new CustomEvent({name}));"
            f" document.removeEventListener({said}, h); return said ? location.origin : ''; }})()")


# A frame that failed to load shows the browser's own error page: no site's script runs
# there, and the most a stray click does is reload the frame's address (a load policy
# screens like any other), so it is not shielded, nor asked again while it shows it.
ERROR_PAGE = "error page"
REDRAW_WAIT = 4.0  # s: a hidden tab's capture that never answers is given up
RAISE = _tell("", "-up")
LOWER = _tell("-off", "-came")
PEEK = _tell("-peek", "-came")


def exposed(tab: Tab, session: str) -> list[Frame]:
    """The frames that mouse input sent through `session` must not reach: those of other
    processes (frames of its own are hit-tested by its renderer, on its current layout), but
    for the page's own when the input goes to a frame's process (it cannot reach them)."""
    return [f for f in tab.frames.values() if f.session not in (session, tab.session_id) and
            (f.bare is None or f.bare != f.world)]


async def raise_shields(tab: Tab, session: str) -> list[Frame]:
    """Shield every frame of another process; the frames that are shielded (a frame gone
    meanwhile, or one whose document has no hook, cannot be; one showing the browser's
    error page, where no page runs, is not asked again while it shows it)."""
    ensure = getattr(tab.conn, "ensure_attached", None)
    if ensure is not None:  # the extension's tab an agent only read: its frames' sessions
        await ensure(tab.session_id, "Input.dispatchMouseEvent")
    frames = exposed(tab, session)
    if not frames:
        return []
    said = await asyncio.gather(*(tab.evaluate(f, RAISE, timeout=10, follow=False)
                                  for f in frames), return_exceptions=True)
    _reraise(said)
    for frame, up in zip(frames, said, strict=True):
        if up == ERROR_PAGE:  # no hook there, and no page: not asked again for it
            frame.bare = frame.world
    return [f for f, up in zip(frames, said, strict=True)
            if isinstance(up, str) and up and up != ERROR_PAGE]


async def lower_shields(tab: Tab, frames: list[Frame]) -> list[str]:
    """Lower the shields; the origins of the frames that input reached while they were up."""
    return await _ask(tab, frames, LOWER)


async def peek(tab: Tab, frames: list[Frame]) -> list[str]:
    """The origins of the shielded frames that input reached so far; the shields stay up."""
    return await _ask(tab, frames, PEEK)


async def _ask(tab: Tab, frames: list[Frame], expression: str) -> list[str]:
    if not frames:
        return []
    came = await asyncio.gather(*(tab.evaluate(f, expression, timeout=10, follow=False)
                                  for f in frames), return_exceptions=True)
    _reraise(came)
    return [got for got in came if isinstance(got, str) and got]


async def redraw(tab: Tab) -> None:
    """Have the tab draw its current layout, by which the browser routes input next: a tab
    that draws on its own does within a frame; a hidden one for a capture of it (one pixel,
    thrown away), which answers at once only while the tab is being cast (measured: about
    3 s alone, 70-160 ms beside a cast; a cast alone does not renew the routing)."""
    if tab.browser is None or tab.browser.own_windows:
        await tab.next_frame()
        return
    try:
        await tab.send("Page.startScreencast", {"format": "jpeg", "quality": 1,
                                                "maxWidth": 16, "maxHeight": 16})
        await tab.send("Page.captureScreenshot", {
            "format": "jpeg", "quality": 1,
            "clip": {"x": 0, "y": 0, "width": 1, "height": 1, "scale": 1}}, timeout=REDRAW_WAIT)
    except BrowserError as exc:  # the input is then refused once more, saying so
        log.info("tab %s did not draw for a capture: %s", tab.id, exc.message)
    finally:
        with contextlib.suppress(BrowserError, TabError):
            await tab.send("Page.stopScreencast")


def _reraise(answers: list[object]) -> None:
    """A frame that went away answers with an error, and that is fine; anything else is
    not (a dialog the input opened is the caller's to report)."""
    for answer in answers:
        if isinstance(answer, BaseException) and not isinstance(
                answer, (BrowserError, TabError, TargetError, UsageError)):
            raise answer
