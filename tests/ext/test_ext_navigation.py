"""Over the real extension an agent's tab is screened by the browser's own site rules: a
redirect or a page's own navigation to a denied address is never requested, debugger or
not. Every agent opens, reloads, goes back and forward and reads with no debugger attached
(no debugging bar), and acts by the same refs once it comes; a read-only agent is refused
what needs one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import quote

import pytest
from extension_env import DebuggerWatch, ExtensionHub, chrome_call
from fixture_server import Site
from pagetools import browser_calls, js
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.dragging import drag
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import BrowserError, PolicyError, UsageError
from tabsteward.bridge.hub.approvals import Approvals
from tabsteward.bridge.hub.gatekeeper import PolicyGate
from tabsteward.bridge.policy.grants import Grants
from tabsteward.bridge.policy.intent import Intent
from tabsteward.bridge.policy.profiles import (
    BUILTIN,
    DEFAULT_DENY,
    READ_ONLY_RULES,
    Config,
    Profile,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
IDLE_DETACH = 1  # s, for the ext_hub fixture (tests/ext/conftest.py)
OTHER = "127.0.0.2"  # the denied address, served by the fixture server
DENY = (*DEFAULT_DENY, OTHER)



async def agent_tab(ext_hub: ExtensionHub, tmp_path: Path, profile: Profile) -> Tab:
    """The first tab of an agent whose policy is `profile` (the hub's real gate)."""
    browser = await ext_hub.connect()
    config = Config(profiles={**BUILTIN, profile.name: profile}, default_profile=profile.name)
    browser.gate = PolicyGate(config, Grants(tmp_path / "grants.json"), Approvals())
    return await browser.session("agent").current_tab()


def strict() -> Profile:
    return Profile("strict", allow_sites=("*", "localhost"), deny_sites=DENY)


def read_only() -> Profile:
    return Profile("read-only", rules=dict(READ_ONLY_RULES), deny_sites=DENY)


def heard(site: Site, marker: str) -> list[str]:
    """The requests the denied server got whose query carries `marker` (the fixture server
    lives for the whole session: other tests' requests are there too)."""
    return [r.path for r in site.requests if r.host == OTHER and marker in r.path]


def bounce(site: Site, to: str) -> str:
    return site.url(f"redirect?to={quote(to, safe='')}")


async def wait_for(tab: Tab, text: str) -> None:
    async with asyncio.timeout(10):
        while not any(text in stop.text for stop in tab.state.stopped):
            await asyncio.sleep(0.05)


async def test_a_read_only_agent_that_opens_reloads_and_reads_never_attaches_the_debugger(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    browser = await ext_hub.connect()
    browser.gate = PolicyGate(Config(profiles={**BUILTIN, "read-only": read_only()},
                                     default_profile="read-only"),
                              Grants(tmp_path / "grants.json"), Approvals())
    async with DebuggerWatch(browser) as watch:
        tab = await browser.session("agent").current_tab()
        out = await actions.navigate(tab, site.url("frames.html"))
        assert out.data["url"] == site.url("frames.html")
        snap = await tab.snapshot()
        assert 'button "Press same"' in snap.text  # inside a frame (the other site's: denied)
        await actions.reload(tab)
        assert "Main page text" in await actions.read(tab, "text")
        out = await actions.navigate(tab, bounce(site, site.url("nav2.html")))
        assert out.data["url"] == site.url("nav2.html")  # an allowed redirect still works
        await actions.wait(tab, url="nav2.html", timeout=5)
        assert (await tab.snapshot()).text
    assert watch.polls > 20
    assert watch.seen_attached == 0


async def test_an_agent_that_may_act_opens_an_allowed_page_through_a_redirect(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, strict())
    out = await actions.navigate(tab, bounce(site, site.url("nav2.html")))
    assert out.data["url"] == site.url("nav2.html")
    assert (await tab.snapshot()).title


async def test_a_redirect_to_a_denied_address_is_never_requested_without_the_debugger(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, read_only())
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("nav1.html"))
        with pytest.raises(PolicyError) as stopped:
            await actions.navigate(tab, bounce(site, site.other("land.html?by=redirect")))
        assert "before it was sent" in stopped.value.message
        assert "Nothing was loaded from there" in stopped.value.message
    assert heard(site, "by=redirect") == []
    assert site.received("127.0.0.1", "/redirect") != []  # the first hop was allowed
    assert watch.seen_attached == 0


async def test_a_page_navigating_itself_or_a_frame_to_a_denied_address_is_never_requested(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, read_only())
    async with DebuggerWatch(tab.browser) as watch:
        to = quote(site.other("inner.html?by=frame"), safe="")
        await actions.navigate(tab, site.url(f"goes-to.html?frame=1&to={to}"))
        await wait_for(tab, "stopped a frame's load of")
        to = quote(site.other("land.html?by=page"), safe="")
        await actions.navigate(tab, site.url(f"goes-to.html?to={to}"))
        await wait_for(tab, "stopped the page's load of")
    assert heard(site, "by=frame") == []
    assert heard(site, "by=page") == []
    assert any("denies the site http://127.0.0.2" in stop.text for stop in tab.state.stopped)
    assert watch.seen_attached == 0


async def test_a_denied_site_stays_blocked_while_the_debugger_is_attached(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, strict())
    await actions.navigate(tab, site.url("nav1.html"))
    await actions.hover(tab, parse("a"))  # input: the debugger attaches
    to = quote(site.other("land.html?by=attached"), safe="")
    await actions.navigate(tab, site.url(f"goes-to.html?to={to}"))
    await wait_for(tab, "land.html?by=attached")
    assert heard(site, "by=attached") == []


async def test_an_attached_tab_the_browser_rules_fully_screen_pauses_no_load_and_still_stops_denied_ones(  # noqa: E501
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, strict())
    sent = browser_calls(tab)
    await actions.navigate(tab, site.url("nav1.html"))
    await actions.hover(tab, parse("a"))  # input: the debugger attaches
    land = site.other("land.html?by=attached-link")
    await js(tab, f"""(() => {{ const a = document.createElement('a');
        a.id = 'away'; a.textContent = 'away'; a.href = {bounce(site, land)!r};
        document.body.prepend(a); }})()""")
    out = await actions.click(tab, parse("#away"))
    assert any(c.startswith("stopped the page's load of") and "denies the site "
               "http://127.0.0.2" in c for c in out.changes), out.text()
    assert not any(c.startswith("navigated to") for c in out.changes), out.text()
    out = await actions.navigate(tab, site.url("frames.html"))
    assert any(c.startswith("stopped a frame's load of") for c in out.changes), out.text()
    assert heard(site, "by=attached-link") == []
    # the browser's rules stop all that policy would: no load waits for the hub
    assert not tab.screening
    assert "Fetch.enable" not in sent, sent


async def test_the_read_only_profile_never_attaches_and_refuses_what_needs_the_debugger(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, read_only())
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("nav1.html"))
        await actions.reload(tab)
        assert (await tab.snapshot()).text
        with pytest.raises(PolicyError) as refused:
            await actions.hover(tab, parse("a"))
        assert "read-only" in refused.value.message
        assert "nothing was done" in refused.value.message
        # a scroll needs no debugger, and is not drawn without one
        out = await actions.scroll(tab, None, 0, 300)
        assert out.did.startswith(("scrolled the page", "nothing scrolled")), out.did
        # every other input, each of which would start its attach beside its look-up
        await actions.navigate(tab, site.url("form.html"))
        email = parse('loc=textbox "Email"')
        terms = parse('loc=checkbox "I accept the terms"')
        for attempt in (actions.click(tab, email), actions.enter_text(tab, email, "x", "fill"),
                        actions.enter_text(tab, email, "x", "type"),
                        actions.check(tab, terms, True), drag(tab, email, terms),
                        actions.press(tab, "Enter", email)):
            with pytest.raises(PolicyError):
                await attempt
        with pytest.raises(PolicyError):
            await actions.navigate(tab, bounce(site, site.other("land.html?by=read-only")))
    assert heard(site, "by=read-only") == []
    assert watch.seen_attached == 0


