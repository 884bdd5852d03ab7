"""A snapshot does not depend on where the pointer rests: a row a style sheet gives a pointer
only while the pointer is over it (`.row:hover { cursor: pointer }`) is no control, and
its cells keep their refs; a menu a collapsed button opens, in a box that listens for the
pointer, is not shown until it opens; an item the page draws anew in its place keeps its
ref and says how it changed; the items of a box that takes their clicks are clickables of
their own; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, run_tool, text_of, watch_listeners
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


async def test_an_item_the_page_draws_anew_keeps_its_ref_and_says_how_it_changed(
        tab: Tab, site: Site) -> None:
    # (jstree: `click -i` on a folder said "it is no longer in the page", and the folder
    # came back [new] under another ref)
    await goto(tab, site.url("redrawn.html"))
    shot = await tab.snapshot(interactive=True)
    docs = ref(shot, "treeitem", "docs")
    out = await run_tool(tab, "click", target=docs, interactive=True)
    assert "it was drawn anew; now expanded selected" in out.text, out.text
    assert "no longer in the page" not in out.text, out.text
    shot = await tab.snapshot(interactive=True)
    assert line_of(shot, docs).endswith("[expanded selected]"), shot.text
    assert ref(shot, "treeitem", "guide.md")


async def test_the_items_of_a_box_that_takes_their_clicks_are_clickables_of_their_own(
        tab: Tab, site: Site) -> None:
    # (one listener on a list or a strip of thumbnails: one ref for all of it, whose click
    # landed on the middle item, "Thumbnail 1 Thumbnail 2 Thumbnail 3")
    await watch_listeners(tab)
    await goto(tab, site.url("itemsheard.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "listitem", "Cherry")))
    assert await text_of(tab, "#out") == "fruit Cherry"
    await actions.click(tab, parse(ref(shot, "clickable", "Blue")))
    assert await text_of(tab, "#out") == "photo Blue"
    assert 'clickable "Weekly report Sales are up"' in shot.text, shot.text  # (a card: one)
