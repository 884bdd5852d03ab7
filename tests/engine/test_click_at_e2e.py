"""A click or a hover at a point of an element the agent names (`--at X,Y`, pixels from its
top-left corner): what a canvas draws there (a chart's legend), scrolled to where it lies
beyond the window, refused where the point is outside the element or something lies on it;
on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, run_tool, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetCovered, UsageError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_click_at_a_point_of_a_canvas_reaches_what_it_draws_there(
        tab: Tab, site: Site) -> None:
    # (Chart.js draws its legend: a click in the middle of the canvas toggled nothing)
    await goto(tab, site.url("canvaslegend.html"))
    out = await actions.click(tab, parse("#chart"), at=(240, 16))
    assert out.did.endswith('(img "Sales chart") at 240,16'), out.text()
    assert 'the page said "2024 hidden"' in out.changes, out.text()
    await actions.click(tab, parse("#chart"), at=(140, 16))
    assert await text_of(tab, "#status") == "2023 hidden"


async def test_a_point_beyond_the_window_is_scrolled_to_first(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("canvaslegend.html"))
    await actions.click(tab, parse("#tall"), at=(150, 2300))
    assert await text_of(tab, "#status") == "timeline at 150,2300"


async def test_a_point_outside_the_element_is_refused_and_nothing_is_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("canvaslegend.html"))
    with pytest.raises(UsageError, match=r"lies outside .*Sales chart.*400 by 200 pixels.*nothing "
                                         r"was done"):
        await actions.click(tab, parse("#chart"), at=(420, 16))
    assert await text_of(tab, "#status") == ""


async def test_a_point_something_lies_on_is_refused_naming_it(tab: Tab, site: Site) -> None:
    # (the canvas is not under the point: its "Loading…" box is; no other point is tried)
    await goto(tab, site.url("canvaslegend.html"))
    with pytest.raises(TargetCovered, match="Loading"):
        await actions.click(tab, parse("#chart"), at=(240, 170))
    assert await text_of(tab, "#status") == ""


async def test_a_hover_at_a_point_puts_the_pointer_there(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("canvaslegend.html"))
    out = await actions.hover(tab, parse("#chart"), (30, 40))
    assert out.did.endswith(" at 30,40"), out.text()
    assert await text_of(tab, "#moved") == "over 30,40"


@pytest.mark.parametrize("at", ["5", "1,2,3", "a,b", "-1,4", "nan,2", "inf,1"])
async def test_a_point_that_is_not_two_numbers_from_the_corner_is_refused(
        tab: Tab, site: Site, at: str) -> None:
    await goto(tab, site.url("canvaslegend.html"))
    with pytest.raises(UsageError, match=r"--at takes X,Y.*nothing was done"):
        await run_tool(tab, "click", target="#chart", at=at)
    assert await text_of(tab, "#status") == ""
