"""Refs across a list's keyed changes: a control whose row was deleted keeps its ref dead
(an action on it is refused naming the row it was in), though a row with controls of the
same name came in at the end, whose controls get refs of their own, marked new; a row
drawn anew in place, as it was, keeps its refs; a control whose id a kit counts per
render (Radix's, AG Grid's) is located by its row, not that id; a dialog's Close is not the
Close of a toast that came as the dialog went: its ref dies with it; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import line_of, listened_snapshot, ref, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import RefNotFound

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def ref_in(text: str, card: str) -> str:
    line = next(ln for ln in text.splitlines() if "checkbox" in ln and f'in "{card}' in ln)
    return next(w for w in line.split() if w.startswith("@"))


async def test_a_deleted_rows_control_keeps_its_ref_dead_though_a_like_row_came(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("keyedrows.html"))
    gone = ref_in(shot.text, "monserrat")
    await run_tool(tab, "click", target="#delete")
    after = await tab.snapshot(interactive=True)
    came = ref_in(after.text, "jason")
    assert came != gone, after.text
    assert "[new]" in line_of(after, came), after.text
    with pytest.raises(RefNotFound, match=r'in "monserrat@example\.com" finds nothing'):
        await run_tool(tab, "check", target=gone)
    assert await text_of(tab, "#log") == "checked: none"


async def test_rows_drawn_anew_as_they_were_keep_their_refs(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("keyedrows.html"))
    kept = ref_in(shot.text, "abe")
    await run_tool(tab, "click", target="#redraw")
    after = await tab.snapshot(interactive=True)
    assert ref_in(after.text, "abe") == kept, after.text
    await run_tool(tab, "check", target=kept)
    assert await text_of(tab, "#log") == "checked: abe true"


async def test_a_control_whose_id_a_kit_counts_per_render_is_located_by_its_row(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("keyedrows.html"))
    line = next(ln for ln in shot.text.splitlines() if 'button "Open menu"' in ln and
                'in "abe@example.com"' in ln)
    assert "radix" not in line, line
    boxes = [ln for ln in shot.text.splitlines() if 'checkbox "Select row"' in ln]
    assert 'in "abe@example.com"' in boxes[1], boxes
    assert not [ln for ln in boxes if "#ag-" in ln], boxes


async def test_a_dialogs_close_is_not_the_close_of_the_toast_that_came_as_it_went(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("keyedrows.html"))
    await run_tool(tab, "click", target="#delete-file")
    shot = await tab.snapshot(interactive=True)
    close = ref(shot, "button", "Close")
    await run_tool(tab, "click", target=ref(shot, "button", "Delete"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "button", "Close") != close, shot.text
    with pytest.raises(RefNotFound, match="stands elsewhere"):
        await run_tool(tab, "click", target=close)
    assert await text_of(tab, "#file-log") == ""
