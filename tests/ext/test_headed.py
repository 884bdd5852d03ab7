"""One headed Chromium on a virtual display (Xvfb): the extension transport as the person
sees it, with their tab in front and the agent's tab behind it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from extension_env import ExtensionHub, chrome_call
from fixture_server import Site
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.targets import parse
from xdisplay import xvfb

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.fixture
def display() -> Iterator[str]:
    with xvfb() as name:
        yield name


async def test_a_headed_browser_on_a_display_is_driven_in_a_background_tab(
        display: str, site: Site) -> None:
    hub = ExtensionHub(["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])
    hub.env["DISPLAY"] = display
    await hub.start()
    try:
        browser = await hub.connect(headless=False)
        assert "HeadlessChrome" not in browser.version
        person = [t["id"] for t in await chrome_call(browser, "tabs.query", {"active": True})]
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("form.html"))
        snap = await tab.snapshot(interactive=True)
        assert snap.title == "Sign up"
        await actions.enter_text(tab, parse('loc=textbox "Email"'), "a@b.org", "fill")
        out = await actions.click(tab, parse('loc=button "Create account"'))
        assert out.did.startswith("clicked")
        active = [t["id"] for t in await chrome_call(browser, "tabs.query", {"active": True})]
        assert active == person  # the person's tab stayed in front
    finally:
        await hub.close()


async def test_the_first_click_after_the_debugger_attaches_goes_once_the_shown_page_drew(
        display: str, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    # A page read without the debugger in a hidden tab has drawn nothing; the click's attach
    # shows it (focus emulation), and its press goes once the page drew a frame: one sent
    # sooner was lost now and then (the page heard the move and the release, no click).
    hub = ExtensionHub(["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])
    hub.env["DISPLAY"] = display
    await hub.start()
    try:
        browser = await hub.connect(headless=False)
        tab = await browser.session("agent").current_tab()
        await actions.navigate(tab, site.url("firstframe.html"))
        assert not tab.debugging()  # read without the debugger: the click attaches it
        conn, sent = browser.conn, []
        real_send, real_sequence = conn.send, conn.sequence

        async def send(method: str, params: dict[str, Any] | None = None,
                       session_id: str | None = None, timeout: float | None = 30) -> Any:
            got = await real_send(method, params, session_id, timeout)
            frame = "drawnSince" in str((params or {}).get("expression"))
            drew = frame and got.get("result", {}).get("value") is True
            sent.append("drew" if drew else method)
            return got

        async def sequence(steps: list[list[Any]], *args: Any, **kw: Any) -> Any:
            sent.extend(m for step in steps for m, _, _ in step)
            return await real_sequence(steps, *args, **kw)
        monkeypatch.setattr(conn, "send", send)
        monkeypatch.setattr(conn, "sequence", sequence)
        out = await actions.click(tab, parse('loc=button "Go"'))
        assert out.did.startswith("clicked")
        assert "Emulation.setFocusEmulationEnabled" in sent
        shown = sent.index("Emulation.setFocusEmulationEnabled")
        assert "drew" in sent[shown:sent.index("Input.dispatchMouseEvent")], sent
        said = await tab.evaluate(tab.frames[tab.target_id],
                                  "document.getElementById('out').textContent")
        assert said.startswith("pressed after "), said
        assert said.endswith("hidden at load true"), said
        assert int(said.split()[2]) >= 1, said
    finally:
        await hub.close()
