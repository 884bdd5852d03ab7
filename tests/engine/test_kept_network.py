"""The Network domain is switched on once per DevTools session: later
enables share the first one's answer and disables are answered without reaching Chrome
(over plain CDP sent once the session idles)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tabsteward.bridge.cdp.kept_network import KeptNetwork
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


class Off:
    """Counts the disables that reach Chrome."""

    def __init__(self) -> None:
        self.sent = 0

    async def send(self) -> dict[str, Any]:
        self.sent += 1
        return {}


def test_over_plain_cdp_the_domain_goes_off_once_the_session_idles() -> None:
    async def run() -> None:
        kept, chrome, off = KeptNetwork(idle=0.05), Chrome(), Off()
        await kept.enable("tab-1", PARAMS, chrome.send)
        kept.release("tab-1", off.send)
        await asyncio.sleep(0.01)
        await kept.enable("tab-1", PARAMS, chrome.send)  # acting again: it stays on
        kept.release("tab-1", off.send)
        await asyncio.sleep(0.03)
        assert (chrome.sent, off.sent) == (1, 0)
        await asyncio.sleep(0.1)
        assert off.sent == 1  # once, after the last release
        assert not kept.keeps("tab-1")
        await kept.enable("tab-1", PARAMS, chrome.send)  # sent again, after the disable
        assert chrome.sent == 2
    asyncio.run(run())


def test_without_an_idle_time_the_domain_stays_on_until_the_session_ends() -> None:
    async def run() -> None:
        kept, chrome, off = KeptNetwork(), Chrome(), Off()
        await kept.enable("tab-1", PARAMS, chrome.send)
        kept.release("tab-1", off.send)
        await asyncio.sleep(0.05)
        assert off.sent == 0
        assert kept.keeps("tab-1")
    asyncio.run(run())


def test_a_session_that_ends_or_a_closed_connection_sends_no_disable() -> None:
    async def run() -> None:
        kept, chrome, off = KeptNetwork(idle=0.02), Chrome(), Off()
        for session in ("tab-1", "tab-2"):
            await kept.enable(session, PARAMS, chrome.send)
            kept.release(session, off.send)
        kept.forget("tab-1")
        kept.close()
        await asyncio.sleep(0.06)
        assert off.sent == 0
        assert not kept.keeps("tab-2")
    asyncio.run(run())
