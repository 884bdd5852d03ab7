"""Opening and navigating a tab through the extension without its debugger (no "is
debugging" bar), screened by the browser's own site rules.

For a read-only agent, while no debugger is attached, Page.navigate and Page.reload are
done with chrome.tabs and answered when chrome.webNavigation sees the main frame commit or
fail (extension/navigate.js); the session set-up the engine sends (Page.enable and the like)
waits for the debugger, which gets it when it attaches (the engine re-enables a fresh
session). The sites the tab's policy profile denies are declarativeNetRequest rules on the
tab (extension/guard.js), which Chrome applies to every page and frame load and every
redirect hop, debugger or not. A profile those rules cannot fully screen for (one that
stops redirects to sites outside its allow list) navigates through the debugger, whose
Fetch screening does it; one that never attaches the debugger (read-only) is refused what
needs it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import BrowserError, PolicyError

# What the engine enables on a fresh debugger session: nothing to do without one (the
# engine sends it again when the debugger attaches).
DEFERRED = frozenset({"Page.enable", "Page.setLifecycleEventsEnabled", "Target.setAutoAttach",
                      "Emulation.setFocusEmulationEnabled", "Fetch.enable", "Fetch.disable",
                      "Page.addScriptToEvaluateOnNewDocument", "Network.disable"})
NAVIGATIONS = {"Page.navigate": "url", "Page.reload": "reload"}
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
    def can(guard: Guard, method: str) -> bool:
        """Whether the method can be done (or waited with) without a debugger."""
        if method in DEFERRED:
            return True
        # only where no action will follow: frames first seen without the debugger are not
        # yet found again by it, so acting in a cross-origin frame of a page opened this way
        # would fail; other agents' navigations attach it (it lets go when idle)
        return method in NAVIGATIONS and guard.complete and guard.never_attach

    async def send(self, tab_id: int, main: str, method: str, params: dict[str, Any],
                   timeout: float | None) -> dict[str, Any]:
        if method in DEFERRED:
            return {"identifier": "deferred"} if method.startswith("Page.add") else {}
        seconds = max(1.0, (timeout or 30.0) - 1.0)
        got = await self._call("nav.go", tab_id, NAVIGATIONS[method],
                               str(params.get("url", "")), seconds, timeout=seconds + 1)
        if not isinstance(got, dict):
            raise BrowserError(f"the browser did not say how {method} went; it may have run")
        if method == "Page.reload":
            return {}
        out: dict[str, Any] = {"frameId": main}
        if got.get("errorText"):
            out["errorText"] = str(got["errorText"])
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
