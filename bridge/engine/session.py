"""The browser as the hub holds it: agents' sessions, their tabs, and the CDP link."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from typing import Any

from ..cdp.connection import CDPConnection
from ..cdp.extension import ExtensionConnection
from ..errors import BrowserError, PolicyError, TabError, UsageError
from . import outputs, sent
from .gate import Gate
from .outputs import Output
from .tab import Tab

log = logging.getLogger("tabsteward.engine")
CHILD_INIT_WAIT = 5.0  # seconds a re-attached tab's frame sessions may take to be enabled


class AgentSession:
    """One agent's view: its own tabs (never another agent's) and its current tab."""

    def __init__(self, browser: Browser, agent: str, principal: str | None = None) -> None:
        self.browser = browser
        self.agent = agent
        self.principal = principal  # the paired agent it belongs to (policy goes by it)
        self.tabs: list[Tab] = []
        self.current: Tab | None = None

    async def current_tab(self, create: bool = True) -> Tab:
        """The agent's current tab, opening a background tab when it has none."""
        tab = self.current
        if tab is not None and not tab.state.closed:
            return tab
        self.tabs = [t for t in self.tabs if not t.state.closed]
        if self.tabs:
            self.current = self.tabs[-1]
            return self.current
        if not create:
            raise TabError(f"agent {self.agent!r} has no open tab; open one with `open URL`")
        return await self.new_tab()

    async def new_tab(self, url: str = "about:blank") -> Tab:
        tab = await self.browser.create_tab(self.agent, url, principal=self.principal)
        self.tabs.append(tab)
        self.current = tab
        return tab

    def tab(self, tab_id: str | None) -> Tab:
        for t in self.tabs:
            if t.id == tab_id and not t.state.closed:
                return t
        raise TabError(f"agent {self.agent!r} has no open tab {tab_id!r}; "
                       "`tabs` lists the open ones")

    async def close_tab(self, tab: Tab) -> None:
        await self.browser.close_tab(tab)
        self.tabs = [t for t in self.tabs if t is not tab]
        if self.current is tab:
            self.current = self.tabs[-1] if self.tabs else None

    def went(self, tab: Tab) -> Tab | None:
        """The agent's current tab once `tab` closed itself (a popup whose own button closed
        it: a sign-in's Allow): the tab that opened it, where still open, else its last."""
        self.tabs = [t for t in self.tabs if not t.state.closed]
        if self.current is tab or self.current is None or self.current.state.closed:
            opener = next((t for t in self.tabs if t.id == tab.opener), None)
            self.current = opener or (self.tabs[-1] if self.tabs else None)
        return self.current

    async def close(self) -> None:
        """Close every tab this agent owns."""
        for tab in list(self.tabs):
            try:
                await self.close_tab(tab)
            except BrowserError as exc:
                log.info("tab %s not closed: %s", tab.id, exc.message)


