"""Controls as React Aria draws them: a native field kept in a box a pixel wide inside the
widget drawn for it (a switch's check box in its label, a slider's range input in its thumb)
is the control, reached where the widget is drawn; a span that names a control by id is
that control's label, no control or text of its own; a date's segments take a key at a time,
focus moving on from one to the next. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import listened_snapshot, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_field_kept_in_a_pixel_wide_box_is_the_control_its_widget_draws(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("aria_kit.html"))
    done = await actions.click(tab, parse(ref(shot, "switch", "Wi-Fi")))
    assert "now checked" in done.changes, done
    assert await text_of(tab, "#out") == "wifi true"
    await actions.enter_text(tab, parse(ref(shot, "slider", "Opacity")), "70", "fill")
    assert await text_of(tab, "#out") == "opacity 70"


async def test_a_span_naming_a_control_by_id_is_its_label_not_a_control(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("aria_kit.html"))
    assert not [r for r, info in shot.refs.items() if info["role"] == "clickable"], shot.text
    text = (await tab.snapshot()).text
    assert "> Opacity" not in text, text
    assert "> Birth date" not in text, text


async def test_a_dates_segments_take_a_key_at_a_time_as_focus_moves_on(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("aria_kit.html"))
    month = ref(shot, "spinbutton", "month Birth date")
    done = await actions.enter_text(tab, parse(month), "04251990", "type")
    went = "its keys went in one at a time, on into the 2 fields the page moved focus to"
    assert went in done.changes, done
    assert await text_of(tab, "#out") == "date 1990-04-25"


async def test_a_label_of_a_field_hidden_from_the_tree_keeps_its_words(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("aria_kit.html"))
    text = (await tab.snapshot()).text
    assert "> Start date" in text, text
