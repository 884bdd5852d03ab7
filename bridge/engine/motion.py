"""The animations an action set going (a panel growing open, a dialog fading in), which a
look right after it waits for to end: read on their first frame, what they show is not
there yet (no height, no opacity), and the look says nothing new."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from ..errors import TabstewardError
from . import drawing
from .model import Frame
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

MOTION_WAIT = 1.0  # seconds a look waits for them in all
# an animation ending later than this is the page's own (a progress bar, a slow banner):
# not waited for
MOTION_CAP_MS = 1000
SLACK = 0.01  # seconds past the last one's end before asking again


NOT_READ = object()  # what `ended_then` gives for the page's reply when it was not read


async def ended(tab: Tab, frame: Frame) -> bool:
    """Wait (up to MOTION_WAIT) until the animations in the frame's document that change
    what shows, and end within MOTION_CAP_MS, have ended (page_motion.js `motionLeft`);
    whether they did. At once where none runs."""
    done, _ = await ended_then(tab, frame, False)
    return done


async def ended_then(tab: Tab, frame: Frame, replied: bool) -> tuple[bool, Any]:
    """`ended`, and (`replied`) what the page replied (reporting.replied's read) read in the
    same trip to the page once none runs (page_info.js `stillThenReplied`: a look's next
    read, without a trip of its own); NOT_READ when it was not (they ran on past the wait,
    the page went or opened a dialog)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MOTION_WAIT
    ask = f"__ts.{'stillThenReplied' if replied else 'motionLeft'}({MOTION_CAP_MS})"
    cast = False
    try:
        async with contextlib.AsyncExitStack() as drawn:
            while tab.state.dialog is None:
                left = await tab.evaluate(frame, ask, follow=False)
                if replied and isinstance(left, list) and len(left) == 1:
                    return True, left[0]
                if not isinstance(left, int | float) or left <= 0:
                    return True, NOT_READ
                wait = deadline - loop.time()
                if wait <= 0:
                    return False, NOT_READ
                if not cast:  # a hidden tab's animations stand still undrawn
                    cast = True
                    await drawn.enter_async_context(drawing.drawn_while(tab))
                await asyncio.sleep(min(wait, float(left) / 1000 + SLACK))
    except TabstewardError as exc:  # the page went, or opened a dialog: nothing to wait for
        log.debug("stopped waiting for the page's animations: %s", exc.message)
    return True, NOT_READ
