"""Names and values as the browser's accessibility tree has them, where a walk of the DOM
alone gets them wrong: words a line break parts, a tree item or menu item named by its own
words rather than by the items it holds, and how far a progress bar or a meter is."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def lines(tab: Tab, site: Site) -> list[str]:
    await goto(tab, site.url("names.html"))
    shot = await tab.snapshot()
    return [ln.strip() for ln in shot.text.splitlines()]


def line_starting(found: list[str], start: str) -> str:
    hits = [ln for ln in found if ln.startswith(start)]
    assert len(hits) == 1, (start, found)
    return hits[0]


async def test_a_line_break_parts_the_words_of_a_name(tab: Tab, site: Site) -> None:
    assert line_starting(await lines(tab, site), '- button "Add to cart" @')


async def test_a_tree_item_and_a_menu_item_are_named_by_their_own_words(
        tab: Tab, site: Site) -> None:
    found = await lines(tab, site)
    assert line_starting(found, '- treeitem "src" @')
    assert line_starting(found, '- treeitem "App.tsx" @')
    assert line_starting(found, '- menuitem "Share" @')
    assert line_starting(found, '- menuitem "By email" @')


async def test_a_progress_bar_or_a_meter_says_how_far_it_is(tab: Tab, site: Site) -> None:
    found = await lines(tab, site)
    assert '- progressbar "Upload" value="30%"' in found, found
    assert '- progressbar "Steps" value="3 of 4"' in found, found
    assert '- progressbar "Sync" value="45%"' in found, found
    assert '- progressbar "Import" value="2 files of 9"' in found, found
    assert '- meter "Disk" value="60%"' in found, found
    assert '- progressbar "Loading"' in found, found  # busy: it measures nothing


async def test_a_field_is_named_by_its_label_not_by_a_date_pickers_instructions(
        tab: Tab, site: Site) -> None:
    found = await lines(tab, site)
    assert line_starting(found, '- textbox "Check-out" @')
    assert not [ln for ln in found if "arrow keys" in ln], found


async def test_a_label_beside_a_field_naming_no_control_hints_it_where_it_is_alone(
        tab: Tab, site: Site) -> None:
    # (Materialize: the label after the field, drawn above it; its select's field in a box
    # of its own, the page's select kept beside it in a box of no size)
    await goto(tab, site.url("besidelabels.html"))
    shot = await tab.snapshot(interactive=True)
    hints = [info.get("hint") for info in shot.refs.values()]
    assert "City" in hints, shot.refs
    assert "Fruit" in hints, shot.refs
    # beside two fields, it names neither (nor does the header before them)
    assert "Pair" not in hints, shot.refs
    assert "Name Age" not in hints, shot.refs
