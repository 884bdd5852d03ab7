"""Each capability that needs the debugger, through the real extension and native host, in
a headed browser on a virtual display with the person's tab in front and the agent's tab
hidden behind it: it works, or it fails saying what to change and that nothing was done."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from extension_env import PERSON_TABS, ExtensionHub, chrome_call, devtools, in_worker
from fixture_server import Site, download_body
from looprunner import LoopThread
from pagetools import goto, js, png_size
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.engine import actions, files
from tabsteward.bridge.engine.outputs import at
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import Target, parse
from tabsteward.bridge.errors import BrowserError, CDPError, TabError
from xdisplay import xvfb

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]
HOST_RULES = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


@pytest.fixture(scope="module")
def hub(loop: LoopThread) -> Iterator[ExtensionHub]:
    with xvfb() as display:
        made = ExtensionHub([HOST_RULES, "--remote-debugging-port=0"])
        made.env["DISPLAY"] = display
        try:
            loop.run(made.start(), timeout=30)
            yield made
        finally:
            loop.run(made.close(), timeout=60)


@pytest.fixture(scope="module")
def browser(hub: ExtensionHub, loop: LoopThread) -> Browser:
    """One headed browser for the module (the conftest's `tab` fixture opens agent tabs in
    it and checks after each test that the person's tab stayed in front)."""
    connected = loop.run(hub.connect(headless=False), timeout=60)
    assert "HeadlessChrome" not in connected.version
    active = loop.run(chrome_call(connected, "tabs.query", {"active": True}), timeout=30)
    PERSON_TABS[connected] = sorted(t["id"] for t in active)
    return connected


def target(role: str, name: str) -> Target:
    return parse(f"loc={role} {json.dumps(name)}")


def tab_id(tab: Tab) -> int:
    return int(tab.session_id.removeprefix("tab-"))


async def hidden(tab: Tab) -> bool:
    """Whether the tab is behind another in its window (focus emulation makes its page
    believe it is visible)."""
    assert tab.browser is not None
    return not (await chrome_call(tab.browser, "tabs.get", tab_id(tab)))["active"]


async def test_a_hidden_tab_takes_files_through_an_input_and_through_a_file_chooser(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("upload.html"))
    assert await hidden(tab)
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("alpha")
    b.write_text("beta")
    out = await files.upload(tab, parse("#file"), [str(a), str(b)])
    assert out.data["files"] == ["a.txt", "b.txt"]
    await actions.wait(tab, text="file: a.txt=alpha, b.txt=beta")
    out = await files.upload(tab, target("button", "Choose files"), [str(a)])
    assert out.did.startswith("chose 1 file(s)")
    await actions.wait(tab, text="hidden: a.txt=alpha")


async def test_a_hidden_tab_takes_files_dropped_on_its_drop_zone(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("dropzone.html"))
    assert await hidden(tab)
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    out = await files.upload(tab, parse("#zone"), [str(a)])
    assert out.did.startswith("dropped 1 file(s) on @")
    await actions.wait(tab, text="dropped: a.txt=alpha")


@pytest.mark.parametrize("by", ["observer", "scroll"])
async def test_a_feed_in_a_hidden_tab_brings_in_its_next_stories_when_scrolled_to_its_end(
        tab: Tab, site: Site, by: str) -> None:
    # a hidden tab draws nothing, so its page runs no scroll event and no observer of its
    # own until it is drawn: the scroll draws it once
    await goto(tab, site.url(f"infinite.html?by={by}"))
    assert await hidden(tab)
    await actions.scroll(tab, None, 0, 5000)
    assert "Story 40" in (await tab.snapshot()).text
    # and again: the page was drawn before the second scroll too, so its observer saw its
    # end go out of view and come back, as on screen
    await actions.scroll(tab, None, 0, 5000)
    assert "Story 60" in (await tab.snapshot()).text
    assert await hidden(tab)


async def test_a_button_a_panel_above_slides_down_in_a_hidden_tab_is_clicked_once_it_stood_still(
        tab: Tab, site: Site) -> None:
    # a hidden tab runs no animation until drawn: the click draws it while it waits
    await goto(tab, site.url("sliding.html"))
    assert await hidden(tab)
    await actions.click(tab, parse("#toggle"))
    await actions.click(tab, parse("#save"))
    assert await js(tab, "document.getElementById('out').textContent") == "saved"
    assert await hidden(tab)


def refuse_files(browser: Browser, monkeypatch: pytest.MonkeyPatch, *, always: bool) -> None:
    """Chrome's answer to some extensions' debuggers: DOM.setFileInputFiles is refused,
    except (unless `always`) as the answer to a file chooser Chrome opened."""
    conn = browser.conn
    real = conn.send

    async def send(method: str, params: dict[str, Any] | None = None,
                   session_id: str | None = None, timeout: float | None = 30) -> Any:
        if method == "DOM.setFileInputFiles" and (always or "objectId" in (params or {})):
            raise CDPError(method, "Not allowed", -32000)
        return await real(method, params, session_id, timeout)
    monkeypatch.setattr(conn, "send", send)


async def test_what_a_click_mounts_on_the_next_frame_is_read_in_a_hidden_tab_at_once(
        tab: Tab, site: Site) -> None:
    # (the debugger the click brought draws the waiting page for the look after it;
    # without one, reading draws nothing and says so)
    await goto(tab, site.url("framemount.html"))
    await actions.click(tab, parse("#open"))
    shot = await tab.snapshot(interactive=True)
    assert 'dialog "Confirm order"' in shot.text, shot.text
    assert "waits to be drawn" not in shot.text


async def test_an_input_chrome_will_not_fill_directly_is_filled_through_its_own_chooser(
        tab: Tab, site: Site, browser: Browser, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("upload.html"))
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    refuse_files(browser, monkeypatch, always=False)
    out = await files.upload(tab, parse("#file"), [str(a)])
    assert out.data["files"] == ["a.txt"]
    await actions.wait(tab, text="file: a.txt=alpha")


async def test_an_upload_chrome_refuses_says_which_setting_to_change_and_uploads_nothing(
        tab: Tab, site: Site, browser: Browser, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("upload.html"))
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    refuse_files(browser, monkeypatch, always=True)
    for where in (parse("#file"), target("button", "Choose files")):
        with pytest.raises(BrowserError, match=r"nothing was uploaded.*Allow access to file"):
            await files.upload(tab, where, [str(a)])
    monkeypatch.undo()
    assert await js(tab, "document.getElementById('out').textContent") == "no files"


async def test_a_hidden_tab_downloads_where_the_agent_asked(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("download.html"))
    out = await files.download(tab, parse("#report"), at(str(tmp_path), str(tmp_path)))
    saved = tmp_path / "report.csv"
    assert saved.read_bytes() == download_body("report.csv")
    assert out.data["download"] == {"path": str(saved), "bytes": saved.stat().st_size,
                                    "url": site.url("download/report.csv")}


async def test_a_hidden_tab_is_pictured_whole_and_by_element_as_it_is_now(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("long.html"))
    assert await hidden(tab)
    view, elem = tmp_path / "view.png", tmp_path / "elem.png"
    await files.screenshot(tab, at(str(view), str(tmp_path)))
    inner = await js(tab, "[innerWidth, innerHeight]")
    assert png_size(view) == (inner[0], inner[1])
    # the element as it is now, not the last frame drawn before the tab was hidden
    await js(tab, "document.getElementById('bottom').style.width = '321px'")
    await files.screenshot(tab, at(str(elem), str(tmp_path)), target=parse("#bottom"))
    box = await js(tab, "(r => [Math.round(r.width), Math.round(r.height)])"
                        "(document.getElementById('bottom').getBoundingClientRect())")
    width, height = png_size(elem)
    assert box[0] == 321
    assert abs(width - box[0]) <= 1
    assert abs(height - box[1]) <= 1


async def test_a_hidden_tabs_alert_confirm_and_prompt_are_reported_and_answered(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    out = await actions.click(tab, parse("#alert"))
    assert out.data["dialog"] == {"type": "alert", "message": "Hello there"}
    await actions.dialog(tab, "accept")
    await actions.wait(tab, text="alert closed")
    out = await actions.click(tab, parse("#confirm"))
    assert out.data["dialog"] == {"type": "confirm", "message": "Are you sure?"}
    await actions.dialog(tab, "dismiss")
    await actions.wait(tab, text="confirm false")
    await actions.click(tab, parse("#prompt"))
    await actions.dialog(tab, "accept", "Grace")
    await actions.wait(tab, text="prompt Grace")


async def test_leaving_a_hidden_page_that_asks_first_reports_its_question(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("leave.html"))
    await actions.enter_text(tab, parse("#note"), "half a thought", "type")  # a user gesture
    out = await actions.click(tab, parse("#away"))
    assert out.data["dialog"]["type"] == "beforeunload", out.text()
    # Chrome brought the asking tab forward; the extension puts it back as it hears the
    # question, beside the hub, which may report it first
    for _ in range(40):
        if await hidden(tab):
            break
        await asyncio.sleep(0.05)
    assert await hidden(tab)
    await actions.dialog(tab, "accept")
    await actions.wait(tab, url=site.url("form.html"))
    assert (await tab.snapshot()).title == "Sign up"


@pytest.mark.parametrize("debugger", ["attached", "let go"])
async def test_an_agent_closing_its_tab_is_not_held_back_by_the_pages_leave_question(
        tab: Tab, site: Site, browser: Browser, debugger: str) -> None:
    await goto(tab, site.url("leave.html"))
    await actions.enter_text(tab, parse("#note"), "half a thought", "type")  # a user gesture
    if debugger == "let go":  # as the idle detach does
        await browser.conn.send("Target.detachFromTarget", {"targetId": tab.target_id})
    closing = tab_id(tab)
    async with asyncio.timeout(10):  # chrome.tabs.remove waited on the question, for ever
        await browser.session(tab.agent).close_tab(tab)
        while closing in [t["id"] for t in await chrome_call(browser, "tabs.query", {})]:
            await asyncio.sleep(0.1)


@pytest.mark.parametrize("opener", ["#popup", "#blank"])
async def test_a_tab_the_hidden_page_opens_is_the_agents_in_its_group_and_never_in_front(
        tab: Tab, site: Site, browser: Browser, opener: str) -> None:
    await goto(tab, site.url("newtab.html"))
    out = await actions.click(tab, parse(opener))
    [new_id] = out.data["new_tabs"]
    new = browser.session(tab.agent).tab(new_id)
    assert new.opener == tab.id
    await actions.wait(new, load="load")
    assert (await new.snapshot()).title in ("Sign up", "Article")
    first = await chrome_call(browser, "tabs.get", tab_id(tab))
    second = await chrome_call(browser, "tabs.get", tab_id(new))
    assert first["groupId"] != -1
    assert second["groupId"] == first["groupId"]
    assert not second["active"]
    assert await hidden(new)


async def test_the_browser_never_discards_an_agents_tabs_to_save_memory_and_the_persons_are_left(
        tab: Tab, site: Site, browser: Browser) -> None:
    # Chrome's Memory Saver, or memory running low, unloads background tabs it may discard:
    # an agent's page would be gone behind its back. Chrome picks only tabs marked
    # discardable; that mark is what is asked of its tabs API here (this Chromium discards
    # nothing on a simulated memory pressure, and chrome.tabs.discard() ignores the mark)
    await goto(tab, site.url("newtab.html"))
    out = await actions.click(tab, parse("#blank"))
    [new_id] = out.data["new_tabs"]
    opened = browser.session(tab.agent).tab(new_id)
    for agent_tab in (tab, opened):
        got = await chrome_call(browser, "tabs.get", tab_id(agent_tab))
        assert got["autoDiscardable"] is False
    person = await chrome_call(browser, "tabs.get", PERSON_TABS[browser][0])
    assert person["autoDiscardable"] is True


async def test_a_tab_the_person_closes_fails_the_agents_next_command_and_the_hub_goes_on(
        tab: Tab, site: Site, browser: Browser) -> None:
    session = browser.session(tab.agent)
    await goto(tab, site.url("form.html"))
    await chrome_call(browser, "tabs.remove", tab_id(tab))
    with pytest.raises(TabError, match=r"closed.*nothing was done"):
        await actions.click(tab, parse('loc=button "Create account"'))
    with pytest.raises(TabError, match="closed"):
        await tab.snapshot()
    with pytest.raises(TabError, match="has no open tab"):
        session.tab(tab.id)
    fresh = await session.current_tab()
    await goto(fresh, site.url("form.html"))
    assert (await fresh.snapshot()).title == "Sign up"


async def test_the_bar_cancelled_by_the_person_fails_the_next_action_clearly_then_reattaches(
        tab: Tab, site: Site, browser: Browser, hub: ExtensionHub) -> None:
    await goto(tab, site.url("form.html"))
    await actions.enter_text(tab, parse('loc=textbox "Email"'), "a@b.org", "fill")
    dt = await devtools(hub.profiles[-1])
    try:
        # the bar's Cancel: Chrome lets go of the extension's debuggers and tells it
        # onDetach(canceled_by_user), which the worker passes on as it is
        await in_worker(dt, f"chrome.debugger.detach({{tabId: {tab_id(tab)}}})")
    finally:
        await dt.close()
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    conn._on_link_event("debugger.detached", [{"tabId": tab_id(tab)}, "canceled_by_user"])
    with pytest.raises(BrowserError) as caught:
        await actions.click(tab, parse('loc=button "Create account"'))
    said = caught.value.message
    assert "cancelled Chrome's \"is debugging this browser\" bar" in said
    assert "nothing was done" in said
    assert "Ask the person" in said  # what would let it go on
    assert await js(tab, "document.title") == "Sign up"  # the next command re-attaches
    out = await actions.click(tab, parse('loc=button "Create account"'))
    assert out.did.startswith("clicked")
