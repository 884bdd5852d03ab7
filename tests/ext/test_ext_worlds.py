"""Over the real extension the page helper lives in the extension's own isolated world: an
agent reads through chrome.scripting with no debugger attached (no debugging bar), and the
refs it reads are the ones the debugger gives, before and after a debugger session."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from extension_env import DebuggerWatch, ExtensionHub, chrome_call, debugger_attached
from fixture_server import Site
from pagetools import extension_calls, without_cast
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.cdp.extension_link import ExtensionCallError
from tabsteward.bridge.engine import actions, sent
from tabsteward.bridge.engine.dragging import drag
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.placing import SHOWN_LOOK, SHOWN_WAIT
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
IDLE_DETACH = 1  # s, for the ext_hub fixture (tests/ext/conftest.py)


async def until(check: Callable[[], Awaitable[bool]], seconds: float, what: str) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)
    assert await check(), what


async def form_read(ext_hub: ExtensionHub, site: Site) -> tuple[Browser, Tab, Snapshot, str]:
    """An agent's tab on form.html, read: its browser, the tab, the snapshot (-i) and the
    ref of its Email field."""
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    snap = await tab.snapshot(interactive=True)
    email = next(ref for ref, row in snap.refs.items() if row.get("name") == "Email")
    return browser, tab, snap, email


async def let_go(browser: Browser, tab: Tab) -> None:
    async def detached() -> bool:
        return not await debugger_attached(browser, tab)
    await until(detached, 15, "the idle tab kept its debugger")


async def test_refs_outlive_the_debugger_session_that_gave_them_in_every_frame(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("frames.html"))
    first = await tab.snapshot()
    assert "Cross origin frame" in first.text
    numbered = dict(tab._by_key)
    await let_go(browser, tab)
    swatch = next(r for r, row in first.refs.items() if row.get("name") == "Swatch main")
    await actions.hover(tab, parse(swatch))  # input: a new debugger session
    assert await debugger_attached(browser, tab)
    second = await tab.snapshot()
    assert second.refs == first.refs
    assert second.text == first.text
    assert tab._by_key == numbered  # no element got a second number


async def test_a_ref_from_before_an_idle_detach_acts_on_its_own_element(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser, tab, snap, email = await form_read(ext_hub, site)
    await let_go(browser, tab)
    await actions.enter_text(tab, parse(email), "a@b.org", "fill")
    again = await tab.snapshot(interactive=True)
    assert again.refs[email]["name"] == "Email"
    assert "a@b.org" in again.text
    assert set(again.refs) == set(snap.refs)


async def test_an_agent_that_only_reads_never_attaches_the_debugger(
        ext_hub: ExtensionHub, site: Site, display: str) -> None:
    browser = await ext_hub.connect_on(display)
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("frames.html"))
    await let_go(browser, tab)
    async with DebuggerWatch(browser, tab) as watch:
        snap = await tab.snapshot()
        assert "Swatch main" in snap.text
        assert 'button "Press cross"' in snap.text  # inside the cross-origin frame
        assert 'button "Press same"' in snap.text
        assert (await tab.snapshot(interactive=True)).text
        text = await actions.read(tab, "text")
        assert "Main page text" in text
        assert "[frame " in text
        await actions.wait(tab, text="Main page text", timeout=5)
        await actions.wait(tab, url="frames.html", timeout=5)
        await actions.wait(tab, load="load", timeout=5)
        ref = next(r for r, row in snap.refs.items() if row.get("name") == "Swatch main")
        await actions.wait(tab, target=parse(ref), state="visible", timeout=5)
        scoped = await tab.snapshot(scope=parse(ref))
        assert "Swatch main" in scoped.text
    assert watch.polls > 5
    assert watch.seen_attached == 0
    assert not await debugger_attached(browser, tab)


async def test_reads_without_the_debugger_give_the_refs_it_gives_and_a_click_uses_them(
        ext_hub: ExtensionHub, site: Site, display: str) -> None:
    browser = await ext_hub.connect_on(display)
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("frames.html"))
    with_debugger = await tab.snapshot()
    await let_go(browser, tab)
    without = await tab.snapshot()
    assert not await debugger_attached(browser, tab)
    assert without.refs == with_debugger.refs
    assert without.text == with_debugger.text
    # in a fresh document the first reads are without the debugger; then an action by ref
    await actions.navigate(tab, site.url("form.html"))
    await let_go(browser, tab)
    read = await tab.snapshot(interactive=True)
    assert not await debugger_attached(browser, tab)
    email = next(r for r, row in read.refs.items() if row.get("name") == "Email")
    await actions.enter_text(tab, parse(email), "a@b.org", "fill")
    assert await debugger_attached(browser, tab)
    after = await tab.snapshot(interactive=True)
    assert set(after.refs) == set(read.refs)
    assert after.refs[email]["name"] == "Email"
    assert "a@b.org" in after.text


async def test_reading_on_after_an_action_does_not_keep_the_debugger(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    await actions.hover(tab, parse('loc=textbox "Email"'))  # an action attaches
    assert await debugger_attached(browser, tab)
    loop = asyncio.get_running_loop()
    end = loop.time() + 4  # four times the idle detach of this hub
    while loop.time() < end:  # an agent reading every 0.3 s
        assert "Email" in (await tab.snapshot(interactive=True)).text
        await asyncio.sleep(0.3)
    assert not await debugger_attached(browser, tab)


async def test_an_action_after_an_idle_detach_reads_the_helper_world_without_searching_it(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser, tab, snap, email = await form_read(ext_hub, site)
    await let_go(browser, tab)
    assert (await tab.snapshot(interactive=True)).refs == snap.refs  # read without it
    calls = extension_calls(tab)
    out = await actions.click(tab, parse(email))  # attaches for the input only
    assert await debugger_attached(browser, tab)
    # the look-up before the input and the read after it are the reader's: the debugger
    # never searches for its own context of that world (Runtime.enable)
    assert "scripting.inject" not in calls
    assert "debugger.sendCommand Runtime.enable" not in calls
    assert calls.count("debugger.sequence") == 1
    # the world outlived the session, not made again: its look-up, and the looks for the
    # frame the page drew once the attach showed it (placing.py), are the reader's
    looks = calls.count("reader.run")
    assert 2 <= looks <= 1 + SHOWN_WAIT / SHOWN_LOOK, calls
    assert "Email" in out.text()
    calls.clear()
    await actions.click(tab, parse(email))
    assert without_cast(calls) == ["reader.run", "debugger.sequence"]
    assert await tab.evaluate(tab.frames[tab.target_id], "document.activeElement.name") \
        == "email"


def timed_calls(tab: Tab) -> list[tuple[str, str]]:
    """The extension's calls from now on, as ("start" or "end", name) in the order seen."""
    assert isinstance(tab.conn, ExtensionConnection)
    link = tab.conn.link
    call = link.call
    seen: list[tuple[str, str]] = []

    async def timed(name: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(("start", name))
        try:
            return await call(name, *args, **kwargs)
        finally:
            seen.append(("end", name))
    link.call = timed  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("action", ["click", "fill", "check", "hover", "drag", "press", "select"])
async def test_an_input_after_an_idle_detach_attaches_the_debugger_beside_its_look_up(
        ext_hub: ExtensionHub, site: Site, action: str) -> None:
    browser, tab, snap, email = await form_read(ext_hub, site)
    country = next(ref for ref, row in snap.refs.items() if row.get("role") == "combobox")
    await let_go(browser, tab)
    seen = timed_calls(tab)
    target, terms = parse(email), parse('loc=checkbox "I accept the terms"')
    done = {"click": lambda: actions.click(tab, target),
            "fill": lambda: actions.enter_text(tab, target, "a@b.org", "fill"),
            "check": lambda: actions.check(tab, terms, True),
            "hover": lambda: actions.hover(tab, target),
            "drag": lambda: drag(tab, target, terms),
            "press": lambda: actions.press(tab, "a", target),
            "select": lambda: actions.select(tab, parse(country), ["de"])}[action]
    await done()
    assert await debugger_attached(browser, tab)
    # the look-up (the reader's, no debugger) was still on its way when the attach began
    look_up_ends = seen.index(("end", "reader.run"))
    assert ("start", "debugger.attach") in seen[:look_up_ends]
    assert seen.count(("start", "debugger.attach")) == 1


async def test_a_page_opened_while_the_debugger_stays_is_acted_on_without_a_search_or_a_stale_ask(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser, tab, _, email = await form_read(ext_hub, site)
    await actions.click(tab, parse(email))  # the debugger stays its idle time
    assert isinstance(tab.conn, ExtensionConnection)
    link = tab.conn.link
    call = link.call
    failed: list[str] = []

    async def watched(name: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return await call(name, *args, **kwargs)
        except ExtensionCallError as exc:  # (an inject may race the new document: fine)
            if name == "debugger.sendCommand" and args[1] == "Runtime.evaluate":
                failed.append(exc.message[:80])
            raise
    link.call = watched  # type: ignore[method-assign]
    calls = extension_calls(tab)
    try:
        await actions.navigate(tab, site.url("form.html?again"), read_after=True)
        snap = await tab.snapshot(interactive=True)  # (through the reader)
        again = next(ref for ref, row in snap.refs.items() if row.get("name") == "Email")
        await actions.click(tab, parse(again))  # the reader's world of the new document
    finally:
        link.call = call  # type: ignore[method-assign]
    assert await debugger_attached(browser, tab)  # the page came through the debugger
    assert "debugger.sendCommand Runtime.enable" not in calls  # no search for it
    assert failed == []  # and no ask in the old document's world first


async def test_the_first_fill_of_a_page_read_without_the_debugger_focuses_with_it_and_no_search(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser, tab, _, email = await form_read(ext_hub, site)
    assert not await debugger_attached(browser, tab)
    calls = extension_calls(tab)
    out = await actions.enter_text(tab, parse(email), "ann@example.org", "fill")
    assert "value now 'ann@example.org'" in out.text()
    # the debugger came before the field took focus (the page is shown to have it), and
    # the focus, the input and the read after it needed no search for its world
    assert calls.index("debugger.attach") < calls.index("reader.run", 1)
    assert "debugger.sendCommand Runtime.enable" not in calls
    assert await tab.evaluate(tab.frames[tab.target_id], "document.hasFocus()")
    assert await tab.evaluate(tab.frames[tab.target_id], "document.activeElement.name") \
        == "email"


async def test_the_network_domain_a_first_click_listens_with_is_asked_beside_the_set_up(
        ext_hub: ExtensionHub, site: Site) -> None:
    _, tab, _, email = await form_read(ext_hub, site)
    assert isinstance(tab.conn, ExtensionConnection)
    link = tab.conn.link
    call = link.call
    spans: dict[str, tuple[float, float]] = {}  # debugger command -> (sent, answered)

    async def timed(name: str, *args: Any, **kwargs: Any) -> Any:
        sent = time.monotonic()
        try:
            return await call(name, *args, **kwargs)
        finally:
            if name == "debugger.sendCommand":
                spans.setdefault(str(args[1]), (sent, time.monotonic()))
    link.call = timed  # type: ignore[method-assign]
    try:
        await actions.click(tab, parse(email))  # attaches for the input
    finally:
        link.call = call  # type: ignore[method-assign]
    # sent before the session's set-up was done, not after it as one more trip
    setup_done = max(spans[m][1] for m in ("Page.enable", "Page.setLifecycleEventsEnabled",
                                           "Emulation.setFocusEmulationEnabled"))
    assert spans["Network.enable"][0] < setup_done


async def test_an_open_waits_for_a_pages_first_data_with_no_debugger_and_the_persons_stay_untold(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    heard: list[tuple[str, list[Any]]] = []
    conn.link.on_event(lambda name, args: heard.append((name, args)))
    tab = await browser.session("agent").current_tab()
    async with DebuggerWatch(browser, tab) as watch:
        await actions.navigate(tab, site.url("bootdata.html?mode=chained"))
        assert 'button "Open the note from Grace"' in (await tab.snapshot(interactive=True)).text
    assert watch.polls > 0
    assert watch.seen_attached == 0
    mine = int(tab.session_id.removeprefix("tab-"))
    assert [a[1] for n, a in heard if n == "net.data" and a[0] == mine].count("begun") == 2
    # the person's own tab loads the same page: nothing of its requests reaches the hub
    person = next(t["id"] for t in await chrome_call(browser, "tabs.query", {"active": True}))
    await chrome_call(browser, "tabs.update", person, {"url": site.url("bootdata.html")})

    async def person_loaded() -> bool:
        return sum(r.path == "/slow?ms=400" for r in site.requests) >= 2
    await until(person_loaded, 15, "the person's page never fetched its data")
    await asyncio.sleep(0.5)
    assert not [a for n, a in heard if n == "net.data" and a[0] == person]
    assert await chrome_call(browser, "net.pending", person) == []
    # what the worker tells is checked: a malformed data event reaches no tab
    told = tab.expect(lambda m, p, s: m.startswith("Tabsteward.data"))
    for args in ([mine, "begun", "12; x"], [mine, "sent", "12"], [mine, "begun", 12],
                 [mine, "begun"], [str(mine), "begun", "12"], [999999, "begun", "12"],
                 [mine, "answered", "1" * 21]):
        conn._on_link_event("net.data", args)
    await asyncio.sleep(0)
    assert not told.done()
    conn._on_link_event("net.data", [mine, "answered", "12"])
    assert told.done()
    assert told.result() == ("Tabsteward.dataAnswered", {"requestId": "w12"})


async def test_the_workers_list_of_requests_in_flight_is_checked_and_a_malformed_one_counts_none(
        ext_hub: ExtensionHub, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    browser = await ext_hub.connect()
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("bootdata.html"))
    real = conn.link.call
    replies: list[Any] = ["12", {"ids": ["12"]}, None, 12, [12, None, ["7"], "12; x", "1" * 21],
                         ["3", "x3", "-4", ""]]
    for reply in replies:
        async def call(name: str, *args: Any, reply: Any = reply, **kw: Any) -> Any:
            return reply if name == "net.pending" else await real(name, *args, **kw)
        monkeypatch.setattr(conn.link, "call", call)
        expected = {"w3"} if reply == replies[-1] else set()
        assert await conn.data_pending(tab.session_id) == expected, reply
        # a look after a load waits for the well-formed ids only (here one never answered)
        assert await sent.data_in_flight(tab, 0.3) == (not expected)
