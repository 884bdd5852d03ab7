"""A look right after an action shows what the page draws in its next frame (a dialog a
script opens there) and what an animation brings in (a dialog fading in, a panel growing
open), whole, as a person sees it once it came; a frame loop, an animation longer than a
second and the lift of what the pointer is over are not waited for. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, run_tool
from tabsteward.bridge.engine import actions, motion, reading
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_dialog_the_page_opens_in_its_next_frame_shows_in_the_look_after_the_click(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    clicked = await run_tool(tab, "click", target="#invite", interactive=True)
    assert 'dialog "Invite guest"' in clicked.text, clicked.text
    assert 'textbox "Guest email" @' in clicked.text, clicked.text
    cancelled = await run_tool(tab, "click", target="#cancel")
    assert cancelled.text.endswith('; closed the dialog "Invite guest"'), cancelled.text
    saved = await run_tool(tab, "click", target="#save", snapshot=True)
    assert "Status: saved" in saved.text, saved.text
    assert "still" not in saved.text, saved.text


async def test_a_snapshot_and_a_text_after_a_click_show_what_the_page_drew_a_moment_later(
        tab: Tab, site: Site) -> None:
    for read in ("snapshot", "text"):
        await actions.navigate(tab, site.url("nextframe.html"))
        out = await actions.click(tab, parse("#by-name"))
        # (the sort itself lands a moment later: said too when it came within the click's
        # wait for its timers, as on a busy machine)
        assert out.changes[0] == "now sort=ascending", out.text()
        assert set(out.changes[1:]) <= {"the page put 3 rows or items in another order"}, \
            out.text()
        got = (await tab.snapshot()).text if read == "snapshot" else \
            await reading.read(tab, "text")
        assert got.index("Alice") < got.index("Bob") < got.index("Charlie"), got


async def test_a_toggle_that_says_its_state_once_its_timer_ran_is_checked(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    out = await actions.check(tab, parse("#refresh"), True)
    assert out.did.startswith("checked "), out.text()
    assert await js(tab, "document.getElementById('refresh').ariaChecked") == "true"


@pytest.mark.parametrize(("button", "shown"), [
    ("#open-settings", 'textbox "Name" @'),  # a dialog fading in
    ("#more-button", 'link "Advanced options" @'),  # a panel growing open (max-height)
    ("#billing-button", 'button "Update card" @'),  # the page's own animation of its height
])
async def test_what_an_animation_brings_in_shows_whole_in_the_look_after_the_click(
        tab: Tab, site: Site, button: str, shown: str) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    await tab.snapshot(interactive=True)
    clicked = await run_tool(tab, "click", target=button, interactive=True)
    assert shown in clicked.text, clicked.text
    assert "still animating" not in clicked.text, clicked.text


async def test_a_frame_loop_and_a_fade_longer_than_a_second_do_not_hold_the_look(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    for button in ("#loop", "#fade-slow"):
        clicked = await run_tool(tab, "click", target=button, snapshot=True)
        assert "still" not in clicked.text, clicked.text
        assert "Slow banner" in clicked.text
    assert await js(tab, "document.getAnimations().length") >= 1  # (the slow fade runs on)


async def test_the_lift_of_what_the_pointer_is_over_is_not_waited_for_a_panel_opening_is(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    await actions.hover(tab, parse("#card"))
    left = f"__ts.motionLeft({motion.MOTION_CAP_MS})"
    frame = tab.frames[tab.target_id]
    assert await js(tab, "document.getAnimations().length") == 1  # (the card rising)
    assert await tab.evaluate(frame, left) == 0
    await js(tab, "document.getElementById('more').classList.add('on')")
    assert 0 < await tab.evaluate(frame, left) <= motion.MOTION_CAP_MS


async def test_the_pages_frame_callbacks_still_look_and_work_as_the_browsers_own(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("nextframe.html"))
    await run_tool(tab, "click", target="#save")  # (the hook is in: input came)
    seen = await js(tab, """(() => {
      const natives = [requestAnimationFrame, cancelAnimationFrame].map(
        (f) => [f.name, f.length, String(f).includes("[native code]")]);
      let ran = false;
      cancelAnimationFrame(requestAnimationFrame(() => { ran = true; }));
      return {natives, ran};
    })()""")
    assert seen["natives"] == [["requestAnimationFrame", 1, True],
                               ["cancelAnimationFrame", 1, True]]
    assert seen["ran"] is False
