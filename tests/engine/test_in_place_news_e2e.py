"""What an action changes in place, as a person sees it: a count beside the control pressed
(a vote's) is news while a clock's number elsewhere is not; a comment that came is read
with its author's link; the field an action put the focus in is said (a title an Edit
turned into a field, a cell's editor a double click opened, the next field a Tab went to);
buttons drawn in place of a count (a list's bulk actions) are said; words that came in a
dialog open before the action (a gallery's caption) are said; a card holding a list drawn
anew says the words it changed (a plan's price); a panel taken away says what no longer
shows, where a spinner going, or a card drawn anew, does not; a menu that came in a card
made a button is said; of many words rewritten in place, those no control holds are; an item
deleted from a list is named; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_count_beside_the_control_pressed_is_said_not_a_clock_elsewhere(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    await tab.snapshot(interactive=True)
    said = (await run_tool(tab, "click", target="#up")).text
    assert 'the page now shows "18"' in said, said
    said = (await run_tool(tab, "click", target="#up")).text
    assert 'the page now shows "19"' in said, said
    said = (await run_tool(tab, "click", target="#more")).text
    assert 'the page now shows "2"' in said, said  # (a stepper's number, a flex item)
    said = (await run_tool(tab, "click", target="#first")).text
    assert "now shows" not in said, said  # (the clock ticked meanwhile)


async def test_words_that_came_keep_their_links_words(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#reply")).text
    assert 'the page now shows "ada just now Monorepos need the cache flag."' in said, said
    assert "shows the button" not in said, said  # (its Like is the comment's, said by its words)


async def test_buttons_drawn_in_place_of_a_count_are_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "check", target="loc=checkbox \"Pick Dark mode\"")).text
    assert 'the page now shows "1 selected"' in said, said
    assert 'the page now shows the buttons "Close issues", "Label", "Archive"' in said, said
    said = (await run_tool(tab, "check", target="loc=checkbox \"Pick Crash on start\"")).text
    assert "the buttons" not in said, said  # (drawn again as they were)


async def test_the_field_an_action_put_the_focus_in_is_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#edit")).text
    assert 'focus moved to a new textbox, value "Release notes"' in said, said
    said = (await run_tool(tab, "dblclick", target="#age")).text
    assert 'focus moved to a new spinbutton, value "28"' in said, said
    await run_tool(tab, "click", target="#first")
    said = (await run_tool(tab, "press", keys="Tab")).text
    assert 'focus moved to textbox "Second"' in said, said


async def test_focus_staying_in_the_field_acted_on_is_no_news(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#first")).text
    assert "focus moved" not in said, said
    said = (await run_tool(tab, "type", target="#first", text="abc")).text
    assert "focus moved" not in said, said


async def test_words_that_came_in_a_dialog_open_before_are_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("lightbox.html"))
    said = (await run_tool(tab, "click", target="#next")).text
    assert '"Golden wheat field in Kansas"' in said, said
    assert '"4 / 5"' in said, said  # (its counter, beside the Next pressed)
    said = (await run_tool(tab, "click", target="#report")).text
    assert 'the page now shows "Sign in to report images"' in said, said


async def test_a_card_holding_a_list_drawn_anew_says_the_words_it_changed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#yearly")).text
    assert 'the page now shows "$23/month"' in said, said
    said = (await run_tool(tab, "click", target="#yearly")).text
    assert 'the page now shows "$29/month"' in said, said


async def test_a_panel_taken_away_says_what_no_longer_shows(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#hide")).text
    assert 'the page no longer shows "Adults 1"' in said, said  # (not its button's words)
    said = (await run_tool(tab, "click", target="#yearly")).text
    assert "no longer shows" not in said, said  # (a plan's card drawn anew)


async def test_a_spinner_that_went_is_no_news(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#save", interactive=True)).text
    assert "no longer shows" not in said, said


async def test_a_menu_that_came_in_a_card_made_a_button_is_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#dots")).text
    assert 'the page now shows "Archive card Copy link"' in said, said


async def test_of_many_words_rewritten_those_no_control_holds_are_said(
        tab: Tab, site: Site) -> None:
    # (a calendar's Next rewrote its range and seven headers, buttons: was said as nothing)
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#week")).text
    assert 'the page now shows "December 13 \u2013 19"' in said, said


async def test_an_item_deleted_from_a_list_is_named(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inplace.html"))
    said = (await run_tool(tab, "click", target="#drop-walk")).text
    assert '1 item removed from a list: "Walk dog"' in said, said
