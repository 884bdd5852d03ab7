"""The Network domain stays on between an agent's actions (cdp/kept_network.py): a click
after the first pays no trip to switch it on, still hears what its handler posts, and a page
load the agent asked for is not reported as data the agent's action sent."""

from __future__ import annotations

import asyncio

import pytest
from fixture_server import Site
from pagetools import browser_calls, goto, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def posts_reach(site: Site, path: str, count: int) -> int:
    """How many POSTs to `path` the site received, once `count` came (or 5 s went): the page
    sends them without waiting, and the action reports them as they leave the page."""
    for _ in range(100):
        if len(site.posts(path)) >= count:
            break
        await asyncio.sleep(0.05)
    return len(site.posts(path))


async def test_a_second_click_sends_no_network_enable_and_still_hears_its_post(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("posts_on_load.html"))
    shot = await tab.snapshot()
    before = len(site.posts("/api/save"))
    first = await actions.click(tab, target(shot, "button", "Remember"))
    sent = [f"{site.origin}/api/save"]
    assert first.data["sent_to"] == sent
    methods = browser_calls(tab)
    second = await actions.click(tab, target(shot, "button", "Remember"))
    assert second.data["sent_to"] == sent
    assert "Network.enable" not in methods, methods
    assert "Network.disable" not in methods, methods
    assert await posts_reach(site, "/api/save", before + 2) >= before + 2


async def test_a_reload_right_after_a_click_does_not_report_the_page_load_s_posts(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("posts_on_load.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Remember"))  # Network on, and kept
    loads = len(site.posts("/api/hello"))
    out = await actions.reload(tab)
    assert "sent data" not in out.text(), out.text()
    assert "sent_to" not in out.data
    # the page did post, as it loaded
    assert await posts_reach(site, "/api/hello", loads + 1) >= loads + 1
