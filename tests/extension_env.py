"""A Chromium that loads the real extension, whose real native host connects to a real hub
serving in this process (on the tests' loop): the engine then runs over the extension."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.cdp.launch import DESKTOP_POINTER, QUIET_FLAGS, find_chromium
from tabsteward.bridge.cdp.websocket import WebSocketConnection
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.hub.core import Hub
from tabsteward.bridge.hub.pool import BrowserPool
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.records.agents import Agents
from tabsteward.bridge.setup import install

EXTENSION = Path(__file__).resolve().parents[1] / "extension"
CONNECT_WAIT = 30.0
# the tabs the person had active when an extension browser connected: they stay active
PERSON_TABS: dict[Browser, list[int]] = {}

# Chromium off the network but for the two fixture sites (127.0.0.1 and 127.0.0.2)
HOST_RULES = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , "
              "EXCLUDE 127.0.0.2")


def chromium_command(profile: str, *extra: str, headless: bool = True) -> list[str]:
    """Chromium with the extension and the quiet flags; its first tab is the person's."""
    args = [find_chromium(), f"--user-data-dir={profile}", f"--load-extension={EXTENSION}",
            *QUIET_FLAGS, *extra]
    if headless:  # (with a desktop's pointer, as the person's browser has)
        args += ["--headless=new", DESKTOP_POINTER]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return [*args, "about:blank"]


@dataclass
class Profile:
    """One browser profile (its own user-data-dir) with the host manifest installed."""

    env: dict[str, str]
    extra: list[str]
    headless: bool = True
    path: str = field(default_factory=lambda: tempfile.mkdtemp(prefix="tsp", dir="/tmp"))
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        install.write_manifest("chromium", self.path)
        self.proc = subprocess.Popen(
            chromium_command(self.path, *self.extra, headless=self.headless), env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
        shutil.rmtree(self.path, ignore_errors=True)


class ExtensionHub:
    """A hub on a private socket; profiles whose extensions connect to it."""

    def __init__(self, extra_args: list[str] | None = None, idle_detach: float = 120) -> None:
        self.root = tempfile.mkdtemp(prefix="tse", dir="/tmp")
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("TABSTEWARD_SOCKET", "TABSTEWARD_AGENT")}
        self.env.update(XDG_RUNTIME_DIR=f"{self.root}/run", XDG_STATE_HOME=f"{self.root}/state")
        for key in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME"):
            os.makedirs(self.env[key], mode=0o700)
        self.socket = f"{self.root}/run/tabsteward/hub.sock"
        self.extra = extra_args or []
        self.pool: BrowserPool | None = None
        self.hub: Hub | None = None
        self.server: LocalServer | None = None
        self.profiles: list[Profile] = []
        self.idle_detach = idle_detach
        self.agents = Agents(Path(self.root) / "state" / "tabsteward" / "agents.json")
        self.env["TABSTEWARD_TOKEN"] = self.agents.add("tests")[1]  # for CLIs run in env

    async def start(self) -> None:
        self.pool = BrowserPool(idle_detach=self.idle_detach)
        self.hub = Hub(self.pool, log_path=f"{self.root}/hub.log", agents=self.agents)
        self.server = LocalServer(self.hub.execute, socket_path=self.socket,
                                  extension_handler=self.hub.serve_extension,
                                  agents=self.agents)
        await self.server.start()

    async def connect_on(self, display: str) -> Browser:
        """One more profile, headed on `display`, else ("") headless."""
        if display:
            self.env["DISPLAY"] = display
        return await self.connect(headless=not display)

    async def connect(self, headless: bool = True, extra: tuple[str, ...] = ()) -> Browser:
        """Start one more profile and return its browser once its extension said hello."""
        assert self.pool is not None
        before = set(self.pool.extensions.values())
        profile = Profile(self.env, [*self.extra, *extra], headless)
        self.profiles.append(profile)
        await asyncio.to_thread(profile.start)
        async with asyncio.timeout(CONNECT_WAIT):
            while True:
                new = [b for b in self.pool.extensions.values() if b not in before]
                if new:
                    return new[0]
                await asyncio.sleep(0.05)

    async def close(self) -> None:
        if self.server is not None:
            assert self.pool is not None
            await self.server.close(then=self.pool.close)
        for profile in self.profiles:
            await asyncio.to_thread(profile.stop)
        shutil.rmtree(self.root, ignore_errors=True)


