"""An open that reads the page next (`open -i`) makes the page helper's world while the page
loads: its snapshot reads at once instead of making it first. A plain open makes none."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fixture_server import Site
from pagetools import goto
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


def sent(tab: Tab, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The DevTools methods the tab's connection sends from now on."""
    seen: list[str] = []
    inner = tab.conn.send

    async def send(method: str, *a: Any, **k: Any) -> Any:
        seen.append(method)
        return await inner(method, *a, **k)
    monkeypatch.setattr(tab.conn, "send", send)
    return seen


async def test_the_snapshot_after_an_open_makes_no_helper_world_of_its_own(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("nav1.html"))
    # its load waits 0.7 s for an image
    await actions.navigate(tab, site.url("slowload.html"), read_after=True)
    calls = sent(tab, monkeypatch)
    shot = await tab.snapshot(interactive=True)
    assert 'button "Export"' in shot.text
    assert "Page.createIsolatedWorld" not in calls, calls


async def test_a_plain_open_makes_no_helper_world_in_the_page(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    # an agent that opens again at once would have it made in a document it is leaving
    await goto(tab, site.url("nav1.html"))
    calls = sent(tab, monkeypatch)
    await goto(tab, site.url("slowload.html"))
    assert "Page.createIsolatedWorld" not in calls, calls


async def test_a_ref_from_the_snapshot_after_an_open_acts_on_that_page(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await tab.snapshot()
    await actions.navigate(tab, site.url("slowload.html"), read_after=True)
    shot = await tab.snapshot(interactive=True)
    ref = next(w for ln in shot.text.splitlines() if '"Export"' in ln
               for w in ln.split() if w.startswith("@"))
    out = await actions.click(tab, parse(ref))
    assert out.did.startswith("clicked @"), out.text()


async def test_a_world_begun_for_a_read_that_was_cancelled_is_the_next_reads(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    # a look at readyState that a load event won is cancelled as it makes the world (an
    # action's wait for its page's load): the snapshot after it waits for that world
    await goto(tab, site.url("nav1.html"))
    await goto(tab, site.url("slowload.html"))
    calls = sent(tab, monkeypatch)
    frame = tab.frames[tab.target_id]
    look = asyncio.ensure_future(tab.evaluate(frame, "document.readyState"))
    for _ in range(200):
        if "Page.createIsolatedWorld" in calls:
            break
        await asyncio.sleep(0.001)
    look.cancel()
    shot = await tab.snapshot(interactive=True)
    assert 'button "Export"' in shot.text
    assert calls.count("Page.createIsolatedWorld") == 1, calls


async def test_a_world_made_as_its_document_went_is_not_kept_for_the_next_one(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    frame = tab.frames[tab.target_id]
    making = asyncio.ensure_future(tab.world_of(frame))
    await goto(tab, site.url("slowload.html"))  # (its commit comes before or after)
    await asyncio.gather(making, return_exceptions=True)
    shot = await tab.snapshot(interactive=True)
    assert 'button "Export"' in shot.text, shot.text
