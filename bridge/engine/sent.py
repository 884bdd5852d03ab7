"""What the page sent while an action ran: forms it submitted, and data it posted with a
script (fetch, XMLHttpRequest, sendBeacon), as scheme://host/path for the action's report;
and the data it was still fetching, which a look after an action, an open and a scroll
wait for (through the extension also as its worker hears them, with no debugger)."""

# Forms come from Page.frameRequestedNavigation, which the tab records anyway (free, on both
# transports, in every frame). Scripted requests need the Network domain: it is enabled
# before the input is sent, and it stays on between actions on both transports
# (cdp/kept_network.py answers a later enable and the disable without a trip to the
# browser, and switches it off once the agent stops acting), so a click pays no round trip
# for it after the first. Its answer is awaited before the input: sent ahead of the input
# without waiting (in the same round trip), the requests a click handler sends at once went
# unheard (measured; tests/engine/test_action_report_e2e).

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlsplit

from ..cdp.connection import DATA_BEGUN
from ..errors import BrowserError, PolicyError, TabError
from .fetching import HEADERS, answered, begun
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

FORM_REASONS = ("formSubmissionGet", "formSubmissionPost")
SCRIPTED = ("XHR", "Fetch", "Ping", "EventSource", "Other")  # resource types a script sends
CHAINED = 0.25  # seconds after an action's end in which a request it led to is awaited too
QUIET = 0.1  # seconds after the last awaited answer in which a request made with it may begin
# A fetch whose body the page never reads (sent and forgotten, as analytics do) never ends in
# DevTools: its request counts as answered this long after its answer's headers came
BODY_WAIT = 0.3
READS = ("GET", "HEAD", "OPTIONS")
# no response bodies are kept for us while we listen
NETWORK = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}

Events = list[tuple[str, dict[str, Any]]]


async def listen(tab: Tab) -> list[str]:
    """Start hearing the tab's requests (its page and its frames' sessions); the sessions
    that now listen. A session that cannot is left out: the report is then partial."""
    sessions = [tab.session_id, *tab.child_sessions]
    results = await asyncio.gather(
        *(tab.conn.send("Network.enable", NETWORK, session_id=s) for s in sessions),
        return_exceptions=True)
    heard = []
    for session, res in zip(sessions, results, strict=True):
        if isinstance(res, BaseException):
            if not isinstance(res, BrowserError | TabError):
                raise res
            log.debug("no request report from session %s: %s", session, res)
            continue
        heard.append(session)
    return heard


def stop_listening(tab: Tab, sessions: list[str]) -> None:
    """Switch the Network domain off again, without waiting for the browser's answer (the
    connection keeps it on a while: cdp/kept_network.py)."""
    if not sessions:
        return
    task = asyncio.get_running_loop().create_task(_disable(tab, sessions))
    tab.chores.add(task)
    task.add_done_callback(tab.chores.discard)


async def _disable(tab: Tab, sessions: list[str]) -> None:
    results = await asyncio.gather(
        *(tab.conn.send("Network.disable", session_id=s) for s in sessions),
        return_exceptions=True)
    for res in results:
        if isinstance(res, BaseException):
            if not isinstance(res, BrowserError | TabError | PolicyError):
                raise res
            # the tab or frame went away, or the person stopped all agents meanwhile
            log.debug("Network.disable failed: %s", res)


def fetched(events: Events) -> set[str]:
    """The ids of the data requests (fetch, XMLHttpRequest) the page began while the action
    ran."""
    return {rid for m, p in events if (rid := begun(m, p))}


def unanswered(events: Events) -> set[str]:
    """The ids of the data requests the page began while the action ran and that had no
    answer yet when it ended."""
    return fetched(events) - {rid for m, p in events if (rid := answered(m, p))}


def urls_of(events: Events, ids: set[str]) -> list[str]:
    """The addresses of the requests `ids` as their events say them (those told with none,
    by the extension's worker, are left out)."""
    return [str(p["request"]["url"]) for m, p in events
            if m == "Network.requestWillBeSent" and str(p.get("requestId")) in ids and
            isinstance(p.get("request"), dict) and isinstance(p["request"].get("url"), str)]


def headed(events: Events) -> set[str]:
    """The ids of the requests whose answer's headers came (Network.responseReceived)."""
    return {str(p.get("requestId")) for m, p in events if m == HEADERS}


