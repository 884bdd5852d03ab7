"""After a click or a key, Blink holds back a page's other tasks (its timers, a form's
submission) until the page's next frame, or 50 ms; a hidden background tab draws no frame.
Through the extension the agent's hidden tab is cast for a moment once such input the page
replies to was answered, so it draws at once; a browser that draws its tabs itself, and
input nothing replies to, are left alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fixture_server import Site
from pagetools import browser_calls, js
from tabsteward.bridge.engine import actions, drawing
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
CASTS = ("Page.startScreencast", "Page.stopScreencast")


async def casts_around(tab: Tab, act: Any) -> list[str]:
    """The cast commands that reached the browser while `act` ran, and until its cast
    ended."""
    calls = browser_calls(tab)
    await act
    async with asyncio.timeout(5):
        while drawing._cast_of(tab).lease is not None:
            await asyncio.sleep(0.01)
    return [c for c in calls if c in CASTS]


async def test_a_hidden_tab_is_cast_for_a_moment_after_a_click_its_page_replies_to_only(
        browser: Browser, tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("form.html"))
    await js(tab, """(() => { const b = document.createElement('button');
        b.id = 'later'; b.textContent = 'Later';
        b.onclick = () => setTimeout(() => { b.textContent = 'Done'; }, 300);
        document.body.prepend(b); })()""")
    replied = await casts_around(tab, actions.click(tab, parse("#later")))
    await actions.wait(tab, text="Done", timeout=5)
    quiet = await casts_around(tab, actions.click(
        tab, parse('loc=checkbox "I accept the terms"')))
    if browser.kind == "extension":  # a hidden background tab
        # (cast for the input's moment, and again while the click waits for its reply's
        # timers: each cast begun is ended)
        assert replied[:2] == list(CASTS), replied
        assert replied.count(CASTS[0]) == replied.count(CASTS[1]), replied
    else:  # a headless browser draws its tabs itself
        assert replied == []
    assert quiet == []  # nothing to hold back: no cast
    assert drawing._cast_of(tab).holders == 0


async def test_a_scroll_cast_beside_an_input_cast_is_not_cut_short(
        browser: Browser, tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("form.html"))
    drawing.for_input(tab)  # an input's cast under way
    out = await actions.scroll(tab, None, 0, 200)
    assert out.did
    async with asyncio.timeout(5):
        while drawing._cast_of(tab).lease is not None:
            await asyncio.sleep(0.01)
    assert drawing._cast_of(tab).holders == 0
