"""A hidden agent tab read without the debugger: Chrome runs its page's chained timers once
a second at best, so each read first has the timers that are due run (hook.js's pump), and
the page moves for the agent as it would for a person looking at it."""

from __future__ import annotations

import asyncio

import pytest
from extension_env import DebuggerWatch, ExtensionHub
from fixture_server import Site
from tabsteward.bridge.engine import actions

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
DONE = ("done after 30 ticks; runs: 1-30 once each; errors: boom at 10; cleared: never ran; "
        "interval: not early")


@pytest.mark.parametrize("by", ["wait", "snapshot"])
async def test_a_hidden_pages_timers_run_when_due_for_an_agent_that_only_reads(
        ext_hub: ExtensionHub, site: Site, display: str, by: str) -> None:
    browser = await ext_hub.connect_on(display)
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("timerchain.html"))
    async with DebuggerWatch(browser, tab) as watch:
        # 3 s of the page's own timers; run once a second, they would take 30
        if by == "wait":
            await actions.wait(tab, text="done after 30 ticks", timeout=15)
        else:  # an agent that snapshots again and again
            async with asyncio.timeout(15):
                while "done after 30 ticks" not in (await tab.snapshot()).text:
                    await asyncio.sleep(0.1)
        text = await actions.read(tab, "text")
    assert DONE in text  # each timer once, in order, errors reported, a cleared one never
    assert watch.seen_attached == 0  # read without the debugger, so no bar
