"""Over the extension the Network domain is switched on once per debugger session: later
enables share the first one's answer and disables are answered without reaching Chrome."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tabsteward.bridge.cdp.ext_network import KeptNetwork
from tabsteward.bridge.errors import BrowserError

PARAMS = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}


class Chrome:
    """Counts the enables that reach it; fails the first `failing` of them."""

    def __init__(self, failing: int = 0) -> None:
        self.sent = 0
        self.failing = failing

    async def send(self) -> dict[str, Any]:
        self.sent += 1
        await asyncio.sleep(0)
        if self.sent <= self.failing:
            raise BrowserError("Network.enable was not done")
        return {}


def test_enables_on_one_session_reach_chrome_once_and_disable_is_kept_back() -> None:
    async def run() -> None:
        kept, chrome = KeptNetwork(), Chrome()
        assert not kept.keeps("tab-1")
        await asyncio.gather(*(kept.enable("tab-1", PARAMS, chrome.send) for _ in range(3)))
        await kept.enable("tab-1", PARAMS, chrome.send)
        assert chrome.sent == 1
        assert kept.keeps("tab-1")
        await kept.enable("child", PARAMS, chrome.send)  # another session: its own enable
        assert chrome.sent == 2
    asyncio.run(run())


def test_a_new_debugger_session_or_other_parameters_send_the_enable_again() -> None:
    async def run() -> None:
        kept, chrome = KeptNetwork(), Chrome()
        await kept.enable("tab-1", PARAMS, chrome.send)
        kept.forget("tab-1")  # detached and attached again
        assert not kept.keeps("tab-1")
        await kept.enable("tab-1", PARAMS, chrome.send)
        await kept.enable("tab-1", {}, chrome.send)
        assert chrome.sent == 3
    asyncio.run(run())


def test_a_failed_enable_is_not_kept_and_the_next_one_is_sent() -> None:
    async def run() -> None:
        kept, chrome = KeptNetwork(), Chrome(failing=1)
        with pytest.raises(BrowserError):
            await kept.enable("tab-1", PARAMS, chrome.send)
        assert not kept.keeps("tab-1")  # so a disable goes to Chrome, harmlessly
        await kept.enable("tab-1", PARAMS, chrome.send)
        assert chrome.sent == 2
        assert kept.keeps("tab-1")
    asyncio.run(run())
