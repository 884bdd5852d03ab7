"""What every action shares: its Outcome, `guarded` (what it changed), descriptions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..cdp.connection import Answer, Command, held
from ..errors import (
    ActionTimeout,
    BrowserError,
    TabError,
    TargetError,
    UsageError,
)
from . import drawing, sent
from .collect import HOOK_SECRET
from .model import Frame, Handle
from .shield import Shield
from .snapshot import left_out, quote, shorten
from .tab import Tab

log = logging.getLogger("tabsteward.engine")


# what input changed on its element (states, value, checked), read without laying out the
# page: a click's read-back of the whole info waited for the layout of what the click changed
AFTER = "__ts.inputState"  # (id, the hook's secret)
READ_IN = "readIn"  # the frame whose document an AFTER read was made in (added here)
NAV_TIMEOUT = 30.0
# seconds a page's load is waited for once its document is ready (DOMContentLoaded): the
# page can be read and used then, and a hung image, ad or tracker must not hold the agent
LOAD_CAP = 5.0
NAV_BEGINS = 2.0  # seconds a navigation the action requested may take to begin
CHOOSER_OPENED = ("it opened a file chooser, which nobody sees; nothing was chosen (to give "
                  "it files, use upload on the same target)")
# the element acted on is fading out as the action ends (a toast's Close), or shows no more
# (a menu's item its menu hid by a class): said so
FADING = "it is fading out of the page"
HIDDEN = "it is no longer shown"
ANSWERS_WAIT = 5.0  # seconds a look after an action waits for the data it had the page load


@dataclass
class Outcome:
    """What an action did and what it changed, for the agent."""

    did: str
    changes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    # done once the data requests the action had the page begin have answered (sent.answers);
    # None when it began none. A look right after the action (`-i`) waits for it
    answered: asyncio.Future[Any] | None = field(default=None, repr=False, compare=False)
    # done once they first have all answered (or at once: all answered as it ran): what a
    # report with no look waits for; and the addresses of those it had the page fetch,
    # whose answers the page's document takes in after that
    answers_came: asyncio.Future[Any] | None = field(default=None, repr=False, compare=False)
    data_urls: list[str] = field(default_factory=list, repr=False, compare=False)
    # whether the page armed timers in reply to the input (a debounce), as the read right
    # after it found (None: not read), and in which frame's document; a look right after
    # waits for them (replies.py)
    armed: bool | None = field(default=None, repr=False, compare=False)
    armed_in: str | None = field(default=None, repr=False, compare=False)
    # read the element again once the look waited for all that: how it ended, not what it
    # showed meanwhile (a button that said "Applying…" while the page worked)
    recheck: Callable[[], Awaitable[None]] | None = field(default=None, repr=False,
                                                         compare=False)
    # text went into a field that completes from a list the page shows (a combobox): its
    # report waits, as a person does, for what the page armed or fetched in reply (the
    # suggestions a debounce draws), even with no look after it
    suggests: bool = field(default=False, repr=False, compare=False)

    def text(self) -> str:
        """The report: what was done, then each change once (two reads of one page may
        find the same: an ARIA switch's state said by its own read and the page's)."""
        return "; ".join([self.did, *dict.fromkeys(self.changes)])


def describe(handle: Handle, info: dict[str, Any] | None = None) -> str:
    if info:
        name = str(info.get("name") or "")
        left = max(0, len(name) - 40) + int(info.get("nameLeft") or 0)
        hint = str(info.get("hint") or "")[:40]
        # an element with no name (a text locator's `<b>Alice</b>`, a row hovered by its
        # words, a swiped item): its words, then its hint, as its snapshot line says them;
        # not a text box's, its value (an editor's text read as if its name)
        text = "" if name or info.get("role") in ("textbox", "searchbox") else \
            " ".join(str(info.get("text") or "").split())
        return f"@{handle.ref} ({info.get('role') or info.get('tag')}" + (
            f' "{name[:40]}"{left_out(left)}' if name else
            (f" {quote(text[:40])}{left_out(len(text) - 40)}" if text else "") +
            (f" hint={quote(hint)}" if hint else "")) + (
            f", drawn anew in place of @{handle.was}" if handle.was else "") + ")"
    return f"@{handle.ref}" + (f" (drawn anew in place of @{handle.was})" if handle.was else "")


async def guarded(tab: Tab, action: Awaitable[Any], what: str, outcome: Outcome,
                  barrier: bool = True, listen: bool = True) -> Any:
    """Run one mutation; if it opens a JavaScript dialog, report it instead of waiting.
    `barrier=False` is for actions the page's renderer answers itself (a script, or input
    followed by a read of the page's main frame), whose reply already comes after the events
    they caused; `listen=False` for a page load (history, reload), whose own requests are
    not data the agent sent. Returns what the action returned, or None when a dialog opened
    or a navigation of the page began (what it read is of a page that is going)."""
    before_url = tab.state.url
    opened_before = len(tab.opened)
    stopped_before = len(tab.state.stopped)
    try:
        listening = await sent.listen(tab) if listen else []  # what the page posts in reply
    except BaseException:  # refused before it began (say, the debugger may not attach)
        if isinstance(action, Coroutine):
            action.close()
        raise
    tab.start_recording()
    dialog = tab.expect(lambda m, p, s: m == "Page.javascriptDialogOpening")
    # a document the action loads may be ready before its load is waited for below (its
    # readyState then says "interactive" while images still load, as a page being left may)
    ready = tab.expect(lambda m, p, s: m == "Page.lifecycleEvent" and
                       p.get("name") == "DOMContentLoaded" and p.get("frameId") == tab.target_id)
    task: asyncio.Future[Any] = asyncio.ensure_future(
        _then_barrier(tab, action) if barrier else action)
    result = None
    try:
        try:
            done, _ = await asyncio.wait({task, dialog}, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                result = task.result()  # raises what the action raised
            else:  # the page is blocked on the dialog; the action ends when it is answered
                task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        finally:
            sent.stop_listening(tab, listening)
            dialog.cancel()
            events = tab.stop_recording()
        return await _after(tab, what, outcome, result, events, before_url, opened_before,
                            stopped_before, listen, ready)
    finally:
        ready.cancel()


async def _after(tab: Tab, what: str, outcome: Outcome, result: Any,
                 events: list[tuple[str, dict[str, Any]]], before_url: str, opened_before: int,
                 stopped_before: int, listen: bool, ready: asyncio.Future[Any]) -> Any:
    """What `guarded` reports once the action ran: the navigation it began (waited for until
    its document is ready), what the page sent, the tabs it opened, a dialog."""
    if isinstance(result, dict) and isinstance(result.get("armed"), int):
        outcome.armed = result["armed"] > 0
        outcome.armed_in = str(result.get(READ_IN) or "") or None
    nav_started = any(
        # frameScheduledNavigation is the one that reliably arrives before the input's reply
        m in ("Page.frameScheduledNavigation", "Page.frameRequestedNavigation",
              "Page.frameStartedLoading", "Page.frameNavigated")
        and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id for m, p in events)
    pending = sent.unanswered(events) if listen else set()
    if what in drawing.REPLIED and (outcome.armed or nav_started or pending):
        drawing.for_input(tab)  # the page replies to a click or a key: drawn, it goes on
    if tab.state.dialog is None and nav_started:
        try:
            if _only_requested(tab, events):
                await _navigation_begins(tab)
            if not ready.done():
                await tab.wait_load(NAV_TIMEOUT, "DOMContentLoaded")
        except ActionTimeout:
            outcome.changes.append("navigation still loading")
    fetched = sent.fetched(events) if listen else set()
    if fetched:  # (answered meanwhile or not: the page takes the answers in after)
        outcome.data_urls = sent.urls_of(events, fetched)
        outcome.answers_came = asyncio.get_running_loop().create_future()
        if not pending:
            outcome.answers_came.set_result(None)
    if pending:
        outcome.answered = sent.answers(tab, pending, ANSWERS_WAIT, sent.headed(events),
                                        outcome.answers_came)
    # the Network domain may still be on from an earlier action (cdp/kept_network.py):
    # a page load's own requests are not what the agent sent
    said, places = sent.reports(events if listen else sent.without_requests(events))
    if said:  # first: the activity log keeps the start of the outcome
        outcome.changes[:0] = said
        outcome.data["sent_to"] = places
    stopped = tab.state.stopped[stopped_before:]
    outcome.changes.extend(stop.text for stop in stopped)
    if any(m == "Page.fileChooserOpened" for m, _ in events):
        outcome.changes.append(CHOOSER_OPENED)
    if tab.state.url != before_url and not stopped:
        outcome.changes.append(f"navigated to {tab.state.url}")
        outcome.data["url"] = tab.state.url
    deadline = asyncio.get_running_loop().time() + 10
    while tab.adopting:  # tabs the page opened are being attached: report them
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            break
        await asyncio.wait(set(tab.adopting), timeout=left)
    if len(tab.opened) > opened_before:
        new = tab.opened[opened_before:]
        outcome.changes.append("opened new tab " + ", ".join(new))
        outcome.data["new_tabs"] = new
    _report_dialog(tab, outcome)
    return None if nav_started or tab.state.dialog is not None else result


def _only_requested(tab: Tab, events: list[tuple[str, dict[str, Any]]]) -> bool:
    """Whether the action asked for a navigation of the tab's own page that had not yet begun
    when it finished: the old document still reads as loaded then (through the extension the
    browser's loading events may come after the action's last reply)."""
    asked = any(m in ("Page.frameRequestedNavigation", "Page.frameScheduledNavigation")
                and p.get("frameId") == tab.target_id
                and p.get("disposition", "currentTab") == "currentTab" for m, p in events)
    begun = any(m in ("Page.frameStartedLoading", "Page.frameNavigated",
                      "Page.frameStoppedLoading", "Page.frameClearedScheduledNavigation")
                and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id
                for m, p in events)
    return asked and not begun and not tab.state.loading


async def _navigation_begins(tab: Tab) -> None:
    """Wait (briefly) until a requested navigation of the page begins, ends or is dropped."""
    begins = tab.expect(lambda m, p, s: (
        m in ("Page.frameStartedLoading", "Page.frameNavigated", "Page.frameStoppedLoading",
              "Page.frameClearedScheduledNavigation")
        and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id)
        or m == "Page.javascriptDialogOpening")
    try:
        await asyncio.wait_for(begins, NAV_BEGINS)
    except TimeoutError:  # it never began (the page dropped it): report what is there
        log.debug("a requested navigation did not begin within %g s", NAV_BEGINS)
    finally:
        begins.cancel()


async def _then_barrier(tab: Tab, action: Awaitable[Any]) -> None:
    """The action, then a round trip to the page's renderer: input is acknowledged on
    another channel than DevTools events, so without it a navigation the input scheduled
    may be reported only after the action looks finished."""
    await action
    await barrier(tab)


async def barrier(tab: Tab) -> None:
    """A round trip to the renderer of the tab's page (see `_then_barrier`)."""
    try:
        await tab.send("Page.enable")
    except (BrowserError, TabError) as exc:  # the action closed the tab: it is done anyway
        log.debug("no barrier after the action: %s", exc.message)


