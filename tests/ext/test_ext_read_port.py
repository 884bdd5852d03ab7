"""Through the extension, the hub's reads of an agent tab's documents go over a port the
worker holds to each document's page helper (cheaper than chrome.scripting), frames and
cross-site frames included; a document that went answers as gone, never for another one,
and at once, even when it is asked just as the next one commits (its port then stays open
but carries nothing); a document whose helper came again answers once a read."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from extension_env import ExtensionHub, chrome_call, devtools, in_extension_worlds
from fixture_server import Site
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.cdp.extension_link import ExtensionCallError
from tabsteward.bridge.cdp.websocket import WebSocketConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import BrowserError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def over_port(dt: WebSocketConnection, target_id: str) -> dict[str, int]:
    """Frame URL -> how many reads its document's helper answered over the worker's port."""
    return {url: int(n) for url, n in (await in_extension_worlds(
        dt, target_id, "[location.href, (globalThis.__tsReads || {}).overPort || 0]")).items()}


async def agent_tab(browser: Browser) -> tuple[Tab, int]:
    """The agent's tab, and its id in Chrome."""
    tab = await browser.session("agent").current_tab()
    return tab, int(tab.session_id.removeprefix("tab-"))


async def documents(browser: Browser, tab_id: int) -> dict[str, str]:
    """Frame URL -> its active document's id."""
    return {f["url"]: f["documentId"]
            for f in await chrome_call(browser, "reader.frames", tab_id)}


async def read_at_once(conn: ExtensionConnection, tab_id: int, doc: str) -> Any:
    """A snapshot read of a document: its answer, the error that says why there is none, or
    a test failure when none comes within 5 s."""
    try:
        return await conn.link.call("reader.run", tab_id, doc, "json", ["snapshot", [{}]],
                                    timeout=5)
    except ExtensionCallError as exc:
        return exc
    except BrowserError as exc:
        pytest.fail(exc.message)


async def test_reads_of_every_frame_go_over_the_port_and_answer_for_their_own_document(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    try:
        tab, tab_id = await agent_tab(browser)
        await actions.navigate(tab, site.url("frames.html"))
        docs = await documents(browser, tab_id)
        assert len(docs) == 3, docs
        for url, doc in docs.items():
            for _ in range(3):
                got = await chrome_call(browser, "reader.run", tab_id, doc, "call",
                                        ["readText", ["text", None]])
                assert got["documentId"] == doc, got
                assert got["value"][0] == url, got
        counts = await over_port(dt, tab.target_id)
        cross = [t for t in (await dt.send("Target.getTargets"))["targetInfos"]
                 if t["type"] == "iframe" and str(t["url"]).startswith(site.other(""))]
        assert cross, "the cross-site frame has no target of its own"
        counts.update(await over_port(dt, cross[0]["targetId"]))
        assert set(counts) == set(docs), counts
        assert all(n >= 3 for n in counts.values()), counts
    finally:
        await dt.close()


async def test_a_read_of_a_document_that_went_fails_and_the_next_documents_answers(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab, tab_id = await agent_tab(browser)
    await actions.navigate(tab, site.url("form.html"))
    (old,) = (await documents(browser, tab_id)).values()
    assert (await chrome_call(browser, "reader.run", tab_id, old, "readyState", []))[
        "value"] == "complete"
    await actions.navigate(tab, site.url("frames.html?next"))
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    got = await read_at_once(conn, tab_id, old)
    assert got is None or isinstance(got, ExtensionCallError), got  # none from the next page
    new = (await documents(browser, tab_id))[site.url("frames.html?next")]
    got = await chrome_call(browser, "reader.run", tab_id, new, "call",
                            ["readText", ["text", None]])
    assert got["value"][0] == site.url("frames.html?next"), got


async def test_a_read_of_the_page_left_sent_as_the_next_commits_answers_at_once(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    tab, tab_id = await agent_tab(browser)
    heard: list[tuple[str, asyncio.Future[None]]] = []  # (what, when the tab tells it)

    def seen(name: str, args: list[Any]) -> None:
        for what, done in heard:
            if name == "nav.event" and args[1:2] == [what] and not done.done():
                done.set_result(None)
    conn.link.on_event(seen)

    def upcoming(what: str) -> asyncio.Future[None]:
        heard.append((what, asyncio.get_running_loop().create_future()))
        return heard[-1][1]

    for n in range(4):  # a page the hub opened, left by an open the extension makes alone
        await actions.navigate(tab, site.url(f"form.html?at={n}"))
        (old,) = (await documents(browser, tab_id)).values()
        await chrome_call(browser, "reader.run", tab_id, old, "readyState", [])  # its port
        committed, loaded = upcoming("committed"), upcoming("loaded")
        going = asyncio.ensure_future(chrome_call(
            browser, "nav.go", tab_id, "url", site.url(f"form.html?next={n}"), 10))
        try:
            await asyncio.wait_for(committed, 10)
            # it is unloading now: its port stays open but carries nothing
            got = await read_at_once(conn, tab_id, old)
        finally:
            await going
        await asyncio.wait_for(loaded, 10)
        # gone, said at once (never the next document's answer: Chrome may run it there)
        assert got is None or isinstance(got, ExtensionCallError), got


async def test_a_helper_installed_again_in_its_document_still_answers_once_a_read(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    try:
        tab, tab_id = await agent_tab(browser)
        await actions.navigate(tab, site.url("form.html"))
        (doc,) = (await documents(browser, tab_id)).values()
        await chrome_call(browser, "scripting.inject", tab_id)  # the files run a second time
        await chrome_call(browser, "scripting.inject", tab_id)
        before = (await over_port(dt, tab.target_id))[site.url("form.html")]
        for _ in range(4):
            got = await chrome_call(browser, "reader.run", tab_id, doc, "readyState", [])
            assert got["value"] == "complete", got
        # one listener answers each read (a second would count, and answer, twice)
        assert (await over_port(dt, tab.target_id))[site.url("form.html")] == before + 4
    finally:
        await dt.close()
