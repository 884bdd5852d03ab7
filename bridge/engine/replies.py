"""The timers a page armed in reply to an action's input (a search box's debounce, a menu
opened in the next frame: hook.js counts them), which a look after the action waits for to
run, with the data they fetch; and those it armed as it loaded, which a snapshot waits for
(collect.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from ..errors import TabstewardError
from . import drawing, sent
from .acting import ANSWERS_WAIT
from .collect import HOOK_SECRET
from .model import Frame
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

TIMERS_WAIT = 2.0  # seconds a look waits for them (a hidden tab runs its timers late)
# seconds a read waits for the timers a page armed as it loaded (hook.js) to draw what it shows
LOAD_TIMERS_WAIT = 1.0
OVERDUE_POLL = 0.05  # seconds between asks once they are due and have not run
SLACK = 0.01  # seconds past the last one's due time before asking again


async def came(tab: Tab, frame_id: str | None = None, cap: float | None = None,
               data: bool = True) -> bool:
    """Wait (up to `cap` seconds, TIMERS_WAIT by default) until the timers the page armed in
    reply to input (in the document of `frame_id`, else of the page), and those they armed,
    have run, then (unless not `data`) for the data requests they began (up to ANSWERS_WAIT
    more); whether it all came in time. At once where the page has none, or no hook (a page
    read without the debugger, which no input reached)."""
    frame = tab.frames.get(frame_id or tab.target_id) or tab.frames.get(tab.target_id)
    if frame is None or tab.state.dialog is not None:
        return True
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (TIMERS_WAIT if cap is None else cap)
    listening = [] if tab.conn.hears_data or not data else await sent.listen(tab)
    tab.start_recording()
    waited = False
    try:
        async with contextlib.AsyncExitStack() as drawn:
            while True:
                pending, due_ms = await _armed(tab, frame)
                if not pending:
                    break
                left = deadline - loop.time()
                if left <= 0:
                    return False
                if not waited:  # frame callbacks run only in a frame: the tab is drawn
                    await drawn.enter_async_context(drawing.drawn_while(tab))
                waited = True
                await asyncio.sleep(min(left, due_ms / 1000 + SLACK if due_ms > 0 else
                                        OVERDUE_POLL))
        return not waited or not data or await sent.data_came(tab, ANSWERS_WAIT)
    except TabstewardError as exc:  # the page went, or opened a dialog: nothing to wait for
        log.debug("stopped waiting for the page's timers: %s", exc.message)
        return True
    finally:
        sent.stop_listening(tab, listening)
        tab.stop_recording()


async def due_within(tab: Tab, frame_id: str | None, cap: float) -> bool:
    """Whether the page has timers armed in reply to input (in the document of `frame_id`,
    else of the page) and all of them fall due within `cap` seconds (a list redrawn in the
    next frame; not a search's 300 ms debounce, which a look after the action waits for)."""
    frame = tab.frames.get(frame_id or tab.target_id) or tab.frames.get(tab.target_id)
    if frame is None:
        return False
    try:
        pending, due_ms = await _armed(tab, frame)
    except TabstewardError:
        return False
    return pending > 0 and due_ms <= cap * 1000


async def _armed(tab: Tab, frame: Frame) -> tuple[int, float]:
    """(how many counted timers have not run in the frame's document, ms until the last is
    due)."""
    if tab.state.dialog is not None:
        return 0, 0.0
    got = await tab.evaluate(frame, f"__ts.armed({json.dumps(HOOK_SECRET)})", follow=False)
    if not isinstance(got, list) or len(got) != 3 or \
            not all(isinstance(n, int | float) for n in got):
        return 0, 0.0
    return max(0, int(got[0])), max(0.0, min(float(got[1]), 1000.0))
