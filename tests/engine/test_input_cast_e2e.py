"""After a click or a key, Blink holds back a page's other tasks (its timers, a form's
submission) until the page's next frame, or 50 ms; a hidden background tab draws no frame.
Through the extension the agent's hidden tab is cast while such input goes in and a moment
after, so it draws at once; a browser that draws its tabs itself is left alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fixture_server import Site
from tabsteward.bridge.engine import actions, drawing
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
CASTS = ("Page.startScreencast", "Page.stopScreencast")


async def casts_around(tab: Tab, act: Any) -> list[str]:
    """The cast commands sent while `act` ran, and until its cast ended."""
    sent: list[str] = []
    send = tab.conn.send

    async def recording(method: str, *args: Any, **kw: Any) -> Any:
        if method in CASTS:
            sent.append(method)
        return await send(method, *args, **kw)

    tab.conn.send = recording  # type: ignore[method-assign]
    try:
        await act
        async with asyncio.timeout(5):
            while drawing._cast_of(tab).lease is not None:
                await asyncio.sleep(0.01)
    finally:
        del tab.conn.send
    return sent


async def test_a_click_and_a_key_cast_a_hidden_tab_for_a_moment_and_nothing_else(
        browser: Browser, tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("form.html"))
    clicked = await casts_around(tab, actions.click(
        tab, parse('loc=checkbox "I accept the terms"')))
    pressed = await casts_around(tab, actions.press(tab, "a", parse('loc=textbox "Email"')))
    if browser.kind == "extension":  # a hidden background tab
        assert clicked == list(CASTS)
        assert pressed == list(CASTS)
    else:  # a headless browser draws its tabs itself
        assert clicked == pressed == []
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