async def input_then_read(tab: Tab, steps: list[list[Command]], handle: Handle,
                          shield: Shield | None = None, hold: str | None = None
                          ) -> dict[str, Any] | None:
    """The input, step by step (a step's events sent together, the next once they were
    answered), then the element's state (`AFTER`; None when it is gone): in one sequence of
    commands where the element is in the page's main frame (through the extension, one
    trip), else one after the other. A `shield` (mouse input) goes up before the input and
    down with the read, in the same sequence where it can. `hold`, a read of the page
    helper in the element's frame, is asked after the first step: while it answers false,
    the page is given time to settle (drawing.settle) before the rest is sent."""
    frame = handle.frame
    if frame.session == tab.session_id and frame.world is None:
        # a debugger came since the look-up: its world now, so the read joins the input
        with contextlib.suppress(BrowserError, TabError, UsageError):
            await tab.world_of(frame)  # (else read apart, after it, as `read_back` does)
    local = frame.session == tab.session_id and frame.world is not None
    if shield is not None and not (local and shield.foldable()):
        await shield.up()
    settled = _settled(tab, frame, hold) if hold is not None and len(steps) > 1 else None
    if not local:
        for n, step in enumerate(steps):
            await asyncio.gather(*(tab.send(m, p, s) for m, p, s in step))
            if n == 0 and settled is not None and not await settled():
                await drawing.settle(tab, settled)
        return await read_back(tab, handle)
    tab.check_open()
    tab.check_no_dialog()

    def in_world(expression: str) -> Command:
        return ("Runtime.evaluate", {"expression": expression, "contextId": frame.world,
                                     "returnByValue": True, "awaitPromise": False},
                frame.session)
    read = in_world(after_read(handle))
    check = [[in_world(hold)]] if hold is not None and settled is not None else []
    sent = False
    if shield is not None and shield.raised is None and shield.frames:
        raised, *given, found = await _held(tab, [
            shield.up_commands(), steps[0], *check, *steps[1:],
            [read, *shield.down_commands()]], 2 if check else None, settled)
        sent = shield.took_up(raised)
        if not sent:  # a frame went, and nothing after the shields was sent
            await shield.up()
        elif not any(isinstance(a, Exception) for step in given for a in step):
            shield.took_down(found[1:])
    if not sent:
        *given, found = await _held(tab, [steps[0], *check, *steps[1:], [read]],
                                    1 if check else None, settled)
    for answer in (a for step in given for a in step):
        if isinstance(answer, Exception):
            raise answer
    if isinstance(found[0], Exception) or "exceptionDetails" in found[0]:
        return None  # gone with its document (the page navigated), or the page refused
    value = found[0].get("result", {}).get("value")
    return {**value, READ_IN: frame.id} if isinstance(value, dict) else None


