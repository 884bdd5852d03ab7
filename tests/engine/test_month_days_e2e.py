"""A calendar's days of the months before and after the one it shows, greyed among its own
and marked by a class alone, say so ([other-month]): an agent picking "29" takes this
month's. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_days_of_the_months_around_say_so_and_this_months_do_not(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("monthdays.html"))
    shot = await tab.snapshot(interactive=True)
    november, december = ref(shot, "clickable", "29", 0), ref(shot, "clickable", "29", 1)
    assert "[other-month]" in line_of(shot, november), shot.text
    assert "other-month" not in line_of(shot, december), shot.text
    assert "[other-month]" in line_of(shot, ref(shot, "clickable", "2", 1)), shot.text
    assert "other-month" not in line_of(shot, ref(shot, "clickable", "2", 0)), shot.text
    await actions.click(tab, parse(december))
    assert await text_of(tab, "#out") == "December 29"


async def test_days_a_calendar_leaves_without_its_months_mark_are_of_another_month(
        tab: Tab, site: Site) -> None:
    # (Ant Design's: its month's days carry `ant-picker-cell-in-view`, the others nothing)
    await watch_listeners(tab)
    await goto(tab, site.url("monthdays.html"))
    shot = await tab.snapshot(interactive=True)
    february, march = ref(shot, "cell", "28", 0), ref(shot, "cell", "28", 1)
    assert "[other-month]" in line_of(shot, february), shot.text
    assert "other-month" not in line_of(shot, march), shot.text
    await actions.click(tab, parse(march))
    assert await text_of(tab, "#out") == "2027-03-28"


async def test_a_date_ranges_days_and_today_marked_by_class_say_so(
        tab: Tab, site: Site) -> None:
    # (Litepicker's is-start-date, is-in-range, is-end-date, is-today: no day said chosen)
    await watch_listeners(tab)
    await goto(tab, site.url("monthdays.html"))
    shot = await tab.snapshot(interactive=True, scope=parse("#may"))
    for day in ("5", "6", "7"):
        assert "[selected]" in line_of(shot, ref(shot, "clickable", day)), shot.text
    assert "[current]" in line_of(shot, ref(shot, "clickable", "4")), shot.text
    assert "selected" not in line_of(shot, ref(shot, "clickable", "8")), shot.text
