"""A page whose load event never seems to come (a hung image, ad or tracker) is read and used
once its document is ready, after a short wait for the rest (LOAD_CAP), and the agent is
told: an open, a link clicked and a reload, with a snapshot after; on both transports.
`wait --load load` still waits for the whole load."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import ref, run_tool
from tabsteward.bridge.engine import actions, navigation, settling
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CAP = 0.2  # the page's image answers after 5 s
CAPPED = f"still loading {CAP:g} s after its document was ready"


@pytest.fixture(autouse=True)
def short_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(navigation, "LOAD_CAP", CAP)
    monkeypatch.setattr(settling, "LOAD_CAP", CAP)


async def test_an_open_of_a_page_whose_load_hangs_reads_it_once_ready_and_says_so(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("hungload.html"), interactive=True)
    first, _, shot = opened.text.partition("\n")
    assert first.startswith(f"opened {site.url('hungload.html')}; {CAPPED}"), opened.text
    assert "`wait --load load` waits for it" in first
    assert "still loading after" not in opened.text  # not the navigation's whole timeout
    assert 'button "Export" @' in shot


async def test_a_plain_open_stops_waiting_there_too_and_does_not_wait_for_data(
        tab: Tab, site: Site) -> None:
    out = await actions.navigate(tab, site.url("hungload.html"))
    assert out.changes == [navigation.load_capped(CAP)]
    assert out.data["url"] == site.url("hungload.html")


async def test_a_link_to_a_page_whose_load_hangs_is_followed_and_read_once_ready(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("tohung.html"))
    link = ref(await tab.snapshot(interactive=True), "link", "Orders")
    clicked = await run_tool(tab, "click", target=link, interactive=True)
    assert f"navigated to {site.url('hungload.html')}" in clicked.text
    assert f"the page was {CAPPED}" in clicked.text
    assert "; read as it was" in clicked.text
    assert 'button "Export" @' in clicked.text


async def test_a_reload_of_such_a_page_is_read_once_ready(tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("hungload.html"), "domcontentloaded")
    read = await run_tool(tab, "reload", interactive=True)
    assert f"the page was {CAPPED}" in read.text
    assert 'button "Export" @' in read.text


async def test_wait_for_the_load_state_waits_for_the_whole_load(tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("hungload.html"))
    waited = await actions.wait(tab, load="load", timeout=20)
    assert waited.text() == "page reached load"
    assert await tab.evaluate(tab.frames[tab.target_id], "document.readyState") == "complete"
