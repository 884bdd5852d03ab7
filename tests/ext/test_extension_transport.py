"""The hub and the person's browser through the real extension and native host: several
profiles, a killed host, a tab closed mid-action, big payloads, `browsers` on the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Iterator

import pytest
from extension_env import ExtensionHub, Profile, chrome_call
from fixture_server import Site
from hub_env import BIN, private_env, start_hub, stop_hub
from looprunner import LoopThread
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TabError, UsageError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
HOST_RULES = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , "
              "EXCLUDE 127.0.0.2")


@pytest.fixture
def ext_hub(loop: LoopThread) -> Iterator[ExtensionHub]:
    hub = ExtensionHub([HOST_RULES])
    loop.run(hub.start(), timeout=30)
    yield hub
    loop.run(hub.close(), timeout=60)


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


async def test_a_killed_native_host_is_replaced_and_the_agent_keeps_its_tab(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    hosts = subprocess.run(["pgrep", "-f", "tabsteward.bridge.native_host"],
                           capture_output=True, text=True, check=False).stdout.split()
    profile_env = ext_hub.env["XDG_RUNTIME_DIR"]
    ours = [p for p in hosts if profile_env in _environ_of(p)]
    assert ours, "no native host runs for this profile"
    for pid in ours:
        os.kill(int(pid), signal.SIGKILL)
    # the extension reconnects with a new host; the same browser object carries on
    snap = await _retry(lambda: tab.snapshot(), seconds=20)
    assert snap.title == "Sign up"
    assert ext_hub.pool is not None
    assert list(ext_hub.pool.extensions.values()) == [browser]


async def test_a_tab_the_person_closes_mid_action_fails_the_action_saying_so(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    tab_id = int(tab.session_id.removeprefix("tab-"))
    waiting = asyncio.ensure_future(actions.wait(tab, text="never on this page", timeout=20))
    await asyncio.sleep(0.3)
    await chrome_call(browser, "tabs.remove", tab_id)
    with pytest.raises(TabError, match="closed"):
        await waiting
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
        document.body.innerHTML = html; 1 }""", True)
    snap = await tab.snapshot()
    assert len(snap.text) > 5_000_000
    assert "para 2599 lorem" in snap.text
    out = await actions.click(tab, parse('loc=button "The end"'))
    assert out.did.startswith("clicked")


def _environ_of(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


async def _retry(make: object, seconds: float) -> object:
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await make()  # type: ignore[operator]
        except Exception:
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
    deadline = 30
    rows: list[dict[str, object]] = []
    for _ in range(deadline * 10):
        done = subprocess.run([BIN, "browsers", "--json"], env=env, capture_output=True,
                              text=True, timeout=30, check=True)
        rows = json.loads(done.stdout)["browsers"]
        if any(r["kind"] == "extension" for r in rows):
            break
        subprocess.run(["sleep", "0.1"], check=True)
    assert [(r["name"], r["kind"], r["connected"]) for r in rows] == [
        ("chromium", "extension", True), ("launched", "launched", False)]
    opened = subprocess.run([BIN, "--browser", "chromium", "open", "about:blank"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert opened.returncode == 0, opened.stderr
    text = subprocess.run([BIN, "browsers"], env=env, capture_output=True, text=True,
                          timeout=30, check=True).stdout
    assert "chromium" in text
    assert "default, 1 tab(s)" in text
