"""An open waits for the data a page was still fetching at its load (a single-page app's
first data), as a person waits for a page to fill in: on both transports, and through the
extension with no debugger."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import ref, run_tool
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_open_with_a_snapshot_shows_the_data_a_single_page_app_fetched_after_its_load(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("bootdata.html"), interactive=True)
    assert 'button "Open the note from Grace" @' in opened.text
    assert "Loading" not in opened.text
    assert "still loading" not in opened.text


async def test_a_plain_open_returns_once_the_first_data_and_what_it_led_to_came(
        tab: Tab, site: Site) -> None:
    # a fetch, then an XMLHttpRequest made with its answer: both came before open returned
    out = await actions.navigate(tab, site.url("bootdata.html?mode=chained"))
    assert out.text() == f"opened {site.url('bootdata.html?mode=chained')}"
    shot = await tab.snapshot(interactive=True)
    assert 'button "Open the note from Grace"' in shot.text


async def test_an_open_whose_data_never_comes_says_so_and_returns_after_the_wait(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabsteward.bridge.engine import navigation
    monkeypatch.setattr(navigation, "ANSWERS_WAIT", 0.5)
    opened = await run_tool(tab, "open", url=site.url("bootdata.html?mode=forever"),
                            snapshot=True)
    first, _, rest = opened.text.partition("\n[untrusted page data")
    assert first.endswith("the page was still loading data after 0.5 s")
    assert "Loading..." in rest


async def test_an_open_with_no_load_wait_does_not_wait_for_data_either(
        tab: Tab, site: Site) -> None:
    out = await actions.navigate(tab, site.url("bootdata.html?mode=forever"),
                                 "domcontentloaded")
    assert "loading data" not in out.text()
    assert "Loading..." in (await tab.snapshot()).text


async def test_reload_back_and_forward_with_a_snapshot_show_the_data_fetched_after_the_load(
        tab: Tab, site: Site) -> None:
    # the same wait as an open's, wherever a page loads and is read next
    chained = site.url("bootdata.html?mode=chained")
    await actions.navigate(tab, chained)
    await actions.navigate(tab, site.url("bootdata.html"))
    for tool in ("reload", "back", "forward"):
        read = await run_tool(tab, tool, interactive=True)
        assert 'button "Open the note from Grace" @' in read.text, (tool, read.text)
        assert "Loading" not in read.text, (tool, read.text)
        assert "still loading" not in read.text, (tool, read.text)


async def test_a_link_clicked_with_a_snapshot_shows_the_data_its_page_fetched_after_its_load(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("bootdata.html"))
    link = ref(await tab.snapshot(interactive=True), "link", "Mail, all folders")
    clicked = await run_tool(tab, "click", target=link, interactive=True)
    assert "navigated to" in clicked.text
    assert 'button "Open the note from Grace" @' in clicked.text
    assert "Loading" not in clicked.text
    assert "still loading" not in clicked.text


async def test_a_reload_read_after_says_when_its_data_never_came(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabsteward.bridge.engine import settling
    monkeypatch.setattr(settling, "ANSWERS_WAIT", 0.5)
    await actions.navigate(tab, site.url("bootdata.html?mode=forever"), "domcontentloaded")
    read = await run_tool(tab, "reload", snapshot=True)
    first, _, rest = read.text.partition("\n[untrusted page data")
    assert first.endswith("the page was still loading data after 0.5 s; read as it was")
    assert "Loading..." in rest
