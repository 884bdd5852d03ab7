"""Developer tools', mail and shop pages as they are built: an open folder is clicked on
its own row, not on a file its box holds; a <details> shut by a key says so; a button in a
box a class marks active is not [current]; a row's words are what a person sees without the
pointer over it; a field a kit keeps off the page is not said; a check box drawn anew as
another says it cannot be read, not that the page refused; `select` takes the one option
whose first words are those asked for, and types the words into a field that completes
from a list; a toast faded out in place is gone; words a margin or padding parts are read
apart; -i leaves out what a box cuts off that no scroll brings; a cell's number a style
sheet writes is read; a hover says the title the browser shows; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, run_tool, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_an_open_folder_is_clicked_on_its_own_row(tab: Tab, site: Site) -> None:
    # (its box holds its files: the click's middle opened b.js)
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "treeitem", "src")))
    assert "now collapsed" in out.changes, out.text()
    assert await text_of(tab, "#out") == ""


async def test_a_details_a_key_shut_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("devpages.html"))
    await actions.click(tab, parse("summary"))
    out = await actions.press(tab, "Escape", parse("#filter"))
    assert '"Labels" now collapsed' in out.changes, out.text()


async def test_a_button_in_a_box_a_class_marks_active_is_not_current(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=True)
    assert "current" not in line_of(shot, ref(shot, "button", "I want to delete this "
                                                              "repository")), shot.text


async def test_a_rows_words_leave_out_what_only_the_pointer_shows(
        tab: Tab, site: Site) -> None:
    # (GitHub's diff: an unchanged line read "+ return mode;"; an inbox row "snoozed")
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=False)
    assert "| 10 | return mode; |" in shot.text, shot.text
    assert "snoozed" not in shot.text, shot.text


async def test_a_field_a_kit_keeps_off_the_page_is_not_said(tab: Tab, site: Site) -> None:
    # (Tagify: `"To" now '[{"value":"ada@example.org"}]'`)
    await goto(tab, site.url("devpages.html"))
    await actions.enter_text(tab, parse("#chip"), "ada@example.org", "fill")
    out = await actions.press(tab, "Enter", parse("#chip"))
    assert "value" not in out.text(), out.text()


async def test_a_check_box_drawn_anew_as_another_is_not_said_refused(
        tab: Tab, site: Site) -> None:
    # (named by its glyph, ☐ then ☑: "the page did not take the change", and the agent
    # clicked it again)
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.check(tab, parse(ref(shot, "checkbox", "\u2610")), True)
    assert "cannot be read: take a snapshot" in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    assert "[checked]" in shot.text, shot.text


async def test_select_takes_the_one_option_whose_first_words_are_those_asked_for(
        tab: Tab, site: Site) -> None:
    # (GitHub's labels: "bug Something isn't working"; `select bug` was refused)
    await goto(tab, site.url("devpages.html"))
    await actions.select(tab, parse("#labelsbtn"), ["bug"])
    assert await text_of(tab, "#out") == "label bug"
    with pytest.raises(TargetNotInteractable, match="no option"):
        await actions.select(tab, parse("#labelsbtn"), ["Visual"])


async def test_a_toast_the_page_faded_out_and_left_in_place_is_not_shown(
        tab: Tab, site: Site) -> None:
    # (GitHub's "Comment added" stayed in every later snapshot)
    await goto(tab, site.url("devpages.html"))
    await actions.click(tab, parse("#save"))
    assert "Comment added" in (await tab.snapshot(interactive=True)).text
    await actions.click(tab, parse("#dismiss"))
    for interactive in (True, False):
        shot = await tab.snapshot(interactive=interactive)
        assert "Comment added" not in shot.text, shot.text


async def test_words_a_margin_or_padding_parts_are_read_apart(tab: Tab, site: Site) -> None:
    # (a mail's label chips, "WorkTravelCOBOL meeting"; a chat's "Grace10:28 AM")
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=False)
    text = (await run_tool(tab, "text")).text
    for words in ("Work Travel COBOL meeting", "Grace 10:28 AM"):
        assert words in shot.text, shot.text
        assert words in text, text


async def test_the_interactive_snapshot_leaves_out_what_a_box_cuts_off_for_good(
        tab: Tab, site: Site) -> None:
    # (a facet's brands under its "Show more": -i listed all nine, and a check of the sixth
    # was refused as cut off)
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'checkbox "Bolt"' in shot.text, shot.text
    assert "Cobra" not in shot.text, shot.text
    assert "Cobra" in (await tab.snapshot(interactive=False)).text  # (its words stay)
    await actions.click(tab, parse("#showmore"))
    shot = await tab.snapshot(interactive=True)
    assert 'checkbox "Delta"' in shot.text, shot.text


async def test_select_types_the_words_into_a_field_that_completes_from_a_list(
        tab: Tab, site: Site) -> None:
    # (autoComplete.js: ARIA 1.1's combobox, its role on the box around the search field;
    # `select` on the field was refused as no list)
    await goto(tab, site.url("devpages.html"))
    await actions.select(tab, parse("#food"), ["Pepper - Red"])
    assert await text_of(tab, "#out") == "food Pepper - Red"


async def test_the_box_of_an_aria_1_1_combobox_is_no_line_its_field_is_the_combobox(
        tab: Tab, site: Site) -> None:
    # (a nameless `combobox [collapsed haspopup]` line, the search field apart under it, and
    # `select` on the box refused as no element)
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'searchbox "Search for food"' not in shot.text, shot.text
    line = line_of(shot, ref(shot, "combobox", "Search for food"))
    assert line.endswith("[collapsed haspopup]"), shot.text
    out = await actions.select(tab, parse(ref(shot, "combobox", "Search for food")),
                               ["Peas - Frozen"])
    assert await text_of(tab, "#out") == "food Peas - Frozen"
    assert out.changes.count("value now 'Peas - Frozen'") == 1, out.text()
    assert not any(c.startswith('"Search for food" now') for c in out.changes), out.text()


async def test_a_number_a_style_sheet_writes_into_a_cell_is_read(
        tab: Tab, site: Site) -> None:
    # (GitHub's line numbers, `content: attr(data-line-number)`: "|  | old(); |")
    await goto(tab, site.url("devpages.html"))
    shot = await tab.snapshot(interactive=False)
    assert "| 11 | old(); |" in shot.text, shot.text


async def test_a_hover_says_the_title_the_browser_shows_under_the_pointer(
        tab: Tab, site: Site) -> None:
    # (an admin's icon-only sidebar: its names only in titles; a hover said nothing)
    await goto(tab, site.url("devpages.html"))
    out = await actions.hover(tab, parse("#audit"))
    assert 'shows the tooltip "Audit log"' in out.changes, out.text()
