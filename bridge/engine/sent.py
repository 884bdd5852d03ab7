"""What the page sent while an action ran: forms it submitted, and data it posted with a
script (fetch, XMLHttpRequest, sendBeacon), as scheme://host/path for the action's report."""

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

from ..errors import BrowserError, PolicyError, TabError
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

FORM_REASONS = ("formSubmissionGet", "formSubmissionPost")
SCRIPTED = ("XHR", "Fetch", "Ping", "EventSource", "Other")  # resource types a script sends
AWAITED = ("XHR", "Fetch")  # the data a page's script loads to draw what an action asked for
ANSWERED = ("Network.loadingFinished", "Network.loadingFailed")
CHAINED = 0.25  # seconds after an awaited answer in which a new request is awaited too
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


def unanswered(events: Events) -> set[str]:
    """The ids of the data requests (fetch, XMLHttpRequest) the page began while the action
    ran and that had no answer yet when it ended."""
    begun = {str(p.get("requestId")) for m, p in events
             if m == "Network.requestWillBeSent" and p.get("type") in AWAITED}
    return begun - {str(p.get("requestId")) for m, p in events if m in ANSWERED}


def answers(tab: Tab, pending: set[str], cap: float) -> asyncio.Future[Any]:
    """A future done once the requests `pending` have all answered, and those the page
    begins within CHAINED seconds of the action's end or of one of their answers (a request
    made with the first one's answer; not a poll or a long poll that happens to start while
    they are awaited); cancelled after `cap` seconds, so one that never ends holds nothing."""
    loop = asyncio.get_running_loop()
    last = [loop.time()]

    def step(method: str, params: dict[str, Any], session: str | None) -> bool:
        if method == "Network.requestWillBeSent" and params.get("type") in AWAITED:
            if loop.time() - last[0] <= CHAINED:
                pending.add(str(params.get("requestId")))
        elif method in ANSWERED and str(params.get("requestId")) in pending:
            pending.discard(str(params.get("requestId")))
            last[0] = loop.time()
            return not pending
        return False
    done = tab.expect(step)
    handle = loop.call_later(cap, done.cancel)

    def ended(f: asyncio.Future[Any]) -> None:
        handle.cancel()
        if not f.cancelled():
            f.exception()  # the tab closed first: nobody need be told
    done.add_done_callback(ended)
    return done


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
