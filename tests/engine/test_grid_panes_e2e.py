"""Grids and rows as frameworks write them: a grid with frozen panes draws a row in several
places (Handsontable's clones of its header row and row headers, a column pinned in a
container of its own) and is read as one line per row in aria-rowindex order, with the
controls of every pane under it; a row's words that a framework wrote as two text nodes
(`Invoice {n}`) name its card as one; page sections that only have ids are no cards; a
grid's listening panes, sizeless ones too, are no controls; a list's items' words are no hint
for the list. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, listened_snapshot, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def _lines(text: str, first: str, count: int) -> list[str]:
    lines = [ln.strip() for ln in text.splitlines()]
    at = lines.index(first)
    return lines[at:at + count]


async def test_a_row_drawn_in_several_panes_of_its_grid_is_one_line_in_row_order(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("frozen_grid.html"))
    text = (await tab.snapshot()).text
    assert _lines(text, '- treegrid "Stock"', 5) == [
        '- treegrid "Stock"', "- header |  | Item | Count | Shelf |",
        "- row | 1 | Bolts | 40 | A3 |", "- row | 2 | Nuts | 75 | B1 |",
        "- row | 3 | Washers | 12 | C7 |"], text
    assert _lines(text, '- grid "People"', 6) == [
        '- grid "People"', "- header | Pick | Name | City |", "- row |  | Ada | London |",
        '- checkbox "Select Ada" @1', "- row |  | Alan | Wilmslow |",
        '- checkbox "Select Alan" @2'], text
    assert text.count("Bolts") == 1, text
    assert text.count("| Item |") == 1, text


async def test_the_interactive_snapshot_gives_a_rows_control_the_words_of_all_its_panes(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("frozen_grid.html"))
    lines = [ln.strip() for ln in (await tab.snapshot(interactive=True)).text.splitlines()]
    assert "- row |  | Alan | Wilmslow |" in lines, lines
    # the pane with the words comes first, the one with the button after it
    assert lines[lines.index("- row | Order 7 | Cancel |") + 1].startswith(
        '- button "Cancel"'), lines


async def test_a_control_in_a_pinned_pane_acts_from_under_its_rows_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("frozen_grid.html"))
    shot = await tab.snapshot()
    done = await actions.check(tab, parse(ref(shot, "checkbox", "Select Alan")), True)
    assert "now checked" in done.changes, done
    assert await text_of(tab, "#out") == "Select Alan"
    await actions.click(tab, parse(ref(shot, "button", "Cancel")))
    assert await text_of(tab, "#out") == "Order 7 cancelled"


async def test_a_rows_words_written_as_two_text_nodes_name_its_card_as_one(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("split_words.html"))
    shot = await tab.snapshot(interactive=True)
    pays = [ln.strip() for ln in shot.text.splitlines() if '"Pay"' in ln]
    assert [p.split(" in ", 1)[1] for p in pays] == [
        f'"Invoice {i}"' for i in range(5)], shot.text
    await actions.click(tab, parse('loc=button "Pay" in "Invoice 3"'))
    assert await text_of(tab, "#out") == "Invoice 3"


async def test_page_sections_that_only_have_ids_are_no_cards(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("split_words.html"))
    text = (await tab.snapshot()).text
    assert "group" not in text, text
    assert '- button "Start"' in text, text
    assert '- button "Contact us"' in text, text


async def test_a_grids_listening_panes_are_no_controls_and_its_cells_are_clicked_by_words(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("frozen_grid.html"))
    assert [info["name"] for info in shot.refs.values()] == [
        "Select Ada", "Select Alan", "Cancel"], shot.text
    await actions.click(tab, parse("text=Nuts"))
    assert await text_of(tab, "#out") == "cell Nuts"


async def test_a_listening_list_takes_no_hint_from_its_items_handles(
        tab: Tab, site: Site) -> None:
    # (its items alike take its clicks: each is a ref of its own, the list none)
    shot = await listened_snapshot(tab, site.url("split_words.html"))
    assert not [ln for ln in shot.text.splitlines() if ln.strip().startswith("- list ")], \
        shot.text
    assert "hint=" not in shot.text, shot.text
    assert ref(shot, "listitem", "☰ Write notes"), shot.text
