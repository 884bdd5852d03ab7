"""A shop's parts as shops build them: a mini cart slid out under the page's scroll bar, a
wizard's steps that write their own numbers, a country list whose options say more than
the country's name, a web component kit's parts (Vaadin's sorter and check box), and an
upload the page answers; on both transports."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, run_tool, text_of, value_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_drawer_slid_out_under_the_scroll_bar_is_not_shown_until_it_opens(
        tab: Tab, site: Site) -> None:
    # (its left edge lay under the scroll bar, inside the window's width: "Close cart" was
    # listed, and a click on it said it was outside the visible area)
    await goto(tab, site.url("shopparts.html"))
    for viewport in (False, True):
        shot = await tab.snapshot(interactive=False, viewport=viewport)
        assert "Close cart" not in shot.text, shot.text
    await actions.click(tab, parse("#add"))
    shot = await tab.snapshot(interactive=True)
    assert 'button "Close cart"' in shot.text, shot.text


async def test_a_list_that_shows_no_numbers_does_not_add_its_own(tab: Tab, site: Site) -> None:
    # (a wizard's steps read "1. 1. Contact")
    await goto(tab, site.url("shopparts.html"))
    shot = await tab.snapshot(interactive=False)
    assert "1. Contact" in shot.text, shot.text
    assert "1. 1." not in shot.text, shot.text


async def test_an_option_that_says_more_after_the_words_asked_for_is_chosen_when_alone(
        tab: Tab, site: Site) -> None:
    # (intl-tel-input's "Germany (+49)": `select Germany` was refused)
    await goto(tab, site.url("shopparts.html"))
    out = await actions.select(tab, parse("#country"), ["Germany"])
    assert 'option "Germany (+49)"' in out.text(), out.text()
    assert await text_of(tab, "#out") == "country Germany (+49)"
    with pytest.raises(TargetNotInteractable, match='no option "Ge" showed'):
        await actions.select(tab, parse("#country"), ["Ge"])


async def test_a_shadow_host_that_shows_only_its_slot_and_listens_is_a_control(
        tab: Tab, site: Site) -> None:
    # (Vaadin's grid sorter: no line for "Name" or "Age", no sort to act on)
    await watch_listeners(tab)
    await goto(tab, site.url("shadowparts.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "clickable", "Age")))
    assert await text_of(tab, "#out") == "sorted by Age"


async def test_a_check_boxs_drawn_parts_are_no_controls_beside_it(
        tab: Tab, site: Site) -> None:
    # (Vaadin's: a nameless clickable for the box under the input, refused as covered, and a
    # clickable of the label's part that did nothing)
    await watch_listeners(tab)
    await goto(tab, site.url("shadowparts.html"))
    shot = await tab.snapshot(interactive=True)
    assert "clickable @" not in shot.text, shot.text
    assert 'clickable "Order ID"' not in shot.text, shot.text
    await actions.check(tab, parse(ref(shot, "checkbox", "Product name")), True)
    assert await text_of(tab, "#out") == "checked true"


@pytest.mark.parametrize("target", ["#choose", "#direct"])
async def test_an_upload_says_what_the_page_sent_and_said_to_the_files(
        tab: Tab, site: Site, tmp_path: Path, target: str) -> None:
    # (through a chooser or a file field: "chose 1 file(s)" said nothing of the failed
    # upload the page announced)
    cv = tmp_path / "cv.txt"
    cv.write_text("hello")
    await goto(tab, site.url("uploadreply.html"))
    result = await run_tool(tab, "upload", target=target, files=[str(cv)], interactive=True)
    assert f"the page sent data to {site.url('upload')}" in result.text, result.text
    assert 'the page said "cv.txt: uploaded"' in result.text, result.text


async def test_a_modal_whose_veil_its_shadow_root_lays_out_holds_the_page_behind_it(
        tab: Tab, site: Site) -> None:
    # (Vaadin's dialog: its host has no size; the page behind it was listed as if free, and
    # a check there said it was covered by the veil)
    await goto(tab, site.url("shadowparts.html"))
    result = await run_tool(tab, "click", target="#open-dialog", interactive=True)
    assert 'opened the dialog "New employee"' in result.text, result.text
    assert "a modal dialog is open" in result.text, result.text
    assert 'checkbox "Order ID"' not in result.text, result.text


async def test_a_click_that_steps_the_number_beside_it_says_its_new_value(
        tab: Tab, site: Site) -> None:
    # (a quantity's +: "clicked @381" and nothing of the quantity that went to 2)
    await goto(tab, site.url("shopparts.html"))
    out = await actions.click(tab, parse("#more"))
    assert "\"Quantity\" now '2'" in out.text(), out.text()
    out = await actions.click(tab, parse("#add"))
    assert "Quantity" not in out.text(), out.text()


async def test_a_chats_log_cut_short_keeps_its_newest_lines(tab: Tab, site: Site) -> None:
    # (-i cut it from its end: the newest message, what an agent waits for, never showed)
    await goto(tab, site.url("chatlog.html"))
    shot = await tab.snapshot(interactive=True)
    line = next(ln for ln in shot.text.splitlines() if "number 30" in ln)
    assert "Your ticket number is 4711." in line, shot.text
    assert "chars before]" in line, shot.text
    assert "number 1." not in line, shot.text


async def test_a_dialog_that_shows_in_a_shadow_root_is_said_opened(
        tab: Tab, site: Site) -> None:
    # (Carbon's modal: its closing was said, its opening not)
    await watch_listeners(tab)
    await goto(tab, site.url("shadowparts.html"))
    out = await actions.click(tab, parse("#open-modal"))
    assert 'opened the dialog "Delete project"' in out.text(), out.text()
    out = await actions.click(tab, parse("#cancel-modal"))
    assert 'closed the dialog "Delete project"' in out.text(), out.text()


async def test_a_look_after_a_click_says_how_its_button_ended_not_what_it_said_meanwhile(
        tab: Tab, site: Site) -> None:
    # (a coupon's Apply: "now named "Applying…"; now disabled" over a snapshot showing it
    # back as it was)
    await watch_listeners(tab)
    await goto(tab, site.url("shopparts.html"))
    result = await run_tool(tab, "click", target="#apply", interactive=True)
    done = result.text.splitlines()[0]
    assert "Applying" not in done, result.text
    assert "disabled" not in done, result.text
    assert "invalid: @" in done, result.text
    out = await actions.click(tab, parse("#apply"))  # (without a look: as it was at once)
    assert 'now named "Applying…"' in out.text(), out.text()


async def test_filling_a_number_box_takes_focus_as_a_click_into_it_would(
        tab: Tab, site: Site) -> None:
    # (flatpickr's time: the hour filled, then the minute, and the time was never saved:
    # the hour box never lost focus)
    await goto(tab, site.url("shopparts.html"))
    await actions.enter_text(tab, parse("#hour"), "14", "fill")
    await actions.enter_text(tab, parse("#minute"), "30", "fill")
    assert await js(tab, "document.activeElement.id") == "minute"
    assert await value_of(tab, "#arrival") == "14:00"


async def test_a_link_in_a_menu_that_opens_a_moment_after_the_pointer_came_is_clicked(
        tab: Tab, site: Site) -> None:
    # (a mega menu's hover intent: "even with the pointer over li.top, is not visible")
    await watch_listeners(tab)
    await goto(tab, site.url("shopparts.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[hover-only]" in line_of(shot, ref(shot, "link", "Hiking boots")), shot.text
    await actions.click(tab, parse('loc=link "Hiking boots"'))
    assert await text_of(tab, "#out") == "boots"


async def test_a_look_after_a_link_to_a_section_waits_for_the_smooth_scroll_there(
        tab: Tab, site: Site) -> None:
    # (Bootstrap's smooth scrolling: the table of contents still marked the first section)
    await watch_listeners(tab)
    await goto(tab, site.url("spaview.html"))
    result = await run_tool(tab, "click", target='loc=link "Gamma"', interactive=True)
    gamma = next(ln for ln in result.text.splitlines() if ln.startswith('- link "Gamma"'))
    assert "[current" in gamma, result.text


async def test_back_to_a_view_a_page_routes_to_shows_it_once_drawn(
        tab: Tab, site: Site) -> None:
    # (back -i after pushState routing showed the view being left: the page drew the one
    # gone back to on a timer its popstate armed)
    await watch_listeners(tab)
    await goto(tab, site.url("spaview.html"))
    result = await run_tool(tab, "click", target='loc=link "Orders"', interactive=True)
    assert "Order #1001" in result.text, result.text
    await run_tool(tab, "click", target='loc=link "Home"')
    result = await run_tool(tab, "back", interactive=True)
    assert "Order #1001" in result.text, result.text


async def test_the_current_item_that_is_no_link_says_so_in_every_snapshot(
        tab: Tab, site: Site) -> None:
    # (Bootstrap's pager marks page 2 on its item, a span: -i left it out, the full
    # snapshot showed "2" as words; a wizard's current step likewise)
    await goto(tab, site.url("shopparts.html"))
    for interactive in (True, False):
        shot = await tab.snapshot(interactive=interactive)
        assert 'listitem "2" [current]' in shot.text, shot.text
        assert 'listitem "2. Shipping" [current]' in shot.text, shot.text
