"""`select` on a list of the page's own (a listbox button, a menu, a combobox whose choices
carry no role): opened and chosen from as a person does, by two clicks each put to policy;
anything else is refused with nothing clicked; a button that says nothing of a list is
only hovered, and chosen from when its list shows then; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError, TargetNotInteractable, UsageError
from tabsteward.bridge.policy.intent import Intent
from test_aiming_e2e import Gate

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_listbox_button_is_opened_and_its_option_clicked(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    out = await actions.select(tab, parse("#fruit"), ["banana"])
    assert out.did.startswith('chose "Banana" in @')
    assert '(clicked @' in out.did
    assert out.data["selected"] == ["Banana"]
    assert await text_of(tab, "#out") == "fruit Banana"
    assert await js(tab, "document.getElementById('fruits').hidden") is True
    # the button as it is now against before it opened: shut again, named by the choice
    assert 'now named "Banana"' in out.changes, out.changes
    assert not [c for c in out.changes if "expanded" in c], out.changes


async def test_a_list_already_open_is_chosen_from_without_clicking_it_shut(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    await actions.click(tab, parse("#fruit"))  # open: its button toggles it
    assert await js(tab, "document.getElementById('fruits').hidden") is False
    await actions.select(tab, parse("#fruit"), ["Cherry"])
    assert await text_of(tab, "#out") == "fruit Cherry"


async def test_a_menu_that_comes_a_moment_later_and_choices_with_no_role_are_chosen(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    await actions.select(tab, parse("#more"), ["Archive"])
    assert await text_of(tab, "#out") == "action Archive"
    out = await actions.select(tab, parse("#city"), ["Porto"])
    assert out.did.startswith('chose "Porto" in @')
    assert await text_of(tab, "#out") == "city Porto"


async def test_a_button_beside_the_menu_it_keeps_shut_opens_it_and_is_chosen_from(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    shot = await tab.snapshot()
    assert "[haspopup]" in line_of(shot, ref(shot, "button", "Share")), shot.text
    # (a button beside no menu says nothing of one)
    assert "haspopup" not in line_of(shot, ref(shot, "link", "Somewhere else"))
    out = await actions.select(tab, parse(ref(shot, "button", "Share")), ["Link"])
    assert out.did.startswith('chose "Link" in @'), out.did
    assert await text_of(tab, "#out") == "share Link"


async def test_an_option_the_list_does_not_show_names_those_it_does_and_chooses_nothing(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    with pytest.raises(TargetNotInteractable, match=r'no option "Durian" showed; it shows '
                       r'"Apple", "Banana", "Cherry"\. Nothing was chosen'):
        await actions.select(tab, parse("#fruit"), ["Durian"])
    assert await text_of(tab, "#out") == "nothing"


async def test_select_on_what_opens_no_list_clicks_nothing(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    with pytest.raises(TargetNotInteractable, match="not a <select> nor a list that opens"):
        await actions.select(tab, parse("#away"), ["x"])
    assert await js(tab, "location.hash") == ""
    # several options of a list that does not say it takes them: opened, none chosen, and
    # closed again (left open, it would cover what the agent does next)
    with pytest.raises(UsageError, match=r"takes one option at a time \(its list does not "
                       r"say it takes several\); nothing was chosen \(its list was closed "
                       r"again with Escape\)"):
        await actions.select(tab, parse("#fruit"), ["Apple", "Cherry"])
    assert await text_of(tab, "#out") == "nothing"
    shot = await tab.snapshot(interactive=True)
    assert 'option "Apple"' not in shot.text, shot.text


async def test_several_options_are_chosen_where_the_list_takes_several(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("droplists.html"))
    # marked by its kit's class on the box; its list stays open between choices
    out = await actions.select(tab, parse("#colours"), ["red", "Blue"])
    assert out.did.startswith('chose "Red", "Blue" in @'), out.did
    assert out.data["selected"] == ["Red", "Blue"]
    assert len(out.changes) == len(set(out.changes)), out.changes  # (each option's, once)
    assert await text_of(tab, "#out") == "colours Red, Blue"
    # it stayed open over the page: closed as a person closes it
    assert "its list was closed with Escape" in " ".join(out.changes), out.changes
    assert await js(tab, "document.getElementById('colourlist').hidden") is True
    # one it does not show: refused before any is chosen
    with pytest.raises(TargetNotInteractable, match=r'list shows no option "Pink"; it shows '
                       r'"Red", "Green", "Blue"\. Nothing was chosen'):
        await actions.select(tab, parse("#colours"), ["Green", "Pink"])
    assert await text_of(tab, "#out") == "colours Red, Blue"
    # its list says so, closes on each choice and shows each option once typed
    out = await actions.select(tab, parse("#tags"), ["Work", "Urgent"])
    assert out.data["selected"] == ["Work", "Urgent"], out.text()
    assert await text_of(tab, "#out") == "tags Work, Urgent"
    with pytest.raises(TargetNotInteractable, match=r'chose "Home" in @\d+ \(combobox "Tags"\), '
                       r'then no option "Nowhere" showed'):
        await actions.select(tab, parse("#tags"), ["Home", "Nowhere"])


async def test_each_click_of_a_choice_is_put_to_policy_as_a_click(
        tab: Tab, site: Site, browser: Browser) -> None:
    gate = Gate()
    browser.gate = gate
    try:
        await goto(tab, site.url("droplists.html"))
        with pytest.raises(PolicyError, match="asked about"):
            await actions.select(tab, parse("#more"), ["Delete"])
    finally:
        browser.gate = None
    assert [(i.action, i.element.name if i.element else "") for i in gate.intents
            if i.action == "click"] == [("click", "Actions"), ("click", "Delete")]
    assert await text_of(tab, "#out") == "nothing"


async def test_the_select_a_widget_library_keeps_behind_its_own_gets_no_ref_and_the_widget_does(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("widgetselects.html"))
    shot = await tab.snapshot(interactive=True)
    lines = [ln.strip() for ln in shot.text.splitlines() if "@" in ln]
    # the originals (out of the tab order, clipped away or see-through) and the text box
    # Select2 draws its choice in are no one's to use: only the widget is
    assert [ln.split(" @")[0] for ln in lines] == ['- combobox "Paris"', '- button "Attach"'], \
        shot.text  # (a see-through file input over its drawn button keeps its ref)
    out = await actions.select(tab, parse(ref(shot, "combobox", "Paris")), ["Berlin"])
    assert out.did.startswith('chose "Berlin"'), out.text()
    # as the list stands once it closed, in the frame after the choice
    assert "now named \"Berlin\"" in out.changes, out.text()
    assert not any("expanded" in c for c in out.changes), out.text()
    assert await text_of(tab, "#out") == "Berlin"
    assert await js(tab, "document.getElementById('city').value") == "Berlin"


async def test_a_menu_a_button_shows_under_the_pointer_is_chosen_from_without_clicking_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hovermenus.html"))
    out = await actions.select(tab, parse("#actions"), ["Remove"])
    assert out.did.startswith('chose "Remove" in @'), out.did
    assert await text_of(tab, "#out") == "Remove"  # the button itself was never clicked
    await actions.select(tab, parse("#products"), ["Phones"])
    assert await js(tab, "location.hash") == "#phones"


async def test_a_button_that_shows_no_list_under_the_pointer_is_not_clicked_to_find_out(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hovermenus.html"))
    with pytest.raises(TargetNotInteractable, match=r'with the pointer over it no option '
                       r'"Archive" showed; it shows "Rename", "Remove"; nothing was selected'):
        await actions.select(tab, parse("#actions"), ["Archive"])
    assert await text_of(tab, "#out") == ""
    with pytest.raises(TargetNotInteractable, match="no option \"Contact\" showed"):
        await actions.select(tab, parse("text=About"), ["Contact"])
    assert await js(tab, "location.hash") == ""


async def test_a_policy_that_refuses_hovering_the_button_moves_no_pointer(
        tab: Tab, site: Site, browser: Browser) -> None:
    asked: list[str] = []

    async def no_hover(_tab: Tab, intent: Intent) -> None:
        asked.append(intent.action)
        if intent.action == "hover":
            raise PolicyError("asked about: a hover")

    await goto(tab, site.url("hovermenus.html"))
    browser.gate = no_hover
    try:
        with pytest.raises(PolicyError, match="asked about: a hover"):
            await actions.select(tab, parse("#actions"), ["Remove"])
    finally:
        browser.gate = None
    assert "click" not in asked, asked
    assert await text_of(tab, "#moves") == "0"
    assert await text_of(tab, "#out") == ""


async def test_a_field_its_box_draws_over_is_reached_through_the_box(
        tab: Tab, site: Site) -> None:
    # (Element Plus: the select's placeholder lies over its input, and the box takes the
    # click; its switch keeps a check box with no size beside the box it draws)
    await goto(tab, site.url("kit_fields.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.select(tab, parse(ref(shot, "combobox", "")), ["Kyoto"])
    assert await text_of(tab, "#out") == "city Kyoto"
    assert "Kyoto" in out.did, out.did
    out = await actions.check(tab, parse(ref(shot, "switch", "")), True)
    assert await text_of(tab, "#out") == "notify true"
    assert out.changes == ["now checked", 'the page now shows "notify true"'], out


async def test_a_field_its_box_draws_over_is_pressed_through_the_box_not_its_label(
        tab: Tab, site: Site) -> None:
    # (Ant Design: the label names the field from outside the box, the box opens its list
    # on the press, which the label's click passed on to the field never makes, and the
    # list the field controls, for screen readers, says the choice's value)
    await goto(tab, site.url("pressselect.html"))
    shot = await tab.snapshot(interactive=True)
    assert line_of(shot, ref(shot, "combobox", "Plan")).endswith('value="Basic"'), shot.text
    out = await actions.select(tab, parse(ref(shot, "combobox", "Plan")), ["Pro"])
    assert await text_of(tab, "#out") == "plan Pro"
    # what the box shows is the choice, not the value its list for screen readers says
    assert "value now 'Pro'" in out.changes, out.text()


async def test_a_field_kept_a_pixel_wide_in_its_widget_is_opened_through_the_widget(
        tab: Tab, site: Site) -> None:
    # (PrimeReact's dropdown: its label's click would only focus the field)
    await goto(tab, site.url("pressselect.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.select(tab, parse(ref(shot, "textbox", "City")), ["Bergen"])
    assert await text_of(tab, "#out") == "city Bergen"


async def test_a_switch_drawn_beside_its_words_is_one_line_hinted_by_them(
        tab: Tab, site: Site) -> None:
    # (Element Plus: its box takes the click; the track and the words, each a block in the
    # box's row, show a pointer, and the words are hidden from assistive technology)
    await goto(tab, site.url("kit_fields.html"))
    shot = await tab.snapshot()
    line = next(ln for ln in shot.text.splitlines() if 'hint="Dark mode"' in ln)
    assert line.lstrip().startswith("- switch @"), line
    # (neither switch's box nor its parts print a line of their own, nor a select's box)
    assert "clickable" not in shot.text, shot.text
    out = await actions.check(tab, parse("@" + line.split("@")[1].split()[0]), True)
    assert await text_of(tab, "#out") == "dark true"
    assert out.changes == ["now checked", 'the page now shows "dark true"'], out


async def test_a_select_that_draws_its_choice_where_its_placeholder_was_says_the_choice(
        tab: Tab, site: Site) -> None:
    # (Element Plus: the choice replaces the placeholder's words in the same element, and
    # the list the field controls marks the option chosen)
    await goto(tab, site.url("kit_fields.html"))
    def size_field(text: str) -> str:
        return [ln for ln in text.splitlines() if "- combobox @" in ln][1]
    before = size_field((await tab.snapshot(interactive=True)).text)
    assert "value=" not in before, before
    assert 'hint="Pick a size"' in before, before  # (what its box draws over it)
    assert "#el-id" not in before, before  # (an id made anew on each load locates nothing)
    out = await actions.select(tab, parse("#size input"), ["Large"])
    assert await text_of(tab, "#out") == "size Large"
    assert "Large" in out.did, out.did
    after = size_field((await tab.snapshot(interactive=True)).text)
    assert 'value="Large"' in after, after


async def test_what_a_selects_box_draws_over_its_field_is_said_once_on_the_fields_line(
        tab: Tab, site: Site) -> None:
    # (Element Plus: two selects side by side, each box a repeated container whose only
    # words are its field's prompt, then its choice: no group named by them, no text line)
    await goto(tab, site.url("kit_fields.html"))
    await actions.select(tab, parse("#size input"), ["Large"])
    shot = await tab.snapshot()
    lines = [ln.lstrip() for ln in shot.text.splitlines()]
    assert [ln.split(" @")[0] for ln in lines if "Pick a city" in ln] == ["- combobox"], lines
    assert [ln.split(" @")[0] for ln in lines if 'value="Large"' in ln] == ["- combobox"]
    assert not [ln for ln in lines if ln.startswith(("> Large", "- group"))], shot.text


async def test_an_option_another_open_list_shows_is_not_chosen_for_this_one(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("twolists.html"))
    await actions.click(tab, parse("#tags"))  # its list opens and stays open
    assert await js(tab, "document.getElementById('tags').ariaExpanded") == "true"
    # "Urgent" shows already, in the tags' list: the labels' box is opened, and the option
    # its own list shows is the one clicked
    out = await actions.select(tab, parse("#labels"), ["Urgent"])
    assert out.did.startswith('chose "Urgent"'), out.did
    assert await text_of(tab, "#out") == "tags: ; labels: Urgent; label clicks: 1"


async def test_a_list_drawn_elsewhere_and_named_by_its_box_is_chosen_from_while_open(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("twolists.html"))
    await actions.click(tab, parse("#tags"))
    await actions.click(tab, parse("#labels"))  # its list, at the end of the page, opens
    await actions.select(tab, parse("#labels"), ["Fragile"])
    # (not clicked again: that would have closed it)
    assert await text_of(tab, "#out") == "tags: ; labels: Fragile; label clicks: 1"
    # and the tags' own list, drawn inside its box, is chosen from as it stands open
    await actions.select(tab, parse("#tags"), ["Gift"])
    assert await text_of(tab, "#out") == "tags: Gift; labels: Fragile; label clicks: 1"
    assert await js(tab, "document.getElementById('tags').ariaExpanded") == "true"


async def test_the_box_a_kit_draws_for_a_select_it_hides_is_opened_and_chosen_from(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    box = ref(shot, "clickable", "Pick a speed")  # no role says it opens a list
    out = await actions.select(tab, parse(box), ["Express"])
    assert out.did.startswith('chose "Express"'), out.did
    assert await text_of(tab, "#out") == "exp"
    assert await js(tab, "document.getElementById('speed').value") == "exp"


async def test_a_list_clipped_away_whole_gives_no_refs_until_it_opens(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    # (its search field and its items are drawn, but clipped away to nothing)
    assert "Standard" not in shot.text, shot.text
    named = ("Topics", "Phone", "First name", "Last name")  # (the page's other fields)
    assert not [ln for ln in shot.text.splitlines()
                if "textbox" in ln and not any(n in ln for n in named)], shot.text
    await actions.click(tab, parse(ref(shot, "clickable", "Pick a speed")))
    shot = await tab.snapshot(interactive=True)
    assert "Standard" in line_of(shot, ref(shot, "listitem", "Standard")), shot.text


async def test_a_nameless_box_drawn_for_a_hidden_select_is_hinted_by_that_selects_label(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    line = next(ln for ln in shot.text.splitlines() if "combobox" in ln)
    assert 'hint="Tags"' in line, shot.text
    # a select inside its own label: the label's words, not the select's options
    line = next(ln for ln in shot.text.splitlines() if "#sizesbox" in ln)
    assert 'hint="Sizes"' in line, shot.text


async def test_a_submit_button_beside_a_field_holding_its_own_list_opens_no_popup(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    assert "haspopup" not in line_of(shot, ref(shot, "button", "Save")), shot.text
    assert "haspopup" in line_of(shot, ref(shot, "button", "Country")), shot.text


async def test_a_label_a_kit_turned_to_its_box_hints_the_box_and_is_no_control_itself(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    assert not [ln for ln in shot.text.splitlines() if '"Room"' in ln and "@" in ln and
                "combobox" not in ln], shot.text
    line = next(ln for ln in shot.text.splitlines() if "combobox" in ln and "Single" in ln)
    assert 'hint="Room"' in line, shot.text


async def test_a_list_that_shows_only_what_its_own_search_box_finds_is_typed_in_first(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("searchfirst.html"))
    out = await actions.select(tab, parse("#country"), ["Greece"])
    assert out.did.startswith('chose "Greece"'), out.did
    assert 'its list showed the option once "Greece" was typed in its search box' in \
        out.changes, out.changes
    assert await text_of(tab, "#out") == "Greece"


async def test_a_field_kept_off_the_page_gets_no_ref_and_its_label_hints_the_kits_box(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot()
    # the kept input (its label not standing in for it), and the trap for bots: no lines
    assert 'textbox "Topics"' not in shot.text, shot.text
    assert "[{" not in shot.text, shot.text
    assert "Leave this empty" not in shot.text, shot.text
    # the kit's own words on its box name nothing; the kept field's label hints it
    assert "Tags input field" not in shot.text, shot.text
    line = next(ln for ln in shot.text.splitlines() if 'hint="Topics"' in ln)
    assert "textbox @" in line, shot.text


async def test_a_box_wiped_one_way_and_a_field_scrolled_out_of_its_box_keep_their_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keptselects.html"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "button", "Read more"), shot.text
    assert ref(shot, "textbox", "First name"), shot.text


async def test_a_field_under_the_chips_of_its_chosen_values_opens_through_its_box(
        tab: Tab, site: Site) -> None:
    # (Shoelace's, Select2's, Ant Design's multiple select: once a value is chosen the field
    # lies invisible under the chips, each with its Remove button; the box takes the press)
    await goto(tab, site.url("chipselect.html"))
    shot = await tab.snapshot(interactive=True)
    tags = parse(ref(shot, "combobox", "Tags"))
    await actions.select(tab, tags, ["Urgent"])
    assert await text_of(tab, "#out") == '["Urgent"]'
    await actions.press(tab, "Escape")
    await actions.select(tab, tags, ["Docs"])  # its chips lie over it now
    assert await text_of(tab, "#out") == '["Urgent","Docs"]'
    await actions.press(tab, "Escape")
    await actions.click(tab, tags)
    assert await js(tab, "document.getElementById('lb').hidden") is False
    # a Remove button is its own control, not a way into the box
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Remove Urgent")))
    assert await text_of(tab, "#out") == '["Docs"]'


async def test_an_option_in_a_list_the_page_scrolls_on_the_wheel_is_scrolled_to_and_chosen(
        tab: Tab, site: Site) -> None:
    # (Ant Design: its list's box hides its overflow, and the page scrolls it on the wheel)
    await goto(tab, site.url("wheellist.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.select(tab, parse(ref(shot, "combobox", "Country")), ["Japan"])
    assert await text_of(tab, "#out") == '{"country":["Japan"],"languages":[]}'


async def test_a_list_that_stays_open_after_a_choice_is_chosen_from_again(
        tab: Tab, site: Site) -> None:
    # (Ant Design's that takes several: its choices carry no role, and its list stays open)
    await goto(tab, site.url("wheellist.html"))
    shot = await tab.snapshot(interactive=True)
    languages = parse(ref(shot, "combobox", "Languages"))
    await actions.select(tab, languages, ["French"])
    out = await actions.select(tab, languages, ["Spanish"])  # its list is open still
    assert await text_of(tab, "#out") == '{"country":[],"languages":["French","Spanish"]}'
    assert "Spanish" in out.did, out.text()
    # one chosen already is left so: a click would take it out of a list of several
    out = await actions.select(tab, languages, ["French"])
    assert out.did.startswith('"French" is chosen in @'), out.text()
    assert await text_of(tab, "#out") == '{"country":[],"languages":["French","Spanish"]}'
    # several at once: the list is closed with Escape once done, which it takes a moment to
    out = await actions.select(tab, languages, ["English", "German"])
    assert "its list was closed with Escape, as a person closes it when done" in out.changes, \
        out.text()


async def test_buttons_beside_a_dropdown_whose_trigger_says_nothing_of_its_menu_open_none(
        tab: Tab, site: Site) -> None:
    # (an old jQuery dropdown's trigger says nothing of its menu; Shoelace's says it in
    # its shadow root: a toolbar's other buttons open no popup)
    await goto(tab, site.url("toolbarmenu.html"))
    shot = await tab.snapshot(interactive=True)
    for name in ("Settings", "Delete", "Home"):
        assert "haspopup" not in line_of(shot, ref(shot, "button", name)), shot.text
    assert "[haspopup]" in line_of(shot, ref(shot, "button", "Actions")), shot.text


async def test_a_dropdown_of_divs_holding_its_field_and_a_list_of_values_opens_a_list(
        tab: Tab, site: Site) -> None:
    # (Semantic UI's and Fomantic's: no ARIA; a hidden field and a shut menu of items that
    # carry its values)
    await goto(tab, site.url("valuelist.html"))
    shot = await tab.snapshot(interactive=True)
    box = ref(shot, "clickable", "Select Country")
    assert "[haspopup]" in line_of(shot, box), shot.text
    out = await actions.select(tab, parse(box), ["Portugal"])
    assert await text_of(tab, "#out") == "country pt"
    assert "haspopup" not in out.text(), out.text()
    # chosen again at once, while its menu still fades out: the same list
    await actions.select(tab, parse(box), ["Belgium"])
    assert await text_of(tab, "#out") == "country be"
    # its search field opens it too
    shot = await tab.snapshot(interactive=True)
    city = next(r for r, i in shot.refs.items() if i["role"] == "textbox")
    assert "[haspopup]" in line_of(shot, city), shot.text
    await actions.select(tab, parse(city), ["Porto"])
    assert await text_of(tab, "#out") == "city por"


async def test_a_list_of_plain_items_that_shows_no_match_names_what_it_shows(
        tab: Tab, site: Site) -> None:
    # (Fomantic's: its items say no option; the error said "it showed no options")
    await watch_listeners(tab)
    await goto(tab, site.url("plainlist.html"))
    with pytest.raises(TargetNotInteractable,
                       match=r'no option "Tokyo" showed; it shows "UTC", "Europe/Berlin", '
                             r'"Asia/Tokyo"'):
        await actions.select(tab, parse("#tz"), ["Tokyo"])
    await goto(tab, site.url("plainlist.html"))
    await actions.select(tab, parse("#tz"), ["Asia/Tokyo"])
    assert "tz: Asia/Tokyo" in (await tab.snapshot()).text
