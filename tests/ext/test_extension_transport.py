"""The hub and the person's browser through the real extension and native host: several
profiles, a killed host, a tab closed mid-action, big payloads, `browsers` on the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator

import pytest
from extension_env import (
    HOST_RULES,
    ExtensionHub,
    Profile,
    chrome_call,
    debugger_attached,
    devtools,
    in_worker,
    worker_target,
)
from fixture_server import Site
from hub_env import BIN, STOP_HUB, private_env, start_hub, stop_hub
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import (
    BrowserError,
    PolicyError,
    TabError,
    TabstewardError,
    UsageError,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]



async def test_two_profiles_connect_at_once_and_agents_pick_one_by_name(
        ext_hub: ExtensionHub, site: Site) -> None:
    first = await ext_hub.connect()
    second = await ext_hub.connect()
    assert ext_hub.pool is not None
    names = ext_hub.pool.names()
    assert names == ["chromium", "chromium-2", "launched"]
    with pytest.raises(UsageError, match="several browsers are connected"):
        await ext_hub.pool.pick("agent")
    picked = await ext_hub.pool.pick("agent", "chromium-2")
    assert picked is second
    assert await ext_hub.pool.pick("agent") is second  # it keeps the one it picked
    tab = await second.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    assert first.tabs == {}
    [row] = [r for r in ext_hub.pool.describe() if r["name"] == "chromium-2"]
    assert row["kind"] == "extension"
    assert row["agents"] == ["agent"]
    with pytest.raises(UsageError, match="no browser named 'edge'"):
        await ext_hub.pool.pick("agent", "edge")


async def test_agent_tabs_are_grouped_under_the_agents_name(
        ext_hub: ExtensionHub) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("researcher").current_tab()
    info = await chrome_call(browser, "tabs.query", {})
    [mine] = [t for t in info if t["groupId"] != -1]
    group = await chrome_call(browser, "tabGroups.query", {})
    assert [g["title"] for g in group] == ["researcher"]
    assert mine["active"] is False
    assert tab.state.closed is None


async def test_a_killed_native_host_leaves_the_agent_its_link_and_its_tab(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    assert isinstance(browser.conn, ExtensionConnection)
    link = browser.conn.link
    ours = _hosts(ext_hub)
    assert ours, "no native host runs for this profile"
    for pid in ours:
        os.kill(int(pid), signal.SIGKILL)
    # the hub reads and writes Chrome's pipes itself (native/handoff.py): nothing that
    # went through the host is lost, and the link stands
    await _until(lambda: _none_left(ext_hub), 15, f"native hosts left: {_hosts(ext_hub)}")
    snap = await tab.snapshot()
    assert snap.title == "Sign up"
    assert browser.conn.link is link
    assert ext_hub.pool is not None
    assert list(ext_hub.pool.extensions.values()) == [browser]


IN_FLIGHT: dict[str, Callable[[Tab], Awaitable[object]]] = {
    # an action that polls the page, and one command the page never answers: Chrome may
    # fail the command before it reports the tab gone
    "action": lambda tab: actions.wait(tab, text="never on this page", timeout=20),
    "command": lambda tab: tab.send("Runtime.evaluate", {
        "expression": "new Promise(() => {})", "awaitPromise": True}),
}


@pytest.mark.parametrize("what", list(IN_FLIGHT))
async def test_a_tab_the_person_closes_mid_action_fails_the_action_saying_so(
        ext_hub: ExtensionHub, site: Site, what: str) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    tab_id = int(tab.session_id.removeprefix("tab-"))
    running = asyncio.ensure_future(IN_FLIGHT[what](tab))
    await asyncio.sleep(0.3)
    await chrome_call(browser, "tabs.remove", tab_id)
    with pytest.raises(TabError, match="closed"):
        await running
    with pytest.raises(TabError, match="closed"):
        await tab.snapshot()


async def test_a_five_megabyte_snapshot_comes_through_the_extension(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    await actions.evaluate(tab, """{ const words = "lorem ipsum dolor sit amet ".repeat(80);
        let html = "<button id=end>The end</button>";
        for (let i = 0; i < 2600; i++) html = `<p>para ${i} ${words}</p>` + html;
        document.body.innerHTML = html; 1 }""")
    snap = await tab.snapshot()
    assert len(snap.text) > 5_000_000
    assert "para 2599 lorem" in snap.text
    out = await actions.click(tab, parse('loc=button "The end"'))
    assert out.did.startswith("clicked")


def _hosts(hub: ExtensionHub) -> list[str]:
    """The native hosts running for this hub's browsers."""
    found = subprocess.run(["pgrep", "-f", "tabsteward.bridge.native_host"],
                           capture_output=True, text=True, check=False).stdout.split()
    return [p for p in found if hub.env["XDG_RUNTIME_DIR"] in _environ_of(p)]


