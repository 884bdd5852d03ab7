"""Attaching the extension's debugger to a tab: for the input an action sends (begun ahead,
beside the action's look-up, which needs none), and again after an idle detach, with the
engine re-enabling the new session before anything else is sent on it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar

from ..errors import BrowserError, TabstewardError
from .ext_detach import refusal
from .ext_events import PREFIX, _Tab, session_of
from .ext_nav import never_attached
from .ext_tabs import ExtensionTabs
from .ext_worlds import ExtensionWorlds
from .extension_link import ExtensionCallError
from .kept_network import KeptNetwork

log = logging.getLogger("tabsteward.cdp")
# the tab whose debugger the current task (and those it starts) is attaching and enabling
_ATTACHING: ContextVar[int | None] = ContextVar("attaching", default=None)


class ExtensionAttach(ExtensionTabs):
    """The debugger's attach half of ExtensionConnection (extension.py sends the commands)."""

    _worlds: ExtensionWorlds
    _network: KeptNetwork
    reattached: Callable[[str], Awaitable[None]] | None  # the engine's (extension.py)

    def _settling(self, tab: _Tab) -> bool:
        """Whether another task is attaching the tab's debugger (begun ahead of an action's
        input): it counts as attached before its session is enabled and its frames'
        sessions are known, so a command meanwhile goes as if it were not, through the
        reader where it can, else once that attach is done."""
        return tab.attaching.locked() and _ATTACHING.get() != tab.tab_id

    async def ensure_attached(self, session_id: str, method: str) -> None:
        """Attach the debugger to the session's tab now if it is not (`method`, input, comes
        next and needs it), with the sessions of its cross-site frames enabled; an attach
        under way in another task (`_settling`) is waited for to its end: input sent before
        could reach a frame no shield covers yet."""
        tab = self._tab_of_session(session_id)
        if tab is not None and (not tab.attached or self._settling(tab)):
            await self._reattach(tab, method)

    def debugging(self, session_id: str) -> bool:
        """Whether the session's tab has its debugger now (an action's, not yet let go):
        what only reads may then have the tab drawn, as the debugger is up already."""
        tab = self._tab_of_session(session_id)
        return tab is not None and tab.attached and not self._settling(tab) and \
            tab.problem is None

    def attach_ahead(self, session_id: str, method: str) -> None:
        """Start attaching the debugger to the session's tab for the input `method` an
        action sends once its look-up is done (through chrome.scripting, no debugger): the
        attach, 20 to 40 ms with its re-enable, then overlaps it. Nothing when the tab is
        attached or being attached, may never be (read-only), or the person took it back:
        `ensure_attached` before the input then says so, as it would have. A failure here
        is met again there."""
        tab = self._tab_of_session(session_id)
        if tab is None or not tab.target_id or tab.attached or tab.attaching.locked() or \
                tab.guard.never_attach or tab.problem is not None:
            return
        self._spawn(self._attach_ahead(tab, method))

    async def _attach_ahead(self, tab: _Tab, method: str) -> None:
        if tab.problem is not None:  # taken back meanwhile: the input's attach tells
            return
        try:
            await self._reattach(tab, method)
        except TabstewardError as exc:
            log.debug("tab %s: the debugger was not attached ahead of %s: %s", tab.tab_id,
                      method, exc.message)

    async def _attach(self, tab_id: int) -> _Tab:
        """Attach the debugger to a tab and learn its main frame (its target id)."""
        known = self._tabs.get(tab_id)
        tab = known or _Tab(tab_id)
        self._tabs[tab_id] = tab
        try:
            await self.link.call("debugger.attach", {"tabId": tab_id})
        except ExtensionCallError as exc:
            if "already attached" not in exc.message:
                if known is None:
                    self._forget(tab_id)
                raise exc.as_error("the tab could not be attached") from None
            # ours from before (say, an earlier hub): use it; else DevTools or another
            # extension holds it and the next command says so
        tab.attached = True
        tab.problem = None
        self._worlds.forget(session_of(tab_id))
        self._network.forget(session_of(tab_id))
        if known is not None and known.target_id:
            # attached again: its main frame is the one it had (a tab keeps its main frame's
            # id), checked beside the session's set-up rather than before it
            self._spawn(self._main_frame(tab))
            return tab
        await self._main_frame(tab, known is None)
        return tab

    async def _main_frame(self, tab: _Tab, new: bool = False) -> None:
        """Learn the tab's main frame (its target id) from its debugger."""
        try:
            tree = await self.link.call("debugger.sendCommand", {"tabId": tab.tab_id},
                                        "Page.getFrameTree", {})
            target_id = str(tree["frameTree"]["frame"]["id"])
        except (ExtensionCallError, KeyError, TypeError) as exc:
            if not new and tab.target_id:  # (a check of one known: the next command tells)
                log.debug("tab %s: its frame tree was not read again: %s", tab.tab_id, exc)
                return
            tab.attached = False
            if new:
                self._forget(tab.tab_id)
            raise BrowserError(f"tab {tab.tab_id} could not be read after attaching: {exc}; "
                               "nothing was done") from None
        if tab.target_id and target_id != tab.target_id:
            log.warning("tab %s: its main frame is now %s (was %s)", tab.tab_id, target_id,
                        tab.target_id)
            self._by_target.pop(tab.target_id, None)
        tab.target_id = target_id
        self._by_target[target_id] = tab.tab_id

    async def _reattach(self, tab: _Tab, method: str) -> None:
        """Attach again to a tab the debugger left; the engine re-enables its session."""
        if tab.guard.never_attach:
            raise never_attached(method)
        if tab.problem is not None:
            problem, tab.problem = tab.problem, None
            raise BrowserError(refusal(problem, method))
        async with tab.attaching:
            if tab.attached:
                return
            log.info("attaching the debugger to tab %s for %s", tab.tab_id, method)
            mark = _ATTACHING.set(tab.tab_id)  # its own commands go as to an attached tab
            try:
                await self._attach(tab.tab_id)
                if self.reattached is not None:
                    await self.reattached(session_of(tab.tab_id))
            finally:
                _ATTACHING.reset(mark)

    def _tab_of_session(self, session_id: str) -> _Tab | None:
        if session_id.startswith(PREFIX):
            try:
                return self._tabs.get(int(session_id[len(PREFIX):]))
            except ValueError:
                return None
        tab_id = self._children.get(session_id)
        return None if tab_id is None else self._tabs.get(tab_id)