class Browser:
    """A connected browser: `launch()` a Chromium or `attach(url)` to a running one."""

    def __init__(self, conn: CDPConnection, kind: str) -> None:
        self.conn = conn
        self.kind = kind
        self.gate: Gate | None = None  # the hub's policy; None lets every action run
        self.version = ""
        self.headless = False
        self.sessions: dict[str, AgentSession] = {}
        self.tabs: dict[str, Tab] = {}  # target id -> tab
        # (own windows) first tab of a window -> the tab at its front (see `to_front`)
        self._front: dict[str, str] = {}
        self._by_session: dict[str, Tab] = {}
        self._tab_numbers = 0
        self._opening: dict[str, int] = {}  # owner -> tabs being opened for it now
        self.downloads: dict[str, dict[str, Any]] = {}
        self.download_dir = tempfile.mkdtemp(prefix="tabsteward-downloads-")
        self._download_waiters: list[asyncio.Future[dict[str, Any]]] = []
        conn.on_event(self._on_event)

    @property
    def own_windows(self) -> bool:
        """Whether each agent tab gets a window of its own: in a headless browser (ours or
        one we attached to) a window is invisible, and a tab alone in its window is never a
        hidden, throttled background tab. In a headed browser it stays a background tab of
        the person's window: a new window would take their focus. Through the extension agent
        tabs are always background tabs, in the agent's tab group."""
        return self.kind == "launched" or (self.headless and self.kind == "attached")

    @property
    def closed(self) -> asyncio.Future[str]:
        return self.conn.closed

    @classmethod
    async def launch(cls, *, headless: bool = True, local_only: bool = False,
                     extra_args: list[str] | None = None) -> Browser:
        from ..cdp.launch import PipeConnection
        conn = await PipeConnection.launch(headless=headless, local_only=local_only,
                                           extra_args=extra_args)
        return await cls._ready(conn, "launched")

    @classmethod
    async def attach(cls, cdp_url: str) -> Browser:
        from ..cdp.websocket import WebSocketConnection
        conn = await WebSocketConnection.attach(cdp_url)
        return await cls._ready(conn, "attached")

    @classmethod
    async def over_extension(cls, conn: ExtensionConnection) -> Browser:
        browser = await cls._ready(conn, "extension")
        conn.reattached = browser._reattached
        return browser

    @classmethod
    async def _ready(cls, conn: CDPConnection, kind: str) -> Browser:
        browser = cls(conn, kind)
        version = await conn.send("Browser.getVersion")
        browser.version = str(version.get("product", ""))
        browser.headless = "HeadlessChrome/" in str(version.get("userAgent", ""))
        await conn.send("Target.setDiscoverTargets", {"discover": True})
        if kind == "launched":  # our own browser: every download lands where we can find it
            await browser.catch_downloads(True)
        return browser

    async def catch_downloads(self, on: bool) -> None:
        """Route downloads into our folder (on) or back to the browser's own (off).

        An attached browser may be the person's: only a `download` action catches them.
        """
        if on:
            await self.conn.send("Browser.setDownloadBehavior", {
                "behavior": "allowAndName", "downloadPath": self.download_dir,
                "eventsEnabled": True})
        elif self.kind != "launched":
            await self.conn.send("Browser.setDownloadBehavior", {"behavior": "default"})

    def session(self, agent: str, principal: str | None = None) -> AgentSession:
        found = self.sessions.get(agent)
        if found is None:
            found = self.sessions[agent] = AgentSession(self, agent, principal)
        return found

    def show_agents(self) -> None:
        """Let the person see which agents use this browser (the extension's popup)."""
        self.conn.show_agents([
            {"name": s.agent, "tabs": sum(1 for t in s.tabs if not t.state.closed),
             "targets": [t.target_id for t in s.tabs if not t.state.closed]}
            for s in self.sessions.values()])

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "version": self.version,
                "agents": sorted(self.sessions), "tabs": len(self.tabs)}

    # -- tabs --
    async def create_tab(self, agent: str, url: str = "about:blank",
                         target_id: str | None = None, principal: str | None = None) -> Tab:
        """Open a background tab (never activated) and attach to it; or, given `target_id`,
        attach to a tab an agent's page opened. PolicyError when the agent has its cap."""
        if target_id is None:
            owner = principal or agent
            self.check_tab_cap(owner)
            self._opening[owner] = self._opening.get(owner, 0) + 1
            try:
                return await self._create_tab(agent, url, principal)
            finally:
                self._opening[owner] -= 1
        return await self._create_tab(agent, url, principal, target_id)

    def tab_cap(self, owner: str) -> int | None:
        """The most tabs `owner` (a paired agent, else a session) may have open here: its
        policy profile's max_tabs; None without a policy."""
        cap = getattr(self.gate, "max_tabs", None)
        return int(cap(owner)) if callable(cap) else None

    def open_tabs(self, owner: str) -> int:
        """Tabs open for `owner` in this browser, those its pages opened included."""
        return sum(1 for t in self.tabs.values()
                   if not t.state.closed and (t.principal or t.agent) == owner)

    def check_tab_cap(self, owner: str) -> None:
        cap = self.tab_cap(owner)
        count = self.open_tabs(owner) + self._opening.get(owner, 0)
        if cap is not None and count >= cap:
            raise PolicyError(f"agent {owner!r} has {count} tabs open in this browser, the most "
                              f"its policy profile allows (max_tabs = {cap}); no tab was "
                              "opened. Close one with `tab-close` first", max_tabs=cap)

    async def _create_tab(self, agent: str, url: str, principal: str | None,
                          target_id: str | None = None) -> Tab:
        adopted = target_id is not None
        if target_id is None:
            # In a Chromium of our own each agent tab gets its own (inactive) window, where
            # it is the front tab: a background tab of a shared window draws no frames, so
            # screenshots hang, and tabs its page opens would come to the window's front.
            # In a browser we attached to, the person's windows stay as they are.
            res = await self.conn.send("Target.createTarget",
                                       {"url": "about:blank", "background": True,
                                        "newWindow": self.own_windows})
            target_id = str(res["targetId"])
        attached = await self.conn.send("Target.attachToTarget",
                                        {"targetId": target_id, "flatten": True})
        session_id = str(attached["sessionId"])
        self._tab_numbers += 1
        tab = Tab(self.conn, target_id, session_id, agent, f"t{self._tab_numbers}")
        tab.principal = principal
        tab.browser = self
        self.tabs[target_id] = tab
        self._by_session[session_id] = tab
        await tab.init_session(session_id)
        await self.conn.label_tab(target_id, agent)
        if adopted:  # its page may have loaded before we attached: no event told us where
            await tab.read_url()
        if url != "about:blank":
            await tab.send("Page.navigate", {"url": url})
        return tab

    async def close_tab(self, tab: Tab) -> None:
        if not tab.state.closed:
            tab.mark_closed("closed by its agent")
            try:
                await self.conn.send("Target.closeTarget", {"targetId": tab.target_id})
            except BrowserError as exc:
                log.info("closing tab %s: %s", tab.id, exc.message)
        self._forget(tab)

    async def _reattached(self, session_id: str) -> None:
        """A new debugger session on a tab we had: enable what the engine needs again."""
        tab = self._by_session.get(session_id)
        if tab is not None:
            tab.forget_worlds()
            # the Network domain the input that attached will listen with (sent.py), asked
            # beside the set-up: that action's own enable gets this answer
            # (cdp/kept_network.py) instead of sending one more command after it
            ahead = asyncio.ensure_future(
                self.conn.send("Network.enable", sent.NETWORK, session_id=session_id))
            ahead.add_done_callback(_unheard)
            await tab.init_session(session_id)
            # its cross-site frames' sessions came with it: the command that attached goes
            # on once they are enabled too (focus emulation, events), as if never detached
            if tab.child_inits:
                await asyncio.wait(set(tab.child_inits), timeout=CHILD_INIT_WAIT)
            try:  # its page shown now: input goes once it drew (placing.py)
                await tab.drawn_once_shown()
            except (BrowserError, TabError, UsageError) as exc:
                log.debug("tab %s: no frame known drawn after the attach: %s", tab.id,
                          exc.message)

    def _forget(self, tab: Tab) -> None:
        self.tabs.pop(tab.target_id, None)
        self._by_session.pop(tab.session_id, None)
        for child in tab.child_sessions:
            self._by_session.pop(child, None)
        # (the browser puts another tab to its window's front: which, it does not say)
        self._front = {w: f for w, f in self._front.items() if tab.target_id not in (w, f)}

    # -- events --
    def _on_event(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        if session_id is not None:
            tab = self._by_session.get(session_id)
            if tab is None:
                return
            if method == "Target.attachedToTarget":
                child = params.get("sessionId")
                if isinstance(child, str):
                    self._by_session[child] = tab
            elif method == "Target.detachedFromTarget":
                child = params.get("sessionId")
                if isinstance(child, str):
                    self._by_session.pop(child, None)
            tab.handle_event(method, params, session_id)
            return
        if method == "Target.targetCreated":
            info = params.get("targetInfo", {})
            opener = info.get("openerId")
            if info.get("type") == "page" and opener in self.tabs:
                parent = self.tabs[opener]
                task = asyncio.get_running_loop().create_task(
                    self._adopt(parent, str(info["targetId"])))
                parent.adopting.add(task)
                task.add_done_callback(parent.adopting.discard)
        elif method == "Tabsteward.targetOpening":  # the extension attaches to it first
            opening = self.tabs.get(str(params.get("openerId")))
            if opening is not None:
                opening.adopting.add(params["task"])
                params["task"].add_done_callback(opening.adopting.discard)
        elif method == "Target.targetDestroyed":
            tab = self.tabs.get(str(params.get("targetId")))
            if tab is not None:
                tab.mark_closed("the tab was closed")
                self._forget(tab)
        elif method == "Target.detachedFromTarget":
            tab = self._by_session.get(str(params.get("sessionId")))
            if tab is not None and tab.session_id == params.get("sessionId"):
                tab.mark_closed("the browser detached from the tab")
                self._forget(tab)
        elif method == "Target.targetInfoChanged":
            info = params.get("targetInfo", {})
            tab = self.tabs.get(str(info.get("targetId")))
            if tab is not None:
                tab.state.title = str(info.get("title", tab.state.title))
                tab.state.url = str(info.get("url", tab.state.url))
        elif method in ("Browser.downloadWillBegin", "Browser.downloadProgress"):
            self._on_download(method, params)
        elif method == "Tabsteward.disconnected":
            for tab in list(self.tabs.values()):
                tab.mark_closed("the browser connection was lost")

    async def _adopt(self, parent: Tab, target_id: str) -> None:
        """A tab that an agent's page opened belongs to that agent."""
        if target_id in self.tabs:
            return
        owner = parent.principal or parent.agent
        cap = self.tab_cap(owner)
        if cap is not None and self.open_tabs(owner) + self._opening.get(owner, 0) >= cap:
            log.info("closed tab %s that agent %s's page opened: it has %d tabs, its cap",
                     target_id, owner, cap)
            try:
                await self.conn.send("Target.closeTarget", {"targetId": target_id})
            except BrowserError as exc:
                log.info("tab %s not closed: %s", target_id, exc.message)
            return
        try:
            tab = await self.create_tab(parent.agent, target_id=target_id,
                                        principal=parent.principal)
        except BrowserError as exc:
            log.info("new tab %s not adopted: %s", target_id, exc.message)
            return
        tab.opener = parent.id
        self.session(parent.agent).tabs.append(tab)
        parent.opened.append(tab.id)
        self._front[self._window_of(tab).target_id] = tab.target_id  # (it came to the front)

    async def read_titles(self) -> None:
        """The tabs' titles as the browser shows them now: over DevTools no event tells of
        a title a page sets as it loads, nor through the extension of one a tab its page
        opened had before it was ours."""
        with contextlib.suppress(BrowserError):
            found = await self.conn.send("Target.getTargets")
            for info in found.get("targetInfos", []):
                tab = self.tabs.get(str(info.get("targetId")))
                if tab is not None and not tab.state.closed:
                    tab.state.title = str(info.get("title", tab.state.title))

    def _window_of(self, tab: Tab) -> Tab:
        """The first tab of the window a tab is in: the tab its openers' chain began with
        (a tab a page opens opens in its opener's window)."""
        by_id = {t.id: t for t in self.tabs.values()}
        seen = {tab.id}
        while tab.opener in by_id and tab.opener not in seen:
            tab = by_id[tab.opener]
            seen.add(tab.id)
        return tab

    async def to_front(self, tab: Tab) -> None:
        """In a browser whose agent tabs each have a window of their own (`own_windows`),
        bring a tab to the front of the window it shares with tabs its page opened, or that
        opened it, before it is acted on: there only the front tab draws (a screenshot of
        another waited for a frame for up to a minute, its animations stood still). No
        person sees those windows."""
        if not self.own_windows or not (tab.opener or tab.opened):
            return
        window = self._window_of(tab).target_id
        if self._front.get(window, window) == tab.target_id:
            return
        with contextlib.suppress(BrowserError):
            await self.conn.send("Target.activateTarget", {"targetId": tab.target_id})
            self._front[window] = tab.target_id

    def _on_download(self, method: str, params: dict[str, Any]) -> None:
        guid = str(params.get("guid", ""))
        entry = self.downloads.setdefault(guid, {"guid": guid})
        if params.get("path"):  # through the extension: where the browser put it
            entry["path"] = params["path"]
            entry["filename"] = entry.get("filename") or os.path.basename(params["path"])
        if method == "Browser.downloadWillBegin":
            entry.update(url=params.get("url"), state="inProgress", frame=params.get("frameId"),
                         filename=params.get("suggestedFilename") or entry.get("filename"))
            for fut in self._download_waiters:
                if not fut.done():
                    fut.set_result(entry)
        elif params.get("state"):
            entry.update(state=params.get("state"), received=params.get("receivedBytes"),
                         total=params.get("totalBytes"))
        done = entry.get("done")
        if entry.get("state") in ("completed", "canceled") and isinstance(done, asyncio.Future) \
                and not done.done():
            done.set_result(entry["state"])

    def expect_download(self) -> asyncio.Future[dict[str, Any]]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._download_waiters.append(fut)
        fut.add_done_callback(lambda f: self._download_waiters.remove(f))
        return fut

    async def finish_download(self, entry: dict[str, Any], dest: Output,
                              timeout: float) -> int:
        """Wait for a download to complete and save it at dest (see outputs.save); returns
        its size. The browser's own copy is removed."""
        await self.wait_download(entry, timeout)
        src = entry.get("path") or os.path.join(self.download_dir, str(entry["guid"]))
        return await asyncio.to_thread(_move, str(src), dest)

    async def wait_download(self, entry: dict[str, Any], timeout: float) -> None:
        """Wait for a download to complete (by then the browser has named its file)."""
        if entry.get("state") != "completed":
            done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            entry["done"] = done
            try:
                async with asyncio.timeout(timeout):
                    state = await done
            except TimeoutError:
                raise BrowserError(f"the download of {entry.get('filename')} did not finish "
                                   f"within {timeout:g} s; nothing was saved") from None
            if state != "completed":
                raise BrowserError(f"the download of {entry.get('filename')} was canceled")

    async def close(self) -> None:
        for session in list(self.sessions.values()):
            if self.kind != "launched":
                await session.close()
        await self.conn.close()
        shutil.rmtree(self.download_dir, ignore_errors=True)


def _move(src: str, dest: Output) -> int:
    """Copy the browser's finished download to dest, then remove the browser's copy."""
    try:
        fd = os.open(src, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise BrowserError(f"the finished download {src} cannot be read ({exc.strerror}); "
                           "nothing was saved") from None
    with open(fd, "rb") as source:
        outputs.save(dest, lambda fp: shutil.copyfileobj(source, fp, 1 << 20))
        size = os.fstat(source.fileno()).st_size
    with contextlib.suppress(OSError):
        os.unlink(src)
    return size


def _unheard(done: asyncio.Future[Any]) -> None:
    """A Network.enable asked ahead failed: the action's own asks again (and says so)."""
    if not done.cancelled() and done.exception() is not None:
        log.debug("the Network domain was not enabled ahead: %s", done.exception())
