"""Opening and navigating a tab through the extension without its debugger (no "is
debugging" bar), screened by the browser's own site rules.

While no debugger is attached, Page.navigate and Page.reload are done with chrome.tabs and
answered when chrome.webNavigation sees the main frame commit or fail
(extension/navigate.js); back and forward too, from the history the hub keeps of the tab
(ext_history.py) while the page agrees with it. A page given input may ask before it lets
go ("Leave site?"), which only the debugger hears: leaving it attaches the debugger. The
session set-up the engine sends (Page.enable and the like) waits for the debugger, which
gets it when it attaches (the engine re-enables a fresh session). The sites the tab's
policy profile denies are declarativeNetRequest rules on the tab (extension/guard.js),
which Chrome applies to every page and frame load and every redirect hop, debugger or not.
A profile those rules cannot fully screen for (one that stops redirects to sites outside
its allow list) navigates through the debugger, whose Fetch screening does it; one that
never attaches the debugger (read-only) is refused what needs it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import BrowserError, PolicyError
from .ext_history import History, index_of
from .extension_link import ExtensionCallError

log = logging.getLogger("tabsteward.cdp")

# What the engine enables on a fresh debugger session: nothing to do without one (the
# engine sends it again when the debugger attaches).
DEFERRED = frozenset({"Page.enable", "Page.setLifecycleEventsEnabled", "Target.setAutoAttach",
                      "Emulation.setFocusEmulationEnabled", "Fetch.enable", "Fetch.disable",
                      "Page.addScriptToEvaluateOnNewDocument", "Network.disable",
                      "Page.setInterceptFileChooserDialog"})
NAVIGATIONS = {"Page.navigate": "url", "Page.reload": "reload"}
HISTORY = ("Page.getNavigationHistory", "Page.navigateToHistoryEntry")
TARGET_TRIES = 40  # a new tab's target shows in chrome.debugger.getTargets within ms


class Guard(Protocol):
    """The browser-side screen of one tab (bridge/policy/netrules.py's NetGuard)."""

    @property
    def filters(self) -> tuple[str, ...]: ...
    @property
    def exceptions(self) -> tuple[str, ...]: ...
    @property
    def complete(self) -> bool: ...
    @property
    def never_attach(self) -> bool: ...


@dataclass(frozen=True)
class Unguarded:
    """A tab whose agent has no policy: nothing to screen."""

    filters: tuple[str, ...] = ()
    exceptions: tuple[str, ...] = ()
    complete: bool = True
    never_attach: bool = False


def never_attached(method: str) -> PolicyError:
    return PolicyError(f"this agent's policy profile (read-only) never attaches the debugger, "
                       f"and this needs it ({method}); nothing was done. Reading (snapshot, "
                       "text, wait, tabs) and open, reload work without it")


class Navigator:
    """The navigation methods, done without a debugger."""

    def __init__(self, call: Callable[..., Awaitable[Any]]) -> None:
        self._call = call

    @staticmethod
    def can(guard: Guard, method: str, asks: bool = False) -> bool:
        """Whether the method can be done (or waited with) without a debugger; `asks`: the
        page was given input, so it may ask before it lets go (only the debugger hears)."""
        if method in DEFERRED:
            return True
        return (method in NAVIGATIONS or method in HISTORY) and guard.complete and not asks

    async def history(self, tab_id: int, hist: History) -> dict[str, Any] | None:
        """The tab's history as Page.getNavigationHistory answers, if the page agrees with
        what the hub saw of it; None when the debugger must say."""
        if not hist.known:
            return None
        try:
            got = await self._call("reader.run", tab_id, "", "history", [])
        except ExtensionCallError:  # the extension cannot read the page (about:blank ...)
            return hist.answer() if hist.initial else None
        value = got.get("value") if isinstance(got, dict) else None
        if not isinstance(value, list) or len(value) != 3 or not hist.agrees(*value):
            log.info("tab %s: its history is not what the hub saw (%s against %s at %s); "
                     "the debugger says", tab_id, value, hist.entries, hist.index)
            return None
        return hist.answer()

    async def step(self, tab_id: int, hist: History, entry: int,
                   timeout: float | None) -> dict[str, Any]:
        """Page.navigateToHistoryEntry of an entry `history` gave: back or forward."""
        delta = index_of(entry) - hist.index
        if delta not in (-1, 1):
            raise BrowserError("the tab's history changed since it was read; nothing was "
                               "done: go back or forward again")
        seconds = max(1.0, (timeout or 30.0) - 1.0)
        hist.going = delta
        try:
            got = await self._call("nav.go", tab_id, "back" if delta < 0 else "forward", "",
                                   seconds, timeout=seconds + 1)
        except BaseException:
            hist.going = 0
            raise
        if isinstance(got, dict) and got.get("errorText"):
            raise BrowserError(f"could not go {'back' if delta < 0 else 'forward'}: "
                               f"{got['errorText']}")
        return {}

    async def send(self, tab_id: int, main: str, method: str, params: dict[str, Any],
                   timeout: float | None) -> dict[str, Any]:
        if method in DEFERRED:
            return {"identifier": "deferred"} if method.startswith("Page.add") else {}
        seconds = max(1.0, (timeout or 30.0) - 1.0)
        got = await self._call("nav.go", tab_id, NAVIGATIONS[method],
                               str(params.get("url", "")), seconds, timeout=seconds + 1)
        if not isinstance(got, dict):
            raise BrowserError(f"the browser did not say how {method} went; it may have run")
        if got.get("pending"):
            what = str(params.get("url") or "the page")
            raise BrowserError(f"{what} did not start loading within {seconds:g} s (its "
                               "server did not answer); it may still load: wait for its URL "
                               "or open it again")
        if method == "Page.reload":
            return {}
        out: dict[str, Any] = {"frameId": main}
        if got.get("errorText"):
            out["errorText"] = str(got["errorText"])
            log.info("tab %s: %s failed (%s); the main frame's events: %s", tab_id, method,
                     out["errorText"], str(got.get("seen"))[:1000])
        if not got.get("sameDocument"):  # its document stands for the debugger's loader
            out["loaderId"] = str(got.get("documentId") or "extension")
        return out

    async def target_of(self, tab_id: int) -> str:
        """The tab's CDP target id (its main frame's id), learnt without attaching, once
        its first page (about:blank) loaded: its events are no later navigation's."""
        for _ in range(TARGET_TRIES):
            tab = await self._call("tabs.get", tab_id)
            if not isinstance(tab, dict) or tab.get("status") == "complete":
                break
            await asyncio.sleep(0.025)
        for _ in range(TARGET_TRIES):
            targets = await self._call("debugger.getTargets")
            for t in targets if isinstance(targets, list) else []:
                if isinstance(t, dict) and t.get("tabId") == tab_id and t.get("id"):
                    return str(t["id"])
            await asyncio.sleep(0.025)
        raise BrowserError(f"the browser did not list tab {tab_id} as a target; nothing "
                           "was done in it")
