"""The real extension in a headless Chromium, connected through the real host to a stand-in
hub, with the browser's DevTools port open for driving extension pages such as the popup."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from nm_standin import FIRST, StandInHub, hub_env
from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID
from tabsteward.bridge.cdp.launch import find_chromium
from tabsteward.bridge.setup import install
from websockets.sync.client import ClientConnection, connect

EXTENSION = Path(__file__).resolve().parents[2] / "extension"
POPUP = f"chrome-extension://{EXTENSION_ID}/popup.html"
WAIT = 10.0  # seconds any one expected message or page state may take


class DevToolsError(Exception):
    """A DevTools command answered with an error."""


@contextmanager
def chromium(env: dict[str, str], host: bool = True) -> Iterator[str]:
    """Headless Chromium with the extension and a DevTools port (and, with `host`, the
    native host's manifest); yields its profile folder."""
    profile = tempfile.mkdtemp(prefix="tsx", dir="/tmp")
    if host:
        install.write_manifest("chromium", profile)
    prefs = {"download": {"default_directory": f"{profile}/Downloads"}}  # not ~/Downloads
    (Path(profile) / "Default").mkdir()
    (Path(profile) / "Default" / "Preferences").write_text(json.dumps(prefs))
    args = [find_chromium(), "--headless=new", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-quic",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            f"--user-data-dir={profile}", f"--load-extension={EXTENSION}",
            "--remote-debugging-port=0", "about:blank"]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")
    browser = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        yield profile
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


def devtools_url(profile: str) -> str:
    """The browser's DevTools WebSocket URL, once Chromium has written DevToolsActivePort."""
    port_file = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + WAIT
    lines: list[str] = []
    while len(lines) < 2:
        assert time.monotonic() < deadline, "Chromium wrote no DevToolsActivePort"
        time.sleep(0.05)
        lines = port_file.read_text().split() if port_file.exists() else []
    return f"ws://127.0.0.1:{lines[0]}{lines[1]}"


@contextmanager
def devtools(profile: str) -> Iterator[DevTools]:
    with connect(devtools_url(profile), max_size=None, open_timeout=WAIT) as ws:
        yield DevTools(ws)


class DevTools:
    """The browser-level DevTools WebSocket of a Chromium started with a debugging port."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        msg_id = next(self.ids)
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + WAIT
        while True:
            reply = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error']}")
                return dict(reply["result"])

    def open(self, url: str) -> Page:
        """A new tab at `url`, attached for Runtime.evaluate."""
        target = self.send("Target.createTarget", {"url": url})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        return Page(self, session["sessionId"])


class Page:
    """One page over DevTools: evaluate script in it, or wait until an expression holds."""

    def __init__(self, devtools: DevTools, session: str) -> None:
        self.devtools = devtools
        self.session = session

    def evaluate(self, expression: str) -> Any:
        result = self.devtools.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True},
            self.session)
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression!r} threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = WAIT) -> Any:
        """The expression's first truthy value, polled until `timeout` runs out."""
        deadline = time.monotonic() + timeout
        value: Any = None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except DevToolsError:  # the page is still loading
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"{expression!r} did not hold within {timeout} s (last: {value!r})")


class Extension:
    """The stand-in hub's side of one connected extension: calls, events, and the browser."""

    def __init__(self, hub: StandInHub, profile: str) -> None:
        self.hub = hub
        self.profile = profile
        self.backlog: list[Any] = []  # messages received while waiting for others
        self.ids = itertools.count(1)
        self.hello: dict[str, Any] = {}
        self.first: Any = None
        self._devtools: DevTools | None = None
        self._closing = ExitStack()

    def reconnect(self) -> None:
        """Accept the host's (next) connection; keep its first frame and the hello."""
        self.hub.accept()
        self.backlog.clear()
        self.first = self.hub.first()
        self.hello = self.hub.recv()

    def next(self, match: Callable[[Any], bool], timeout: float = WAIT) -> Any:
        """The first message (already seen or coming) that `match` accepts."""
        for i, message in enumerate(self.backlog):
            if match(message):
                return self.backlog.pop(i)
        assert self.hub.conn is not None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message within {timeout} s; saw {self.backlog}")
            self.hub.conn.settimeout(left)
            try:
                message = self.hub.recv()
            except TimeoutError:
                continue
            if match(message):
                return message
            self.backlog.append(message)

    def call(self, name: str, *args: Any) -> dict[str, Any]:
        """The extension's reply to one call: {"id", "result"} or {"id", "error"}."""
        msg_id = next(self.ids)
        self.hub.send({"id": msg_id, "call": name, "args": list(args)})
        return dict(self.next(lambda m: isinstance(m, dict) and m.get("id") == msg_id))

    def result(self, name: str, *args: Any) -> Any:
        reply = self.call(name, *args)
        assert "result" in reply, reply
        return reply["result"]

    def event(self, name: str, where: Callable[[list[Any]], bool] = lambda _a: True,
              timeout: float = WAIT) -> list[Any]:
        """The args of the next `name` event that `where` accepts."""
        message = self.next(lambda m: isinstance(m, dict) and m.get("event") == name
                            and where(m["args"]), timeout)
        return list(message["args"])

    def attached_tab(self) -> int:
        """A new background tab with the extension's debugger attached."""
        tab = self.result("tabs.create", {"url": "about:blank"})["id"]
        assert self.result("debugger.attach", {"tabId": tab}) is None
        return int(tab)

    def is_attached(self, tab: int) -> bool:
        targets = self.result("debugger.getTargets")
        return any(t.get("tabId") == tab and t["attached"] for t in targets)

    @property
    def devtools(self) -> DevTools:
        if self._devtools is None:
            self._devtools = self._closing.enter_context(devtools(self.profile))
        return self._devtools

    def popup(self) -> Page:
        """The extension's popup page, open in a tab and done loading."""
        page = self.devtools.open(POPUP)
        page.wait_for("document.getElementById('connection')?.dataset.state")
        return page

    def restart_worker(self) -> None:
        """Stop the service worker, wake a new one with a tab, and accept its connection."""
        targets = self.devtools.send("Target.getTargets")["targetInfos"]
        [worker] = [t for t in targets if t["type"] == "service_worker"
                    and t["url"].startswith(f"chrome-extension://{EXTENSION_ID}/")]
        self.devtools.send("Target.closeTarget", {"targetId": worker["targetId"]})
        assert self.hub.at_eof()  # the old worker's port, and so its host, went away
        self.devtools.send("Target.createTarget", {"url": "about:blank"})  # tabs.onCreated
        self.reconnect()

    def close(self) -> None:
        self._closing.close()


@pytest.fixture
def extension(tmp_path: Path) -> Iterator[Extension]:
    """Chromium with the extension loaded; the hub has its host's first frame and hello."""
    with hub_env(tmp_path) as env:
        hub = StandInHub(os.path.join(env["XDG_RUNTIME_DIR"], "tabsteward", "hub.sock"))
        try:
            with chromium(env) as profile:
                ext = Extension(hub, profile)
                try:
                    ext.reconnect()
                    assert ext.first == FIRST
                    yield ext
                finally:
                    ext.close()
        finally:
            hub.close()


@pytest.fixture
def popup_without_host(tmp_path: Path) -> Iterator[Page]:
    """The popup of an extension whose native host is not installed (so no hub is started)."""
    with (hub_env(tmp_path) as env, chromium(env, host=False) as profile,
          devtools(profile) as browser):
        yield browser.open(POPUP)
