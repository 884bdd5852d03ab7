"""Through the extension, every document of an agent tab gets the page helper, in the
extension's own world of each of its frames (cross-origin ones too), as the document
commits: the hub's first read there finds it; and the hook that watches the listeners its
scripts add, in its own world. The person's tabs never get either. A read of the main
frame's document says which document answered."""

from __future__ import annotations

import asyncio

import pytest
from extension_env import DebuggerWatch, ExtensionHub, chrome_call, devtools, in_extension_worlds
from fixture_server import Site
from pagetools import extension_calls, js, text_of
from tabsteward.bridge.cdp.websocket import WebSocketConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.collect import HOOK_SECRET
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]



async def helpers_in(dt: WebSocketConnection, target_id: str) -> dict[str, str]:
    """Frame URL -> `typeof __ts` in the extension's world of that frame, for each frame of
    a target that has such a world."""
    return {url: str(kind) for url, kind in (await in_extension_worlds(
        dt, target_id, "[location.href, typeof globalThis.__ts]")).items()}


async def targets(dt: WebSocketConnection, kind: str, url: str) -> list[str]:
    got = await dt.send("Target.getTargets")
    return [str(t["targetId"]) for t in got["targetInfos"]
            if t["type"] == kind and str(t["url"]).startswith(url)]


async def test_each_document_of_an_agent_tab_has_the_helper_before_the_hub_reads_it(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    try:
        tab = await browser.session("agent").current_tab()
        calls = extension_calls(tab)
        await actions.navigate(tab, site.url("frames.html"))  # a plain open: no read
        assert not [c for c in calls if c.startswith(("reader.", "scripting."))], calls
        found = await helpers_in(dt, tab.target_id)
        for frame in await targets(dt, "iframe", site.other("")):  # the cross-origin one
            found.update(await helpers_in(dt, frame))
        assert found == {site.url("frames.html"): "object",
                         site.url("inner.html?who=same"): "object",
                         site.other("inner.html?who=cross"): "object"}, found
        await actions.navigate(tab, site.url("form.html"))  # the next document too
        assert await helpers_in(dt, tab.target_id) == {site.url("form.html"): "object"}
    finally:
        await dt.close()


async def test_the_persons_own_tab_never_gets_the_helper(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect(extra=("--remote-debugging-port=0",))
    dt = await devtools(ext_hub.profiles[-1])
    try:
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("form.html"))  # the extension is at work
        person = [t for t in await targets(dt, "page", "about:blank") if t != tab.target_id]
        assert person, "the person's first tab is not there"
        attached = await dt.send("Target.attachToTarget",
                                 {"targetId": person[0], "flatten": True})
        session = str(attached["sessionId"])
        await dt.send("Page.navigate", {"url": site.url("frames.html")}, session_id=session)
        await dt.send("Target.detachFromTarget", {"sessionId": session})
        async with asyncio.timeout(20):  # until its frames have loaded too
            while len(await targets(dt, "iframe", site.other(""))) < 1:
                await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # what a commit would have started has had time to land
        assert await helpers_in(dt, person[0]) == {}
        for frame in await targets(dt, "iframe", site.other("")):
            assert await helpers_in(dt, frame) == {}
    finally:
        await dt.close()


async def test_a_read_of_the_main_frames_document_names_the_document_that_answered(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))
    tab_id = int(tab.session_id.removeprefix("tab-"))
    frames = await chrome_call(browser, "reader.frames", tab_id)
    main = next(f for f in frames if f["frameId"] == 0)
    got = await chrome_call(browser, "reader.run", tab_id, "", "readyState", [])
    assert got["value"] == "complete", got
    assert got["documentId"] == main["documentId"], got
    named = await chrome_call(browser, "reader.run", tab_id, main["documentId"], "hasFocus",
                              [])
    assert named["documentId"] == main["documentId"], named
    assert named["doc"] == got["doc"], named


async def test_a_page_read_without_the_debugger_has_the_clickables_only_its_listeners_make(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    async with DebuggerWatch(browser) as watch:
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("app_icons.html"))
        await actions.wait(tab, text="ready")  # its bundle came and added its listeners
        shot = await tab.snapshot(interactive=True)
    assert watch.polls > 20
    assert watch.seen_attached == 0
    icons = [r for r, i in shot.refs.items() if i["role"] == "clickable"]
    assert len(icons) == 4, shot.text
    out = await actions.click(tab, parse(icons[3]))  # the same ref, with the debugger
    assert out.did.startswith(f"clicked {icons[3]}")
    assert await text_of(tab, "#out") == "archive note 2"
    # the page's own world holds no trace of the hook's function or its secret
    assert await js(tab, "typeof tabstewardHook") == "undefined"
    assert HOOK_SECRET not in await js(tab, "Object.getOwnPropertyNames(window).join(' ')")
