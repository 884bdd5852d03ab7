"""Sortable lists: their items get refs, and `drag` drops an item above or below its target
as a person would, with the moves the list's own code follows, reporting the new order."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, target, text_of, watch_listeners
from tabsteward.bridge.engine import dragging
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def test_items_of_draggable_and_sortable_lists_get_refs_that_say_so(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    for name in ("Apples", "Dates", "Write report", "Celebrate", "Preheat", "Serve"):
        assert "draggable" in line_of(shot, ref(shot, "listitem", name)).split("[")[-1], name
    handles = [r for r, i in shot.refs.items() if i.get("hint") == "drag handle"]
    assert len(handles) == 4, shot.text
    assert all("draggable" in shot.refs[r]["states"] for r in handles)


async def test_an_html5_drag_down_the_list_drops_below_the_target(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Apples"),
                              target(shot, "listitem", "Cherries"))
    assert await text_of(tab, "#fruit-out") == "dropped Apples: Bananas, Cherries, Apples, Dates"
    assert " below " in out.did
    assert "the list now reads: Bananas | Cherries | Apples | Dates" in out.text()
    assert out.data["order"] == ["Bananas", "Cherries", "Apples", "Dates"]


async def test_an_html5_drag_up_the_list_drops_above_the_target(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Dates"),
                              target(shot, "listitem", "Bananas"))
    assert await text_of(tab, "#fruit-out") == "dropped Dates: Apples, Dates, Bananas, Cherries"
    assert " above " in out.did
    assert "Apples | Dates | Bananas | Cherries (it moved from 4 to 2 of 4)" in out.text()


async def test_a_pointer_event_sortable_list_is_reordered_through_its_items_handle(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Celebrate"),
                              target(shot, "listitem", "Review code"))
    assert await text_of(tab, "#tasks-out") == ("sorted: Write report, Celebrate, Review code, "
                                                "Deploy")
    assert "above" in out.did
    assert "Write report | Celebrate | Review code | Deploy" in out.text()
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Write report"),
                              target(shot, "listitem", "Review code"))
    assert await text_of(tab, "#tasks-out") == ("sorted: Celebrate, Review code, Write report, "
                                                "Deploy")
    assert "below" in out.did


async def test_a_list_whose_script_alone_listens_for_presses_and_drops_is_sortable(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Preheat"),
                              target(shot, "listitem", "Bake"))
    assert await text_of(tab, "#steps-out") == "steps: Mix, Bake, Preheat, Serve"
    assert "the list now reads: Mix | Bake | Preheat | Serve" in out.text()


async def test_a_drag_that_changes_nothing_says_the_order_did_not_change(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    # dropped onto itself: the list stays as it was, and the report says so
    out = await dragging.drag(tab, target(shot, "listitem", "Apples"),
                              target(shot, "listitem", "Apples"))
    assert "the list's order did not change" in out.text()
    assert await text_of(tab, "#fruit-out") == "dropped Apples: Apples, Bananas, Cherries, Dates"
