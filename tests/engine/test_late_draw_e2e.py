"""A snapshot of a page that draws what it shows a moment after its load (on a short timer
its loading armed, or when the browser is next idle) reads it once drawn, as a person sees
it; a timer armed for later, and a page's own clock, are not waited for. A hidden tab
(the person's browser: it runs a page's timers up to a second late) is read at once. So is
one whose web components a loader defines as their code comes, once, where modules may
bring them."""

from __future__ import annotations

import json

import pytest
from fixture_server import Site
from pagetools import goto, js, ref, run_tool
from tabsteward.bridge.engine import actions, reading
from tabsteward.bridge.engine.collect import HOOK_SECRET
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def hidden(browser: Browser) -> None:
    """Through the extension the agent's tab is a hidden background tab, read with no
    debugger: there the page is read as it is."""
    if browser.kind == "extension":
        pytest.skip("a hidden tab runs a page's timers up to a second late: read as it is")


@pytest.mark.parametrize("query", ["", "?after=120", "?idle=1"])
async def test_an_open_with_a_snapshot_shows_what_the_page_drew_a_moment_after_its_load(
        browser: Browser, tab: Tab, site: Site, query: str) -> None:
    hidden(browser)
    opened = await run_tool(tab, "open", url=site.url(f"latedraw.html{query}"), snapshot=True)
    assert "| Grace | Admiral |" in opened.text
    assert 'button "Invite Grace" @' in opened.text
    assert "Loading the team" not in opened.text


async def test_a_snapshot_after_a_plain_open_waits_for_the_drawing_too(
        browser: Browser, tab: Tab, site: Site) -> None:
    hidden(browser)
    await actions.navigate(tab, site.url("latedraw.html?after=120"))
    shot = await tab.snapshot(interactive=True)
    assert 'button "Invite Grace"' in shot.text


async def test_a_timer_armed_for_a_later_moment_is_not_waited_for(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("latedraw.html?after=1200"),
                            snapshot=True)
    assert "Loading the team" in opened.text  # read before it drew


async def test_a_clock_that_re_arms_its_own_short_timer_holds_a_read_once_at_most(
        tab: Tab, site: Site) -> None:
    await run_tool(tab, "open", url=site.url("latedraw.html?poll=1"), snapshot=True)
    # its first tick was armed as the page loaded; the ticks after are not counted
    got = await tab.evaluate(tab.frames[tab.target_id], f"__ts.armed({json.dumps(HOOK_SECRET)})")
    assert got[2] == 0


async def test_the_pages_text_after_a_plain_open_waits_for_the_drawing_too(
        browser: Browser, tab: Tab, site: Site) -> None:
    hidden(browser)
    await actions.navigate(tab, site.url("latedraw.html?after=120"))
    text = await reading.read(tab, "text")
    assert "Grace" in text, text
    assert "Loading" not in text, text


async def test_a_young_page_that_shows_nothing_yet_is_read_once_its_scripts_drew_it(
        tab: Tab, site: Site) -> None:
    # (its parts come by a dynamic import the load does not wait for; no timer is armed)
    opened = await run_tool(tab, "open", url=site.url("hydrates.html"), snapshot=True)
    assert 'button "Compose" @' in opened.text, opened.text
    assert "> 3 new messages" in opened.text


async def test_a_first_look_waits_for_components_a_loader_defines_as_their_code_comes(
        tab: Tab, site: Site) -> None:
    # (Shoelace's autoloader: until a component's code comes, it shows what it holds, a
    # closed dialog's field and button among them)
    await goto(tab, site.url("lazyparts.html"))
    shot = await tab.snapshot(interactive=True)
    assert "Send invite" not in shot.text, shot.text
    assert ref(shot, "combobox", "Role"), shot.text
    assert tab.parts_waited  # (once per page: a later look asks no more)


async def test_stray_custom_tags_on_a_page_with_no_module_are_not_waited_for(
        tab: Tab, site: Site) -> None:
    # (a news page's `<gallery-count>` that no script defines)
    await goto(tab, site.url("lazyparts.html"))
    await js(tab, "document.querySelectorAll('script[type=module]').forEach((s) => s.remove())")
    assert await js(tab, "document.querySelectorAll(':not(:defined)').length") > 0
    await tab.snapshot(interactive=True)  # (its first look, the one that would wait)
    assert not tab.parts_waited
