"""How widget kits' lists are read and chosen from as a person does: a multiple dropdown of
divs (its chips, its highlighted item, a second choice from its open list), a list that marks
its highlight selected, a see-through month select, a text field's own list, a list that
draws only what is in view, a list's narration for screen readers, a field scaled to nothing
in its widget, a header that sorts beside its filter, a menu item's check box; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_multiple_dropdown_of_divs_is_chosen_from_again_while_its_list_stays_open(
        tab: Tab, site: Site) -> None:
    # (Fomantic's: the list stays open after a choice; its items carry no option role, and
    # the open list's items were taken for another widget's: "it showed no options")
    await watch_listeners(tab)
    await goto(tab, site.url("valuechips.html"))
    field = ref(await tab.snapshot(interactive=True), "textbox", "Skills")
    await actions.select(tab, parse(field), ["Python"])
    assert await text_of(tab, "#out") == "skills py"
    await actions.select(tab, parse(field), ["Rust"])
    assert await text_of(tab, "#out") == "skills py,rs"


async def test_a_dropdown_item_only_highlighted_is_not_read_as_chosen(
        tab: Tab, site: Site) -> None:
    # (Fomantic marks the item under the keyboard "selected"; the field its list fills says
    # what is chosen)
    await watch_listeners(tab)
    await goto(tab, site.url("valuechips.html"))
    field = ref(await tab.snapshot(interactive=True), "textbox", "Skills")
    await actions.select(tab, parse(field), ["Python"])
    shot = await tab.snapshot(interactive=True)
    lead = ref(shot, "clickable", "JavaScript")  # (highlighted now, not chosen)
    assert "selected" not in line_of(shot, lead), shot.text
    out = await actions.select(tab, parse(field), ["JavaScript"])
    assert "already" not in out.text(), out.text()
    assert await text_of(tab, "#out") == "skills js,py"


async def test_the_chips_a_multiple_select_shows_before_its_named_field_are_read(
        tab: Tab, site: Site) -> None:
    # (they were taken for the prompt its box draws over the field, and left out)
    await watch_listeners(tab)
    await goto(tab, site.url("valuechips.html"))
    assert "Perl" in (await tab.snapshot()).text
    field = ref(await tab.snapshot(interactive=True), "textbox", "Skills")
    await actions.select(tab, parse(field), ["Go"])
    assert "Perl Go" in (await tab.snapshot()).text


async def test_a_select_laid_see_through_over_its_words_has_a_ref_and_is_chosen_in(
        tab: Tab, site: Site) -> None:
    # (Pikaday's month and year: out of the tab order, as a kit keeps the select behind
    # its own widget, but what the pointer meets there)
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    month = next((r for r, i in shot.refs.items() if i["role"] == "combobox" and
                  "July" in line_of(shot, r)), None)
    assert month is not None, shot.text
    await actions.select(tab, parse(month), ["August"])
    assert await text_of(tab, "#out") == "shows August"


async def test_a_header_that_sorts_beside_its_filter_button_keeps_its_ref_and_its_sort(
        tab: Tab, site: Site) -> None:
    # (antd: the header had no ref, and its sort showed on the filter button)
    await watch_listeners(tab)
    await goto(tab, site.url("kitfilters.html"))
    shot = await tab.snapshot(interactive=True)
    name = ref(shot, "columnheader", "Name")
    out = await actions.click(tab, parse(name))
    assert "now sort=ascending" in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    assert "sort=ascending" in line_of(shot, name), shot.text
    assert "sort" not in line_of(shot, ref(shot, "button", "filter")), shot.text


async def test_a_menu_item_holding_a_nameless_check_box_is_one_line_that_says_it_checked(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitfilters.html"))
    await actions.click(tab, parse("#filter"))
    shot = await tab.snapshot(interactive=True)
    assert not [r for r, i in shot.refs.items() if i["role"] == "checkbox" and not i["name"]]
    out = await actions.click(tab, parse(ref(shot, "menuitem", "Admin")))
    assert "now checked" in out.text(), out.text()
    assert 'the page said "filter: Admin"' in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    assert "[checked]" in line_of(shot, ref(shot, "menuitem", "Admin")), shot.text


async def test_an_option_a_list_marks_selected_under_the_keyboard_is_chosen_as_the_select_says(
        tab: Tab, site: Site) -> None:
    # (Choices.js: the first option of its open list is aria-selected as highlighted; select
    # refused it as "chosen already", nothing clicked)
    await watch_listeners(tab)
    await goto(tab, site.url("keyboardlist.html"))
    out = await actions.select(tab, parse("#box"), ["Breakfast"])
    assert "already" not in out.text(), out.text()
    assert await text_of(tab, "#out") == "extras Breakfast"


async def test_a_text_field_that_shows_a_list_as_it_takes_focus_is_chosen_in(
        tab: Tab, site: Site) -> None:
    # (Tabulator's list editor: refused as "not a <select> nor a list that opens")
    await goto(tab, site.url("kitstates.html"))
    out = await actions.select(tab, parse("#role-cell"), ["Ops"])
    assert out.did.startswith('chose "Ops"'), out.text()
    assert await text_of(tab, "#out") == "role Ops"


async def test_the_chips_a_multiple_combobox_shows_are_its_value_one_by_one(
        tab: Tab, site: Site) -> None:
    # (antd's tags: value="German French" read as one choice of two words)
    await goto(tab, site.url("kitfilters.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'value="German, French"' in line_of(shot, ref(shot, "combobox", "Languages"))


@pytest.mark.parametrize(("box", "want"), [("#zone", "Zone 060"), ("#city", "City 075")])
async def test_an_option_a_list_draws_only_once_scrolled_to_is_scrolled_to_and_chosen(
        tab: Tab, site: Site, box: str, want: str) -> None:
    # (Quasar's virtual list: "no option showed; it shows Zone 001 ... Zone 027")
    await goto(tab, site.url("virtuallist.html"))
    out = await actions.select(tab, parse(box), [want])
    assert out.did.startswith(f'chose "{want}"'), out.text()
    assert await text_of(tab, "#out") == "chose " + want


async def test_an_option_no_view_of_a_drawn_on_scroll_list_shows_is_not_chosen(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("virtuallist.html"))
    with pytest.raises(TargetNotInteractable, match='no option "Zone 999" showed'):
        await actions.select(tab, parse("#zone"), ["Zone 999"])
    assert await text_of(tab, "#out") == "none"


async def test_a_lists_narration_for_screen_readers_is_no_reply_of_the_page(
        tab: Tab, site: Site) -> None:
    # (PrimeVue's: 'the page said "3 results are available", "No selected item"', then
    # "1 items selected", around a choice it reports itself)
    await goto(tab, site.url("narration.html"))
    out = await actions.select(tab, parse("#country"), ["Japan"])
    assert "said" not in out.text(), out.text()
    assert await text_of(tab, "#out") == "country Japan"


async def test_an_empty_fields_narration_is_not_its_value(tab: Tab, site: Site) -> None:
    # (PrimeVue's AutoComplete: value="No results found")
    await goto(tab, site.url("narration.html"))
    shot = await tab.snapshot(interactive=True)
    assert "value=" not in line_of(shot, ref(shot, "combobox", "Home city")), shot.text


async def test_a_field_scaled_to_nothing_in_its_widget_is_chosen_in_through_the_widget(
        tab: Tab, site: Site) -> None:
    # (PrimeVue's MultiSelect: "not visible (no size or hidden)", nothing chosen)
    await watch_listeners(tab)
    await goto(tab, site.url("narration.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.select(tab, parse(ref(shot, "combobox", "Languages")), ["German"])
    assert await text_of(tab, "#out") == "languages German"


async def test_a_list_that_takes_several_is_closed_after_one_choice_as_after_several(
        tab: Tab, site: Site) -> None:
    # (left open over the page, it covered what the agent did next: "covered by ...")
    await watch_listeners(tab)
    await goto(tab, site.url("keyboardlist.html"))
    out = await actions.select(tab, parse("#box"), ["Parking"])
    assert "its list was closed with Escape" in out.text(), out.text()
    assert "Spa access" not in (await tab.snapshot(interactive=True)).text
