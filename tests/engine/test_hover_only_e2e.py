"""Controls a page shows only while the pointer is over their row (its `:hover` rules, or its
script on a hover listener of the row): listed with refs marked hover-only, and acted on
directly, the pointer put over the row first, as a person does; what policy refuses moves
no pointer, and what the hover lays over the control is reported, not clicked. On both
transports (through the extension, a page's listeners are known from the debugger on)."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError, TargetCovered, TargetNotInteractable
from tabsteward.bridge.policy.intent import Intent

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_rows_actions_shown_only_under_the_pointer_are_listed_as_hover_only(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot(interactive=True)
    for row, nth in (("Alice", 0), ("Bob", 1), ("Mia", 2), ("Dee", 4), ("Noor", 5)):
        line = line_of(shot, ref(shot, "button", "Archive", nth))
        assert "[hover-only]" in line, (row, shot.text)
    assert "[hover-only]" in line_of(shot, ref(shot, "button", "Delete"))
    # shown by hovering a sibling, or never: not listed
    assert "Sharpen" not in shot.text
    assert "Never shown" not in shot.text
    assert "Kept tags" not in shot.text  # (a field kept out of sight by its own style)
    # the list table's links put off screen are there as they were, unmarked
    assert "hover-only" not in line_of(shot, ref(shot, "link", "Trash", 1))
    # what a hidden box holds stays hidden, though a box inside it listens for the pointer
    # (no pointer comes over what is not shown)
    full = await tab.snapshot()
    assert "Tuesday" not in full.text, full.text
    assert "Year" not in full.text, full.text


async def test_a_hover_only_button_is_clicked_with_the_pointer_over_its_row_first(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "button", "Delete")))
    assert out.did.startswith('clicked @'), out.text()
    assert await text_of(tab, "#out") == "deleted Bob"
    # the pointer is over Bob's row now: Alice's button is hidden again, and still clicked
    out = await actions.click(tab, parse(ref(shot, "button", "Archive", 0)))
    assert await text_of(tab, "#out") == "archived Alice"
    assert out.did.endswith('(button "Archive")'), out.did  # named as shown
    await actions.click(tab, parse(ref(shot, "button", "Archive", 2)))  # in an @media rule
    assert await text_of(tab, "#out") == "archived Mia"
    await actions.click(tab, parse(ref(shot, "button", "Archive", 5)))  # put in by script
    assert await text_of(tab, "#out") == "archived Noor"
    await actions.click(tab, parse(ref(shot, "button", "Archive", 4)))  # shown by script
    assert await text_of(tab, "#out") == "archived Dee"


async def test_a_button_that_lets_the_pointer_through_until_its_row_is_hovered_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot(interactive=True)
    # see-through and letting clicks through to its row: listed, as a person may find it
    await actions.click(tab, parse(ref(shot, "button", "Archive", 3)))
    assert await text_of(tab, "#out") == "archived Pia"


async def test_steppers_in_a_box_the_pointer_grows_from_nothing_are_listed_and_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot()
    assert "[hover-only]" in line_of(shot, ref(shot, "button", "Increase Value"))
    assert "[hover-only]" in line_of(shot, ref(shot, "button", "Decrease Value"))
    # their icons are the buttons' drawing, not lines of their own
    assert 'img "up"' not in shot.text, shot.text
    assert 'img "down"' not in shot.text, shot.text
    out = await actions.click(tab, parse(ref(shot, "button", "Increase Value")))
    assert out.did.endswith('(button "Increase Value")'), out.did
    assert await text_of(tab, "#out") == "seats 4"
    await actions.click(tab, parse(ref(shot, "button", "Decrease Value")))
    assert await text_of(tab, "#out") == "seats 3"


async def test_a_link_put_off_screen_until_its_row_is_hovered_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "link", "Trash", 1)))
    assert await text_of(tab, "#out") == "trashed 2"


async def test_what_the_hover_lays_over_the_button_is_reported_and_nothing_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoveronly.html"))
    await tab.snapshot(interactive=True)
    with pytest.raises(TargetCovered, match=r'even with the pointer over div#veiled.row.v '
                       r'"Vic Prize!.*", is covered by .*nothing was done'):
        await actions.click(tab, parse('loc=button "Archive" in "Vic"'))
    assert await text_of(tab, "#out") == "nothing yet"


async def test_a_control_the_pointer_does_not_show_is_refused_saying_so(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoveronly.html"))
    # (hidden with all around it but the page's body: no row to put the pointer over)
    with pytest.raises(TargetNotInteractable, match=r'^@\d+ \(button "Never shown"\) is not '
                       r"visible \(no size or hidden\); nothing was done"):
        await actions.click(tab, parse(".gone button"))
    assert await text_of(tab, "#moves") == "0"
    assert await text_of(tab, "#out") == "nothing yet"


async def test_a_policy_that_refuses_hovering_moves_no_pointer(
        tab: Tab, site: Site, browser: Browser) -> None:
    asked: list[Intent] = []

    async def no_hover(_tab: Tab, intent: Intent) -> None:
        asked.append(intent)
        if intent.action == "hover":
            raise PolicyError("asked about: a hover")

    await goto(tab, site.url("hoveronly.html"))
    shot = await tab.snapshot(interactive=True)
    browser.gate = no_hover
    try:
        with pytest.raises(PolicyError, match="asked about: a hover"):
            await actions.click(tab, parse(ref(shot, "button", "Delete")))
    finally:
        browser.gate = None
    hovered = next(i for i in asked if i.action == "hover")
    assert hovered.element is not None
    assert hovered.element.text == "Bob Invoice 42"
    assert await text_of(tab, "#moves") == "0"
    assert await text_of(tab, "#out") == "nothing yet"
