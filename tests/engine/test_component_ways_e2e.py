"""Web components and kits as sites use them: `text=` names the button in a shadow root
its words are slotted into (the snapshot's ref, its report, the menu it opened); a tab's
panel shown as the one before hides is said, its tabs and panels in one section; a closed
details in a shadow root shows its summary alone; a popup named by nothing is not named by
a weekday; a data table's rows listening for drags the kit never starts hold cells, no drag
items; a toast that lifts its own aria-hidden a frame after it came, fading in, is said; a
ref whose element a list drew anew from its state stays in its card; `type` goes where the
page put the caret in an empty block of its editor; keys pressed with no element focused say
what they showed; a modal shown once its backdrop faded in is said opened; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, run_tool, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_words_slotted_into_a_shadow_roots_button_name_that_button(
        tab: Tab, site: Site) -> None:
    # (was the host, `sl-button "Actions"` under a ref no snapshot showed, its report silent)
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse("text=Actions"))
    assert out.text().startswith(f'clicked {ref(shot, "button", "Actions ▾")} '), out.text()
    assert "now expanded; opened the menu of 2 items" in out.text(), out.text()


async def test_a_tabs_panel_shown_as_the_one_before_hides_is_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "tab", "Music")))
    assert 'the page now shows "Music: 40 items"' in out.text(), out.text()


async def test_a_closed_details_in_a_shadow_root_shows_its_summary_alone(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("componentways.html"))
    for markdown in (False, True):
        text = (await run_tool(tab, "text", markdown=markdown)).text
        assert "Shipping details" in text, text
        assert "Ships in 3-5 days" not in text, text


async def test_a_popup_named_by_nothing_is_not_named_by_a_weekday(tab: Tab, site: Site) -> None:
    # (Element Plus's date picker: `opened the dialog "Sun"`)
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "textbox", "Delivery date")))
    assert "opened the dialog" in out.text(), out.text()
    assert '"Sun"' not in out.text(), out.text()
    shot = await tab.snapshot(interactive=False)
    assert '- dialog "Sun"' not in shot.text, shot.text


async def test_rows_listening_for_drags_never_started_hold_cells_not_drag_items(
        tab: Tab, site: Site) -> None:
    # (PrimeVue's DataTable: every cell a ref marked [draggable])
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[draggable]" not in shot.text, shot.text
    assert not [r for r, info in shot.refs.items() if info["role"] == "cell"], shot.text
    await actions.click(tab, parse(ref(shot, "button", "Buy", 1)))
    assert await text_of(tab, "#out") == "Added Black Watch"


async def test_a_toast_lifting_its_own_aria_hidden_as_it_fades_in_is_said(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    for _ in range(2):  # (a second toast of the same words is news too)
        out = await actions.click(tab, parse(ref(shot, "button", "Save")))
        assert 'the page said "Draft saved"' in out.text(), out.text()


async def test_a_ref_drawn_anew_stays_in_its_card_and_says_its_new_name(
        tab: Tab, site: Site) -> None:
    # (a list drawn anew from its state: the one star still "Not starred" was Carol's, and
    # the second click on Alice's ref starred Carol)
    await watch_listeners(tab)
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    star = next(r for r, info in shot.refs.items()
                if info["role"] == "clickable" and ' in "Alice"' in line_of(shot, r))
    out = await actions.click(tab, parse(star))
    assert 'now named "Starred"' in out.text(), out.text()
    assert await text_of(tab, "#out") == "Starred: Alice"
    out = await actions.click(tab, parse(star))
    assert 'now named "Not starred"' in out.text(), out.text()
    assert await text_of(tab, "#out") == "Starred: "


async def test_type_goes_where_the_page_put_the_caret_in_an_empty_block_of_its_editor(
        tab: Tab, site: Site) -> None:
    # (TipTap's heading from a slash command: the words went into the empty paragraph the
    # editor keeps at its end, the heading left empty)
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Heading")))
    await actions.enter_text(tab, parse(ref(shot, "textbox", "Notes")), "Agenda", "type")
    assert await js(tab, "document.querySelector('#notes h2').textContent") == "Agenda"
    assert await js(tab, "document.querySelector('#notes').lastElementChild.textContent") == ""
    # (an editor whose caret stands before words of its own takes typing at its end, as
    # before; one with no words after it goes on where it stands: test_editor_parts_e2e.py)
    await js(tab, "(() => { const h = document.querySelector('#notes h2'); "
                  "getSelection().collapse(h.firstChild, 0); return true; })()")
    await actions.enter_text(tab, parse(ref(shot, "textbox", "Notes")), "More", "type")
    assert await js(tab, "document.querySelector('#notes').lastElementChild.textContent") == \
        "More"


async def test_keys_pressed_with_no_element_focused_say_what_they_showed(
        tab: Tab, site: Site) -> None:
    # (a command palette's Control+K, focus on the page's body: `pressed Control+k` alone)
    await goto(tab, site.url("componentways.html"))
    out = await actions.press(tab, "Control+k")
    assert 'the page now shows "Go to Inbox Go to Chat"' in out.text(), out.text()


async def test_a_modal_shown_once_its_backdrop_faded_in_is_said_opened(
        tab: Tab, site: Site) -> None:
    # (Bootstrap 5's: the dialog shows 150 ms after the click, its backdrop first)
    await goto(tab, site.url("componentways.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "button", "Quick view")))
    assert 'opened the dialog "Trail runner"' in out.text(), out.text()
