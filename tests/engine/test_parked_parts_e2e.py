"""Parts a page parks where a check for hidden things would drop them: the rows of a list
drawn in a box that scrolls, through a viewport laid at its top and scrolled past
(react-virtuoso), are listed with refs and the room left above and below; a multiple
select's field parked see-through under its placeholder or its chosen tags (Element
Plus's) keeps its ref and takes choices, again and again, its report saying the choice
once; a spreadsheet's closed cell editor parked under its grid stays out; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import line_of, listened_snapshot, ref, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_rows_a_scrolled_box_draws_through_a_viewport_at_its_top_are_listed(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("parkedparts.html"))
    buttons = [r for r, info in shot.refs.items() if info["name"] == "Select"]
    assert len(buttons) == 10, shot.text
    assert 'in "Entry 63"' in line_of(shot, buttons[3]), shot.text
    assert "about 2,001 px more of this scroll box above" in shot.text, shot.text
    assert "about 499 px more of this scroll box below" in shot.text, shot.text
    await run_tool(tab, "click", target=buttons[3])
    assert await text_of(tab, "#picked") == "Picked 63"


async def test_a_field_parked_under_its_placeholder_or_its_tags_takes_choice_after_choice(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("parkedparts.html"))
    field = ref(shot, "combobox", "")
    said = (await run_tool(tab, "select", target=field, values=["Viewer"])).text
    assert await text_of(tab, "#chosen") == "roles=Viewer"
    assert "value now 'Viewer'" in said, said
    assert '"combobox" now' not in said, said
    assert "the field" not in said, said
    shot = await tab.snapshot(interactive=True)  # (the field is parked under its tags now)
    field = ref(shot, "combobox", "")
    await run_tool(tab, "select", target=field, values=["Admin"])
    assert await text_of(tab, "#chosen") == "roles=Viewer,Admin"


async def test_a_closed_cell_editor_parked_under_its_grid_stays_out(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("parkedparts.html"))
    assert not [r for r, info in shot.refs.items() if info["role"] == "textbox"], shot.text
