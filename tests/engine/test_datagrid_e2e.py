"""A data grid as AG Grid draws one (datagrid.html): its check boxes are see-through inputs
laid over the boxes their wrappers draw, out of the tab order, and are the grid's check
boxes, not a widget's field left behind; its keyboard edges (empty, sizeless focus guards)
are no controls; a sortable header whose label takes the click is one control; an icon a
component kit names by its own class (`ag-icon-filter`, `el-icon-delete`, `pi-trash`) and a
column's resize handle get hints; a row's locator names its own words, not the row above,
though the first row carries a state class of its own; a range input kept clipped inside
the thumb drawn for it (MUI's slider) is filled there; a box that says role=checkbox around
the native check box or switch it draws (PrimeReact's) is no second line. Both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, line_of, listened_snapshot, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_grids_see_through_check_boxes_are_its_own_and_checking_one_works(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    boxes = [(info["name"], "[checked disabled]" in line_of(shot, r))
             for r, info in shot.refs.items()
             if info["role"] == "checkbox" and info["name"] != "Send reports"]
    assert boxes == [("Select all rows", False), ("Select Toyota", False),
                     ("Electric", True), ("Select Ford", False), ("Electric", False)], shot.text
    done = await actions.check(tab, parse(ref(shot, "checkbox", "Select Ford")), True)
    assert "now checked" in done.changes, done
    assert await text_of(tab, "#out") == "Select Ford on"


async def test_a_grids_focus_guards_are_no_controls(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    assert await js(tab, "document.getElementById('guard-top').tabIndex") == 0
    nameless = [line_of(shot, r) for r, info in shot.refs.items()
                if info["role"] == "clickable" and not info["name"]]
    # the resize handle and the three icons; never the guards
    assert len(nameless) == 4, shot.text
    assert all("hint=" in ln for ln in nameless), shot.text


async def test_a_sortable_header_whose_label_listens_is_one_control_and_sorts(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    make = [r for r, info in shot.refs.items() if info["name"] == "Make"]
    assert len(make) == 1, shot.text
    assert shot.refs[make[0]]["role"] == "columnheader", shot.text
    await actions.click(tab, parse(make[0]))
    assert await text_of(tab, "#out") == "sorted ascending"
    await actions.click(tab, parse(make[0]))
    assert await text_of(tab, "#out") == "sorted descending"


async def test_a_sortable_headers_label_keeps_its_ref_when_the_header_holds_a_control(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    price = [r for r, info in shot.refs.items() if info["name"] == "Price"]
    assert len(price) == 1, shot.text
    assert shot.refs[price[0]]["role"] == "clickable", shot.text
    out = await actions.click(tab, parse(price[0]))
    assert await text_of(tab, "#out") == "price sorted"
    # (the label is the header's words: how its header says the rows are sorted is its)
    assert "now sort=ascending" in out.changes, out.text()
    assert "sort=ascending" in line_of(await tab.snapshot(), price[0])


async def test_a_kits_icon_classes_and_a_resize_handle_give_hints(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    hints = {}
    for r in shot.refs:
        line = line_of(shot, r)
        if 'hint="' in line:
            hints[line.split('hint="', 1)[1].split('"', 1)[0]] = r
    assert set(hints) == {"resize", "filter", "delete", "trash"}, shot.text
    await actions.click(tab, parse(hints["trash"]))
    assert await text_of(tab, "#out") == "tool t3"


async def test_a_rows_locator_names_its_own_words_not_the_row_above(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    electric = [line_of(shot, r) for r, info in shot.refs.items() if info["name"] == "Electric"]
    assert [ln.rsplit(" in ", 1)[-1] for ln in electric] == ['"Toyota"', '"Ford"'], shot.text


async def test_a_range_input_kept_clipped_in_its_thumb_is_filled_there(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    done = await actions.enter_text(tab, parse(ref(shot, "slider", "Volume")), "70", "fill")
    assert "value now '70'" in done.changes, done
    assert await text_of(tab, "#out") == "Volume 70"


async def test_a_box_that_says_checkbox_around_a_native_one_is_no_second_line(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("datagrid.html"))
    toggles = [(info["role"], info["name"]) for info in shot.refs.values()
               if info["name"] in ("Send reports", "Notifications", "")
               and info["role"] in ("checkbox", "switch")]
    assert toggles == [("checkbox", "Send reports"), ("switch", "Notifications")], shot.text
    await actions.check(tab, parse(ref(shot, "switch", "Notifications")), True)
    assert await js(tab, "document.getElementById('notify').checked") is True
