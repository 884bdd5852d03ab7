"""What a box that clips shows of what it holds: the viewport's look leaves out what it cuts
off (a carousel's other slides, a pane's rows scrolled out), and a bar clipped to no area
that takes no pointer is unreached until shown."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_viewport_snapshot_leaves_out_what_a_box_around_it_clips(
        tab: Tab, site: Site) -> None:
    # a carousel's other slides, a card placed below its stage, a pane's rows scrolled out
    # of it; not what escapes the box (a menu it is no container of, a bar fixed to the
    # window)
    await goto(tab, site.url("clipview.html"))
    view = (await tab.snapshot(viewport=True)).text
    for shown in ("Buy Chair", "Open first card", "Row three", "Row five", "Menu item",
                  "Pinned help"):
        assert shown in view, shown
    for gone in ("Buy Lamp", "Buy Desk", "Buy Rug", "Open second card", "Row one",
                 "Row two", "Row six"):
        assert gone not in view, gone
    full = (await tab.snapshot()).text
    assert "Buy Lamp" in full
    assert "Row one" in full


async def test_a_bar_clipped_to_no_area_that_takes_no_pointer_is_not_listed_until_shown(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("clipview.html"))
    shot = await tab.snapshot(interactive=True)
    assert "Delete rows" not in shot.text, shot.text
    assert ref(shot, "button", "Add new"), shot.text
    await actions.check(tab, parse("#row1"), True)
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "button", "Delete rows"), shot.text
