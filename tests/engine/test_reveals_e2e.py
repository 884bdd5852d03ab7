"""A list of plain items an action shows (reveals.html: a combobox of the page's own making,
Alpine's, with no roles) is said with its count and its first items: a short one is quoted
whole, a long one was said nothing of; an Enter that picks says the field's value and the
words that came, not the same words as gone with the list that closed. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, listened_snapshot, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_long_list_that_came_is_said_with_its_count_and_first_items(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("reveals.html"))
    said = (await run_tool(tab, "click", target="#country")).text
    assert 'the page now shows a list of 8 items: "Argentina", "Australia", "Austria" and 5 ' \
           "more" in said, said
    await run_tool(tab, "click", target="text=Brazil")
    assert await text_of(tab, "#picked") == "Brazil"


async def test_an_enter_that_picks_says_the_value_and_not_the_same_words_gone(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("reveals.html"))
    said = (await run_tool(tab, "press", target="#land", keys="Enter")).text
    assert await js(tab, "document.getElementById('land').value") == "Switzerland"
    assert "value now 'Switzerland'" in said, said
    assert 'the page now shows "Switzerland"' in said, said
    assert "no longer shows" not in said, said
