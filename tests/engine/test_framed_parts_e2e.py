"""Frames as shops and widgets use them: a card field in another site's frame that enables the
page's Pay is said to (the page around a frame an action was in is watched too); keys
pressed with focus in that frame say what they changed there and around it; a launcher that
shows a chat's frame says so; a frame the page does not draw (a closed widget's, one in a
hidden box) is no part of the page's text, nor does a wait find its words; a frame behind an
open modal gives no refs; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, listened_snapshot, ref, run_tool
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import ActionTimeout

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_card_field_in_another_sites_frame_says_the_pay_it_enabled(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedparts.html"))
    cvc = ref(shot, "textbox", "CVC")
    said = (await run_tool(tab, "fill", target=cvc, text="123")).text
    assert await js(tab, "document.getElementById('pay').disabled") is False
    assert '"Pay $12.00" now enabled' in said, said
    said = (await run_tool(tab, "fill", target=cvc, text="12")).text
    assert '"Pay $12.00" now disabled' in said, said


async def test_keys_pressed_in_a_frame_say_what_they_changed_there(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedparts.html"))
    await run_tool(tab, "fill", target=ref(shot, "textbox", "CVC"), text="12")
    said = (await run_tool(tab, "press", keys="Enter")).text
    assert '"Submitted 12"' in said, said
    said = (await run_tool(tab, "press", keys="Tab")).text
    assert '"Security code incomplete."' in said, said


async def test_keys_pressed_in_a_frame_say_what_they_changed_in_the_page_around_it(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("framedparts.html"))
    await run_tool(tab, "fill", target=ref(shot, "textbox", "CVC"), text="12")
    said = (await run_tool(tab, "press", keys="3")).text
    assert await js(tab, "document.getElementById('pay').disabled") is False
    assert '"Pay $12.00" now enabled' in said, said


async def test_a_launcher_that_shows_a_chats_frame_says_so(tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("framedparts.html"))
    said = (await run_tool(tab, "click", target="#launch")).text
    assert 'the page now shows the frame "Support chat"' in said, said


async def test_a_frame_the_page_does_not_draw_is_no_part_of_its_text(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedparts.html"))
    for markdown in (False, True):
        text = (await run_tool(tab, "text", markdown=markdown)).text
        assert "Framed parts" in text, text
        for hidden in ("Hidden chat body", "Script words", "Hidden modal frame text"):
            assert hidden not in text, text
    with pytest.raises(ActionTimeout):
        await run_tool(tab, "wait", text="Hidden chat body", timeout=1)
    await run_tool(tab, "click", target="#launch")  # (shown, it is the page's)
    await run_tool(tab, "wait", text="Hidden chat body", timeout=5)


async def test_a_frame_behind_an_open_modal_gives_no_refs(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("framedparts.html"))
    await run_tool(tab, "click", target="#prefs")
    shot = await tab.snapshot(interactive=True)
    assert "a modal dialog is open" in shot.text, shot.text
    assert "CVC" not in shot.text, shot.text
    assert 'checkbox "Analytics" @' in shot.text, shot.text