def answers(tab: Tab, pending: set[str], cap: float, heads: set[str] | None = None,
            first: asyncio.Future[Any] | None = None) -> asyncio.Future[Any]:
    """A future done once the requests `pending` have all answered and no other began within
    QUIET seconds of the last answer (`first`, if given, is done once they first all have:
    what an action's report with no look waits for). Awaited too: those the page begins
    while one of them is unanswered (a script has a fetch's answer once its headers came,
    before the request ends), or within CHAINED seconds of the action's end or QUIET of an
    answer (a request made with another's answer; not a poll that starts once they are all
    in). A request whose headers came (`heads`, and those that come) counts as answered
    BODY_WAIT seconds later if it has not ended by then. Cancelled after `cap` seconds, so
    one that never ends holds nothing."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()
    last = [loop.time(), CHAINED]  # when the last answer (or the action's end) came, window

    def settle() -> None:
        if not pending and not done.done():
            done.set_result(None)

    def answer(rid: str) -> None:
        if rid not in pending or done.done():
            return
        pending.discard(rid)
        last[:] = [loop.time(), QUIET]
        if not pending:
            if first is not None and not first.done():
                first.set_result(None)
            loop.call_later(QUIET, settle)

    for rid in pending & (heads or set()):
        loop.call_later(BODY_WAIT, answer, rid)

    def step(method: str, params: dict[str, Any], session: str | None) -> bool:
        if rid := begun(method, params):
            if pending or loop.time() - last[0] <= last[1]:
                pending.add(rid)
        elif rid := answered(method, params):
            answer(rid)
        elif method == HEADERS and str(params.get("requestId")) in pending:
            loop.call_later(BODY_WAIT, answer, str(params.get("requestId")))
        return False
    heard = tab.expect(step)

    def gone(f: asyncio.Future[Any]) -> None:
        if not f.cancelled() and f.exception() is not None and not done.done():
            done.set_result(None)  # the tab closed first: nothing more will come
    heard.add_done_callback(gone)
    handle = loop.call_later(cap, done.cancel)

    def ended(f: asyncio.Future[Any]) -> None:
        handle.cancel()
        heard.cancel()
        if first is not None and not first.done():
            first.cancel()
    done.add_done_callback(ended)
    return done


async def data_came(tab: Tab, cap: float) -> bool:
    """Wait (up to `cap` seconds) for the data requests the page began while the tab records
    its events and has no answer for yet, and those begun with their answers (`answers`);
    whether they all came. Through the extension, one begun just before may be told after:
    its worker is asked which are in flight (less those whose answer came meanwhile)."""
    told = await tab.conn.data_pending(tab.session_id)
    pending = unanswered([*((DATA_BEGUN, {"requestId": r}) for r in told), *tab.state.events])
    return await _came(tab, pending, cap, headed(tab.state.events))


async def data_in_flight(tab: Tab, cap: float) -> bool:
    """Wait (up to `cap` seconds) for the data requests the page has in flight now, as the
    tab heard them whether or not it recorded (fetching.py; through the extension its
    worker is asked too), and those begun with their answers: what a look after a page's
    load waits for, as after an open. Whether they all came."""
    heard: set[str] = set()

    def note(method: str, params: dict[str, Any], session: str | None) -> bool:
        if rid := answered(method, params):
            heard.add(rid)
        return False
    watch = tab.expect(note)  # answers that come while the worker is asked
    try:
        told = await tab.conn.data_pending(tab.session_id)
    finally:
        watch.cancel()
    fetching = tab.state.fetching
    return await _came(tab, (told - heard) | set(fetching.requests), cap, fetching.headed())


async def _came(tab: Tab, pending: set[str], cap: float, heads: set[str]) -> bool:
    """Whether the `pending` requests and those they led to answered within `cap` seconds
    (`answers`); a dialog the page opened meanwhile ends the wait."""
    if not pending:
        return True
    came = answers(tab, pending, cap, heads)
    dialog = tab.expect(lambda m, p, s: m == "Page.javascriptDialogOpening")
    try:
        await asyncio.wait({came, dialog}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        dialog.cancel()
        came.cancel()
    return not came.cancelled() or tab.state.dialog is not None


def without_requests(events: Events) -> Events:
    """The events but the Network domain's (for an action that does not listen)."""
    return [(m, p) for m, p in events if not m.startswith("Network.")]


def reports(events: Events) -> tuple[list[str], list[str]]:
    """(lines for the action's report, the places data was sent to) from recorded events."""
    forms = forms_sent(events)
    posted = [to for to in posted_by_script(events) if to not in forms]
    lines = [f"the page sent a form to {to} right after this action" for to in forms]
    lines += [f"the page sent data to {to} right after this action" for to in posted]
    return lines, forms + posted


def forms_sent(events: Events) -> list[str]:
    """Where the page sent forms while the action ran (in any frame, submitted by the input
    or by the page's own script)."""
    out: list[str] = []
    for method, params in events:
        if method == "Page.frameRequestedNavigation" and \
                str(params.get("reason", "")) in FORM_REASONS:
            _add(out, where(str(params.get("url", ""))))
    return out


def posted_by_script(events: Events) -> list[str]:
    """Where the page's scripts sent anything but a read (POST, PUT, DELETE...)."""
    out: list[str] = []
    for method, params in events:
        if method != "Network.requestWillBeSent" or params.get("type") not in SCRIPTED:
            continue
        request = params.get("request", {})
        if str(request.get("method", "GET")).upper() not in READS:
            _add(out, where(str(request.get("url", ""))))
    return out


def _add(out: list[str], item: str) -> None:
    if item not in out:
        out.append(item)


def where(url: str) -> str:
    """scheme://host/path of a URL: no user info, no query (it may hold what was sent)."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{host}{parts.path}" if parts.scheme and host else url[:200]
