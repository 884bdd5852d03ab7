"""`text --markdown` writes a data table as markdown does: a line a row with its cells in
order, a line of dashes under its header row; spans keep each value under its header, a
table in a cell is "[table]" there with its rows after; an ARIA grid drawn in several panes
is one line a row, in aria-rowindex order; a layout table stays text. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def markdown_of(tab: Tab, site: Site, page: str) -> str:
    await goto(tab, site.url(page))
    return await actions.read(tab, "markdown")


async def test_a_tables_rows_are_lines_of_cells_under_a_line_of_dashes(
        tab: Tab, site: Site) -> None:
    md = await markdown_of(tab, site, "tables.html")
    assert "\n| Gender | Female |\n" in md, md
    assert "| Note | Likes a \\| b tables |" in md  # a cell's own bar is no column's
    assert ("| Name | Email | Role | Actions |\n| --- | --- | --- | --- |\n"
            "| [Grace Hopper](") in md, md
    assert "|  |  |  |  |" not in md  # an empty row is left out
    # an ARIA grid's rows alike, its header row of columnheaders
    assert "| File | Size |\n| --- | --- |\n| notes.txt | 2 KB |\n| photo.jpg | 3 MB |" in md


async def test_a_layout_table_stays_text(tab: Tab, site: Site) -> None:
    md = await markdown_of(tab, site, "tables.html")
    assert "Layout left" in md
    assert "| Layout left" not in md, md


async def test_spanned_cells_keep_values_under_their_headers_and_an_inner_table_follows(
        tab: Tab, site: Site) -> None:
    md = await markdown_of(tab, site, "tables-real.html")
    assert ("| Group | Key | Value |\n| --- | --- | --- |\n| Size | Width | 10 cm |\n"
            "| Size | Height | 20 cm |\n") in md, md
    assert ("| #1 | [table] | 9.00 |\n| Item | Qty |\n| --- | --- |\n| Pen | 2 |\n"
            "| Ink | 1 |\n| #2 | Paper | 3.00 |") in md, md
    # rows drawn by CSS (display: table-row) with a header group
    assert "| Plan | Price |\n| --- | --- |\n| Basic | $5 |" in md, md


async def test_a_grid_drawn_in_panes_is_one_line_a_row_in_its_row_order(
        tab: Tab, site: Site) -> None:
    md = await markdown_of(tab, site, "frozen_grid.html")
    assert ("|  | Item | Count | Shelf |\n| --- | --- | --- | --- |\n| 1 | Bolts | 40 | A3 |\n"
            "| 2 | Nuts | 75 | B1 |\n| 3 | Washers | 12 | C7 |\n") in md, md
    assert "| Pick | Name | City |\n| --- | --- | --- |\n| [ ] | Ada | London |" in md, md
    assert "| Order | Act |\n| --- | --- |\n| Order 7 | Cancel |" in md, md