def open_web() -> Profile:
    """An agent that may act anywhere but the default denied sites (both fixture sites)."""
    return Profile("open-web", allow_sites=("*", "localhost"), deny_sites=DEFAULT_DENY)


async def test_an_agent_that_may_act_opens_and_reads_with_no_debugger_then_acts_in_frames_by_the_same_refs(  # noqa: E501
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("frames.html"))
        shot = await tab.snapshot()
        await actions.wait(tab, text="Press cross", timeout=5)
    assert watch.seen_attached == 0
    refs = {name: next(r for r, i in shot.refs.items() if i["name"] == name)
            for name in ("Press cross", "Field cross", "Field same", "Press same")}
    # the debugger comes for input: each ref names the element it named without it (the
    # fields first: the frame's status line says the last key its field heard, or a click)
    await actions.enter_text(tab, parse(refs["Field cross"]), "over there", "fill")
    await actions.enter_text(tab, parse(refs["Field same"]), "here", "type")
    await actions.click(tab, parse(refs["Press cross"]))
    await actions.click(tab, parse(refs["Press same"]))
    again = await tab.snapshot()
    assert "> cross clicked (trusted)" in again.text
    assert "> same clicked (trusted)" in again.text
    assert {name: next(r for r, i in again.refs.items() if i["name"] == name)
            for name in refs} == refs
    [session] = list(tab.child_sessions)  # the cross-origin frame's own debugger session
    field = await tab.send("Runtime.evaluate", {
        "expression": "document.getElementById('field').value", "returnByValue": True},
        session=session)
    assert field["result"]["value"] == "over there"