async def in_extension_worlds(dt: WebSocketConnection, target_id: str,
                              expression: str) -> dict[str, Any]:
    """Frame URL -> what `expression` (it answers `[location.href, value]`) gives in the
    extension's isolated world of each frame of a target that has one: asked as the
    person's DevTools would (`dt`, see `devtools`), not by the hub."""
    attached = await dt.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
    session = str(attached["sessionId"])
    contexts: list[dict[str, Any]] = []

    def seen(method: str, params: dict[str, Any], sid: str | None) -> None:
        if method == "Runtime.executionContextCreated" and sid == session:
            contexts.append(params["context"])
    remove = dt.on_event(seen)
    try:
        await dt.send("Runtime.enable", session_id=session)
        await dt.send("Runtime.disable", session_id=session)
        found: dict[str, Any] = {}
        for ctx in contexts:
            if ctx.get("origin") != f"chrome-extension://{EXTENSION_ID}":
                continue
            res = await dt.send("Runtime.evaluate", {
                "expression": expression, "contextId": ctx["id"], "returnByValue": True},
                session_id=session)
            href, value = res["result"]["value"]
            found[str(href)] = value
        return found
    finally:
        remove()
        await dt.send("Target.detachFromTarget", {"sessionId": session})


async def devtools(profile: Profile) -> WebSocketConnection:
    """The browser-level DevTools link of a profile started with --remote-debugging-port=0
    (tests play the person with it: the service worker, other tabs)."""
    port_file = Path(profile.path) / "DevToolsActivePort"
    async with asyncio.timeout(CONNECT_WAIT):
        while not port_file.exists() or not port_file.read_text().strip():
            await asyncio.sleep(0.05)
    port = port_file.read_text().split()[0]
    return await WebSocketConnection.attach(f"http://127.0.0.1:{port}")


async def worker_target(dt: WebSocketConnection) -> str:
    targets = await dt.send("Target.getTargets")
    for info in targets["targetInfos"]:
        if info["type"] == "service_worker" and EXTENSION_ID in info["url"]:
            return str(info["targetId"])
    raise AssertionError(f"no service worker of the extension among {targets}")


async def in_worker(dt: WebSocketConnection, expression: str) -> Any:
    """Run script in the extension's service worker (as its popup would change storage)."""
    attached = await dt.send("Target.attachToTarget",
                             {"targetId": await worker_target(dt), "flatten": True})
    session = str(attached["sessionId"])
    try:
        res = await dt.send("Runtime.evaluate", {"expression": expression,
                                                 "awaitPromise": True, "returnByValue": True},
                            session)
    finally:
        await dt.send("Target.detachFromTarget", {"sessionId": session})
    assert "exceptionDetails" not in res, res
    return res.get("result", {}).get("value")


async def chrome_call(browser: Browser, name: str, *args: Any) -> Any:
    """A chrome.* call through the browser's extension (tests look at tabs this way)."""
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    return await conn.link.call(name, *args)


async def debugger_attached(browser: Browser, tab: Tab | None = None) -> bool:
    """What Chrome says: whether a debugger is attached now to the tab (or to any tab)."""
    tab_id = None if tab is None else int(tab.session_id.removeprefix("tab-"))
    targets = await chrome_call(browser, "debugger.getTargets")
    return any(t.get("tabId") is not None and t["attached"] and
               (tab_id is None or t["tabId"] == tab_id) for t in targets)


class DebuggerWatch:
    """Polls Chrome, from the extension's side, for a debugger on the tab (or on any tab)
    while the agent works, and for 1.5 s after: a debugger attached meanwhile stays at
    least the idle time (1 s in these tests)."""

    def __init__(self, browser: Browser, tab: Tab | None = None) -> None:
        self.browser, self.tab = browser, tab
        self.polls = 0
        self.seen_attached = 0
        self._task: asyncio.Task[None] | None = None

    async def _poll(self) -> None:
        while True:
            self.polls += 1
            if await debugger_attached(self.browser, self.tab):
                self.seen_attached += 1
            await asyncio.sleep(0.02)

    async def __aenter__(self) -> DebuggerWatch:
        self._task = asyncio.ensure_future(self._poll())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.sleep(1.5)
        assert self._task is not None
        self._task.cancel()
