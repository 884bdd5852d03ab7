"""Fields as component libraries draw them (MUI's text field, select, autocomplete and
switch; Radix's select; Ant Design's tabs and calendar; a code editor): the frame around a
field that listens for clicks only to focus it, the label a script makes focus its
control, the box under a see-through input, a box that frames controls with no words of
its own and a panel focusable for its keys' sake are no controls, so each field is one
line; what a field shows while empty (a zero-width space, a placeholder) is no value; a
code editor's line numbers are no hint, and its lines stay lines; words a style sheet draws
into a wordless control name it. And a menu fading out over an invisible backdrop as it
closes, or a veil a timer armed by the last click takes away, does not turn the next click
away as covered; a veil that stays still does; a button a panel opening above it slides down
is clicked once it stands still. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, listened_snapshot, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetCovered

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_frame_that_focuses_its_field_and_a_label_that_does_are_no_controls(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedfields.html"))
    fields = [(info["role"], info["name"]) for info in shot.refs.values()][:8]
    assert fields == [("textbox", "Full name"), ("combobox", "Age"), ("combobox", "Film"),
                      ("button", "Open"), ("textbox", "When"), ("textbox", "Region"),
                      ("clickable", ""), ("switch", "Dark mode")], shot.text
    # (a calendar or an arrow in a field's box opens what the field does: no line of its
    # own; a clear button does something else)
    assert list(shot.refs.values())[6]["hint"] == "clear", shot.text
    clickables = [info["name"] for info in shot.refs.values() if info["role"] == "clickable"]
    assert clickables == ["", "Order 7", "Blue kettle", "Subscribe",
                          "Account options"], shot.text  # (a menu's trigger: it opens one)
    # the field is what a click reaches
    await actions.click(tab, parse(ref(shot, "combobox", "Age")))
    assert await js(tab, "document.activeElement.id") == "age"
    await actions.check(tab, parse(ref(shot, "switch", "Dark mode")), True)
    assert await text_of(tab, "#darkout") == "Dark mode: on"


async def test_a_card_that_listens_keeps_its_ref_beside_its_own_small_button(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedfields.html"))
    card = [r for r, info in shot.refs.items() if info["name"].startswith("Order 7")]
    assert card, shot.text
    assert ref(shot, "button", "Star")
    await actions.click(tab, parse(card[0]))
    assert await text_of(tab, "#out") == "opened order 7"


async def test_frames_around_tabs_and_a_focusable_panel_of_days_are_no_controls_a_card_is(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedfields.html"))
    lines = shot.text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith('- tab "Profile"'))
    assert lines[at + 1].startswith('- tab "Billing"'), shot.text
    assert not any("Profile Billing" in ln for ln in lines), shot.text
    await actions.click(tab, parse(ref(shot, "tab", "Billing")))
    assert await text_of(tab, "#out") == "tab Billing"
    assert not [r for r, info in shot.refs.items() if info["name"].startswith("December")]
    assert ref(shot, "clickable", "Subscribe")  # focusable, holding no control
    card = [r for r, info in shot.refs.items() if info["name"].startswith("Blue kettle")]
    assert card, shot.text  # its photo is its own: a click on it opens the product
    assert ref(shot, "button", "Add to cart")


async def test_what_an_empty_field_shows_is_no_value_and_line_numbers_no_hint(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedfields.html"))
    shot = await tab.snapshot(interactive=True)
    age = line_of(shot, ref(shot, "combobox", "Age"))
    assert "value=" not in age, age
    fruit = line_of(shot, ref(shot, "combobox", "Fruit"))
    assert "value=" not in fruit, fruit
    # a chosen one's value is its words, not its arrow hidden from assistive technology
    size = line_of(shot, ref(shot, "combobox", "Size"))
    assert size.endswith('value="Large"'), size
    # (nor its arrow an SVG's label and title name: no one sees them)
    region = line_of(shot, ref(shot, "combobox", "Region"))
    assert region.endswith('value="EU West"'), region
    code = next(ln for ln in shot.text.splitlines() if "textbox" in ln and "multiline" in ln)
    assert 'hint="1"' not in code, code
    assert ref(shot, "button", "Normal")  # the words its style sheet draws
    assert ref(shot, "button", "")  # an icon font's glyph is no word
    described = await actions.enter_text(tab, parse("#code"), "let x = 1;", "fill")
    assert 'hint="Notes"' in described.did, described.did


async def test_an_editors_lines_stay_lines_in_its_value(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedfields.html"))
    await actions.enter_text(tab, parse("#code"), "let x = 1;", "fill")
    typed = await actions.enter_text(tab, parse("#code"), "\nlet y = 2;", "type")
    assert "value now 'let x = 1;\\nlet y = 2;'" in typed.text(), typed.text()
    shot = await tab.snapshot(interactive=True)
    assert 'value="let x = 1;\\nlet y = 2;"' in shot.text, shot.text


async def test_a_menu_fading_out_over_its_backdrop_does_not_turn_the_next_click_away(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedfields.html"))
    await actions.click(tab, parse("#more"))
    await actions.click(tab, parse("text=Archive"))
    assert await text_of(tab, "#out") == "archived"
    assert await js(tab, "!!document.querySelector('.menu')")  # still fading
    await actions.click(tab, parse("#save"))
    assert await text_of(tab, "#out") == "saved"
    assert await js(tab, "document.querySelector('.menu')") is None


async def test_a_veil_a_timer_armed_by_the_last_click_takes_away_is_waited_for(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the hook that counts the page's timers)
    await goto(tab, site.url("framedfields.html"))
    await actions.click(tab, parse("#busy"))
    assert await js(tab, "!!document.getElementById('wait')")  # nothing animates
    await actions.click(tab, parse("#save"))
    assert await text_of(tab, "#out") == "saved"


async def test_a_veil_that_stays_still_covers_what_lies_under_it_and_nothing_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedfields.html#veiled"))
    with pytest.raises(TargetCovered, match="div#veil"):
        await actions.click(tab, parse("#save"))
    assert await text_of(tab, "#out") == ""


async def test_a_button_a_panel_opening_above_slides_down_is_clicked_once_it_stands_still(
        tab: Tab, site: Site) -> None:
    # (a press on a point it is leaving, with its release on what comes there, clicks
    # nothing; the page here says whether it still slid when the click came)
    await goto(tab, site.url("sliding.html"))
    for opened in (True, False):
        await actions.click(tab, parse("#toggle"))
        assert await js(tab, "document.getAnimations().length") == 1
        await actions.click(tab, parse("#save"))
        assert await text_of(tab, "#out") == "saved"
        assert await js(tab, "document.getElementById('details').classList.contains('open')"
                        ) is opened


async def test_a_button_is_clicked_while_an_animation_that_does_not_move_it_runs_on(
        tab: Tab, site: Site) -> None:
    # (a progress bar fills for 5 s: the button stands still, and two looks say so)
    await goto(tab, site.url("sliding.html"))
    await actions.click(tab, parse("#upload"))
    out = await actions.click(tab, parse("#note"))
    assert out.did.endswith('(button "Add a note")'), out.text()
    assert await text_of(tab, "#noted") == "noted"
    assert await js(tab, "document.getAnimations().length") == 1  # the bar fills on
