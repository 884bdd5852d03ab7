"""What a click's report says with no look after it, where the page fetched data in reply
(fetchreplies.html): what the page changed once the answer came (a fragment swapped in as
htmx does, a toast a save's answer brings), and, where the data takes longer than a second,
that it was still loading. Run as an agent runs the tool. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import listened_snapshot, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_fragment_swapped_in_with_the_answer_is_in_the_clicks_report(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("fetchreplies.html"))
    said = (await run_tool(tab, "click", target="#load")).text
    assert await text_of(tab, "#city") == "City: Manchester"
    assert "now shows \"Alan Turing City: Manchester\"" in said, said


async def test_a_toast_a_saves_answer_brought_is_in_the_clicks_report(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("fetchreplies.html"))
    said = (await run_tool(tab, "click", target="#save")).text
    assert "sent data to" in said, said
    assert "/save" in said, said
    assert 'the page said "Saved Alan Turing"' in said, said


async def test_data_slower_than_a_second_is_said_still_loading(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("fetchreplies.html"))
    said = (await run_tool(tab, "click", target="#slow")).text
    assert "the page was still loading data after 1 s" in said, said
