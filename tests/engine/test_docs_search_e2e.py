"""A docs site's search and code blocks: results a search in a modal dialog offers as keys
are typed are said, as they are outside one; the result its arrows reach, marked by the
field's `aria-activedescendant` on a list drawn anew at each key, is said selected; a Copy
button's success mark inside itself is its own change, no message of the page; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import listened_snapshot, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_results_a_search_in_a_modal_offers_are_said(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("docsearch.html"))
    said = (await run_tool(tab, "type", target="#q", text="in")).text
    assert "2 options" in said, said
    assert '"Installation" now selected' in said, said


async def test_the_result_the_arrows_reach_is_said_selected(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("docsearch.html"))
    await run_tool(tab, "type", target="#q", text="in")
    said = (await run_tool(tab, "press", keys="ArrowDown")).text
    assert '"Introduction" now selected' in said, said


async def test_a_copy_buttons_success_mark_is_no_message_of_the_page(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("docsearch.html"))
    said = (await run_tool(tab, "click", target=".copyButton")).text
    assert 'now named "Copied"' in said, said
    assert "the page said" not in said, said
