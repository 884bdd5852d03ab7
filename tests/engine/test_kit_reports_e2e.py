"""What reports say on the pages widget kits build: a dropdown a hover opens is said as a
click's would be (its trigger now expanded, the menu it opened); a tooltip that waits for
the pointer to stir after it left the last trigger opens for a hover from there; a page of a
table for another says the rows that went and the others put in their place, and a sort that
brings some and drops others says both beside the order; an error a script takes away as a
field is put right is said gone, though the script holds its words; a placeholder that goes
as a filter takes words is no item removed; of five errors a submit wrote in, those the
report leaves out are counted; a header marked by utility classes alone (`select-none`) gets
no hint from them; a control named by its title says the name a click gave it; a choice says
nothing of how its list's options looked as it opened (the current one marked while
focused), and one its list does not offer closes the list it opened; a table's column taken
out or put back is named, columns taken out last first in the order they stood; the rows a
Select all ticked are counted; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, listened_snapshot, ref, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_menu_a_hover_opens_is_said_as_a_clicks_would_be(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "hover", target="#actions")).text
    assert "now expanded" in said, said
    assert "opened the menu of 2 items" in said, said


async def test_a_page_of_a_table_for_another_says_the_rows_that_went_and_came(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#next")).text
    assert await js(tab, "document.getElementById('people').rows.length") == 7
    assert "10 items of a list replaced by 7 others" in said, said


async def test_a_sort_that_brings_rows_and_drops_others_says_both_and_the_order(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#by-name")).text
    assert "4 items of a list replaced by 4 others" in said, said
    assert "6 rows or items in another order" in said, said
    assert "hint=" not in said.partition(";")[0], said  # (no "select none" of its classes)


async def test_an_error_a_script_takes_away_as_the_field_is_put_right_is_said_gone(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    await run_tool(tab, "click", target="#save")
    assert await text_of(tab, "#email-error") == "Email is required"
    said = (await run_tool(tab, "fill", target="#email", text="ann@example.com")).text
    assert await text_of(tab, "#email-error") == ""
    assert 'the page no longer shows "Email is required"' in said, said


async def test_a_placeholder_that_goes_as_a_filter_takes_words_is_no_item_removed(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "type", target="#tag-filter", text="ed")).text
    assert await js(tab, "document.querySelectorAll('#tags .part').length") == 1
    assert "removed" not in said, said


async def test_a_tooltip_that_waits_for_the_pointer_to_stir_opens_for_the_next_hover(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    first = (await run_tool(tab, "hover", target='#toolbar [data-tip="Bold"]')).text
    assert 'shows the tooltip "Bold"' in first, first
    second = (await run_tool(tab, "hover", target='#toolbar [data-tip="Italic"]')).text
    assert 'shows the tooltip "Italic"' in second, second


async def test_errors_a_submit_wrote_in_beyond_those_said_are_counted(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#p-save")).text
    assert '"Username is required."' in said, said
    assert " and 2 more" in said, said


async def test_a_control_named_by_its_title_says_the_name_a_click_gave_it(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#play")).text
    assert 'now named "Pause (k)"' in said, said


async def test_a_choice_says_nothing_of_how_its_lists_options_looked_as_it_opened(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "select", target="#lang", values=["Korean"])).text
    assert await text_of(tab, "#lang") == "Korean"
    assert "value now 'Korean'" in said, said
    assert "now selected" not in said, said


async def test_a_choice_its_list_does_not_offer_closes_the_list_it_opened(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    with pytest.raises(TargetNotInteractable) as refused:
        await run_tool(tab, "select", target="#size", values=["Huge"])
    assert "its list was closed again with Escape" in str(refused.value), refused.value
    assert await js(tab, "document.getElementById('size').ariaExpanded") == "false"
    said = (await run_tool(tab, "select", target="#size", values=["Large"])).text
    assert await text_of(tab, "#size") == "Large", said


async def test_a_tables_column_taken_out_or_put_back_is_named(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#status-column")).text
    assert 'the table no longer shows the column "Status"' in said, said
    said = (await run_tool(tab, "click", target="#status-column")).text
    assert 'the table now shows the column "Status"' in said, said


async def test_columns_taken_out_from_the_last_first_are_named_in_the_order_they_stood(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#day-view")).text
    assert 'the table no longer shows the columns "Tue", "Wed", "Thu"' in said, said


async def test_the_rows_a_select_all_ticked_by_script_are_counted(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "check", target="#pick-all")).text
    assert "now checked; 2 other check boxes now checked" in said, said
    said = (await run_tool(tab, "uncheck", target="#pick-all")).text
    assert "2 other check boxes now not checked" in said, said


async def test_a_fields_suggestions_an_escape_closed_are_said_closed(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "fill", target="#q", text="mouse")).text
    assert 'opened the list "Suggestions" of 2 options' in said, said
    said = (await run_tool(tab, "press", keys="Escape")).text
    assert 'closed the list "Suggestions"' in said, said


async def test_results_swapped_for_the_line_saying_none_name_it_and_those_back_are_counted(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "click", target="#find-none")).text
    assert '3 items of a list replaced by 1 other: "No results found Try another search."' \
        in said, said
    said = (await run_tool(tab, "click", target="#find-three")).text
    assert "3 items added to a list" in said, said


async def test_what_each_key_of_a_type_changed_is_said(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "type", target="#pw", text="A1")).text
    assert '"✓ Contains a number"' in said, said
    assert '"✓ An uppercase letter"' in said, said


async def test_an_event_put_into_a_calendars_day_cell_is_said(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    await run_tool(tab, "fill", target="#event-title", text="Dentist")
    said = (await run_tool(tab, "click", target="#new-event button")).text
    assert 'the page now shows "10:00 Dentist"' in said, said


async def test_a_lists_one_suggestion_replaced_by_another_is_said(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "fill", target="#address", text="infinite")).text
    assert '1 item of a list ("350 Fifth Avenue, New York") replaced by 1 other: ' \
        '"1 Infinite Loop, Cupertino"' in said, said


async def test_a_see_through_select_a_typed_number_changed_is_said(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("kitreports.html"))
    said = (await run_tool(tab, "type", target="#phone", text=" 7911 123456")).text
    assert "\"Country\" now 'Guernsey'" in said, said


async def test_a_day_the_pointer_rests_on_keeps_its_ref(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("kitreports.html"))
    day = ref(shot, "clickable", "May 3, 2026")
    await run_tool(tab, "hover", target=day)
    again = await tab.snapshot(interactive=True)
    assert f'clickable "May 3, 2026" {day}' in again.text, again.text
    await run_tool(tab, "click", target=day)
    assert await text_of(tab, "#day-picked") == "May 3, 2026"
