"""Frames with no address of their own: one whose document is its `srcdoc` (a preview, a
sandboxed widget) and one whose page writes its document (an editor, a mail's body). Their
controls are read and acted on as any frame's, through the extension too."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def frame_text(tab: Tab, frame: str, selector: str) -> str:
    return str(await js(tab, f"document.getElementById('{frame}').contentDocument"
                             f".querySelector('{selector}').textContent"))


async def test_a_srcdoc_frames_field_and_button_get_refs_that_act(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inlineframes.html"))
    shot = await tab.snapshot()
    assert 'heading "Preview"' in shot.text, shot.text
    await actions.enter_text(tab, target(shot, "textbox", "Note"), "milk", "fill")
    out = await actions.click(tab, target(shot, "button", "Save note"))
    assert "Save note" in out.did
    assert await frame_text(tab, "doc", "#out") == "saved milk (trusted)"


async def test_a_frame_its_page_wrote_shows_its_words_and_its_button_clicks(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inlineframes.html"))
    shot = await tab.snapshot()
    assert "Hello from the message." in shot.text, shot.text
    out = await actions.click(tab, target(shot, "button", "Send reply"))
    assert "Send reply" in out.did
    assert await frame_text(tab, "blank", "#out") == "sent (trusted)"
    again = await tab.snapshot()
    assert "sent (trusted)" in again.text, again.text
