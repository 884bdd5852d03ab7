"""Fields in shadow roots (shadowfields.html): a value set by fill or select says its input
as the browser does, to the host's listeners across the root (Material Web's md-slider
holds a native range); words a click put into a shadow root are in its report; a host that
says it opens a menu around the one button its shadow root draws is that one button. Both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, listened_snapshot, ref, run_tool, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_a_range_filled_in_a_shadow_root_is_heard_by_its_hosts_listener(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadowfields.html"))
    shot = await tab.snapshot()
    done = await actions.enter_text(tab, parse(ref(shot, "slider", "Volume")), "75", "fill")
    assert await text_of(tab, "#volume-out") == "Volume: 75"
    assert "Volume: 75" in done.text(), done.text()


async def test_a_select_in_a_shadow_root_is_heard_by_its_hosts_listener(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadowfields.html"))
    shot = await tab.snapshot()
    await actions.select(tab, parse(ref(shot, "combobox", "Tier")), ["pro"])
    assert await text_of(tab, "#tier-out") == "Tier: pro"


async def test_words_a_click_put_in_a_shadow_root_are_in_its_report(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("shadowfields.html"))
    said = (await run_tool(tab, "click", target="#save")).text
    assert 'the page now shows "Saved your changes"' in said, said


async def test_a_host_saying_it_opens_a_menu_around_its_button_is_one_control(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("shadowfields.html"))
    named = [info["role"] for info in shot.refs.values() if info["name"] == "Actions"]
    assert named == ["button"], shot.text
    await run_tool(tab, "click", target=ref(shot, "button", "Actions"))
    assert await text_of(tab, "#actions-out") == "menu open"
