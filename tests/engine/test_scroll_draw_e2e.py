"""After a scroll, a click waits for the page to draw only where input is routed by the drawn
frame (a page with out-of-process frames); elsewhere the input goes at once and lands."""

from __future__ import annotations

from typing import Any

import pytest
from fixture_server import Site
from pagetools import goto, js, target, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from test_frames_e2e import frame_text, frames_page

pytestmark = pytest.mark.browser


def draw_waits(tab: Tab, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each time the tab waits for the page to draw, from now on."""
    waited: list[int] = []
    inner = tab.next_frame

    async def next_frame() -> Any:
        waited.append(1)
        return await inner()
    monkeypatch.setattr(tab, "next_frame", next_frame)
    return waited


async def test_a_click_that_scrolls_a_box_of_a_page_without_other_process_frames_goes_at_once(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("scrollbox.html"))
    shot = await tab.snapshot()
    waited = draw_waits(tab, monkeypatch)
    await actions.click(tab, target(shot, "button", "Open 11"))
    assert await text_of(tab, "#out") == "Open 11 clicked"  # it landed on the scrolled row
    assert float(await js(tab, "document.getElementById('inbox').scrollTop")) > 0
    assert waited == []


async def test_a_click_that_scrolls_a_page_with_an_other_process_frame_waits_for_it_to_draw(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the tab draws on its own; a hidden tab of the person's browser draws only for a
    capture, and is not waited for (input that went astray is sent again: shield.py)."""
    await frames_page(tab, site)
    await js(tab, "(() => { const d = document.createElement('div'); d.style.height = '3000px';"
                  " document.body.prepend(d); scrollTo(0, 0); return true })()")
    shot = await tab.snapshot()
    waited = draw_waits(tab, monkeypatch)
    await actions.click(tab, target(shot, "button", "Press cross"))
    assert await frame_text(tab, "cross", "#out") == "cross clicked (trusted)"
    assert bool(waited) == tab.browser.own_windows
