"""Reports on the parts admin dashboards are built of: a panel an accordion folds shut as
another opens is said gone, not shown, in the report of the click that opened the other; a
cell's select editor a double click opened, a focused div combobox, is where the focus
moved; a line break typed into a search whose list is filtered 300 ms after the last key
is pressed once the list answered the keys before it; a field's message its rule takes out
as the field is put right is said gone, also while it leaves through a transition; a row a
chevron expanded is named as the item it added, as one taken out is; an icon its own style
hides is no control a hover shows, though a rule of the sheet raises its opacity under the
pointer; a control in a part of the page made inert is refused as such, not as covered; a list a
filter redraws through a view transition says what it lost, and a click right after waits
for the transition's layer to go; a class on a pager's buttons but the disabled one marks
no state; a field's <datalist> suggestions are listed and chosen from by value or a
beginning only one of them has; a pill's remove that listens itself is a control, though
the box around it points as a whole; a menu button's menu of plain list items is said
opened, and a select's list in a dropdown's box of its own is said as a list, no field;
on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, line_of, listened_snapshot, ref, run_tool, text_of, value_of
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_panel_folding_shut_as_another_opens_is_said_gone_not_shown(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "click", target="#q2")).text
    assert '"Teams can be deleted by owners."' in said, said
    shows, _, went = said.partition("no longer shows")
    assert "Open the user" not in shows, said
    assert '"Open the user, click Reset password."' in went, said


async def test_a_cells_select_editor_a_double_click_opened_is_where_the_focus_moved(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "dblclick", target="#dept")).text
    assert 'focus moved to a new combobox, value "Finance"' in said, said


async def test_a_line_break_typed_goes_once_the_list_answered_the_keys_before_it(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    await run_tool(tab, "type", target="#tags", text="go\n")
    assert await text_of(tab, "#chosen") == "go "


async def test_a_fields_message_its_rule_takes_out_is_said_gone(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "fill", target="#who", text="Zoe Park")).text
    assert 'the page no longer shows "Name is required"' in said, said
    said = (await run_tool(tab, "fill", target="#mail", text="zoe@bad")).text
    assert '"E-mail must be valid"' in said, said


async def test_a_row_a_chevron_expanded_is_named_as_the_item_it_added(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("adminparts.html"))
    expand = ref(shot, "button", "Expand", nth=1)
    said = (await run_tool(tab, "click", target=expand)).text
    assert '1 item added to a list: "Details: Hank Moore joined in 2022."' in said, said
    said = (await run_tool(tab, "click", target=expand)).text
    assert '1 item removed from a list: "Details: Hank Moore joined in 2022."' in said, said


async def test_an_icon_its_own_style_hides_is_no_control_a_hover_shows(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("adminparts.html"))
    assert "Clear Upload logo" not in shot.text, shot.text


async def test_a_control_in_an_inert_part_is_refused_as_such_not_as_covered(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    for tool, args in (("click", {}), ("fill", {"text": "hi"}), ("focus", {})):
        target = "#note" if tool == "fill" else "#export"
        with pytest.raises(TargetNotInteractable, match="inert") as refused:
            await run_tool(tab, tool, target=target, **args)
        assert "covered" not in str(refused.value), refused.value
    assert await js(tab, "document.title") == "Admin parts"


async def test_a_list_a_view_transition_redraws_says_what_the_filter_did(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "fill", target="#user-filter", text="a")).text
    assert 'the page said "4 users"; 4 items removed from a list' in said, said
    said = (await run_tool(tab, "fill", target="#user-filter", text="e")).text
    assert '"3 users"' in said, said
    await run_tool(tab, "click", target="#after-filter")
    assert await text_of(tab, "#after-filter") == "Invited"


async def test_a_class_on_a_pagers_buttons_but_the_disabled_one_marks_no_state(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("adminparts.html"))
    lines = [ln for ln in shot.text.splitlines() if '"2"' in ln or '"next page"' in ln]
    assert lines, shot.text
    assert not [ln for ln in lines if "pressed" in ln or "current" in ln], lines


async def test_a_fields_datalist_suggestions_are_listed_and_chosen_from(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("adminparts.html"))
    country = ref(shot, "combobox", "Country")
    assert 'options="France|Germany|Greece|Ghana"' in line_of(shot, country), shot.text
    said = (await run_tool(tab, "select", target=country, values=["greece"])).text
    assert said.startswith(f'chose "Greece" in {country}'), said
    assert await value_of(tab, "#country") == "Greece"
    await run_tool(tab, "select", target=country, values=["Gha"])
    assert await value_of(tab, "#country") == "Ghana"
    for wanted, why in (("G", "several begin so"), ("Spain", "its suggestions are")):
        with pytest.raises(TargetNotInteractable, match=why):
            await run_tool(tab, "select", target=country, values=[wanted])
    assert await value_of(tab, "#country") == "Ghana"


async def test_a_pills_remove_that_listens_itself_is_a_control_in_a_box_that_points(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("adminparts.html"))
    lines = shot.text.splitlines()
    field = next(i for i, ln in enumerate(lines) if 'textbox "Interests"' in ln)
    remove = lines[field - 1].split("@")[1].split()[0]
    assert lines[field - 1].strip() == f"- button @{remove}", shot.text
    await run_tool(tab, "click", target=f"@{remove}")
    assert await js(tab, "document.getElementById('music') === null") is True


async def test_a_menu_buttons_menu_of_plain_list_items_is_said_opened(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "click", target="#more-actions")).text
    assert "now expanded; opened the menu of 3 items" in said, said


async def test_a_selects_list_in_a_dropdowns_box_is_said_as_a_list_not_a_field(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("adminparts.html"))
    said = (await run_tool(tab, "click", target="#plan")).text
    assert "opened the list" in said, said
    assert "field" not in said, said
