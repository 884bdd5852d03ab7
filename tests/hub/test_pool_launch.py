"""The hub's launched browser: a launch outlives the request that asked for it."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.hub.pool import BrowserPool

pytestmark = pytest.mark.browser


def test_a_launch_whose_request_went_away_is_kept_and_the_next_request_uses_it() -> None:
    async def run() -> list[Browser]:
        launches: list[Browser] = []

        async def launch() -> Browser:
            browser = await Browser.launch(headless=True)
            launches.append(browser)
            return browser
        pool = BrowserPool(launch=launch)
        try:
            asking = asyncio.ensure_future(pool.pick("agent"))
            await asyncio.sleep(0.01)
            asking.cancel()  # the agent went away while Chromium started
            with contextlib.suppress(asyncio.CancelledError):
                await asking
            while not launches:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0)
            assert await pool.pick("agent") is launches[0]
        finally:
            await pool.close()
        return launches

    launches = asyncio.run(asyncio.wait_for(run(), 90))
    assert len(launches) == 1  # no second Chromium
    assert all(b.closed.done() for b in launches)  # and none left running
