"""Pointer input: hit tests and covers, buttons and modifiers, hover, drag, scrolling."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target, text_of
from tabsteward.bridge.engine import actions, dragging
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetCovered, TargetNotInteractable, UsageError

pytestmark = pytest.mark.browser


async def test_click_on_covered_button_is_refused_naming_the_cover(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("overlay.html"))
    shot = await tab.snapshot()
    with pytest.raises(TargetCovered) as caught:
        await actions.click(tab, target(shot, "button", "Buy now"))
    err = caught.value
    assert "div#consent.modal" in err.message
    assert "nothing was done" in err.message
    assert "consent" in str(err.details["cover"])
    assert await text_of(tab, "#out") == "nothing yet"


async def test_click_goes_through_once_the_cover_is_gone(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("overlay.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Accept cookies"))
    assert await js(tab, "document.getElementById('consent')") is None
    await actions.click(tab, target(shot, "button", "Buy now"))
    assert await text_of(tab, "#out") == "bought"


async def test_fill_into_a_covered_field_is_refused_naming_the_cover(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("overlay.html"))
    shot = await tab.snapshot()
    with pytest.raises(TargetCovered, match=r"div#consent\.modal"):
        await actions.enter_text(tab, target(shot, "textbox", "Coupon"), "SAVE10", "fill")
    assert await js(tab, "document.getElementById('under').value") == ""


async def test_click_on_a_disabled_button_is_refused(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("overlay.html"))
    shot = await tab.snapshot()
    with pytest.raises(TargetNotInteractable, match="disabled; nothing was clicked"):
        await actions.click(tab, target(shot, "button", "Closed"))


async def test_a_disabled_button_below_the_fold_is_refused_without_scrolling_to_it(
        tab: Tab, site: Site) -> None:
    # the element is resolved and placed in one call to the page: a disabled one is not placed
    await goto(tab, site.url("overlay.html"))
    await js(tab, "off.style.top = '3000px', wide.style.top = '3100px', scrollTo(0, 0), true")
    shot = await tab.snapshot()
    with pytest.raises(TargetNotInteractable, match="disabled; nothing was clicked"):
        await actions.click(tab, target(shot, "button", "Closed"))
    assert await js(tab, "scrollY") == 0
    await actions.click(tab, target(shot, "button", "Wide button"))  # an enabled one is
    assert await js(tab, "scrollY") > 0
    assert await text_of(tab, "#out") == "wide clicked"


async def test_click_lands_on_an_uncovered_part_of_a_partly_covered_button(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("overlay.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Wide button"))
    assert await text_of(tab, "#out") == "wide clicked"


async def test_click_on_a_hidden_element_is_refused(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("upload.html"))
    with pytest.raises(TargetNotInteractable, match="nothing was done"):
        await actions.click(tab, parse("#hidden"))


async def test_clicks_are_trusted_and_carry_button_count_and_modifiers(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mouse.html"))
    pad = parse("#pad")
    await actions.click(tab, pad)
    await actions.click(tab, pad, count=2)
    await actions.click(tab, pad, button="right")
    await actions.click(tab, pad, modifiers=["Shift", "Ctrl"])
    log = (await text_of(tab, "#log")).split()
    assert log == ["click:0", "click:0", "click:0", "dblclick:0", "contextmenu:2",
                   "auxclick:2", "click:0:ctrl+shift"]


async def test_click_refuses_an_unknown_button_or_modifier(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mouse.html"))
    with pytest.raises(UsageError):
        await actions.click(tab, parse("#pad"), button="fourth")
    with pytest.raises(UsageError):
        await actions.click(tab, parse("#pad"), modifiers=["Hyper"])
    with pytest.raises(UsageError):
        await actions.click(tab, parse("#pad"), count=7)
    assert await text_of(tab, "#log") == ""


async def test_hover_moves_the_mouse_over_the_element(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mouse.html"))
    assert "Tooltip shown" not in await actions.read(tab, "text")
    await actions.hover(tab, parse("#hoverme"))
    assert "mouseover" in await text_of(tab, "#log")
    assert "Tooltip shown" in await actions.read(tab, "text")


async def test_click_far_below_the_fold_scrolls_it_into_view(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Bottom button"))
    assert await text_of(tab, "#out") == "bottom clicked"
    assert await js(tab, "scrollY") > 1000


async def test_click_inside_a_scrolled_box_scrolls_the_box(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Inner bottom"))
    assert await text_of(tab, "#out") == "inner clicked"
    assert await js(tab, "document.getElementById('box').scrollTop") > 0


async def test_scroll_moves_the_page_and_reports_where(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    out = await actions.scroll(tab, None, 0, 500)
    assert await js(tab, "scrollY") == 500
    assert out.data["y"] == 500
    assert out.data["height"] > 1000
    await actions.scroll(tab, None, 0, -200)
    assert await js(tab, "scrollY") == 300


async def test_scroll_moves_an_element_and_brings_a_ref_into_view(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    out = await actions.scroll(tab, parse("#box"), 0, 60)
    assert await js(tab, "document.getElementById('box').scrollTop") == 60
    assert out.data["y"] == 60
    shot = await tab.snapshot()
    await actions.scroll(tab, target(shot, "button", "Bottom button"), 0, 0)
    view = await tab.snapshot(viewport=True)
    assert "Bottom button" in view.text
    assert "Top button" not in view.text


async def test_html5_drag_and_drop_moves_the_card(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drag.html"))
    await dragging.drag(tab, parse("#card"), parse("#done"))
    assert await text_of(tab, "#out") == "dropped Card A on done"
    assert await js(tab, "document.getElementById('card').parentElement.id") == "done"


async def test_mouse_drag_moves_a_handle_onto_its_target(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drag.html"))
    await dragging.drag(tab, parse("#handle"), parse("#bin"))
    assert await text_of(tab, "#mouse") == "handle dropped in the bin"



async def test_controls_disabled_by_aria_disabled_are_refused_before_any_event(
        tab: Tab, site: Site) -> None:
    # aria-disabled stops no event: the page's handlers would run on a click or a typed key
    await goto(tab, site.url("aria-disabled.html"))
    shot = await tab.snapshot()
    refused = [
        (actions.click, ("button", "Coming soon"), (), "clicked"),  # on the button itself
        (actions.click, ("button", "Next step"), (), "clicked"),  # a link with role=button
        (actions.click, ("button", "Locked save"), (), "clicked"),  # inside aria-disabled
        (actions.enter_text, ("textbox", "Locked name"), ("x", "fill"), "typed"),
        (actions.check, ("checkbox", "Locked terms"), (True,), "clicked"),
        (actions.select, ("combobox", "Locked size"), (["M"],), "selected"),
    ]
    for act, (role, name), args, verb in refused:
        assert "[disabled]" in line_of(shot, ref(shot, role, name))
        with pytest.raises(TargetNotInteractable, match=f"is disabled; nothing was {verb}"):
            await act(tab, target(shot, role, name), *args)  # type: ignore[operator]
    with pytest.raises(TargetNotInteractable, match='goes to button "Pay now", which is '
                                                    "disabled; nothing was clicked"):
        await actions.click(tab, parse("#pay-words"))
    assert await text_of(tab, "#out") == ""
    assert await js(tab, "location.hash") == ""
    # aria-disabled="false" nearer to a control than a "true" leaves it enabled
    await actions.click(tab, target(shot, "button", "Unlocked inside"))
    assert await text_of(tab, "#out") == "click:Unlocked inside;"


async def test_scroll_on_a_page_that_cannot_scroll_moves_the_pane_in_its_middle(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("appshell.html"))
    out = await actions.scroll(tab, None, 0, 600)
    assert await js(tab, "document.getElementById('list').scrollTop") == 600
    assert await js(tab, "scrollY") == 0
    assert out.did.startswith("scrolled main#list ")
    assert "(the page itself cannot scroll that way)" in out.did
    assert out.data["y"] == 600
    assert out.data["box"].startswith("main#list")
    await actions.scroll(tab, None, 0, -100000)
    stuck = await actions.scroll(tab, None, 0, -100)
    assert stuck.did.startswith("nothing scrolled: ")
    assert "is at its end that way (y=0 of " in stuck.did


async def test_scroll_over_an_element_that_cannot_scroll_moves_the_box_around_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("appshell.html"))
    shot = await tab.snapshot()
    out = await actions.scroll(tab, target(shot, "button", "Open 3"), 0, 300)
    assert await js(tab, "document.getElementById('list').scrollTop") == 300
    assert out.did.startswith("scrolled main#list ")
    assert ' around @' in out.did
    shown = await js(tab, "document.getElementById('list').clientHeight")
    assert out.did.endswith(f"to y=300 of {out.data['height']} (shows {shown})")
    # a box at its end passes the wheel on to the box around it, as a person's wheel does
    await actions.scroll(tab, parse("#thread"), 0, 10000)
    passed = await actions.scroll(tab, parse("#thread"), 0, 100)
    assert passed.did.startswith("scrolled main#list ")
    assert await js(tab, "document.getElementById('list').scrollTop") == 400
    # sideways: the strip of cards, not the page or the list
    sideways = await actions.scroll(tab, parse("#strip .card:first-child"), 200, 0)
    assert await js(tab, "document.getElementById('strip').scrollLeft") == 200
    assert sideways.did.startswith("scrolled div#strip ")
    assert "to x=200 of " in sideways.did


@pytest.mark.parametrize("back", ["", "?frame"])
async def test_a_click_releases_where_the_page_put_back_what_its_press_moved(
        tab: Tab, site: Site, back: str) -> None:
    # the press scrolls the window away and the page brings it back in a task of its own, or
    # at its next frame (a hidden tab is drawn meanwhile): the release goes once the point
    # shows the cell again, as a person's finger comes up, and lands on the cell
    await goto(tab, site.url("press_moves.html" + back))
    await actions.click(tab, parse("text=42"))
    assert await text_of(tab, "#out") == "42", await text_of(tab, "#ups")
