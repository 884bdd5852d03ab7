"""A box that draws nothing and does nothing, laid over what a person sees through it (a
calendar's events layer over its slots), takes the click as a person's, and the page reads
it by its place; a box over a button that listens, points, has a role, links, is a hidden
button, tints it or sits in a box that listens stays a cover, and nothing is clicked; so does a
button under a layer that passes clicks on to it (its own click would miss it); a day
column under slot lines the page hides as decoration takes the click (FullCalendar's), and
an event in it much smaller than the day is a ref of its own; on both transports."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from fixture_server import Site
from pagetools import goto, listened_snapshot, ref, run_tool, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError, TargetCovered
from tabsteward.bridge.policy.classify import decide
from tabsteward.bridge.policy.intent import Intent
from tabsteward.bridge.policy.profiles import BUILTIN
from test_aiming_e2e import NoGrants

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


class RiskGate:
    """The hub's question, answered by the default profile's findings with nobody to ask:
    what it finds a risk in is refused, the rest allowed. Every intent it saw is kept."""

    def __init__(self) -> None:
        self.intents: list[Intent] = []

    async def __call__(self, tab: Tab, intent: Intent) -> None:
        self.intents.append(intent)
        verdict = decide(intent, BUILTIN["default"], NoGrants())
        if verdict.findings:
            raise PolicyError(f"asked about: {verdict.summary}")


@pytest.fixture
def gate(browser: Browser) -> Iterator[RiskGate]:
    browser.gate = RiskGate()
    yield browser.gate
    browser.gate = None


async def test_a_slot_under_a_layer_that_draws_nothing_takes_the_click_as_a_persons(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("seethrough.html"))
    done = await run_tool(tab, "click", target="text=9:00")
    assert await text_of(tab, "#out") == "New event at 9:00"
    assert '"New event at 9:00"' in done.text, done.text
    await run_tool(tab, "click", target="text=10:00")
    assert await text_of(tab, "#out") == "New event at 10:00"
    await run_tool(tab, "click", target="#standup")  # (what the layer holds is clicked as ever)
    assert await text_of(tab, "#out") == "Opened Standup"


@pytest.mark.parametrize("button", ["listener", "hand", "role", "link", "ghost", "tint",
                                    "parent"])
async def test_a_box_over_a_button_that_acts_or_shows_stays_a_cover(
        tab: Tab, site: Site, button: str) -> None:
    await listened_snapshot(tab, site.url("seethrough.html"))  # (the hook knows its listeners)
    with pytest.raises(TargetCovered, match="nothing was done"):
        await actions.click(tab, parse(f"#b-{button}"))
    assert await text_of(tab, "#log") == "nothing clicked"
    assert tab.state.url.endswith("seethrough.html")


async def test_a_day_under_the_lines_a_page_hides_as_decoration_takes_the_click(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("seethrough.html"))
    days = [r for r, info in shot.refs.items() if info["role"] == "gridcell"]
    assert len(days) == 2, shot.text
    await run_tool(tab, "click", target=days[1])
    assert await text_of(tab, "#picked") == "Picked 2024-05-14"
    event = ref(shot, "clickable", "09:00 Standup")  # (not the day's name alone)
    await run_tool(tab, "click", target=event)
    assert await text_of(tab, "#picked") == "Opened Standup"


async def test_a_button_under_a_layer_that_passes_clicks_on_stays_covered(
        tab: Tab, site: Site, gate: RiskGate) -> None:
    # (its own click would miss it: the layer takes it, and only the page's script could
    # pass it on; nothing is clicked, nothing goes out)
    await listened_snapshot(tab, site.url("seethrough.html"))
    before = len(site.posts("/order"))
    with pytest.raises(TargetCovered, match="nothing was done"):
        await actions.click(tab, parse("#see-buy"))
    await asyncio.sleep(0.3)  # a form sent anyway would have arrived by now
    assert len(site.posts("/order")) == before, site.posts("/order")
