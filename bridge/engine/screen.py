"""Document requests held at the browser until policy lets them leave (CDP Fetch at the
request stage): a redirect or a page's own navigation to a site the profile refuses is
failed before it is sent, and the tab remembers it for the action's report."""

# Only document requests (pages and frames) are paused, and only while the agent's profile
# can refuse some site: one event and one reply per page load, no cost for the rest. Redirect
# hops are paused at the request stage too (`redirectedRequestId` says which).

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import BrowserError, TabError
from ..policy.netrules import NetGuard
from .model import Stop

if TYPE_CHECKING:
    from .tab import Tab

log = logging.getLogger("tabsteward.engine")

PATTERNS = [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}]


class Screen(Protocol):
    """What the hub's gate answers about requests the agent did not ask for itself."""

    def screens(self, tab: Tab) -> bool:
        """Whether the tab's profile can refuse any site (else nothing is paused)."""
        ...

    def screen(self, tab: Tab, url: str, *, redirect: bool, main: bool) -> str:
        """Why the request must not leave, or "" when it may."""
        ...


def screen_of(tab: Tab) -> Screen | None:
    gate = getattr(tab.browser, "gate", None)
    return gate if callable(getattr(gate, "screen", None)) else None


def wanted(tab: Tab) -> bool:
    screen = screen_of(tab)
    return screen is not None and screen.screens(tab)


def needed(tab: Tab) -> bool:
    """Whether the tab's document requests must wait for policy: its profile can refuse a
    site, and the browser's own rules (`guard`) do not already stop all it would (through
    the extension they usually do, and a pause is a trip to the hub on every load)."""
    guarded = tab.guarded
    return wanted(tab) and not (guarded is not None and guarded.complete)


async def enable(tab: Tab, session: str, on: bool) -> None:
    if on:
        await tab.conn.send("Fetch.enable", {"patterns": PATTERNS}, session_id=session)
    else:
        await tab.conn.send("Fetch.disable", session_id=session)


async def guard(tab: Tab) -> None:
    """Give the browser the profile's denied sites as its own rules for the tab (through
    the extension, which screens with no debugger attached); a no-op when nothing changed
    or the transport has no such rules."""
    set_guard = getattr(tab.conn, "guard", None)
    if set_guard is None:
        return
    net_guard = getattr(getattr(tab.browser, "gate", None), "net_guard", None)
    # a gate that screens but gives no rules: its screen needs the debugger's
    wanted_guard = net_guard(tab) if net_guard is not None else NetGuard(
        complete=not wanted(tab))
    if wanted_guard != tab.guarded:
        await set_guard(tab.target_id, wanted_guard)
        tab.guarded = wanted_guard


def blocked(tab: Tab, params: dict[str, Any]) -> None:
    """The browser refused a page or frame load of the tab (its own rules, from `guard`):
    remembered for the action's report, unless the debugger's screen already told it."""
    url, main = str(params.get("url", "")), bool(params.get("main"))
    if any(url in stop.text for stop in tab.state.stopped[-4:]):
        return
    screen = screen_of(tab)
    why = screen.screen(tab, url, redirect=False, main=main) if screen else ""
    what = "the page's load" if main else "a frame's load"
    tab.state.stopped.append(Stop(
        f"stopped {what} of {url} before it was sent: " + (why or "it, or a redirect it led "
                                                           "to, goes to a site the policy "
                                                           "profile denies"), main))


async def follow_policy(tab: Tab) -> None:
    """Pause document requests when the profile (maybe just edited) can refuse a site, and
    stop pausing them when it no longer can; a no-op when nothing changed."""
    await guard(tab)
    on = needed(tab)
    if on == tab.screening:
        return
    tab.screening = on
    sessions = [tab.session_id, *tab.child_sessions]
    await asyncio.gather(*(enable(tab, s, on) for s in sessions))


def paused(tab: Tab, params: dict[str, Any], session: str | None) -> None:
    """A document request waits: let it go or fail it, without holding the event loop."""
    task = asyncio.get_running_loop().create_task(_decide(tab, params, session))
    tab.chores.add(task)
    task.add_done_callback(tab.chores.discard)


async def _decide(tab: Tab, params: dict[str, Any], session: str | None) -> None:
    request_id = str(params.get("requestId", ""))
    url = str(params.get("request", {}).get("url", ""))
    redirect = bool(params.get("redirectedRequestId"))
    main = params.get("frameId") == tab.target_id
    screen = screen_of(tab)
    try:
        why = screen.screen(tab, url, redirect=redirect, main=main) if screen else ""
    except Exception as exc:  # a request policy cannot judge does not leave
        log.exception("policy could not judge a request of tab %s; it was stopped", tab.id)
        why = f"policy could not judge it ({getattr(exc, 'message', type(exc).__name__)})"
    try:
        if why:
            what = "a redirect" if redirect else ("the page's request" if main else
                                                  "a frame's request")
            tab.state.stopped.append(Stop(f"stopped {what} to {url} before it was sent: {why}",
                                          main))
            await tab.conn.send("Fetch.failRequest", {"requestId": request_id,
                                                      "errorReason": "BlockedByClient"},
                                session_id=session)
        else:
            await tab.conn.send("Fetch.continueRequest", {"requestId": request_id},
                                session_id=session)
    except (BrowserError, TabError) as exc:  # the tab or its frame went away meanwhile
        log.info("a paused request of tab %s was not answered: %s", tab.id, exc.message)
