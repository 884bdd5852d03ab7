"""What the page keeps out of sight beside the window (a drawer slid away, a panel laid
before the page's start) is not listed until it slides in; a button styled by utility
classes alone gets no hint from them; a hover says which tooltip it brought once the
page's delay and fade ran. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, run_tool
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_drawer_slid_away_beside_the_window_is_listed_once_it_slides_in(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawer.html"))
    shot = await tab.snapshot()
    for hidden in ("Close menu", "Orders", "Reports"):
        assert hidden not in shot.text, shot.text
    opened = await run_tool(tab, "click", target="#opener", interactive=True)
    assert 'button "Close menu" @' in opened.text, opened.text
    assert 'link "Orders" @' in opened.text, opened.text
    assert "Reports" not in opened.text


async def test_utility_classes_give_no_hint_and_a_hover_says_the_tooltip_it_brought(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawer.html"))
    shot = await tab.snapshot(interactive=True)
    line = line_of(shot, ref(shot, "button", "", 1))
    assert "hint=" not in line, line
    out = await actions.hover(tab, parse("#export"))
    assert out.changes == ['shows the tooltip "Export report as PDF"'], out.text()
    again = await actions.hover(tab, parse("#export"))  # (shown already: no news)
    assert again.changes == [], again.text()


async def test_a_hover_says_a_tooltip_a_kit_draws_with_no_role(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawer.html"))
    out = await actions.hover(tab, parse("#link"))
    assert out.changes == ['shows the tooltip "Link (Ctrl+K)"'], out.text()


async def test_a_hover_says_a_tooltip_the_style_sheet_draws_and_a_kits_popup(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawer.html"))
    out = await actions.hover(tab, parse("#invite"))
    assert out.changes == ['shows the tooltip "Adds the user to your team"'], out.text()
    out = await actions.hover(tab, parse("#help"))
    assert out.changes == ['shows the tooltip "We never share your data"'], out.text()
