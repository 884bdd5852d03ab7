"""The page helper is in each document of an agent tab from its start (launched: a script
the debugger runs in our own world as the document starts; through the extension: its
worker installs it as the document commits), so `open -i` reads at once; the page's own
scripts never see it, and what they forge or break is not what the snapshot shows."""

from __future__ import annotations

from typing import Any

import pytest
from extension_env import debugger_attached
from fixture_server import Site
from pagetools import extension_calls, js, ref, run_tool
from tabsteward.bridge.engine.frames import PAGE_JS
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import CDPError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
UNSEEN = "undefined,undefined,undefined,undefined,false"


def sent(tab: Tab, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The DevTools commands the tab's connection sends from now on, with their params."""
    seen: list[tuple[str, dict[str, Any]]] = []
    inner = tab.conn.send

    async def send(method: str, params: dict[str, Any] | None = None, *a: Any,
                   **k: Any) -> Any:
        seen.append((method, params or {}))
        return await inner(method, params, *a, **k)
    monkeypatch.setattr(tab.conn, "send", send)
    return seen


def names(refs: dict[str, dict[str, Any]]) -> dict[str, tuple[str, str]]:
    return {r: (info["role"], info["name"]) for r, info in refs.items()}


def shot_of(opened: Any) -> Snapshot:
    data = opened.data["snapshot"]
    return Snapshot(data["text"], data["refs"], opened.data["url"], "")


async def test_a_pages_own_scripts_never_see_the_helper_and_cannot_forge_its_snapshot(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("helper-probe.html"), interactive=True)
    text = opened.text
    assert 'button "Real button"' in text, text
    assert "Forged" not in text, text
    assert text.count('button "Frame button"') == 2, text  # both frames read, not forged
    seen = await js(tab, "window.__seen")
    assert seen[0] == f"start:{UNSEEN}", seen  # before anything of its own ran
    # after the snapshot: still only what it forged itself
    assert await js(tab, "[typeof __tsParts, typeof __tsDoc, String(__ts.snapshot)]") == [
        "undefined", "undefined", '() => ({ rows: [[0, 0, "button", "Forged", 1]] })']
    frames = await js(tab, "window.__frames")  # each frame's first script, told by it
    assert frames == {"same": "undefined,undefined,undefined,false",
                      "cross": "undefined,undefined,undefined,false"}, frames


async def test_an_open_i_installs_the_helper_in_no_frame_it_reads(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await run_tool(tab, "open", url=site.url("nav1.html"))
    commands = sent(tab, monkeypatch)
    calls = extension_calls(tab)
    opened = await run_tool(tab, "open", url=site.url("frames.html"), interactive=True)
    text = opened.text
    assert 'button "Press same"' in text, text
    assert 'button "Press cross"' in text, text
    installs = [m for m, p in commands if m == "Runtime.evaluate" and
                str(p.get("expression", "")) == PAGE_JS]
    assert installs == [], "the helper was installed by a call of its own"
    assert "scripting.inject" not in calls, calls


async def test_refs_of_an_open_i_click_after_the_debugger_attaches(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("helper-probe.html"), interactive=True)
    shot = shot_of(opened)
    if tab.browser.kind == "extension":  # read without the debugger ("is debugging" bar)
        assert not await debugger_attached(tab.browser, tab)
    done = await run_tool(tab, "click", target=ref(shot, "button", "Real button"))
    assert done.text.startswith("clicked @"), done.text
    if tab.browser.kind == "extension":
        assert await debugger_attached(tab.browser, tab)
    assert await js(tab, "document.title") == "clicked"
    again = await run_tool(tab, "snapshot", interactive=True)
    assert names(again.data["refs"]) == names(opened.data["snapshot"]["refs"])  # same refs
    frame_button = ref(shot, "button", "Frame button", 1)  # the cross-origin frame's
    done = await run_tool(tab, "click", target=frame_button)
    assert done.text.startswith("clicked @"), done.text
    after = await run_tool(tab, "snapshot", interactive=True)
    assert 'button "Frame pressed cross"' in after.text, after.text


async def test_a_world_whose_helper_went_missing_gets_it_again_on_the_next_read(
        tab: Tab, site: Site) -> None:
    await run_tool(tab, "open", url=site.url("form.html"), interactive=True)
    main = tab.frames[tab.target_id]
    await tab.evaluate(main, "delete globalThis.__ts")
    assert await tab.evaluate(main, "typeof __ts") == "undefined"
    shot = await tab.snapshot(interactive=True)
    assert 'textbox "Email"' in shot.text
    await run_tool(tab, "fill", target=ref(shot, "textbox", "Email"), text="a@b.org")
    assert await js(tab, "document.querySelector('#email').value") == "a@b.org"
    assert parse(ref(shot, "textbox", "Email"))


async def test_a_browser_that_refuses_the_start_of_document_script_still_reads_pages(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    inner = tab.conn.send

    async def send(method: str, params: dict[str, Any] | None = None, *a: Any,
                   **k: Any) -> Any:
        if method == "Page.addScriptToEvaluateOnNewDocument" and (params or {}).get(
                "worldName"):
            raise CDPError(method, "not supported here")
        return await inner(method, params, *a, **k)
    monkeypatch.setattr(tab.conn, "send", send)
    session = tab.browser.session(f"{tab.agent}-refused")
    try:
        other = await session.current_tab()
        assert not other._primed
        opened = await run_tool(other, "open", url=site.url("form.html"), interactive=True)
        assert 'textbox "Email"' in opened.text, opened.text
    finally:
        await session.close()
        tab.browser.sessions.pop(f"{tab.agent}-refused", None)
