"""One headed Chromium on a virtual display (Xvfb): the extension transport as the person
sees it, with their tab in front and the agent's tab behind it."""

from __future__ import annotations

from collections.abc import Iterator

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
