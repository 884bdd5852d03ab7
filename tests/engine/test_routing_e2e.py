"""Mouse input goes where policy judged it would: in a tab that has not drawn since its page
moved, the browser routes input by the old layout, and a cross-site frame that stood at the
point must not get the click, the hover or the drag meant for the page."""

from __future__ import annotations

import asyncio
import json

import pytest
from fixture_server import Site
from pagetools import goto, js, target, text_of
from tabsteward.bridge.engine import actions, dragging, shield
from tabsteward.bridge.engine.collect import HOOK_SECRET
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def pay_under(tab: Tab, site: Site, scrolled_by: str) -> Snapshot:
    """A page whose first screen is a cross-site payment frame, and whose own button lies
    below it; scrolled by the agent (a script's scroll: nothing is drawn) or not yet."""
    await goto(tab, site.url("payunder.html"))
    shot = await tab.snapshot()
    if scrolled_by == "the agent":
        await actions.scroll(tab, None, 0, 1600)
    return shot


def felt(site: Site) -> list[str]:
    """What the payment frame told its server, in every test so far (the server is shared)."""
    return [r.path for r in site.posts("/felt") + site.posts("/paid")]


async def frame_felt_nothing(site: Site, before: list[str]) -> None:
    await asyncio.sleep(0.5)  # the frame reports by fetch: give a stray report time to come
    assert felt(site)[len(before):] == []


@pytest.mark.parametrize("scrolled_by", ["the click", "the agent"])
async def test_a_click_where_a_cross_site_frame_stood_before_a_scroll_reaches_the_page(
        tab: Tab, site: Site, scrolled_by: str) -> None:
    before = felt(site)
    for _ in range(3):
        shot = await pay_under(tab, site, scrolled_by)
        out = await actions.click(tab, target(shot, "button", "Keep shopping"))
        assert out.did.startswith("clicked")
        assert await text_of(tab, "#out") == "Keep shopping clicked (trusted)"
    await frame_felt_nothing(site, before)


async def test_a_hover_where_a_cross_site_frame_stood_before_a_scroll_reaches_the_page(
        tab: Tab, site: Site) -> None:
    before = felt(site)
    for _ in range(3):
        shot = await pay_under(tab, site, "the agent")
        await actions.hover(tab, target(shot, "button", "Keep shopping"))
        assert await js(tab, "document.body.dataset.hovered") == "yes"
    await frame_felt_nothing(site, before)


@pytest.mark.parametrize(("item", "onto", "order"), [
    ("Celebrate", "Review code", "Write report | Celebrate | Review code | Deploy"),  # pointer
    ("Dates", "Bananas", "Apples | Dates | Bananas | Cherries"),  # HTML5 drag and drop
])
async def test_a_drag_where_a_cross_site_frame_stood_before_a_scroll_reorders_the_list(
        tab: Tab, site: Site, item: str, onto: str, order: str) -> None:
    before = felt(site)
    for _ in range(2):
        await goto(tab, site.url("sortable.html?under=frame"))
        shot = await tab.snapshot()
        await actions.scroll(tab, target(shot, "listitem", item), 0, 0)
        out = await dragging.drag(tab, target(shot, "listitem", item),
                                  target(shot, "listitem", onto))
        assert order in out.text()
    await frame_felt_nothing(site, before)


async def test_a_raised_shield_stops_trusted_input_in_a_cross_site_frame_and_says_so(
        tab: Tab, site: Site) -> None:
    before = felt(site)
    await pay_under(tab, site, "not")
    frames = await shield.raise_shields(tab, tab.session_id)
    assert len(frames) == 1
    press = [("Input.dispatchMouseEvent", {"type": kind, "x": 50, "y": 50, "button": "left",
                                           "clickCount": 1}) for kind in
             ("mouseMoved", "mousePressed", "mouseReleased")]
    for method, params in press:  # trusted input straight to the frame's own process
        await tab.send(method, params, session=frames[0].session)
    assert await shield.lower_shields(tab, frames) == [site.other_origin]
    await frame_felt_nothing(site, before)
    for method, params in press:  # lowered: the same input reaches the frame's page
        await tab.send(method, params, session=frames[0].session)
    for _ in range(50):
        if "/paid" in felt(site)[len(before):]:
            break
        await asyncio.sleep(0.05)
    assert "/paid" in felt(site)[len(before):]


async def test_a_page_finds_no_trace_of_the_hooks_secret_in_its_frame(tab: Tab,
                                                                      site: Site) -> None:
    shot = await pay_under(tab, site, "the click")
    await actions.click(tab, target(shot, "button", "Keep shopping"))  # the hook is in
    frames = shield.exposed(tab, tab.session_id)
    assert frames
    listed = ("(() => { const names = [...Object.getOwnPropertyNames(window), ...Object"
              ".getOwnPropertySymbols(window).map(String)]; return names.filter(n => n.includes("
              f"{json.dumps(HOOK_SECRET)})); }})()")
    for session in (tab.session_id, frames[0].session):
        assert await js(tab, listed, session=session) == []


async def test_a_frame_showing_the_browsers_error_page_is_not_shielded_click_after_click(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("errorframe.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "button", "Go"))
    assert await text_of(tab, "#out") == "Go clicked"
    dead = [f for f in tab.frames.values() if f.bare is not None]
    assert len(dead) == 1
    assert dead[0].bare in (dead[0].world, dead[0].guard)  # the world that answered
    assert dead[0] not in shield.exposed(tab, tab.session_id)
