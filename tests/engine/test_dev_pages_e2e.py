"""Developer tools' and mail pages as they are built: an open folder is clicked on its own
row, not on a file its box holds; a <details> shut by a key says so; a button in a box a
class marks active is not [current]; a row's words are what a person sees without the
pointer over it; a field a kit keeps off the page is not said; a check box drawn anew as
another says it cannot be read, not that the page refused; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

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
