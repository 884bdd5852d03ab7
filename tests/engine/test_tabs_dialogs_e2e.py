"""JavaScript dialogs, tabs a page opens, and the person's tab never losing its place."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator

import pytest
from extension_env import PERSON_TABS, chrome_call
from fixture_server import Site
from looprunner import LoopThread
from pagetools import goto, js, run_tool, target, value_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TabError, UsageError

pytestmark = pytest.mark.browser


# -- dialogs ---------------------------------------------------------------------------------
async def test_dialog_is_reported_and_does_not_wedge_the_engine(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Alert"))
    assert out.data["dialog"] == {"type": "alert", "message": "Hello there"}
    assert "alert dialog open: 'Hello there'" in out.text()
    status = await actions.dialog(tab, "status")
    assert status.data["dialog"]["message"] == "Hello there"
    with pytest.raises(UsageError, match=r"dialog is open.*nothing was done"):
        await tab.snapshot()
    with pytest.raises(UsageError, match="dialog is open"):
        await actions.click(tab, target(shot, "button", "Confirm"))
    answered = await actions.dialog(tab, "accept")
    assert "accepted the alert dialog" in answered.did
    await actions.wait(tab, text="alert closed")
    after = await tab.snapshot()
    assert "> alert closed" in after.text
    assert (await actions.dialog(tab, "status")).data["dialog"] is None


async def test_confirm_dismissed_answers_false(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    out = await actions.click(tab, parse("#confirm"))
    assert out.data["dialog"] == {"type": "confirm", "message": "Are you sure?"}
    await actions.dialog(tab, "dismiss")
    await actions.wait(tab, text="confirm false")


async def test_prompt_accepted_with_text_answers_that_text(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    await actions.click(tab, parse("#prompt"))
    status = await actions.dialog(tab, "status")
    assert status.data["dialog"]["default"] == "Ada"
    await actions.dialog(tab, "accept", "Grace")
    await actions.wait(tab, text="prompt Grace")


async def test_an_answer_is_reported_and_looked_after_as_an_action_is(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    out = await actions.click(tab, parse("#delete"))
    assert "confirm dialog open: 'Delete Ada Lovelace?'" in out.text()
    accepted = await run_tool(tab, "dialog", action="accept", interactive=True)
    first, _, shot = accepted.text.partition("\n[untrusted")
    assert first.startswith("accepted the confirm dialog 'Delete Ada Lovelace?'"), first
    assert "the page sent data to" not in first  # (a GET: a read, no data sent)
    assert "Ada Lovelace" not in shot, shot
    assert 'button "Delete"' not in shot, shot


async def test_answering_when_no_dialog_is_open_is_a_usage_error(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    with pytest.raises(UsageError, match="no dialog is open"):
        await actions.dialog(tab, "accept")


async def test_dialog_opened_while_the_page_loads_is_reported_by_open(
        tab: Tab, site: Site) -> None:
    if tab.browser.kind == "extension":
        await js(tab, "0")  # a debugger hears the page's dialogs: open with one attached
    out = await actions.navigate(tab, site.url("alert-on-load.html"))
    assert tab.state.dialog is not None
    assert "Welcome!" in out.text()
    await actions.dialog(tab, "accept")
    await actions.wait(tab, text="after the alert")


async def test_open_over_a_page_that_asks_before_leaving_reports_its_question_at_once(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("leave.html"))
    await actions.enter_text(tab, parse("#note"), "half a thought", "type")  # a user gesture
    async with asyncio.timeout(10):  # it waited the whole navigation timeout (30 s) before
        out = await actions.navigate(tab, site.url("form.html"))
    assert out.data["dialog"]["type"] == "beforeunload", out.text()
    assert "not opened yet" in out.text()
    assert (await actions.dialog(tab, "status")).data["dialog"]["type"] == "beforeunload"
    await actions.dialog(tab, "accept")
    await actions.wait(tab, url=site.url("form.html"))
    assert (await tab.snapshot()).title == "Sign up"


async def test_open_over_a_page_whose_question_is_dismissed_stays_on_that_page(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("leave.html"))
    await actions.enter_text(tab, parse("#note"), "half a thought", "type")
    async with asyncio.timeout(10):
        out = await actions.navigate(tab, site.url("form.html"))
    assert out.data["dialog"]["type"] == "beforeunload", out.text()
    await actions.dialog(tab, "dismiss")
    assert (await tab.snapshot()).title == "Unsaved draft"
    assert await value_of(tab, "#note") == "half a thought"


async def test_click_that_opens_a_page_with_a_dialog_reports_it(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dialogs.html"))
    out = await actions.click(tab, parse("#to-alert"))
    assert out.data["dialog"] == {"type": "alert", "message": "Welcome!"}
    await actions.dialog(tab, "accept")
    await actions.wait(tab, text="after the alert")
    assert tab.state.url == site.url("alert-on-load.html")


# -- tabs --------------------------------------------------------------------------------------
InFront = Callable[[], Awaitable[bool]]


@pytest.fixture
def person_tab(browser: Browser, loop: LoopThread) -> Iterator[InFront]:
    """Whether the tab the browser started with (the person's tab in these tests) is still
    the one in front; for a launched browser it is brought to the front first (an earlier
    test may have let a page's tab take it)."""
    if browser.kind == "extension":
        async def via_extension() -> bool:
            active = await chrome_call(browser, "tabs.query", {"active": True})
            return sorted(t["id"] for t in active) == PERSON_TABS[browser]
        yield via_extension
        return
    targets = loop.run(browser.conn.send("Target.getTargets"))
    pages = [t for t in targets["targetInfos"] if t["type"] == "page" and
             t["targetId"] not in browser.tabs]
    assert pages, targets
    loop.run(browser.conn.send("Target.activateTarget", {"targetId": pages[0]["targetId"]}))
    attached = loop.run(browser.conn.send("Target.attachToTarget",
                                          {"targetId": pages[0]["targetId"], "flatten": True}))
    session = str(attached["sessionId"])

    async def via_cdp() -> bool:
        res = await browser.conn.send("Runtime.evaluate", {
            "expression": "document.visibilityState", "returnByValue": True}, session)
        return bool(res["result"]["value"] == "visible")
    yield via_cdp
    loop.run(browser.conn.send("Target.detachFromTarget", {"sessionId": session}))


async def test_link_to_blank_opens_a_background_tab_owned_by_the_agent(
        tab: Tab, site: Site, browser: Browser) -> None:
    await goto(tab, site.url("newtab.html"))
    session = browser.session(tab.agent)
    out = await actions.click(tab, parse("#blank"))
    assert "new_tabs" in out.data, out.text()
    [new_id] = out.data["new_tabs"]
    new = session.tab(new_id)
    assert new.opener == tab.id
    assert session.current is tab  # the agent keeps working where it was
    await actions.wait(new, url=site.url("form.html"))
    await actions.wait(new, load="load")
    assert (await new.snapshot()).title == "Sign up"
    assert all(t.agent == tab.agent for t in session.tabs)
    other = browser.session("someone-else")
    assert other.tabs == []


async def test_agent_tab_never_becomes_active(
        tab: Tab, site: Site, browser: Browser, person_tab: InFront) -> None:
    """Opening pages, clicking and typing in agent tabs leaves the person's tab in front."""
    assert await person_tab()
    await goto(tab, site.url("form.html"))
    shot = await tab.snapshot()
    await actions.enter_text(tab, target(shot, "textbox", "Email"), "a@b.org", "fill")
    await actions.click(tab, target(shot, "button", "Create account"))
    second = await browser.session(tab.agent).new_tab()
    await goto(second, site.url("nav1.html"))
    await actions.click(second, parse("#next"))
    assert await person_tab()


async def test_tab_a_page_opens_does_not_take_the_front(
        tab: Tab, site: Site, browser: Browser, person_tab: InFront) -> None:
    await goto(tab, site.url("newtab.html"))
    await actions.click(tab, parse("#popup"))
    await actions.click(tab, parse("#blank"))
    assert await person_tab()


async def test_a_tab_its_page_opened_and_its_opener_each_draw_while_the_agent_acts_there(
        tab: Tab, site: Site, browser: Browser) -> None:
    # (in a browser of our own a page's new tab took its window's front: the opener drew no
    # more, and a screenshot of it waited up to a minute for a frame)
    if not browser.own_windows:
        pytest.skip("agent tabs are background tabs of the person's window there")
    await goto(tab, site.url("newtab.html"))
    out = await run_tool(tab, "click", target="#blank")
    [new_id] = out.data["new_tabs"]
    await run_tool(tab, "snapshot")
    assert await js(tab, "document.visibilityState") == "visible"
    new = browser.session(tab.agent).tab(new_id)
    await actions.wait(new, load="load")
    await run_tool(tab, "tab-select", id=new_id)
    await run_tool(tab, "snapshot")
    assert await js(new, "document.visibilityState") == "visible"
    await run_tool(tab, "tab-select", id=tab.id)
    await run_tool(tab, "snapshot")
    assert await js(tab, "document.visibilityState") == "visible"


async def test_tabs_lists_the_titles_the_pages_set_as_they_loaded(
        tab: Tab, site: Site, browser: Browser) -> None:
    # (a tab no snapshot had read yet was listed by its address)
    await goto(tab, site.url("newtab.html"))
    out = await run_tool(tab, "click", target="#blank")
    [new_id] = out.data["new_tabs"]
    await actions.wait(browser.session(tab.agent).tab(new_id), load="load")
    titles = {row["id"]: row["title"] for row in (await run_tool(tab, "tabs")).data["tabs"]}
    assert titles == {tab.id: "New tabs", new_id: "Sign up"}, titles


async def test_closed_tab_refuses_actions_saying_so(tab: Tab, site: Site,
                                                    browser: Browser) -> None:
    session = browser.session(tab.agent)
    await goto(tab, site.url("form.html"))
    await session.close_tab(tab)
    with pytest.raises(TabError, match="closed"):
        await tab.snapshot()
    fresh = await session.current_tab()
    assert fresh is not tab


async def test_two_agents_type_and_click_in_their_own_tabs_at_the_same_time(
        tab: Tab, site: Site, browser: Browser) -> None:
    peer = browser.session(f"{tab.agent}-peer")
    other = await peer.current_tab()
    try:
        await asyncio.gather(goto(tab, site.url("react.html")),
                             goto(other, site.url("react.html")))

        async def work(on: Tab, field: str, who: str) -> None:  # one agent, one at a time
            for word in ("one", "two", "three"):
                await actions.enter_text(on, parse(field), f" {who}-{word}", "type")
                await actions.click(on, parse("#rerender"))

        await asyncio.gather(work(tab, "#name", "first"), work(other, "#notes", "second"))
        assert await value_of(tab, "#name") == " first-one first-two first-three"
        assert await value_of(tab, "#notes") == "Hello"
        assert await value_of(other, "#notes") == "Hello second-one second-two second-three"
        assert await value_of(other, "#name") == ""
    finally:
        await peer.close()
        browser.sessions.pop(peer.agent, None)


async def test_an_agent_cannot_reach_another_agents_tab(tab: Tab, browser: Browser) -> None:
    stranger = browser.session(f"{tab.agent}-stranger")
    try:
        with pytest.raises(TabError, match="has no open tab"):
            stranger.tab(tab.id)
        assert tab not in stranger.tabs
    finally:
        browser.sessions.pop(stranger.agent, None)


async def test_click_that_closes_its_own_tab_is_reported_as_done(
        tab: Tab, site: Site, browser: Browser) -> None:
    await goto(tab, site.url("newtab.html"))
    opened = await actions.click(tab, parse("#closer"))
    [closable] = [browser.session(tab.agent).tab(t) for t in opened.data["new_tabs"]]
    await actions.wait(closable, url="closer.html")
    await actions.wait(closable, load="load")
    gone = closable.expect(lambda m, p, s: False)  # fails with TabError when the tab closes
    out = await actions.click(closable, parse("#close"))
    assert out.did.startswith("clicked")
    with pytest.raises(TabError):
        await gone
    with pytest.raises(TabError, match="closed"):
        await closable.snapshot()
    with pytest.raises(TabError, match="has no open tab"):
        browser.session(tab.agent).tab(closable.id)


async def test_a_popup_its_own_button_closes_says_so_and_its_opener_is_current_again(
        tab: Tab, site: Site, browser: Browser) -> None:
    # (a sign-in's provider popup: its Allow answers the opener and closes the popup)
    await goto(tab, site.url("popupclose.html"))
    out = await run_tool(tab, "click", target="#go")
    [new_id] = out.data["new_tabs"]
    session = browser.session(tab.agent)
    await actions.wait(session.tab(new_id), load="load")
    await run_tool(tab, "tab-select", id=new_id)
    done = await run_tool(tab, "click", target="#allow", snapshot=True)
    assert f"the tab closed itself; tab {tab.id} is current now" in done.text, done.text
    assert 'button "Sign in with Provider"' in done.text, done.text  # (the opener's look)
    assert session.current is tab
    await run_tool(tab, "wait", text="Signed in (ok)", timeout=5)  # (as its answer came)
