"""The extension's tabs at the browser's level: made, closed, grouped and screened with
chrome.tabs (no debugger), and the agents the popup shows. The browser-level CDP methods the
engine uses (Browser.getVersion, Target.createTarget/attachToTarget/closeTarget, ...) are
answered here."""

from __future__ import annotations

import contextlib
import logging
import zlib
from typing import TYPE_CHECKING, Any

from ..errors import BrowserError, CDPError, TabstewardError
from .ext_events import ExtensionEvents, _Tab, session_of
from .ext_nav import Guard, Navigator
from .extension_link import ExtensionCallError, ExtensionLink

log = logging.getLogger("tabsteward.cdp")

GROUP_COLORS = ("blue", "cyan", "green", "orange", "pink", "purple", "red", "yellow", "grey")


class ExtensionTabs(ExtensionEvents):
    """The browser-level half of ExtensionConnection (extension.py has the tabs' commands)."""

    link: ExtensionLink
    _by_target: dict[str, int]
    _groups: dict[str, int]  # agent -> tab group id
    _shown: list[dict[str, Any]] | None  # agents the popup was last told of
    _nav: Navigator

    if TYPE_CHECKING:  # provided by ExtensionConnection
        async def _attach(self, tab_id: int) -> _Tab: ...

    async def guard(self, target_id: str, guard: Guard) -> None:
        """Screen the tab's page and frame loads in the browser itself (no debugger needed)."""
        tab = self._tabs.get(self._by_target.get(target_id, -1))
        if tab is not None:
            await self._call("setting the tab's site rules", "guard.set", tab.tab_id,
                             list(guard.filters), list(guard.exceptions))
            tab.guard = guard

    def show_agents(self, agents: list[dict[str, Any]]) -> None:
        """Tell the popup the agents, each with its tabs' ids (so it can say which agent
        holds the debugger on which tab)."""
        shown = [{"name": a["name"], "tabs": a["tabs"],
                  "tabIds": [self._by_target[t] for t in a.get("targets", [])
                             if t in self._by_target]} for a in agents]
        if shown != self._shown:
            self._shown = shown
            self.link.notify("agents", agents=shown)

    async def label_tab(self, target_id: str, agent: str) -> None:
        """Put the tab into the agent's tab group (made on first use, titled with its name)."""
        tab_id = self._by_target.get(target_id)
        if tab_id is None:
            return
        group = self._groups.get(agent)
        if group is not None:
            try:
                await self.link.call("tabs.group", {"groupId": group, "tabIds": [tab_id]})
                return
            except ExtensionCallError:
                pass  # the person ungrouped or closed it: make a new one
        try:
            group = int(await self.link.call("tabs.group", {"tabIds": [tab_id]}))
            color = GROUP_COLORS[zlib.crc32(agent.encode()) % len(GROUP_COLORS)]
            await self.link.call("tabGroups.update", group,
                                 {"title": agent, "color": color, "collapsed": False})
        except (ExtensionCallError, TypeError, ValueError) as exc:
            log.info("tab %s not grouped for agent %s: %s", tab_id, agent, exc)
            return
        self._groups[agent] = group

    async def _browser_level(self, method: str, params: dict[str, Any],
                             timeout: float | None) -> dict[str, Any]:
        hello = self.link.hello
        if method == "Browser.getVersion":
            agent = hello.user_agent if hello else ""
            product = next((w for w in agent.split() if w.startswith(
                ("Chrome/", "HeadlessChrome/", "Edg/"))), "Chrome")
            return {"product": product, "userAgent": agent, "protocolVersion": "1.3"}
        if method in ("Target.setDiscoverTargets", "Browser.setDownloadBehavior"):
            return {}  # tab events always come; downloads come as chrome.downloads events
        if method == "Target.getTargets":  # our tabs as they are now (a title set before
            infos = []                     # one was ours came in no event)
            for number, known in list(self._tabs.items()):
                with contextlib.suppress(ExtensionCallError):
                    got = await self.link.call("tabs.get", number)
                    if isinstance(got, dict):
                        infos.append({"targetId": known.target_id, "type": "page",
                                      "title": str(got.get("title") or ""),
                                      "url": str(got.get("url") or "")})
            return {"targetInfos": infos}
        if method == "Target.createTarget":
            created = await self._call("Target.createTarget", "tabs.create",
                                       {"url": str(params.get("url") or "about:blank")})
            tab_id = created.get("id") if isinstance(created, dict) else None
            if not isinstance(tab_id, int):
                raise BrowserError("the browser opened no tab; nothing was done")
            tab = await self._adopt(tab_id)  # the debugger attaches when first needed
            return {"targetId": tab.target_id}
        tab_id = self._by_target.get(str(params.get("targetId")))
        if tab_id is None:
            raise CDPError(method, "No target with given id found")
        tab = self._tabs[tab_id]
        if method == "Target.attachToTarget":  # the debugger attaches when first needed
            return {"sessionId": session_of(tab_id)}
        if method == "Target.closeTarget":
            # chrome.tabs.remove asks the page's "leave this page?" question (which brings
            # the tab to the front) and waits on it; the debugger's close does not ask. Only
            # a page given input (through the debugger) can ask.
            with contextlib.suppress(TabstewardError, ExtensionCallError):
                if tab.acted and tab.problem is None:
                    if not tab.attached:
                        await self._attach(tab_id)
                    await self.link.call("debugger.sendCommand", {"tabId": tab_id}, method,
                                         {"targetId": tab.target_id})
                    return {"success": True}
            await self._call(method, "tabs.remove", tab_id)
            return {"success": True}
        if method == "Target.detachFromTarget":
            await self._call(method, "debugger.detach", {"tabId": tab_id})
            tab.attached = False
            return {}
        raise CDPError(method, "is not available through the browser extension")

    async def _call(self, method: str, name: str, *args: Any) -> Any:
        try:
            return await self.link.call(name, *args)
        except ExtensionCallError as exc:
            raise exc.as_error(f"{method} was not done") from None

    async def _adopt(self, tab_id: int) -> _Tab:
        """Take a tab as the agent's without attaching: learn its target id."""
        target_id = await self._nav.target_of(tab_id)
        tab = self._tabs.setdefault(tab_id, _Tab(tab_id))
        tab.target_id = target_id
        self._by_target[target_id] = tab_id
        return tab