async def _none_left(hub: ExtensionHub) -> bool:
    return not _hosts(hub)


async def _one_host(hub: ExtensionHub) -> None:
    async def single() -> bool:
        return len(_hosts(hub)) == 1
    await _until(single, 15, f"native hosts left behind: {_hosts(hub)}")


def _environ_of(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


async def _retry(make: Callable[[], Awaitable[Snapshot]], seconds: float) -> Snapshot:
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await make()
        except TabstewardError:  # the extension is still coming back
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


@pytest.fixture
def cli_hub() -> Iterator[tuple[dict[str, str], Profile]]:
    env = private_env()
    running = start_hub(env, "--local-only")
    profile = Profile(env, [HOST_RULES])
    profile.start()
    try:
        yield env, profile
    finally:
        profile.stop()
        stop_hub(running)


def test_browsers_lists_the_connected_extension_and_the_fallback(
        cli_hub: tuple[dict[str, str], Profile]) -> None:
    env, _ = cli_hub
    assert _wait_for_extension(env)
    done = subprocess.run([BIN, "browsers", "--json"], env=env, capture_output=True,
                          text=True, timeout=30, check=True)
    rows = json.loads(done.stdout)["browsers"]
    assert [(r["name"], r["kind"], r["connected"]) for r in rows] == [
        ("chromium", "extension", True), ("launched", "launched", False)]
    opened = subprocess.run([BIN, "--browser", "chromium", "open", "about:blank"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert opened.returncode == 0, opened.stderr
    text = subprocess.run([BIN, "browsers"], env=env, capture_output=True, text=True,
                          timeout=30, check=True).stdout
    assert "chromium" in text
    assert "tests, 1 tab(s)" in text  # the paired agent's own session


async def _until(check: Callable[[], Awaitable[bool]], seconds: float, what: str) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)
    assert await check(), what


async def _attached(browser: Browser, tab: Tab) -> bool:
    tab_id = int(tab.session_id.removeprefix("tab-"))
    targets = await chrome_call(browser, "debugger.getTargets")
    return any(t.get("tabId") == tab_id and t["attached"] for t in targets)


@pytest.mark.parametrize("ext_hub", [1], indirect=True)  # let go after 1 s idle
async def test_an_idle_tab_is_let_go_and_the_next_command_takes_it_back_silently(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    await actions.enter_text(tab, parse('loc=textbox "Email"'), "a@", "fill")
    assert await _attached(browser, tab)

    async def let_go() -> bool:
        return not await _attached(browser, tab)
    await _until(let_go, 15, "the idle tab kept its debugger")
    snap = await tab.snapshot(interactive=True)  # read without it
    assert snap.title == "Sign up"
    await actions.enter_text(tab, parse('loc=textbox "Email"'), "a@b.org", "fill")
    assert await _attached(browser, tab)  # re-attached without a word


async def test_stop_all_agents_fails_the_next_command_clearly_until_switched_off(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    try:
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("form.html"))
        await actions.hover(tab, parse('loc=textbox "Email"'))  # the debugger attaches
        await in_worker(dt, "chrome.storage.local.set({stopped: true})")

        async def stopped() -> bool:
            return conn.stopped
        await _until(stopped, 10, "the hub never heard that agents were stopped")
        with pytest.raises(BrowserError, match="stop all agents"):
            await tab.snapshot()
        with pytest.raises(PolicyError, match="stopped all agents"):
            await tab.snapshot()  # asked again: refused while the switch is on
        await in_worker(dt, "chrome.storage.local.set({stopped: false})")

        async def resumed() -> bool:
            return not conn.stopped
        await _until(resumed, 10, "the hub never heard that agents may go on")
        assert (await tab.snapshot()).title == "Sign up"
    finally:
        await dt.close()


async def test_a_restarted_service_worker_reconnects_and_the_agent_keeps_its_tab(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    try:
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("form.html"))
        old = browser.conn.link  # type: ignore[attr-defined]
        await dt.send("Target.closeTarget", {"targetId": await worker_target(dt)})
        await _until(lambda: _done(old.closed), 20, "the old link stayed up")
        await dt.send("Target.createTarget", {"url": "about:blank"})  # wakes the worker
        snap = await _retry(lambda: tab.snapshot(), seconds=30)
        assert snap.title == "Sign up"
        assert browser.conn.link is not old  # type: ignore[attr-defined]
        assert ext_hub.pool is not None
        assert list(ext_hub.pool.extensions.values()) == [browser]
        await _one_host(ext_hub)  # the old worker's host went with its port
        # the new worker still puts the page hook into the agent's documents
        await actions.navigate(tab, site.url("app_icons.html"))
        await actions.wait(tab, text="ready")
        shot = await tab.snapshot(interactive=True)
        assert not await debugger_attached(browser, tab)  # (the hook is not the debugger's)
        assert len([i for i in shot.refs.values() if i["role"] == "clickable"]) == 4, shot.text
    finally:
        await dt.close()


async def _done(fut: asyncio.Future[str]) -> bool:
    return fut.done()


def test_a_restarted_hub_is_started_again_by_the_host_and_the_browser_reconnects(
        cli_hub: tuple[dict[str, str], Profile]) -> None:
    env, _ = cli_hub
    assert _wait_for_extension(env)
    hub_pid = subprocess.run([BIN, "--json", "browsers"], env=env, capture_output=True,
                             text=True, timeout=30, check=True)
    assert hub_pid.returncode == 0
    first = _ping(env)
    os.kill(first, signal.SIGKILL)  # the hub dies; the host exits; the extension retries
    try:
        assert _wait_for_extension(env, seconds=60), "the browser did not come back"
        assert _ping(env) != first  # a new hub, started by the native host
    finally:
        stopped = subprocess.run(
            [sys.executable, "-c", STOP_HUB], env=env, timeout=30, check=False,
            capture_output=True, text=True)
        assert "'ok': True" in stopped.stdout, stopped.stdout + stopped.stderr


def _ping(env: dict[str, str]) -> int:
    out = subprocess.run([sys.executable, "-c", "import json; from tabsteward.bridge.clients "
                          "import client; "
                          "print(json.dumps(client.request({'op': 'ping', 'id': 1})))"],
                         env=env, capture_output=True, text=True, timeout=30, check=True)
    return int(json.loads(out.stdout)["pid"])


def _wait_for_extension(env: dict[str, str], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done = subprocess.run([BIN, "browsers", "--json"], env={
            **env, "TABSTEWARD_NO_AUTOSTART": "1"}, capture_output=True, text=True,
            timeout=30, check=False)
        if done.returncode == 0 and any(
                r["kind"] == "extension" for r in json.loads(done.stdout)["browsers"]):
            return True
        time.sleep(0.2)
    return False


async def test_the_popup_learns_the_agents_and_a_rename_reaches_the_hub(
        ext_hub: ExtensionHub) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    pool = ext_hub.pool
    assert pool is not None
    try:
        tab = await browser.session("writer").current_tab()
        browser.show_agents()  # the hub does this after every tool call
        tab_id = int(tab.session_id.removeprefix("tab-"))

        async def told() -> bool:
            got = await in_worker(dt, "chrome.storage.session.get('agents')")
            return bool(got.get("agents") == [{"name": "writer", "tabs": 1,
                                               "tabIds": [tab_id]}])
        await _until(told, 10, "the popup's storage never got the agents")
        await in_worker(dt, "chrome.storage.local.set({name: 'work'})")

        async def renamed() -> bool:
            return "work" in pool.names()
        await _until(renamed, 10, "the hub kept the old name")
        assert await pool.pick("agent", "work") is browser
        assert "chromium" not in pool.names()
    finally:
        await dt.close()
