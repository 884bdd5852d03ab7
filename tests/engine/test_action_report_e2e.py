"""What an action changed, read in the round trip that closes the action (no trip of its own),
and never read from a page the action left; what the page's handler sent at once is heard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fixture_server import Site
from pagetools import goto, js, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser

TOGGLE = """(() => {
  const b = document.createElement('button');
  b.id = 'mute'; b.textContent = 'Mute'; b.setAttribute('aria-pressed', 'false');
  b.onclick = () => b.setAttribute('aria-pressed', 'true');
  const f = document.createElement('input');
  f.id = 'code'; f.setAttribute('aria-label', 'Code');
  f.oninput = () => { f.value = f.value.toUpperCase(); };
  document.body.append(b, f);
  return true;
})()"""


@pytest.fixture
def trips(tab: Tab) -> Iterator[list[tuple[str, str, str]]]:
    """Every command the tab's connection sends, as ("sent" | "answered", method, expr)."""
    seen: list[tuple[str, str, str]] = []
    conn: Any = tab.conn
    inner = conn.send

    async def send(method: str, params: dict[str, Any] | None = None, *a: Any,
                   **k: Any) -> Any:
        expr = str((params or {}).get("expression", ""))[:60]
        seen.append(("sent", method, expr))
        try:
            return await inner(method, params, *a, **k)
        finally:
            seen.append(("answered", method, expr))

    conn.send = send
    yield seen
    del conn.send


def _read_overlaps_barrier(seen: list[tuple[str, str, str]]) -> bool:
    """Whether the element's info was asked for before the barrier after the input answered."""
    barrier = max(i for i, s in enumerate(seen) if s[:2] == ("sent", "Page.enable"))
    answered = next(i for i, s in enumerate(seen) if i > barrier and
                    s[:2] == ("answered", "Page.enable"))
    return any(s[0] == "sent" and s[2].startswith("__ts.info(") for s in seen[barrier:answered])


async def test_a_click_reports_what_it_changed_from_a_read_beside_its_barrier(
        tab: Tab, site: Site, trips: list[tuple[str, str, str]]) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE)
    shot = await tab.snapshot()
    trips.clear()
    out = await actions.click(tab, target(shot, "button", "Mute"))
    assert "now pressed" in out.text()
    assert _read_overlaps_barrier(trips), trips
    assert sum(1 for s in trips if s[0] == "sent" and s[2].startswith("__ts.info(")) == 1


async def test_a_fill_reports_the_value_the_page_made_from_a_read_beside_its_barrier(
        tab: Tab, site: Site, trips: list[tuple[str, str, str]]) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE)
    shot = await tab.snapshot()
    trips.clear()
    out = await actions.enter_text(tab, target(shot, "textbox", "Code"), "ab-12", "fill")
    assert out.data["value"] == "AB-12"
    assert _read_overlaps_barrier(trips), trips


async def test_a_click_that_leaves_the_page_reports_no_state_of_the_page_it_left(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE + ", mute.onclick = () => { mute.setAttribute('aria-pressed', "
                  "'true'); location.href = 'nav2.html'; }, true")
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Mute"))
    assert "navigated to" in out.text()
    assert "nav2.html" in out.text()
    assert "now pressed" not in out.text()


async def test_a_click_that_removes_its_element_still_reports_the_click(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE + ", mute.onclick = () => mute.remove(), true")
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Mute"))
    assert out.text().startswith("clicked @")
    assert "now" not in out.text()
    assert await js(tab, "document.getElementById('mute')") is None
    again = await tab.snapshot()
    assert "Mute" not in again.text


async def test_a_click_hears_the_requests_its_handler_sends_at_once(
        tab: Tab, site: Site) -> None:
    # the Network domain must be on when the input lands: enabling it in the input's round
    # trip (its answer not awaited) was tried, and these requests went unreported
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE + ", mute.onclick = () => { navigator.sendBeacon('/collect', 'x'); "
                  "fetch('/save', {method: 'POST', body: 'y'}); }, true")
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Mute"))
    assert f"the page sent data to {site.url('collect')}" in out.text(), out.text()
    assert f"the page sent data to {site.url('save')}" in out.text(), out.text()
