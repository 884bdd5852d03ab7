"""What forms as sites build them change, said: a step put where the last one was says its
heading and its fields, as does a popup of fields (no dialog); words rewritten in a table's
row or a list's item are read as the row or item; a sort that moves rows says so, a filter
that narrows a list how many items left it; a count rewritten beside results drawn anew is
said, a count set again to what it was is no news; a short list of errors that comes is
said; a field's box is not named by the error under its field; a box whose words are in one
tall wrapper has nothing undrawn, and a scroll in it says what it changed; a calendar's days
a box around the grid takes the press of have refs; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def click(tab: Tab, role: str, name: str) -> str:
    shot = await tab.snapshot(interactive=True)
    return (await actions.click(tab, parse(ref(shot, role, name)))).text()


async def test_a_forms_next_step_says_its_heading_and_its_fields(tab: Tab, site: Site) -> None:
    # (a checkout's Continue said nothing: a box that came holding fields was no news)
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Continue")
    assert 'the page now shows "Payment" with the fields "Card number", "Expiry"' in said, said


async def test_a_popup_of_fields_says_its_fields(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Filter")
    assert 'the page now shows the fields "Filtering operator", "Filter value"' in said, said


async def test_words_rewritten_in_a_tables_rows_are_read_as_the_rows(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Express shipping")
    assert 'the page now shows "Shipping $12.50", "Total $37.49"' in said, said


async def test_a_sort_that_moves_a_tables_rows_says_it_put_them_in_another_order(
        tab: Tab, site: Site) -> None:
    # (TanStack Table's sort said nothing: its keyed rows move, no words change)
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Price")
    assert "the page put 3 rows or items in another order" in said, said


async def test_a_filter_that_narrows_a_list_says_how_many_items_left_it(
        tab: Tab, site: Site) -> None:
    # (a command palette's filter drawing its list anew: `value now 'arch'` alone)
    await goto(tab, site.url("formsteps.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.enter_text(tab, parse(ref(shot, "textbox", "Type a command")), "go to",
                                   "type")
    assert "2 items removed from a list" in out.text(), out.text()


async def test_a_count_rewritten_beside_results_drawn_anew_is_said(
        tab: Tab, site: Site) -> None:
    # (a shop's filter: twelve cards drawn anew silenced the whole report, its count too)
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Raise min price")
    assert 'the page now shows "Min $30: 56 products"' in said, said


async def test_a_count_set_again_to_what_it_was_is_no_news(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Recount")
    assert said == f'clicked {ref(await tab.snapshot(interactive=True), "button", "Recount")} ' \
        '(button "Recount")', said


async def test_words_rewritten_in_a_lists_items_are_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.enter_text(tab, parse(ref(shot, "textbox", "New password")), "abcdefg1",
                                   "fill")
    assert '"✓ At least 8 characters", "✓ One number"' in out.text(), out.text()


async def test_a_short_list_of_errors_that_comes_is_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "button", "Upload")
    assert 'the page now shows "notes.txt: File type must be image/*"' in said, said


async def test_a_fields_box_is_not_named_by_the_error_under_its_field(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert 'group "Enter a valid email"' not in shot.text, shot.text


async def test_a_box_whose_words_are_in_one_wrapper_has_nothing_undrawn(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("formsteps.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert "not in the page yet" not in shot.text, shot.text


async def test_a_scroll_says_what_it_changed(tab: Tab, site: Site) -> None:
    # (a terms box read to its end enables its check box: the scroll said where it went)
    await goto(tab, site.url("formsteps.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.scroll(tab, parse(ref(shot, "checkbox", "I agree to the terms")), 0, 3000)
    assert '"I agree to the terms" now enabled' in out.text(), out.text()


async def test_a_calendars_days_taken_by_a_box_around_the_grid_have_refs(
        tab: Tab, site: Site) -> None:
    # (FullCalendar's dateClick: no day had a ref, a click on its words worked)
    await watch_listeners(tab)  # (an inline script's listeners tell them)
    await goto(tab, site.url("formsteps.html"))
    said = await click(tab, "gridcell", "June 12, 2026")
    assert await text_of(tab, "#picked") == "Picked 2026-06-12", said
