"""The extension's tabs as the engine's targets: their record, and their events as CDP's."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import TabstewardError
from .connection import DATA_ANSWERED, DATA_BEGUN, CDPConnection
from .ext_downloads import download_event
from .ext_history import History
from .ext_nav import Guard, Unguarded
from .ext_reader import ReaderTab, nav_events
from .ext_worlds import ExtensionWorlds

log = logging.getLogger("tabsteward.cdp")

PREFIX = "tab-"
DATA_EVENTS = {"begun": DATA_BEGUN, "answered": DATA_ANSWERED}
REQUEST_ID = re.compile(r"[0-9]{1,20}")

@dataclass
class _Tab:
    tab_id: int
    target_id: str = ""
    attached: bool = False
    acted: bool = False  # it was given input, so its page may ask before it closes
    problem: str | None = None  # why the person took the tab back; told on the next command
    children: set[str] = field(default_factory=set)
    attaching: asyncio.Lock = field(default_factory=asyncio.Lock)
    frame_ids: dict[int, str] = field(default_factory=dict)  # extension's -> debugger's
    guard: Guard = field(default_factory=Unguarded)  # the browser's own screen of it
    history: History = field(default_factory=History)  # its main frame's, as the hub saw it

    def reader(self) -> ReaderTab:
        return ReaderTab(self.tab_id, self.target_id, self.frame_ids)


def session_of(tab_id: int) -> str:
    return f"{PREFIX}{tab_id}"


class ExtensionEvents(CDPConnection):
    """The events half of ExtensionConnection (extension.py has its commands)."""

    stopped: bool
    _tabs: dict[int, _Tab]
    _children: dict[str, int]
    _tasks: set[asyncio.Task[None]]
    _worlds: ExtensionWorlds

    if TYPE_CHECKING:  # provided by ExtensionConnection (_attach by ext_attach.py)
        def _child_gone(self, session_id: str) -> None: ...
        def _forget(self, tab_id: int) -> None: ...
        async def _adopt(self, tab_id: int) -> _Tab: ...
        async def _attach(self, tab_id: int) -> _Tab: ...

    def _emit(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        for handler in list(self._handlers):
            try:
                handler(method, params, session_id)
            except Exception:  # a broken listener must not stop the others
                log.exception("event handler failed on %s", method)

    def _on_link_event(self, name: str, args: list[Any]) -> None:
        first = args[0] if args else None
        if name == "debugger.event" and len(args) == 3 and isinstance(first, dict):
            self._on_cdp_event(first, args[1], args[2])
        elif name == "debugger.detached" and isinstance(first, dict):
            self._on_detached(first.get("tabId"), str(args[1]) if len(args) > 1 else "")
        elif name == "tabs.removed" and isinstance(first, int):
            tab = self._tabs.get(first)
            if tab is not None:
                self._forget(first)
                self._emit("Target.targetDestroyed", {"targetId": tab.target_id}, None)
        elif name == "tabs.updated" and isinstance(first, int) and len(args) > 1:
            tab = self._tabs.get(first)
            change = args[1]
            if tab is not None and isinstance(change, dict) and (
                    "title" in change or "url" in change):
                info = {k: change[k] for k in ("title", "url") if isinstance(change.get(k), str)}
                self._emit("Target.targetInfoChanged",
                           {"targetInfo": {"targetId": tab.target_id, **info}}, None)
        elif name == "tabs.opened" and isinstance(first, dict):
            # webNavigation's source tab (tabs.created names the wrong opener)
            opener = first.get("sourceTabId")
            new = first.get("tabId")
            if isinstance(opener, int) and opener in self._tabs and isinstance(new, int):
                task = self._spawn(self._opened(self._tabs[opener], new))
                # the action that opened it waits for it, as for a CDP targetCreated
                self._emit("Tabsteward.targetOpening",
                           {"openerId": self._tabs[opener].target_id, "task": task}, None)
        elif name in ("downloads.created", "downloads.changed") and isinstance(first, dict):
            self._emit(*download_event(name, first), None)
        elif name == "nav.event" and isinstance(first, int) and len(args) == 3:
            tab = self._tabs.get(first)
            if tab is not None and tab.history.heard(str(args[1]), args[2]):
                tab.acted = False  # a new document: given no input yet
            self._on_nav(first, str(args[1]), args[2])
        elif name == "nav.blocked" and first in self._tabs and isinstance(args[-1], dict):
            self._emit("Tabsteward.requestBlocked", args[1], session_of(int(first)))
        elif name == "net.data" and first in self._tabs and len(args) == 3 and \
                args[1] in DATA_EVENTS and isinstance(args[2], str) and \
                REQUEST_ID.fullmatch(args[2]):
            # an agent tab's fetch or XMLHttpRequest (chrome.webRequest): what a look waits
            # for, debugger or not; the ids are the worker's, apart from the debugger's
            self._emit(DATA_EVENTS[args[1]], {"requestId": f"w{args[2]}"},
                       session_of(int(first)))
        elif name == "agents.stopped" and args:
            self.stopped = args[0] is True

    def _on_cdp_event(self, source: dict[str, Any], method: Any, params: Any) -> None:
        tab = self._tabs.get(source.get("tabId"))  # type: ignore[arg-type]
        if tab is None or not isinstance(method, str) or not isinstance(params, dict):
            return
        child = source.get("sessionId")
        session = child if isinstance(child, str) else session_of(tab.tab_id)
        if method == "Target.attachedToTarget" and isinstance(params.get("sessionId"), str):
            tab.children.add(params["sessionId"])
            self._children[params["sessionId"]] = tab.tab_id
        elif method == "Target.detachedFromTarget" and isinstance(params.get("sessionId"), str):
            tab.children.discard(params["sessionId"])
            self._children.pop(params["sessionId"], None)
            self._child_gone(params["sessionId"])
        self._worlds.on_event(session, method, params)
        self._emit(method, params, session)

    def _on_nav(self, tab_id: int, kind: str, details: Any) -> None:
        """A tab without a debugger loads a page: the events the debugger would give."""
        tab = self._tabs.get(tab_id)
        if tab is None or tab.attached or not tab.target_id or not isinstance(details, dict):
            return
        for method, params in nav_events(tab.target_id, kind, str(details.get("url", "")),
                                         str(details.get("documentId") or "")):
            self._emit(method, params, session_of(tab_id))

    def _on_detached(self, tab_id: Any, reason: str) -> None:
        tab = self._tabs.get(tab_id) if isinstance(tab_id, int) else None
        if tab is None:
            return
        tab.attached = False
        self._worlds.forget(session_of(tab.tab_id))
        for child in list(tab.children):
            self._children.pop(child, None)
            self._child_gone(child)
            self._emit("Target.detachedFromTarget", {"sessionId": child},
                       session_of(tab.tab_id))
        tab.children.clear()
        if reason == "target_closed":
            self._forget(tab.tab_id)
            self._emit("Target.targetDestroyed", {"targetId": tab.target_id}, None)
        elif reason != "idle":
            tab.problem = reason
            log.info("tab %s detached: %s", tab.tab_id, reason)

    async def _opened(self, opener: _Tab, tab_id: int) -> None:
        """A tab an agent's page opened: attach, then report it as CDP would."""
        try:  # a never-attaching agent's new tab is adopted without the debugger
            tab = await (self._adopt(tab_id) if opener.guard.never_attach else
                         self._attach(tab_id))
            tab.guard = opener.guard
            tab.history.known = False  # its first loads may have come before it was ours
        except TabstewardError as exc:
            log.info("tab %s opened by tab %s not attached: %s", tab_id, opener.tab_id,
                     exc.message)
            return
        self._emit("Target.targetCreated", {"targetInfo": {
            "targetId": tab.target_id, "type": "page", "openerId": opener.target_id,
            "url": "", "title": ""}}, None)

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Future[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
