"""The browser's own popovers (the popover attribute: menus and hints in the top layer): what
they hold shows while they are open, their invoker says whether its popover is open, and a
control in one is clicked like any other, on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


def actions_line(shot: Snapshot) -> str:
    return line_of(shot, ref(shot, "button", "Actions"))


async def test_a_popover_menu_shows_its_items_once_its_button_opened_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("popovers.html"))
    shot = await tab.snapshot()
    assert "[collapsed" in actions_line(shot), shot.text
    assert "Delete" not in shot.text, shot.text
    out = await actions.click(tab, target(shot, "button", "Actions"))
    assert "now expanded" in out.text(), out.text()
    shot = await tab.snapshot()
    assert "[expanded" in actions_line(shot), shot.text
    out = await actions.click(tab, target(shot, "button", "Delete"))
    assert out.did.startswith("clicked @"), out.text()
    assert await js(tab, "document.getElementById('out').textContent") == "Delete (trusted)"
    shot = await tab.snapshot()
    assert "Delete" not in shot.text.replace("> Delete (trusted)", ""), shot.text
    assert "[collapsed" in actions_line(shot), shot.text


async def test_a_hint_a_script_opened_as_a_popover_is_read(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("popovers.html"))
    shot = await tab.snapshot()
    assert "Drafts are kept" not in shot.text
    await actions.click(tab, target(shot, "button", "Help"))
    shot = await tab.snapshot()
    assert "> Drafts are kept for 30 days." in shot.text, shot.text


async def test_a_button_that_opens_a_popover_by_command_says_whether_it_is_open(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("popovers.html"))
    shot = await tab.snapshot()
    more = ref(shot, "button", "More")
    assert "[collapsed]" in line_of(shot, more), shot.text
    out = await actions.click(tab, target(shot, "button", "More"))
    assert "now expanded" in out.text(), out.text()
    shot = await tab.snapshot()
    assert 'link "Settings"' in shot.text, shot.text
