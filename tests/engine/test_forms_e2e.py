"""Text entry (inputs, textareas, contenteditable, React-like fields), keys, selects, checks."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import (
    browser_calls,
    goto,
    js,
    line_of,
    ref,
    target,
    text_of,
    value_of,
    watch_listeners,
)
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError, TargetNotInteractable, UsageError
from test_keys_policy_e2e import DefaultPolicy, policy  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser


async def react_state(tab: Tab) -> str:
    return await text_of(tab, "#state")


async def test_react_fixture_undoes_a_value_set_without_an_input_event(
        tab: Tab, site: Site) -> None:
    """The fixture behaves like React, so the tests below mean something."""
    await goto(tab, site.url("react.html"))
    await js(tab, """(() => { const el = document.getElementById('name');
        el.value = 'sneaky'; el.dispatchEvent(new Event('input', {bubbles: true})); })()""")
    assert await value_of(tab, "#name") == "sneaky"
    await js(tab, "document.getElementById('rerender').click()")
    assert await value_of(tab, "#name") == ""
    assert '"name":""' in await react_state(tab)


async def test_fill_updates_a_react_controlled_input(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("react.html"))
    shot = await tab.snapshot()
    out = await actions.enter_text(tab, target(shot, "textbox", "Name"), "Ada Lovelace", "fill")
    assert out.data["value"] == "Ada Lovelace"
    assert '"name":"Ada Lovelace"' in await react_state(tab)
    await actions.click(tab, target(shot, "button", "Re-render"))
    assert await value_of(tab, "#name") == "Ada Lovelace"


async def test_fill_reports_the_value_the_page_kept(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("react.html"))
    out = await actions.enter_text(tab, parse("#code"), "ab-12", "fill")
    assert out.data["value"] == "AB-12"
    assert "value now 'AB-12'" in out.text()
    assert '"code":"AB-12"' in await react_state(tab)


async def test_type_appends_to_a_react_controlled_textarea(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("react.html"))
    await actions.enter_text(tab, parse("#notes"), ", world", "type")
    assert await value_of(tab, "#notes") == "Hello, world"
    assert '"notes":"Hello, world"' in await react_state(tab)
    await actions.enter_text(tab, parse("#notes"), "Replaced", "fill")
    assert '"notes":"Replaced"' in await react_state(tab)


async def test_fill_replaces_and_type_appends_in_a_plain_input(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await actions.enter_text(tab, parse("#oneline"), " more", "type")
    assert await value_of(tab, "#oneline") == "single more"
    await actions.enter_text(tab, parse("#oneline"), "fresh", "fill")
    assert await value_of(tab, "#oneline") == "fresh"
    await actions.enter_text(tab, parse("#oneline"), "", "fill")
    assert await value_of(tab, "#oneline") == ""


async def test_fill_an_email_input(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await actions.enter_text(tab, parse("#email"), "old@example.org", "fill")
    out = await actions.enter_text(tab, parse("#email"), "ada@example.org", "fill")
    assert out.data["value"] == "ada@example.org"
    assert await value_of(tab, "#email") == "ada@example.org"


async def test_fill_a_multiline_textarea_keeps_the_newlines(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await actions.enter_text(tab, parse("#many"), "line one\nline two", "fill")
    assert await value_of(tab, "#many") == "line one\nline two"


async def test_fill_a_contenteditable(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    editor = target(shot, "textbox", "Editor")
    await actions.enter_text(tab, editor, "New draft", "fill")
    assert await text_of(tab, "#editor") == "New draft"
    await actions.enter_text(tab, editor, " and more", "type")
    assert await text_of(tab, "#editor") == "New draft and more"


async def test_fill_on_a_checkbox_or_button_is_refused(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    with pytest.raises(TargetNotInteractable, match=r"does not take text.*nothing was typed"):
        await actions.enter_text(tab, parse("#news"), "x", "fill")
    with pytest.raises(TargetNotInteractable, match="nothing was typed"):
        await actions.enter_text(tab, parse("#out"), "x", "fill")
    assert await js(tab, "document.getElementById('news').checked") is False


async def test_press_enter_submits_the_form(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keys.html"))
    await actions.press(tab, "Enter", parse("#q"))
    assert await text_of(tab, "#out") == "submitted hello"


async def test_press_sends_named_keys_chords_and_characters(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keys.html"))
    await actions.press(tab, "a Shift+B Control+a Escape ArrowLeft", parse("#log"))
    keys = (await text_of(tab, "#keys")).split()
    assert keys == ["a", "shift+Shift", "shift+B", "ctrl+Control", "ctrl+a", "Escape",
                    "ArrowLeft"]


async def test_select_all_then_backspace_clears_a_field(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keys.html"))
    await actions.press(tab, "Control+a Backspace", parse("#q"))
    assert await value_of(tab, "#q") == ""


async def test_press_refuses_unknown_keys_before_pressing_anything(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keys.html"))
    with pytest.raises(UsageError):
        await actions.press(tab, "a NoSuchKey", parse("#log"))
    with pytest.raises(UsageError):
        await actions.press(tab, "   ")
    assert await text_of(tab, "#keys") == ""


async def test_select_by_label_and_by_value(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    size = target(shot, "combobox", "Size")
    out = await actions.select(tab, size, ["Large"])
    assert out.data["selected"] == ["Large"]
    assert await value_of(tab, "#size") == "l"
    assert await text_of(tab, "#out") == "size changed to l"
    await actions.select(tab, size, ["m"])
    assert await value_of(tab, "#size") == "m"
    after = await tab.snapshot()
    assert 'value="Medium"' in line_of(after, ref(after, "combobox", "Size"))


async def test_select_several_options_of_a_multiple_select_says_those_it_dropped(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    first = await actions.select(tab, parse("#toppings"), ["ham", "Sweet corn"])
    assert await text_of(tab, "#out") == "toppings changed to ham+corn"
    assert "no longer selected" not in first.text(), first.text()
    # the choices it held and was not given are said dropped
    again = await actions.select(tab, parse("#toppings"), ["olive", "ham"])
    assert await text_of(tab, "#out") == "toppings changed to ham+olive"
    assert "no longer selected: Sweet corn" in again.text(), again.text()
    assert again.data["dropped"] == ["Sweet corn"]


async def test_select_of_a_missing_option_lists_the_options(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    with pytest.raises(TargetNotInteractable, match="Small, Medium, Large"):
        await actions.select(tab, parse("#size"), ["Huge"])
    with pytest.raises(UsageError):
        await actions.select(tab, parse("#size"), ["s", "m"])
    with pytest.raises(TargetNotInteractable, match="not a <select>"):
        await actions.select(tab, parse("#oneline"), ["x"])
    assert await value_of(tab, "#size") == "s"
    assert await text_of(tab, "#out") == "nothing"


async def test_a_disabled_option_is_not_chosen_as_a_person_could_not(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    with pytest.raises(TargetNotInteractable, match="the option 'Extra large' is disabled"):
        await actions.select(tab, parse("#size"), ["Extra large"])
    assert await value_of(tab, "#size") == "s"
    assert await text_of(tab, "#out") == "nothing"


async def test_a_missing_option_of_a_long_select_says_how_many_more_there_are(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("countries.html"))
    with pytest.raises(TargetNotInteractable, match=r"Country 30 and 10 more \(`text @\d+` "
                                                    r"lists them all\). Nothing was selected"):
        await actions.select(tab, target(await tab.snapshot(), "combobox", "Country"),
                             ["Atlantis"])


async def test_check_on_what_is_no_checkbox_is_refused_and_nothing_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    for on in (True, False):
        with pytest.raises(TargetNotInteractable, match="is not a checkbox, radio button or "
                                                        "switch, so it cannot be"):
            await actions.check(tab, parse("#oneline"), on)
    assert await js(tab, "document.activeElement === document.body")  # no click took focus


async def test_check_and_uncheck_a_checkbox(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    news = target(shot, "checkbox", "Newsletter")
    out = await actions.check(tab, news, True)
    assert out.did.startswith("checked")
    assert await js(tab, "document.getElementById('news').checked") is True
    again = await actions.check(tab, news, True)
    assert "already checked" in again.did
    assert await js(tab, "document.getElementById('news').checked") is True
    await actions.check(tab, target(shot, "checkbox", "Terms accepted"), False)
    assert await js(tab, "document.getElementById('terms').checked") is False


async def test_check_a_radio_button(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    await actions.check(tab, target(shot, "radio", "Express"), True)
    assert await js(tab, "document.querySelector('input[name=ship]:checked').value") == \
        "express"


async def test_check_a_custom_aria_checkbox(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    fancy = target(shot, "checkbox", "Dark mode")
    await actions.check(tab, fancy, True)
    assert await js(tab, "document.getElementById('fancy').getAttribute('aria-checked')") == \
        "true"
    await actions.check(tab, fancy, False)
    assert await js(tab, "document.getElementById('fancy').getAttribute('aria-checked')") == \
        "false"


async def test_focus_gives_keyboard_focus(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await actions.focus(tab, parse("#oneline"))
    assert await js(tab, "document.activeElement.id") == "oneline"


async def test_fill_a_number_and_a_date_input(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await actions.enter_text(tab, parse("#amount"), "42", "fill")
    assert await value_of(tab, "#amount") == "42"
    assert await text_of(tab, "#out") == "amount changed to 42"
    await actions.enter_text(tab, parse("#day"), "2024-05-17", "fill")
    assert await value_of(tab, "#day") == "2024-05-17"
    assert await text_of(tab, "#out") == "day changed to 2024-05-17"


async def test_a_date_or_number_the_field_would_refuse_is_refused_and_the_old_value_stays(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await actions.enter_text(tab, parse("#day"), "2024-05-17", "fill")
    await actions.enter_text(tab, parse("#amount"), "42", "fill")
    with pytest.raises(UsageError, match=r"takes a date written as YYYY-MM-DD; '03/15/2024' "
                                         "is not one, and nothing was typed"):
        await actions.enter_text(tab, parse("#day"), "03/15/2024", "fill")
    with pytest.raises(UsageError, match="takes a number written as a number"):
        await actions.enter_text(tab, parse("#amount"), "abc", "fill")
    assert await value_of(tab, "#day") == "2024-05-17"
    assert await value_of(tab, "#amount") == "42"
    assert await text_of(tab, "#out") == "amount changed to 42"  # no event since


async def test_a_date_typed_as_words_is_refused_for_fill_and_nothing_is_typed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    with pytest.raises(UsageError, match=r"by its parts' keys, not as typed words; nothing "
                                         r"was typed\. To set it, use fill with a date "
                                         r"written as YYYY-MM-DD"):
        await actions.enter_text(tab, parse("#day"), "1990-06-01", "type")
    assert await value_of(tab, "#day") == ""


async def test_checkbox_hidden_behind_its_label_can_be_checked(tab: Tab, site: Site) -> None:
    """A styled toggle: the input is display:none and a person clicks its label."""
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    remember = [r for r, i in shot.refs.items() if i["name"] == "Remember me"]
    assert remember, shot.text
    await actions.click(tab, parse(remember[0]))
    assert await js(tab, "document.getElementById('remember').checked") is True


async def test_check_a_checkbox_hidden_behind_its_label(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    remember = target(shot, "checkbox", "Remember me")
    out = await actions.check(tab, remember, True)
    assert out.did.startswith("checked")
    assert await js(tab, "document.getElementById('remember').checked") is True
    after = await tab.snapshot()
    assert "[checked]" in line_of(after, ref(after, "checkbox", "Remember me"))
    await actions.check(tab, remember, False)
    assert await js(tab, "document.getElementById('remember').checked") is False


async def test_a_check_reads_the_box_and_where_its_click_lands_in_one_call_to_the_page(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    news = target(shot, "checkbox", "Newsletter")
    await actions.check(tab, news, True)  # the Network domain on, the debugger attached
    await actions.check(tab, news, False)
    calls = browser_calls(tab)
    await actions.check(tab, news, True)
    before_input = calls[:next(i for i, c in enumerate(calls)
                               if c.startswith("Input.") or c == "debugger.sequence")]
    assert len(before_input) == 1, calls
    assert await js(tab, "document.getElementById('news').checked") is True


async def test_a_check_on_a_box_already_as_asked_does_not_scroll_to_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await js(tab, "document.body.insertAdjacentHTML('afterbegin', "
                  "'<div style=\"height: 3000px\"></div>'), scrollTo(0, 0), true")
    shot = await tab.snapshot()
    await actions.check(tab, target(shot, "checkbox", "Terms accepted"), True)
    assert await js(tab, "scrollY") == 0
    await actions.check(tab, target(shot, "checkbox", "Terms accepted"), False)
    assert await js(tab, "scrollY") > 0
    assert await js(tab, "document.getElementById('terms').checked") is False


async def test_a_select_takes_focus_as_a_persons_choice_does_and_the_field_left_says_its_change(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await js(tab, "document.getElementById('email').addEventListener('change', () => "
                  "{ document.getElementById('out').textContent = 'email checked'; })")
    await actions.enter_text(tab, parse("#email"), "ada@example.com", "fill")
    await actions.select(tab, parse("#country"), ["Germany"])
    assert await text_of(tab, "#out") == "email checked"
    assert await js(tab, "document.activeElement.id") == "country"


async def test_check_clicks_a_switch_drawn_in_its_own_box_not_the_forms_label_beside_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("ownswitch.html"))
    shot = await tab.snapshot()
    out = await actions.check(tab, target(shot, "switch", "Email notifications"), True)
    assert "now checked" in out.text(), out.text()
    assert await text_of(tab, "#status") == "notify=true"
    assert await js(tab, "document.getElementById('notify').checked") is True


async def test_check_reaches_a_hidden_check_box_by_its_label_where_its_box_does_nothing(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("ownswitch.html"))
    shot = await tab.snapshot()
    await actions.check(tab, target(shot, "checkbox", "I accept the terms"), True)
    assert await js(tab, "document.getElementById('terms').checked") is True


async def test_a_switch_box_that_buys_as_it_takes_the_click_is_judged_by_its_words(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:  # noqa: F811
    await goto(tab, site.url("ownswitch.html"))
    shot = await tab.snapshot()
    before = len(site.posts("/buy"))
    with pytest.raises(PolicyError) as refused:
        await actions.check(tab, target(shot, "switch", "Pro features"), True)
    assert "purchase" in refused.value.details["categories"]
    assert site.posts("/buy")[before:] == []


async def test_fill_types_into_the_field_a_shown_number_hands_its_focus_to(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("swapfield.html"))
    shot = await tab.snapshot()
    out = await actions.enter_text(tab, target(shot, "spinbutton", "Seats"), "7", "fill")
    assert out.data["value"] == "7", out.text()
    await actions.press(tab, "Tab")
    assert await text_of(tab, "#status") == "seats=7"


async def test_check_on_a_box_shown_only_under_the_pointer_reads_the_box_it_checked(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the hook sees the pointer listeners of the page's script)
    await goto(tab, site.url("ownswitch.html"))
    shot = await tab.snapshot()
    out = await actions.check(tab, target(shot, "checkbox", "Parks"), True)
    assert "now checked" in out.text(), out.text()
    assert await js(tab, "document.getElementById('parks').checked") is True


async def test_a_combobox_whose_field_is_moved_aside_shows_its_choice_and_is_chosen_in(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("asidecombo.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'combobox "Country"' in shot.text, shot.text
    assert 'value="Norway"' in line_of(shot, ref(shot, "combobox", "Country")), shot.text
    out = await actions.select(tab, target(shot, "combobox", "Country"), ["France"])
    assert await text_of(tab, "#status") == "country=France", out.text()
