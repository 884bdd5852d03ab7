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
import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cdp.connection import BARE_WORLD, Answer, Command
from ..errors import BrowserError, CDPError, TabError, TargetError, UsageError
from .collect import HOOK_SECRET
from .drawing import casting, draws_itself
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
            (f.bare is None or f.bare != _world(f))]


class Shield:
    """The shields of one input: raised before it and lowered after it, in the input's own
    sequence of commands where they can be (`up_commands`, `down_commands`: through the
    extension, one trip with the input instead of three), else each apart (`up`, `down`)."""

    def __init__(self, tab: Tab, frames: list[Frame]) -> None:
        self.tab = tab
        self.frames = frames  # the frames to shield
        self.raised: list[Frame] | None = None  # those shielded, once up
        self.came: list[str] | None = None  # origins of those input reached, once down

    @classmethod
    async def ready(cls, tab: Tab, session: str) -> Shield:
        """The shield of input sent through `session` (not raised yet)."""
        await tab.ready_for("Input.dispatchMouseEvent")  # (for its frames' sessions)
        frames = exposed(tab, session)
        # a world of no helper where the helper's is not known: the shield's code needs
        # none, and the extension's search of a frame's world takes several trips
        made = await asyncio.gather(*(_guard(tab, f) for f in frames if _world(f) is None),
                                    return_exceptions=True)
        _reraise(made)  # a frame gone meanwhile has none: `up` tries it once more
        return cls(tab, frames)

    def foldable(self) -> bool:
        """Whether every frame's world is known (commands can name it)."""
        return all(_world(f) is not None for f in self.frames)

    def up_commands(self) -> list[Command]:
        return [_command(f, RAISE) for f in self.frames]

    def took_up(self, answers: list[Answer]) -> bool:
        """Read the answers to `up_commands`; False when one failed (the sequence sent
        nothing after it: the caller raises the shields apart and sends the input again)."""
        if any(isinstance(a, Exception) for a in answers):
            return False
        self._raised([_value(a) for a in answers])
        return True

    def down_commands(self) -> list[Command]:
        """For every frame: sent beside `up_commands`, before it is known which are up."""
        return [_command(f, LOWER) for f in self.frames]

    def took_down(self, answers: list[Answer]) -> None:
        """Read the answers to `down_commands` (a frame gone meanwhile is no answer)."""
        up = self.raised or []
        self.came = [got for f, got in zip(self.frames, map(_value, answers), strict=True)
                     if f in up and isinstance(got, str) and got and got != ERROR_PAGE]

    async def up(self) -> None:
        """Shield every frame (a frame gone meanwhile, or one whose document has no hook,
        cannot be; one showing the browser's error page, where no page runs, is not asked
        again while it shows it). Nothing when already up."""
        if self.raised is not None:
            return
        if not self.frames:
            self.raised = []
            return
        said = await asyncio.gather(*(_evaluate(self.tab, f, RAISE) for f in self.frames),
                                    return_exceptions=True)
        _reraise(said)
        self._raised(said)

    async def down(self) -> list[str]:
        """Lower the shields, unless the input's sequence did; the origins of the frames
        that input reached while they were up."""
        if self.came is None:
            self.came = await _ask(self.tab, self.raised or [], LOWER)
        return self.came

    def _raised(self, said: list[object]) -> None:
        for frame, up in zip(self.frames, said, strict=True):
            if up == ERROR_PAGE:  # no hook there, and no page: not asked again for it
                frame.bare = _world(frame)
        self.raised = [f for f, up in zip(self.frames, said, strict=True)
                       if isinstance(up, str) and up and up != ERROR_PAGE]


def _world(frame: Frame) -> int | None:
    """The world the shield's code runs in: the helper's when known, else the guard's."""
    return frame.world if frame.world is not None else frame.guard


async def _guard(tab: Tab, frame: Frame) -> int:
    """Make the frame's guard world (BARE_WORLD): one command, nothing installed in it."""
    res = await tab.send("Page.createIsolatedWorld", {
        "frameId": frame.id, "worldName": BARE_WORLD, "grantUniveralAccess": False},
        session=frame.session, timeout=10)
    frame.guard = int(res["executionContextId"])
    return frame.guard


async def _evaluate(tab: Tab, frame: Frame, expression: str) -> object:
    """Run the shield's code in the frame's world (`_world`; a guard made when there is
    none, and made again when its document went)."""
    if frame.world is not None:
        return await tab.evaluate(frame, expression, timeout=10, follow=False)
    tab.check_no_dialog()
    for attempt in (1, 2):
        ctx = frame.guard if frame.guard is not None else await _guard(tab, frame)
        try:
            return _value(await tab.send("Runtime.evaluate", _command(frame, expression)[1],
                                         session=frame.session, timeout=10))
        except CDPError as exc:
            if "context" not in exc.cdp_message.lower() or attempt == 2:
                raise
            if frame.guard == ctx:
                frame.guard = None
    raise AssertionError("unreachable")


def _command(frame: Frame, expression: str) -> Command:
    return ("Runtime.evaluate", {"expression": expression, "contextId": _world(frame),
                                 "returnByValue": True, "awaitPromise": False}, frame.session)


def _value(answer: Answer) -> object:
    """What a helper-world evaluation answered (None for an error or a thrown exception)."""
    if isinstance(answer, Exception) or "exceptionDetails" in answer:
        return None
    return answer.get("result", {}).get("value")


async def raise_shields(tab: Tab, session: str) -> list[Frame]:
    """Shield every frame of another process (`Shield.up`); the frames that are shielded."""
    shield = await Shield.ready(tab, session)
    await shield.up()
    return shield.raised or []


async def lower_shields(tab: Tab, frames: list[Frame]) -> list[str]:
    """Lower the shields; the origins of the frames that input reached while they were up."""
    return await _ask(tab, frames, LOWER)


async def peek(tab: Tab, frames: list[Frame]) -> list[str]:
    """The origins of the shielded frames that input reached so far; the shields stay up."""
    return await _ask(tab, frames, PEEK)


async def _ask(tab: Tab, frames: list[Frame], expression: str) -> list[str]:
    if not frames:
        return []
    came = await asyncio.gather(*(_evaluate(tab, f, expression) for f in frames),
                                return_exceptions=True)
    _reraise(came)
    return [got for got in came if isinstance(got, str) and got]


async def redraw(tab: Tab) -> None:
    """Have the tab draw its current layout, by which the browser routes input next: a tab
    that draws on its own does within a frame; a hidden one for a capture of it (one pixel,
    thrown away), which answers at once only while the tab is being cast (measured: about
    3 s alone, 70-160 ms beside a cast; a cast alone does not renew the routing)."""
    if draws_itself(tab):
        await tab.next_frame()
        return
    try:
        async with casting(tab):
            await tab.send("Page.captureScreenshot", {
                "format": "jpeg", "quality": 1,
                "clip": {"x": 0, "y": 0, "width": 1, "height": 1, "scale": 1}},
                timeout=REDRAW_WAIT)
    except BrowserError as exc:  # the input is then refused once more, saying so
        log.info("tab %s did not draw for a capture: %s", tab.id, exc.message)


def _reraise(answers: Sequence[object]) -> None:
    """A frame that went away answers with an error, and that is fine; anything else is
    not (a dialog the input opened is the caller's to report)."""
    for answer in answers:
        if isinstance(answer, BaseException) and not isinstance(
                answer, (BrowserError, TabError, TargetError, UsageError)):
            raise answer