async def test_back_forward_and_reload_across_sites_need_no_debugger(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    async with DebuggerWatch(tab.browser) as watch:
        with pytest.raises(UsageError, match="no page to go back to"):
            await actions.history(tab, -1)
        await actions.navigate(tab, site.url("nav1.html"))
        await actions.navigate(tab, site.other("nav2.html"))
        await actions.navigate(tab, site.url("nav2.html#part"))
        await actions.history(tab, -1)
        await actions.wait(tab, url=site.other("nav2.html"), timeout=5)
        await actions.history(tab, -1)
        await actions.wait(tab, url=site.url("nav1.html"), timeout=5)
        assert (await tab.snapshot()).text
        await actions.history(tab, 1)
        await actions.wait(tab, url=site.other("nav2.html"), timeout=5)
        await actions.reload(tab)
        await actions.history(tab, 1)
        await actions.wait(tab, url=site.url("nav2.html#part"), timeout=5)
        with pytest.raises(UsageError, match="no page to go forward to"):
            await actions.history(tab, 1)
    assert watch.seen_attached == 0


async def test_a_hidden_tab_opened_without_a_debugger_loads_past_a_dialog_chrome_dismissed(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    """A page opens with no debugger: Chrome itself dismisses a hidden tab's alert (as in
    any background tab), and the page goes on; the agent is not held."""
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("alert-on-load.html"))
        await actions.wait(tab, text="after the alert", timeout=5)
    assert tab.state.dialog is None
    assert watch.seen_attached == 0


async def test_open_of_a_download_answers_at_once_with_no_debugger_as_over_cdp(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("nav1.html"))
        async with asyncio.timeout(10):  # not the 30 s navigation timeout
            with pytest.raises(BrowserError, match="net::ERR_ABORTED"):
                await actions.navigate(tab, site.url("download/opened.txt"))
        assert tab.state.url == site.url("nav1.html")
        async with asyncio.timeout(10):
            while not any(d.get("url", "").endswith("/download/opened.txt")
                          for d in tab.browser.downloads.values()):
                await asyncio.sleep(0.05)
    assert watch.seen_attached == 0


async def test_an_open_another_navigation_replaced_fails_as_aborted_as_over_cdp(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    """An abort waits a moment for its redirect's target to commit; a navigation that
    replaced the agent's (here the person's, to another page) is not that commit."""
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    await actions.navigate(tab, site.url("nav1.html"))
    marker = f"slow?ms=4000&replaced={id(tab)}"
    opening = asyncio.ensure_future(actions.navigate(tab, site.url(marker)))
    async with asyncio.timeout(10):
        while not any(marker in r.path for r in site.received("127.0.0.1", "/slow")):
            await asyncio.sleep(0.05)
    tab_id = int(tab.session_id.removeprefix("tab-"))
    await chrome_call(tab.browser, "tabs.update", tab_id, {"url": site.url("nav2.html")})
    async with asyncio.timeout(3):  # before the slow page could have answered
        with pytest.raises(BrowserError, match="net::ERR_ABORTED"):
            await opening
    await actions.wait(tab, url="nav2.html", timeout=5)


async def test_an_open_that_leaves_a_page_still_loading_lands_on_the_new_page(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    """The page left behind stops loading (Chrome reports its load aborted, as a document
    of the tab): that is no failure of the open that stopped it, even of the same address."""
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    async with DebuggerWatch(tab.browser) as watch:
        for url in ("slowload.html?a", "nav2.html", "slowload.html?left"):
            await actions.navigate(tab, site.url("slowload.html?left"), "domcontentloaded")
            out = await actions.navigate(tab, site.url(url), "domcontentloaded")
            assert out.data["url"] == tab.state.url == site.url(url)
        await actions.reload(tab)  # (the same document, reloaded as it still loads)
        assert tab.state.url == site.url("slowload.html?left")
        await actions.wait(tab, text="Report", timeout=5)
    assert watch.seen_attached == 0


async def test_back_lands_on_the_entry_policy_was_asked_about_after_a_page_rewrote_its_history(
        ext_hub: ExtensionHub, site: Site, tmp_path: Path) -> None:
    """An entry the page added in place is stepped through without the debugger; one it
    rewrote (replaceState: the hub cannot tell it from an added one) is not trusted, and
    the debugger's own history is asked: back goes where the agent was told."""
    tab = await agent_tab(ext_hub, tmp_path, open_web())
    asked: list[str] = []
    gate = tab.browser.gate

    async def recording(tab_: Tab, intent: Intent) -> None:
        if intent.action == "navigate":
            asked.append(intent.url)
        await gate(tab_, intent)
    tab.browser.gate = recording
    async with DebuggerWatch(tab.browser) as watch:
        await actions.navigate(tab, site.url("nav1.html"))
        await actions.navigate(tab, site.url("steps.html?do=push"))
        await actions.wait(tab, url="step=2", timeout=5)
        await actions.history(tab, -1)
        await actions.wait(tab, text="at ?do=push", timeout=5)
        assert tab.state.url == site.url("steps.html?do=push")
        await actions.history(tab, -1)
        await actions.wait(tab, url=site.url("nav1.html"), timeout=5)
    assert watch.seen_attached == 0
    await actions.navigate(tab, site.url("steps.html?do=replace"))
    await actions.wait(tab, url="step=2", timeout=5)
    await actions.history(tab, -1)
    await actions.wait(tab, url=site.url("nav1.html"), timeout=5)
    assert asked[-1] == site.url("nav1.html")  # policy was asked about where it went
