"""What an action did to a list the page draws anew (redraws.html): a page of a table whose
rows carry classes of their own by turns (striped) for another is rows replaced; rows taken
out and put back as they stood, with more (DataTables' longer page), are rows added, not
put in another order, while the same put back in another order (its sort) are; a list of
chips drawn anew, every one, with one more (Select2's) names the one added. Both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, listened_snapshot, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_page_of_striped_rows_for_another_says_the_rows_were_replaced(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("redraws.html"))
    said = (await run_tool(tab, "click", target="#page2")).text
    assert await js(tab, "document.querySelector('#customers td').textContent") == \
        "Customer 7"
    assert "6 items of a list replaced by 6 others" in said, said


async def test_rows_put_back_as_they_stood_with_more_are_rows_added_not_reordered(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("redraws.html"))
    said = (await run_tool(tab, "select", target="#len", values=["8"])).text
    assert await js(tab, "document.getElementById('staff').rows.length") == 8
    assert "3 items added to a list" in said, said
    assert "another order" not in said, said


async def test_the_same_rows_put_back_in_another_order_are_said_reordered(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("redraws.html"))
    said = (await run_tool(tab, "click", target="#sort")).text
    assert await js(tab, "document.querySelector('#staff td').textContent") == "Ada"
    assert "in another order" in said, said
    assert "added" not in said, said


async def test_chips_drawn_anew_with_one_more_name_the_one_added(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("redraws.html"))
    said = (await run_tool(tab, "type", target="#tag", text="urgent\n")).text
    assert await js(tab, "[...document.querySelectorAll('.chip')].map(c => c.textContent)") \
        == ["orange", "urgent"]
    assert '1 item added to a list: "urgent"' in said, said
