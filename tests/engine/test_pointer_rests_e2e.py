"""A snapshot does not depend on where the pointer rests: a row a style sheet gives a pointer
only while the pointer is over it (`.row:hover { cursor: pointer }`) is no control, and
its cells keep their refs; a menu a collapsed button opens, in a box that listens for the
pointer, is not shown until it opens; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_row_its_hover_rule_gives_a_pointer_keeps_its_cells_under_the_pointer(
        tab: Tab, site: Site) -> None:
    # (Tabulator: after a click or a hover in a row, its cells' refs were gone and the row
    # was one clickable of all their words, its menu cell out of reach)
    await watch_listeners(tab)  # (its cells are controls by their listeners)
    await goto(tab, site.url("pointerrests.html"))
    before = await tab.snapshot(interactive=True)
    await actions.hover(tab, parse(ref(before, "gridcell", "ada@example.org")))
    after = await tab.snapshot(interactive=True)
    assert after.text.replace(" [new]", "") == before.text, after.text
    assert "row @" not in after.text, after.text
    await actions.click(tab, parse(ref(after, "gridcell", "⋮")))
    assert await text_of(tab, "#out") == "menu for Ada Lovelace"


async def test_a_box_whose_pointer_is_its_own_stays_a_control_under_the_pointer(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("pointerrests.html"))
    await actions.hover(tab, parse("#report"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "clickable", "Open the report")))
    assert await text_of(tab, "#out") == "report opened"


async def test_a_menu_a_collapsed_button_opens_is_not_shown_as_one_the_pointer_shows(
        tab: Tab, site: Site) -> None:
    # (Plyr: its settings menu, hidden, read as `[hover-only]` in a bar that listens for
    # the pointer; a click on 2x was refused "not visible")
    await watch_listeners(tab)
    await goto(tab, site.url("pointerrests.html"))
    shot = await tab.snapshot(interactive=True)
    assert "menuitemradio" not in shot.text, shot.text
    await actions.click(tab, parse(ref(shot, "button", "Settings")))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "menuitemradio", "2\u00d7")))
    assert await text_of(tab, "#out") == "speed 2\u00d7"
