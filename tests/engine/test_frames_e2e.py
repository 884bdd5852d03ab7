"""Iframes (same-origin and out-of-process cross-origin) and open shadow roots."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Snapshot, Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def frames_page(tab: Tab, site: Site) -> Snapshot:
    """Open the frames page: the main frame's load waits for both frames' load."""
    await goto(tab, site.url("frames.html"))
    shot = await tab.snapshot()
    assert "Press cross" in shot.text and "Press same" in shot.text, shot.text
    return shot


async def frame_text(tab: Tab, who: str, selector: str) -> str:
    """Read an element of the inner page in frame `who`, in that frame's own main world."""
    if who == "same":
        return str(await js(tab, "document.getElementById('same').contentDocument"
                                  f".querySelector('{selector}').textContent"))
    [session] = [s for s, fid in tab.child_sessions.items()]
    return str(await js(tab, f"document.querySelector('{selector}').textContent",
                        session=session))


async def test_cross_origin_frame_runs_in_its_own_process(tab: Tab, site: Site) -> None:
    """The fixture does what it claims: the other site's frame is an OOPIF."""
    await frames_page(tab, site)
    assert len(tab.child_sessions) == 1
    assert site.other_origin.startswith("http://127.0.0.2:")


async def test_iframe_contents_appear_under_their_frame(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    lines = shot.text.splitlines()
    same = lines.index(line_of(shot, ref(shot, "iframe", "Same origin frame")))
    cross = lines.index(line_of(shot, ref(shot, "iframe", "Cross origin frame")))
    press_same = lines.index(line_of(shot, ref(shot, "button", "Press same")))
    press_cross = lines.index(line_of(shot, ref(shot, "button", "Press cross")))
    assert same < press_same < cross < press_cross
    indent = len(lines[cross]) - len(lines[cross].lstrip())
    assert len(lines[press_cross]) - len(lines[press_cross].lstrip()) > indent
    assert "> Frame cross" in shot.text


async def test_button_inside_same_origin_iframe_gets_a_ref_that_clicks(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    out = await actions.click(tab, target(shot, "button", "Press same"))
    assert "Press same" in out.did
    assert await frame_text(tab, "same", "#out") == "same clicked (trusted)"


async def test_button_inside_cross_origin_iframe_gets_a_ref_that_clicks(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    press = ref(shot, "button", "Press cross")
    out = await actions.click(tab, parse(press))  # the frame is below the fold: scrolls
    assert out.did.startswith(f"clicked {press}")
    assert await frame_text(tab, "cross", "#out") == "cross clicked (trusted)"
    assert await frame_text(tab, "same", "#out") == "not clicked"
    again = await tab.snapshot()
    assert ref(again, "button", "Press cross") == press
    assert "> cross clicked (trusted)" in again.text


async def test_fill_inside_cross_origin_iframe(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    field = ref(shot, "textbox", "Field cross")
    out = await actions.enter_text(tab, parse(field), "over there", "fill")
    assert out.data["value"] == "over there"
    [session] = list(tab.child_sessions)
    assert await js(tab, "document.getElementById('field').value", session=session) == \
        "over there"


async def test_css_selector_reaches_into_a_cross_origin_frame(tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    await actions.enter_text(tab, parse("#field"), "first match", "fill")
    # the main page has no #field; the first frame that has one is the same-origin frame
    assert await js(tab, "document.getElementById('same').contentDocument"
                         ".getElementById('field').value") == "first match"


async def test_scoped_snapshot_of_a_cross_origin_frame_shows_its_content(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    press = ref(shot, "button", "Press cross")
    scoped = await tab.snapshot(scope=parse(press))
    assert "Press cross" in scoped.text
    assert "Press same" not in scoped.text


async def test_shadow_dom_buttons_and_inputs_get_refs_that_work(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadow.html"))
    shot = await tab.snapshot()
    assert '- heading "Card"' in shot.text
    field = ref(shot, "textbox", "Shadow field")
    await actions.enter_text(tab, parse(field), "in the shadow", "fill")
    await actions.click(tab, target(shot, "button", "Shadow button"))
    assert await text_of(tab, "#out") == "shadow clicked with in the shadow"
    await actions.click(tab, target(shot, "button", "Deep button"))
    assert await text_of(tab, "#out") == "deep clicked"
    await actions.click(tab, target(shot, "button", "Slotted button"))
    assert await text_of(tab, "#out") == "slotted clicked"
    assert len([i for i in shot.refs.values() if i["name"] == "Slotted button"]) == 1


async def test_css_selector_reaches_into_open_shadow_roots(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadow.html"))
    await actions.enter_text(tab, parse("#sf"), "by css", "fill")
    await actions.click(tab, parse("#sb"))
    assert await text_of(tab, "#out") == "shadow clicked with by css"
