"""What a look right after an action waits for, as a person waits before reading: the page
the action loaded and the data it was still fetching at its load, or else the data the
action had the page fetch, the timers the page armed in reply to its input (with their
data) and the animations they set going; each up to its cap, after which the page is read
as it is. What the page said meanwhile (a toast once its fetch was answered) joins the
action's report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from ..errors import ActionTimeout, BrowserError, TabstewardError
from . import drawing, motion, replies, sent
from .acting import ANSWERS_WAIT, LOAD_CAP, Outcome
from .model import Frame
from .navigation import load_capped
from .pointer import REPLY_WAIT
from .reporting import replied, report_replied
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

LOAD_WAIT = 10.0  # seconds a page an action opened may take to be ready before it is read anyway


def began_load(out: Outcome) -> bool:
    """Whether the action began loading another page in the tab (a link, a form sent)."""
    return "url" in out.data or "navigation still loading" in out.changes


async def settle(tab: Tab, out: Outcome, loads: bool | None = None) -> list[str]:
    """Wait for what the action set going before the page is read (`loads`: it began a
    page's load; by default as `began_load` says); what did not come in time, said for the
    agent. Returns at once while a dialog holds the page."""
    said: list[str] = []
    try:
        if out.answered is not None:
            await asyncio.wait({out.answered}, timeout=ANSWERS_WAIT)
            if not out.answered.done() or out.answered.cancelled():
                said.append(f"the page was still loading data after {ANSWERS_WAIT:g} s")
    finally:
        if out.answered is not None:
            out.answered.cancel()
    if began_load(out) if loads is None else loads:
        try:
            loaded = await tab.wait_loaded(LOAD_WAIT, LOAD_CAP)
        except ActionTimeout:
            said.append(f"the page was still loading after {LOAD_WAIT:g} s")
        else:  # and the data it was still fetching then, as after an open
            if not loaded:
                said.append(f"the page was {load_capped(LOAD_CAP)}")
            elif tab.state.dialog is None and \
                    not await sent.data_in_flight(tab, ANSWERS_WAIT):
                said.append(f"the page was still loading data after {ANSWERS_WAIT:g} s")
            # (a page that stayed, routed by its script: the view it draws a moment after
            # its popstate, once its timers ran and their data came)
            if tab.state.dialog is None and not await replies.came(tab):
                said.append(f"the page was still replying after {replies.TIMERS_WAIT:g} s")
            if "#" in tab.state.url and tab.state.dialog is None:
                await _scroll_ended(tab)
    else:
        if out.armed is not False and tab.state.dialog is None and \
                not await replies.came(tab, out.armed_in):
            # the timers it armed in reply to the input (a search box's debounce), and their
            # data
            said.append(f"the page was still replying to the input after "
                        f"{replies.TIMERS_WAIT:g} s")
        # then the animations it (or they) set going: a panel opening, a dialog fading in
        frame = tab.frames.get(out.armed_in or tab.target_id) or tab.frames.get(tab.target_id)
        if frame is not None and tab.state.dialog is None:
            done, found = await motion.ended_then(tab, frame, True)
            if not done:
                said.append(f"the page was still animating after {motion.MOTION_WAIT:g} s")
            await _replied_since(tab, frame, out, found)
    return said


SAID_WAIT = 1.0  # seconds an action's report with no look waits for the data it had fetched
TAKEN_WAIT = 0.5  # seconds the page's document may take to take in answers that came
TASKS_MS = 4  # milliseconds of its tasks let go by once it has them
# Once the page's document took in the answers to the requests at `urls` (its resource
# timing has an entry for each: it has them whole), its tasks for TASKS_MS gone by (its load
# events, a fetch's callback, then its text's once read), yielding to them by messages it
# posts itself (a timer in a hidden tab waits for the browser's once-a-second wake-up; a
# message does not).
TAKEN_IN = """(urls => new Promise(done => {
  const left = new Set(urls.filter(u => !performance.getEntriesByName(u).length));
  const then = () => { const c = new MessageChannel(), t0 = performance.now(); let n = 0;
    c.port1.onmessage = () => (++n < 2 || performance.now() - t0 < %d ?
      c.port2.postMessage(0) : done(0));
    c.port2.postMessage(0); };
  if (!left.size) return then();
  const o = new PerformanceObserver(list => {
    for (const e of list.getEntries()) left.delete(e.name);
    if (!left.size) { o.disconnect(); then(); } });
  o.observe({ type: "resource", buffered: true });
}))(%s)"""


async def said_once_answered(tab: Tab, out: Outcome) -> None:
    """An action's report with no look after it: what the page said once the data the
    action had it fetch came (up to SAID_WAIT) and the timers it armed with them that fall
    due within REPLY_WAIT ran: the fragment htmx swapped in, the toast a save's answer
    brought. No wait where it fetched nothing, or began loading another page."""
    came = out.answers_came
    if came is None or began_load(out) or tab.state.dialog is not None:
        return
    await asyncio.wait({came}, timeout=SAID_WAIT)
    if not came.done() or came.cancelled():
        out.changes.append(f"the page was still loading data after {SAID_WAIT:g} s")
        return
    frame = tab.frames.get(out.armed_in or tab.target_id) or tab.frames.get(tab.target_id)
    if frame is None or tab.state.dialog is not None:
        return
    try:
        # (the page's document takes the answers in on its own tasks, after the browser
        # told they came, and its callbacks chained on them run after that)
        with contextlib.suppress(BrowserError):  # (not taken in yet: read as it is)
            await tab.send("Runtime.evaluate", {
                "expression": TAKEN_IN % (TASKS_MS, json.dumps(out.data_urls)),
                "contextId": await tab.world_of(frame), "awaitPromise": True},
                session=frame.session, timeout=TAKEN_WAIT)
        if await replies.due_within(tab, frame.id, REPLY_WAIT):
            await replies.came(tab, frame.id, cap=REPLY_WAIT, data=False)
        report_replied(tab, frame, await replied(tab, frame), out)
        if out.recheck is not None and tab.state.dialog is None:
            await out.recheck()  # (the clicked element as the answer left it)
    except TabstewardError as exc:  # (the page went meanwhile)
        log.debug("no reply read once the data came: %s", exc.message)


SCROLL_WAIT, SCROLL_LOOK = 1.5, 0.05  # seconds a smooth scroll to a place may take; a look


async def _scroll_ended(tab: Tab) -> None:
    """Where the page scrolls smoothly to the place its address names (a link to a section,
    `scroll-behavior: smooth`: Bootstrap's), wait (up to SCROLL_WAIT) for it to stand still:
    what a person reads there (a table of contents marking the section) comes then."""
    frame = tab.frames.get(tab.target_id)
    if frame is None:
        return
    look = "[scrollX, scrollY, getComputedStyle(document.documentElement).scrollBehavior]"
    try:
        async with drawing.drawn_while(tab):
            last = await tab.evaluate(frame, look, follow=False)
            if not isinstance(last, list) or last[2] != "smooth":
                return
            end = asyncio.get_running_loop().time() + SCROLL_WAIT
            while asyncio.get_running_loop().time() < end:
                await asyncio.sleep(SCROLL_LOOK)
                now = await tab.evaluate(frame, look, follow=False)
                if now == last:
                    return
                last = now
    except TabstewardError as exc:
        log.debug("stopped waiting for the page's scroll: %s", exc.message)


async def _replied_since(tab: Tab, frame: Frame, out: Outcome, found: Any) -> None:
    """What the page said (a toast after its fetch's answer) and the fields it marked
    invalid (its server's check) since the action's own report was read, into it: `found`,
    read with the look at its animations, or read now (motion.NOT_READ)."""
    if found is motion.NOT_READ:
        found = await replied(tab, frame)
    report_replied(tab, frame, found if isinstance(found, dict) else None, out)