def _settled(tab: Tab, frame: Frame, hold: str) -> Callable[[], Awaitable[bool]]:
    """Whether the page settled: the hold read does not answer false (nor when it fails:
    the input goes on as it would have)."""
    async def settled() -> bool:
        try:
            return await tab.evaluate(frame, hold, follow=False) is not False
        except (BrowserError, TabError, UsageError) as exc:
            log.debug("no answer to %s: %s", hold, exc.message)
            return True
    return settled


async def _held(tab: Tab, steps: list[list[Command]], hold: int | None,
                settled: Callable[[], Awaitable[bool]] | None) -> list[list[Answer]]:
    """The steps' answers (their hold step's left out); where the hold step answered false,
    the rest is sent once the page settled, or had the time to (drawing.settle)."""
    got = await tab.conn.sequence(steps, hold=hold)
    if hold is None or settled is None:
        return got
    if held(got[hold]):
        await drawing.settle(tab, settled)
        got[hold + 1:] = await tab.conn.sequence(steps[hold + 1:])
    del got[hold]
    return got


def after_read(handle: Handle) -> str:
    """The page helper's read of the element's state right after input, with how many
    timers the page armed in reply (hook.js)."""
    return f"{AFTER}({handle.local}, {json.dumps(HOOK_SECRET)})"


