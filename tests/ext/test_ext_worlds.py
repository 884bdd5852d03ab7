"""The page helper over the real extension lives in the extension's own isolated world, so
its element ids, and the refs agents hold, outlive the debugger session that gave them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator

import pytest
from extension_env import ExtensionHub, chrome_call
from fixture_server import Site
from looprunner import LoopThread
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
HOST_RULES = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , "
              "EXCLUDE 127.0.0.2")


@pytest.fixture
def ext_hub(loop: LoopThread, request: pytest.FixtureRequest) -> Iterator[ExtensionHub]:
    """A hub for extension browsers; an indirect param sets idle detach (default 1 s)."""
    hub = ExtensionHub([HOST_RULES], idle_detach=getattr(request, "param", 1))
    loop.run(hub.start(), timeout=30)
    yield hub
    loop.run(hub.close(), timeout=60)


async def until(check: Callable[[], Awaitable[bool]], seconds: float, what: str) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)
    assert await check(), what


async def attached(browser: Browser, tab: Tab) -> bool:
    """What Chrome says: whether a debugger is attached to the tab now."""
    tab_id = int(tab.session_id.removeprefix("tab-"))
    targets = await chrome_call(browser, "debugger.getTargets")
    return any(t.get("tabId") == tab_id and t["attached"] for t in targets)


async def let_go(browser: Browser, tab: Tab) -> None:
    async def detached() -> bool:
        return not await attached(browser, tab)
    await until(detached, 15, "the idle tab kept its debugger")


async def test_refs_outlive_the_debugger_session_that_gave_them_in_every_frame(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("frames.html"))
    first = await tab.snapshot()
    assert "Cross origin frame" in first.text
    numbered = dict(tab._by_key)
    await let_go(browser, tab)
    second = await tab.snapshot()  # a new debugger session
    assert await attached(browser, tab)
    assert second.refs == first.refs
    assert second.text == first.text
    assert tab._by_key == numbered  # no element got a second number


async def test_a_ref_from_before_an_idle_detach_acts_on_its_own_element(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    snap = await tab.snapshot(interactive=True)
    email = next(ref for ref, row in snap.refs.items() if row.get("name") == "Email")
    await let_go(browser, tab)
    await actions.enter_text(tab, parse(f"@{email.lstrip('@')}"), "a@b.org", "fill")
    again = await tab.snapshot(interactive=True)
    assert again.refs[email]["name"] == "Email"
    assert "a@b.org" in again.text
    assert set(again.refs) == set(snap.refs)
