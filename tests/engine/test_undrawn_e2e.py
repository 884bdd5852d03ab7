"""A page that waits to be drawn (it mounts in an animation frame, lays out a grid once a
ResizeObserver told it its size, loads a section once an IntersectionObserver saw it) shows
nothing of that in a background tab of the person's browser read without a debugger: Chrome
draws no frame there. The snapshot says so instead of passing the empty places off as the
page; once the tab is drawn (a screenshot, any action: a debugger is there), the page shows
it all and the note goes. A page asking for no frame gets no note; neither does a browser
that draws its tabs itself (launched). What the extension wraps to see this looks unchanged
to the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from extension_env import debugger_attached
from fixture_server import Site
from pagetools import run_tool
from tabsteward.bridge.engine import actions, files
from tabsteward.bridge.engine.collect import UNDRAWN
from tabsteward.bridge.engine.outputs import Output
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import ActionTimeout

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

WAITED_FOR = ('button "Open order 7"', 'button "Show more orders"')


async def test_a_page_waiting_to_be_drawn_is_read_with_a_note_saying_what_may_be_missing(
        tab: Tab, site: Site) -> None:
    read = await run_tool(tab, "open", url=site.url("ondraw.html"), interactive=True)
    if tab.browser.kind != "extension":  # a launched browser draws its tabs itself
        assert UNDRAWN not in read.text
        return
    # the report, the untrusted-data mark, page and url, then the note
    assert read.text.splitlines()[4] == UNDRAWN, read.text
    assert not any(what in read.text for what in WAITED_FOR), read.text
    assert not await debugger_attached(tab.browser, tab)  # the read attached none to know


async def test_once_the_tab_is_drawn_it_shows_what_the_page_waited_for_and_no_note(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await actions.navigate(tab, site.url("ondraw.html"))
    await files.screenshot(tab, Output(str(tmp_path / "shot.png"), str(tmp_path)))
    shot = await tab.snapshot(interactive=True)
    assert UNDRAWN not in shot.text
    for what in WAITED_FOR:
        assert what in shot.text, shot.text
    assert "Board ready" in (await tab.snapshot()).text


async def test_a_page_that_waits_for_no_frame_gets_no_note(tab: Tab, site: Site) -> None:
    read = await run_tool(tab, "open", url=site.url("form.html"), snapshot=True)
    assert UNDRAWN not in read.text
    assert 'button "Create account"' in read.text


async def test_what_is_wrapped_to_see_it_looks_unchanged_to_the_page(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("ondraw.html"))
    seen = await actions.evaluate(tab, "[requestAnimationFrame.name, requestAnimationFrame."
                                       "length, String(requestAnimationFrame), String("
                                       "ResizeObserver.prototype.observe), IntersectionObserver"
                                       ".prototype.observe.name, (() => { const ask = "
                                       "requestAnimationFrame; return typeof ask(() => 0); "
                                       "})()]")
    assert seen.data["value"] == [
        "requestAnimationFrame", 1, "function requestAnimationFrame() { [native code] }",
        "function observe() { [native code] }", "observe", "number"]


async def test_the_pages_text_carries_the_same_note(tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("ondraw.html"))
    read = await run_tool(tab, "text")
    lines = read.text.splitlines()
    if tab.browser.kind != "extension":
        assert UNDRAWN not in lines
        return
    assert lines[2] == UNDRAWN, read.text  # under the untrusted-data mark and the url
    assert "Open order 7" not in read.text


async def test_a_wait_for_what_the_page_shows_once_drawn_says_why_it_never_came(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("ondraw.html"))
    if tab.browser.kind != "extension":
        waited = await actions.wait(tab, text="Open order 7", timeout=10)
        assert waited.text() == "text 'Open order 7' is on the page"
        return
    with pytest.raises(ActionTimeout) as timed_out:
        await actions.wait(tab, text="Open order 7", timeout=0.5)
    assert timed_out.value.message == (
        "waited 0.5 s; the condition never held (" + UNDRAWN.removeprefix("note: ") + ")")
