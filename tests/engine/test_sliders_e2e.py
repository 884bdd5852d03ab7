"""Sliders and spin buttons a page draws itself take a number by `fill`: their keys are
pressed, as a person without a mouse sets them, until they show it; a number they cannot
take is refused before any key is pressed."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, target, text_of
from tabsteward.bridge.engine.entry import enter_text
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import UsageError

pytestmark = pytest.mark.browser


async def test_fill_sets_a_page_s_own_slider_and_spin_button_by_their_keys(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sliders.html"))
    shot = await tab.snapshot(interactive=True)
    # (a track that shows a grab hand around its thumb is the slider's, nothing to drag)
    assert [i["role"] for i in shot.refs.values()] == ["slider"] * 4 + ["spinbutton"], shot.text
    out = await enter_text(tab, target(shot, "slider", "Brightness"), "7", "fill")
    assert out.changes == ["value now '7'", 'the page now shows "Brightness=7 Zoom=50 Speed=0 '
                           'Warmth=2 Guests=2"'], out.text()
    await enter_text(tab, target(shot, "slider", "Brightness"), "0", "fill")  # its Home key
    # a slider that takes only Up and Down, 5 at a time, and a spin button
    await enter_text(tab, target(shot, "slider", "Zoom"), "35", "fill")
    await enter_text(tab, target(shot, "spinbutton", "Guests"), "5", "fill")
    assert await text_of(tab, "#out") == "Brightness=0 Zoom=35 Speed=0 Warmth=2 Guests=5"
    # one that says its value a frame after each key is read then, not taken as stuck
    out = await enter_text(tab, target(shot, "slider", "Warmth"), "6", "fill")
    assert out.changes[0] == "value now '6'", out.text()


async def test_a_slider_whose_steps_pass_the_number_stops_as_near_as_it_goes_saying_so(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sliders.html"))
    shot = await tab.snapshot(interactive=True)
    out = await enter_text(tab, target(shot, "slider", "Speed"), "7", "fill")
    assert out.changes == ["value now '9'", "it stopped at 9, not 7, after 3 key presses: "
                           "the page takes it no nearer", 'the page now shows "Brightness=3 '
                           'Zoom=50 Speed=9 Warmth=2 Guests=2"'], out.text()
    assert await text_of(tab, "#out") == "Brightness=3 Zoom=50 Speed=9 Warmth=2 Guests=2"


@pytest.mark.parametrize(("text", "said"), [
    ("11", r"takes 0 to 10; 11 is outside, and nothing was done"),
    ("-1", r"takes 0 to 10; -1 is outside, and nothing was done"),
    ("bright", r"takes a number; 'bright' is not one, and nothing was done"),
    ("nan", r"takes a number; 'nan' is not one, and nothing was done"),
])
async def test_a_number_a_slider_cannot_take_is_refused_before_any_key(
        tab: Tab, site: Site, text: str, said: str) -> None:
    await goto(tab, site.url("sliders.html"))
    shot = await tab.snapshot(interactive=True)
    with pytest.raises(UsageError, match=said):
        await enter_text(tab, target(shot, "slider", "Brightness"), text, "fill")
    assert await text_of(tab, "#out") == "untouched"


async def test_a_wheel_that_states_its_value_only_in_words_is_set_by_its_keys_either_way(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("yearwheel.html"))
    shot = await tab.snapshot(interactive=True)
    out = await enter_text(tab, target(shot, "slider", "Select a year"), "1990", "fill")
    assert out.changes == ["value now '1990'", 'the page now shows "Year: 1990"'], out.text()
    assert await text_of(tab, "#out") == "Year: 1990"
    await enter_text(tab, target(shot, "slider", "Select a year"), "1994", "fill")
    assert await text_of(tab, "#out") == "Year: 1994"