async def read_back(tab: Tab, handle: Handle) -> dict[str, Any] | None:
    """The element's state right after input (`AFTER`; None when it is gone), read in the
    same round trip as the barrier `guarded` would make: a read in the page's main frame
    comes back after the events the input caused there; in another frame, the barrier goes
    beside it."""
    beside = None if handle.frame.session == tab.session_id else \
        asyncio.ensure_future(barrier(tab))
    try:  # not in a new document: the one clicked is going, and guarded says so
        found = await tab.evaluate(handle.frame, after_read(handle), follow=False)
    except (BrowserError, UsageError, TargetError, TabError):  # gone: nothing to say
        found = None
    finally:
        if beside is not None:
            await beside
    return {**found, READ_IN: handle.frame.id} if isinstance(found, dict) else None


def _report_dialog(tab: Tab, outcome: Outcome) -> None:
    if tab.state.dialog is not None:
        d = tab.state.dialog
        outcome.changes.append(f"{d.type} dialog open: {d.message!r} (answer with `dialog "
                               "accept` or `dialog dismiss`)")
        outcome.data["dialog"] = {"type": d.type, "message": d.message}


async def _call_on(tab: Tab, handle: Handle, fn: str, *args: Any) -> Any:
    obj = await tab.object_id(handle)
    res = await tab.send("Runtime.callFunctionOn", {
        "functionDeclaration": fn, "objectId": obj, "returnByValue": True,
        "arguments": [{"value": a} for a in args]}, session=handle.frame.session)
    if "exceptionDetails" in res:
        raise BrowserError("the page refused the operation: " + shorten(str(
            res["exceptionDetails"].get("exception", {}).get("description", "")), 200))
    return res.get("result", {}).get("value")
