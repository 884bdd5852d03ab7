"""Web components that say what they are through their ElementInternals, labelled as a
form's fields are, with their inputs and menus in shadow roots (Material Web): listed with
their roles, names and states, and used; on both transports (through the extension the
hook that keeps what their internals say comes as the document commits, which a small
page's scripts may run before: the debugger's comes before any, pagetools.watch_listeners)."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_radio_that_speaks_through_its_internals_is_listed_named_and_checked(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot()
    small, large = ref(shot, "radio", "Small"), ref(shot, "radio", "Large")
    assert ref(shot, "radio", "Extra large")  # (named by a label's `for`)
    assert "checked" not in line_of(shot, large), shot.text
    out = await actions.click(tab, parse(large))
    assert await text_of(tab, "#out") == "size l"
    assert "now checked" in out.changes, out.text()
    shot = await tab.snapshot()
    assert "[checked" in line_of(shot, ref(shot, "radio", "Large")), shot.text
    assert "checked" not in line_of(shot, small)


async def test_fields_in_shadow_roots_take_their_hosts_labels(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot()
    assert "draggable" not in shot.text, shot.text  # (a switch's knob is no drag handle)
    await actions.check(tab, parse(ref(shot, "checkbox", "I agree")), True)
    assert await text_of(tab, "#out") == "agree true"
    await actions.check(tab, parse(ref(shot, "switch", "Wi-Fi")), True)
    assert await text_of(tab, "#out") == "wifi true"


async def test_a_switch_that_says_its_state_a_frame_later_is_checked_and_is_one_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot(interactive=True)
    # its box showing the pointer is its own, no line
    assert "- clickable @" not in shot.text, shot.text
    out = await actions.check(tab, parse(ref(shot, "switch", "Night mode")), True)
    assert "now checked" in out.changes, out.text()
    assert await text_of(tab, "#out") == "night true"


async def test_a_button_beside_a_menu_component_opens_it(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot()
    assert "[haspopup]" in line_of(shot, ref(shot, "button", "Menu")), shot.text
    await actions.select(tab, parse(ref(shot, "button", "Menu")), ["Paste"])
    assert await text_of(tab, "#out") == "menu Paste"


async def test_a_host_that_says_it_is_the_check_box_in_its_shadow_root_is_one_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot(interactive=True)
    assert [ln for ln in shot.text.splitlines() if "Dark theme" in ln] == [
        line_of(shot, ref(shot, "checkbox", "Dark theme"))], shot.text
    await actions.check(tab, parse(ref(shot, "checkbox", "Dark theme")), True)
    assert await text_of(tab, "#out") == "theme true"


async def test_a_tab_that_lets_the_pointer_through_to_its_host_is_clicked_there(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "tab", "Grid")))
    assert await text_of(tab, "#out") == "segment grid", out.text()


async def test_a_modal_drawn_in_a_shadow_root_is_modal_and_named_by_its_slotted_title(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Rename")))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open" in shot.text, shot.text
    assert '- dialog "Rename the file"' in shot.text, shot.text
    assert sorted(i["name"] for i in shot.refs.values()) == ["New name", "Save"], shot.text


async def test_a_select_holding_its_options_shows_the_chosen_one_and_its_parts_are_its_own(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the radio group listens for its radios' clicks)
    await goto(tab, site.url("wc_internals.html"))
    shot = await tab.snapshot(interactive=True)
    line = line_of(shot, ref(shot, "combobox", "Fruit"))
    assert line.endswith('value="Pear"'), shot.text
    # the part showing its value is the select's; the listening group is its radios'
    assert 'clickable "Pear"' not in shot.text, shot.text
    assert "radiogroup @" not in shot.text, shot.text
    await actions.click(tab, parse(ref(shot, "radio", "Tall")))
    assert await text_of(tab, "#out") == "size Tall"
