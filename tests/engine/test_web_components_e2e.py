"""Web components as Shoelace and other Lit kits draw them (webparts.html): a host whose
shadow root holds the native button its words are slotted into is one control, the
button; a tab whose shadow part takes the pointer is one line; the listening surface of a
rating's stars inside its slider is no control of its own; and a veil in a shadow root
fading out as it closes (a Web Animation, which the document's own list of animations
leaves out) is waited for, not reported as covering the next click. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, listened_snapshot, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_hosts_shadow_button_is_the_one_control_and_its_click_reaches_the_host(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("webparts.html"))
    saves = [(info["role"], info["name"]) for info in shot.refs.values()
             if info["name"] == "Save draft"]
    assert saves == [("button", "Save draft")], shot.text
    await actions.click(tab, parse(ref(shot, "button", "Save draft")))
    assert await text_of(tab, "#out") == "saved"


async def test_a_tabs_shadow_part_and_a_ratings_surface_are_no_lines_of_their_own(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("webparts.html"))
    roles = [(info["role"], info["name"]) for info in shot.refs.values()]
    assert roles[1:4] == [("tab", "General"), ("tab", "Advanced"),
                          ("slider", "Rating")], shot.text
    assert not [r for r, info in shot.refs.items() if info["role"] == "clickable"], shot.text
    await actions.click(tab, parse(ref(shot, "tab", "Advanced")))
    assert await text_of(tab, "#out") == "tab Advanced"


async def test_a_shadow_veil_fading_out_is_waited_for_by_the_next_click(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("webparts.html"))
    await js(tab, "document.getElementById('veil').open()")
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Close")))
    await actions.click(tab, parse(ref(shot, "button", "Publish")))
    assert await text_of(tab, "#out") == "published"
