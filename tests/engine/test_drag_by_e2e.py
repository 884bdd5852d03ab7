"""A drag by an offset (`drag @N --dx/--dy`): pressed on the element, moved that far as a
hand moves, let go there; what lies under its end is put to policy before any input, an
end outside the window is refused with nothing pressed. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, listened_snapshot, run_tool, target, text_of, watch_listeners
from tabsteward.bridge.engine import actions, dragging
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import (
    PolicyError,
    TargetCovered,
    TargetNotInteractable,
    UsageError,
)
from tabsteward.bridge.policy.intent import Intent

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def pressed(tab: Tab) -> int:
    """How many presses the page has had."""
    return (await text_of(tab, "#log")).count("down")


async def test_an_item_swiped_aside_shows_what_it_covered(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("swipes.html"))
    with pytest.raises(TargetCovered):
        await actions.click(tab, target(shot, "button", "Delete"))
    out = await dragging.drag_by(tab, target(shot, "clickable", "Mail from Ada"), -120, 0)
    assert "it moved by -80,0" in out.changes, out.text()  # it springs to its open place
    await actions.click(tab, target(shot, "button", "Delete"))
    assert await text_of(tab, "#out") == "Deleted"


async def test_a_splitter_a_pad_and_a_slider_move_as_far_as_the_hand_does(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("swipes.html"))
    out = await dragging.drag_by(tab, target(shot, "separator", "Resize"), 80, 0)
    assert await text_of(tab, "#out") == "left pane 230 px"
    assert out.data["moved"] == [80, 0], out.text()
    await dragging.drag_by(tab, target(shot, "clickable", "Sign here"), 120, 20)
    assert await text_of(tab, "#out") == "signed"
    out = await dragging.drag_by(tab, target(shot, "slider", "Level"), 90, 0)
    assert "value now '50'" in out.changes, out.text()


async def test_what_lies_under_a_drag_s_end_is_judged_before_any_press(
        tab: Tab, site: Site, browser: Browser) -> None:
    shot = await listened_snapshot(tab, site.url("swipes.html"))
    asked: list[Intent] = []

    async def no_paying(_tab: Tab, intent: Intent) -> None:
        asked.append(intent)
        if intent.element is not None and intent.element.name == "Pay now":
            raise PolicyError("asked about: the pay button")

    grip = target(shot, "clickable", "Grip")
    # (from the grip down onto the pay button: its release lands there)
    box = await tab.evaluate(tab.frames[tab.target_id], "[document.getElementById('grip')"
                             ".getBoundingClientRect().top, document.getElementById('pay')"
                             ".getBoundingClientRect().top]")
    browser.gate = no_paying
    try:
        with pytest.raises(PolicyError, match="the pay button"):
            await dragging.drag_by(tab, grip, 0, round(box[1] - box[0]) + 2)
    finally:
        browser.gate = None
    assert [i.action for i in asked] == ["drag", "drag"]
    assert await pressed(tab) == 0
    assert await text_of(tab, "#out") == "nothing yet"


async def test_a_drag_of_a_pixel_on_a_button_is_judged_as_the_click_it_makes(
        tab: Tab, site: Site, browser: Browser) -> None:
    # (pressed and let go on one button, the browser clicks it)
    shot = await listened_snapshot(tab, site.url("swipes.html"))

    async def no_paying(_tab: Tab, intent: Intent) -> None:
        if intent.element is not None and intent.element.name == "Pay now":
            raise PolicyError(f"asked about: {intent.action} on the pay button")

    browser.gate = no_paying
    try:
        with pytest.raises(PolicyError, match="drag on the pay button"):
            await dragging.drag_by(tab, target(shot, "button", "Pay now"), 1, 0)
    finally:
        browser.gate = None
    assert await pressed(tab) == 0
    assert await text_of(tab, "#out") == "nothing yet"


async def test_a_drag_by_a_distance_inside_a_frame_is_refused_before_any_press(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("swipes.html"))
    with pytest.raises(TargetNotInteractable, match=r"is inside a frame: .*nothing was done"):
        await dragging.drag_by(tab, target(shot, "button", "In frame"), 20, 0)
    assert await pressed(tab) == 0


@pytest.mark.parametrize(("dx", "dy", "says"), [
    (0, 0, r"a drag by 0,0 moves nothing"),
    (0, 5000, r"would end at \d+,\d+, outside the window \(\d+x\d+\); nothing was done"),
    (-4000, 0, r"outside the window"),
    (20_000, 0, r"at most 10,000 px"),
])
async def test_a_drag_that_would_end_nowhere_in_the_window_presses_nothing(
        tab: Tab, site: Site, dx: int, dy: int, says: str) -> None:
    shot = await listened_snapshot(tab, site.url("swipes.html"))
    with pytest.raises(UsageError, match=says):
        await dragging.drag_by(tab, target(shot, "separator", "Resize"), dx, dy)
    assert await pressed(tab) == 0


@pytest.mark.parametrize("args", [{"to": "#pay", "dx": 5}, {}])
async def test_the_drag_tool_takes_a_drop_target_or_an_offset_not_both_nor_neither(
        tab: Tab, site: Site, args: dict[str, object]) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("swipes.html"))
    with pytest.raises(UsageError, match=r"TO\) or an offset \(--dx/--dy\), not both or "
                                         r"neither; nothing was dragged"):
        await run_tool(tab, "drag", target="#split", **args)
    assert await pressed(tab) == 0


async def test_the_drag_tool_with_an_offset_alone_drags_by_it(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("swipes.html"))
    result = await run_tool(tab, "drag", target="#split", dy=4)
    assert result.text.startswith("dragged "), result.text
    assert " by 0,4; " in result.text
