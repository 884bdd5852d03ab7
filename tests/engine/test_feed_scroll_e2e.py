"""A scroll draws the page once, hidden or not, and waits for the data it had the page
fetch: a feed scrolled to its end shows its next stories, whether it watches its end with
an IntersectionObserver or a scroll listener; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, run_tool, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("by", ["observer", "scroll"])
async def test_scrolling_a_feed_to_its_end_brings_in_its_next_stories(
        tab: Tab, site: Site, by: str) -> None:
    await goto(tab, site.url(f"infinite.html?by={by}"))
    assert "Story 21" not in (await tab.snapshot()).text
    out = await actions.scroll(tab, None, 0, 5000)
    assert out.text().startswith("scrolled the page to y=")
    shot = await tab.snapshot()
    assert "Story 40" in shot.text
    assert "Story 41" not in shot.text  # one page of stories per scroll, as on screen
    scrolled = await run_tool(tab, "scroll", dy=5000, interactive=False, snapshot=True)
    assert "Story 60" in scrolled.text


async def test_a_scroll_that_moves_nothing_draws_nothing_and_says_so(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("infinite.html"))
    out = await actions.scroll(tab, None, 0, -300)
    assert out.text().startswith("nothing scrolled: the page is at its end that way")
    assert "Story 21" not in (await tab.snapshot()).text


async def test_a_scroll_whose_data_never_comes_says_so_after_the_wait(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabsteward.bridge.engine import pointer
    monkeypatch.setattr(pointer, "ANSWERS_WAIT", 0.05)
    await goto(tab, site.url("infinite.html"))
    out = await actions.scroll(tab, None, 0, 5000)
    assert out.text().endswith("the page was still loading data after 0.05 s")
    assert "Loading more..." in (await tab.snapshot()).text


async def test_a_scroll_waits_for_the_timer_an_observer_of_the_feeds_end_armed(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the hook before the page's own script makes its observer)
    await goto(tab, site.url("endlessfeed.html"))
    scrolled = await run_tool(tab, "scroll", dy=3000, interactive=True)
    assert "Post 9" in scrolled.text, scrolled.text
