"""What enterprise kits draw: a grid's row boxes with no size of their own, clipped by their
cells and drawn by a frame beside them, are checked there; a tab's hidden panels in a box
that listens for the pointer are no controls shown under it. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, run_tool, target, text_of, value_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = pytest.mark.browser


async def test_a_grids_row_box_clipped_by_its_cell_is_checked_where_its_frame_is_drawn(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitpanels.html"))
    out = await actions.check(tab, parse("#bolido"), True)
    assert out.changes == ["now checked", 'the page now shows "1 selected"'], out.text()
    assert await text_of(tab, "#selected") == "1 selected"


async def test_a_tabs_hidden_panels_in_a_box_listening_for_the_pointer_are_not_listed(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitpanels.html"))
    shot = await tab.snapshot(interactive=True)
    for hidden in ("Reset everything", "Purge the cache", "hover-only"):
        assert hidden not in shot.text, shot.text
    shown = await run_tool(tab, "click", target="#tab-two", interactive=True)
    assert 'button "Reset everything" @' in shown.text, shown.text
    assert "hover-only" not in shown.text


async def test_a_counter_is_filled_in_its_field_and_a_box_shows_the_choice_its_field_holds(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitpanels.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.enter_text(tab, target(shot, "spinbutton", "Quantity"), "5", "fill")
    assert out.changes == ["value now '5'"], out.text()
    assert await value_of(tab, "#quantity") == "5"
    assert 'value="Germany"' in line_of(shot, ref(shot, "combobox", "Country")), shot.text


async def test_a_counter_no_key_reaches_and_with_no_field_is_refused_saying_so(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitpanels.html"))
    shot = await tab.snapshot(interactive=True)
    with pytest.raises(TargetNotInteractable, match="takes no focus, so no key reaches it; "
                       "nothing was done"):
        await actions.enter_text(tab, target(shot, "spinbutton", "Guests"), "5", "fill")
