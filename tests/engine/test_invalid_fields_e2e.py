"""Fields a person would see marked wrong: the snapshot shows each invalid field's error in
the page's words, and an action that a form's check stopped says which fields failed, with
their refs, and that nothing was sent."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_a_submit_the_browser_s_check_stops_names_the_fields_and_sends_nothing(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    email, age = ref(shot, "textbox", "Email"), ref(shot, "spinbutton", "Age")
    await actions.enter_text(tab, parse(age), "5", "fill")
    before = len(site.posts())
    out = await actions.click(tab, target(shot, "button", "Create account"))
    assert out.changes == [
        f'form not sent, invalid: {email} (textbox "Email") "Please fill out this field.", '
        f'{age} (spinbutton "Age") "Value must be greater than or equal to 18."'], out.text()
    assert [f["ref"] for f in out.data["invalid"]] == [email, age]
    assert site.posts()[before:] == []
    assert tab.state.url == site.url("invalid.html")


async def test_an_enter_in_a_field_that_fails_the_check_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    email = ref(shot, "textbox", "Email")
    await actions.enter_text(tab, parse(email), "bob", "fill")
    out = await actions.press(tab, "Enter", parse(email))
    assert out.changes[0].startswith(f'form not sent, invalid: {email} (textbox "Email") '
                                     "\"Please include an '@'"), out.text()
    typed = await actions.enter_text(tab, parse(email), "\n", "type")
    assert f'form not sent, invalid: {email} (textbox "Email")' in typed.text()


async def test_a_custom_element_the_check_stops_is_named_by_the_field_it_draws(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    field = ref(shot, "textbox", "Work email")
    before = len(site.posts())
    out = await actions.click(tab, target(shot, "button", "Join team"))
    assert out.changes == [f'form not sent, invalid: {field} (textbox "Work email") '
                           '"Please fill out this field."'], out.text()
    assert out.data["invalid"][0]["ref"] == field
    assert site.posts()[before:] == []


async def test_a_page_s_own_check_is_reported_with_the_words_it_shows(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    full = ref(shot, "textbox", "Full name")
    out = await actions.click(tab, target(shot, "button", "Save profile"))
    # the code field was marked before the click: not news of this one; nor is a field the
    # browser's check would fail in a form that checks itself
    assert out.changes == [f'invalid: {full} (textbox "Full name") '
                           '"Name must be at least 3 letters"'], out.text()
    await actions.enter_text(tab, parse(full), "Ada Lovelace", "fill")
    out = await actions.click(tab, target(shot, "button", "Save profile"))
    assert out.changes == ['the page now shows "saved Ada Lovelace"'], out.text()


async def test_an_invalid_field_shows_its_error_and_a_valid_one_its_help_not(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    code = ref(shot, "textbox", "Code")
    assert line_of(shot, code).endswith('[invalid] value="12" error="Code must have 6 digits"')
    assert shot.refs[code]["error"] == "Code must have 6 digits"
    # untouched, a required field is not yet wrong; a valid field's description is no error
    assert "invalid" not in line_of(shot, ref(shot, "textbox", "Email"))
    assert "error=" not in line_of(shot, ref(shot, "textbox", "Nickname"))
    await actions.click(tab, target(shot, "button", "Create account"))
    shot = await tab.snapshot(interactive=True)
    line = line_of(shot, ref(shot, "textbox", "Email"))
    assert "invalid" in line, line
    assert line.endswith('error="Please fill out this field."'), line


async def test_an_error_shown_inside_the_fields_label_is_its_error_and_no_part_of_its_name(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    city = ref(shot, "textbox", "City")
    await actions.click(tab, target(shot, "button", "Ship here"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "textbox", "City") == city
    assert line_of(shot, city).endswith('error="City is required."'), shot.text
    await actions.enter_text(tab, target(shot, "textbox", "City"), "Oslo", "fill")
    assert 'textbox "City"' in line_of(await tab.snapshot(interactive=True), city)


async def test_an_error_summary_listening_for_its_links_is_an_alert_not_a_clickable(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("invalid.html"))
    shot = await tab.snapshot(interactive=True)
    assert '- alert "There is a problem Enter your city"' in shot.text, shot.text
    assert "clickable" not in shot.text, shot.text
    await actions.click(tab, target(shot, "link", "Enter your city"))
    assert await js(tab, "document.activeElement.id") == "city"
