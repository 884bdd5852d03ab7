"""How long the debugger (and Chrome's "is debugging this browser" bar) is up for an agent
that only reads and for one that acts, and snapshot time with and without the debugger.

Run by `tests/bench/extension.py --debugger`. Chrome is asked from the extension's side
(chrome.debugger.getTargets, every 50 ms) whether a debugger is attached to the agent's
tab; the share is the polls that saw one over all polls of the agent's run.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections.abc import Awaitable, Callable

import fixture_server
from extension_env import ExtensionHub, chrome_call
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import RefTarget
from tabsteward.bridge.errors import TabstewardError

POLL = 0.05
CLICKABLE = ("button", "checkbox", "radio", "tab", "link")


def tab_id(tab: Tab) -> int:
    return int(tab.session_id.removeprefix("tab-"))


async def attached(browser: Browser, tab: Tab) -> bool:
    targets = await chrome_call(browser, "debugger.getTargets")
    return any(t.get("tabId") == tab_id(tab) and t["attached"] for t in targets)


async def share_while(browser: Browser, tab: Tab, run: Callable[[], Awaitable[None]]
                      ) -> tuple[float, float]:
    """(share of polls that saw a debugger on the tab, seconds) while `run` runs."""
    seen = [0, 0]

    async def poll() -> None:
        while True:
            seen[0] += 1
            seen[1] += await attached(browser, tab)
            await asyncio.sleep(POLL)

    poller = asyncio.ensure_future(poll())
    start = time.monotonic()
    try:
        await run()
    finally:
        poller.cancel()
    return seen[1] / max(1, seen[0]), time.monotonic() - start


async def reader(tab: Tab, url: str, seconds: float, think: float) -> None:
    """An agent that opens one page (none when `url` is ""), then only reads it: snapshot,
    text, wait for text."""
    if url:
        await actions.navigate(tab, url)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        snap = await tab.snapshot(interactive=True)
        text = await actions.read(tab, "text")
        words = [w for w in text.split() if len(w) > 4][:1]
        if words:
            await actions.wait(tab, text=words[0], timeout=5)
        del snap
        await asyncio.sleep(think)


async def actor(tab: Tab, url: str, seconds: float, think: float) -> None:
    """An agent that reads and clicks: snapshot, click a clickable ref, read the text."""
    if url:
        await actions.navigate(tab, url)
    end = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < end:
        snap = await tab.snapshot(interactive=True)
        refs = [int(k.lstrip("@")) for k, v in snap.refs.items()
                if v.get("role") in CLICKABLE and v.get("role") != "link"]
        if refs:
            with contextlib.suppress(TabstewardError):  # covered or gone: it reads on
                await actions.click(tab, RefTarget(refs[turn % len(refs)]))
        await actions.read(tab, "text")
        turn += 1
        await asyncio.sleep(think)


async def _timed_snapshot(tab: Tab) -> float:
    start = time.perf_counter()
    await tab.snapshot()
    return (time.perf_counter() - start) * 1000


async def snapshot_paths(browser: Browser, tab: Tab, rounds: int) -> dict[str, float]:
    """Median snapshot ms through chrome.scripting (no debugger) and through the debugger,
    interleaved on the same tab and page: the first one after each switch (it finds the
    helper's world anew) and the next one."""
    took: dict[str, list[float]] = {"scripting first": [], "scripting": [],
                                    "debugger first": [], "debugger": []}
    for _ in range(rounds):
        with contextlib.suppress(TabstewardError):  # unless the idle detach came first
            await browser.conn.send("Target.detachFromTarget", {"targetId": tab.target_id})
        took["scripting first"].append(await _timed_snapshot(tab))
        took["scripting"].append(await _timed_snapshot(tab))
        await tab.send("Runtime.evaluate", {"expression": "1+1"})  # attaches again
        took["debugger first"].append(await _timed_snapshot(tab))
        took["debugger"].append(await _timed_snapshot(tab))
    return {k: statistics.median(v) for k, v in took.items()}


async def run(urls: list[str], seconds: float, think: float, rounds: int) -> None:
    hub = ExtensionHub(idle_detach=10)
    await hub.start()
    try:
        browser = await hub.connect()
        rows: list[dict[str, float]] = []
        for url in urls:
            tab = await browser.session("bench-paths").new_tab()
            await actions.navigate(tab, url)
            rows.append(await snapshot_paths(browser, tab, rounds))
            await browser.close_tab(tab)
        ratios = [r["scripting"] / r["debugger"] for r in rows]
        firsts = [r["scripting first"] / r["debugger first"] for r in rows]
        print(f"snapshot through chrome.scripting / through the debugger, {len(rows)} pages, "
              f"medians over pages: {statistics.median(r['scripting'] for r in rows):.1f} / "
              f"{statistics.median(r['debugger'] for r in rows):.1f} ms; ratio "
              f"{statistics.median(ratios):.2f}x (per page "
              + ", ".join(f"{r:.2f}" for r in ratios) + "); the first after a switch: "
              f"{statistics.median(r['scripting first'] for r in rows):.1f} / "
              f"{statistics.median(r['debugger first'] for r in rows):.1f} ms, ratio "
              f"{statistics.median(firsts):.2f}x")
        site = fixture_server.start()  # a page with buttons that act without leaving it
        page = site.url("mutate.html")
        for name, agent in (("reads only", reader), ("acts", actor)):
            tab = await browser.session(f"bench-{name}").new_tab()
            share, took = await share_while(
                browser, tab, lambda a=agent, t=tab: a(t, page, seconds, think))
            print(f"agent that {name}: debugger attached {share * 100:.0f}% of {took:.0f} s")
            tab2 = await browser.session(f"bench-{name}-open").new_tab()
            await actions.navigate(tab2, page)
            await asyncio.sleep(11)  # the idle detach lets go of the page it opened
            share, took = await share_while(
                browser, tab2, lambda a=agent, t=tab2: a(t, "", seconds, think))
            print(f"agent that {name}, on a page already open: debugger attached "
                  f"{share * 100:.0f}% of {took:.0f} s")
        site.close()
    finally:
        await hub.close()

