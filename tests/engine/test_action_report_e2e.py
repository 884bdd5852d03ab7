"""What a click reports it changed: never the state of a page it left, nothing of an element
it removed, and the requests its handler sent at once."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.acting import Outcome
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser

TOGGLE = """(() => {
  const b = document.createElement('button');
  b.id = 'mute'; b.textContent = 'Mute'; b.setAttribute('aria-pressed', 'false');
  b.onclick = () => b.setAttribute('aria-pressed', 'true');
  document.body.append(b);
  return true;
})()"""


async def click_mute(tab: Tab, site: Site, handler: str) -> Outcome:
    """A click on a Mute button (aria-pressed) whose click handler is `handler`."""
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE + f", mute.onclick = {handler}, true")
    shot = await tab.snapshot()
    return await actions.click(tab, target(shot, "button", "Mute"))


async def test_a_click_reports_the_state_its_handler_gave_the_element(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, TOGGLE)
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Mute"))
    assert "now pressed" in out.text()


async def test_a_click_that_leaves_the_page_reports_no_state_of_the_page_it_left(
        tab: Tab, site: Site) -> None:
    out = await click_mute(tab, site, "() => { mute.setAttribute('aria-pressed', 'true'); "
                                      "location.href = 'nav2.html'; }")
    assert "navigated to" in out.text()
    assert "nav2.html" in out.text()
    assert "now pressed" not in out.text()


async def test_a_click_that_removes_its_element_still_reports_the_click(
        tab: Tab, site: Site) -> None:
    out = await click_mute(tab, site, "() => mute.remove()")
    assert out.text().startswith("clicked @")
    assert out.changes == ["it is no longer in the page"]
    assert await js(tab, "document.getElementById('mute')") is None
    again = await tab.snapshot()
    assert "Mute" not in again.text


async def test_a_click_reports_the_new_words_of_a_button_that_renamed_itself(
        tab: Tab, site: Site) -> None:
    out = await click_mute(tab, site, "() => { mute.textContent = 'Unmute (3 left)'; "
                                      "mute.setAttribute('aria-pressed', 'true'); }")
    assert out.changes == ['now named "Unmute (3 left)"', "now pressed"], out.text()


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


async def test_the_read_after_input_gives_the_states_and_value_the_element_s_info_gives(
        tab: Tab, site: Site) -> None:
    # a click reports "now checked" or "value now" by comparing the info read before it
    # with the lighter read after it: they must read these the same way, on every kind
    await goto(tab, site.url("controls.html"))
    await js(tab, "document.getElementById('fancy').setAttribute('aria-checked', 'true'), "
                  "document.getElementById('size').value = 'm', true")
    ids = ["news", "terms", "fancy", "pw", "oneline", "many", "editor", "size", "toppings",
           "src", "docs", "req", "amount", "day", "remember"]
    both = await tab.evaluate(tab.frames[tab.target_id], "[" + ", ".join(
        f"(n => [__ts.info(n), __ts.inputState(n)])(__ts.idOf(document.getElementById('{i}')))"
        for i in ids) + "]")
    for name, (info, state) in zip(ids, both, strict=True):
        # and what the action found invalid beside it (test_invalid_fields_e2e.py), and
        # what the page said (test_page_said_e2e.py)
        assert state.pop("invalid") is None, name
        assert state.pop("said") is None, name
        assert state.pop("inDialog") is False, name  # (no dialog holds these)
        assert state.pop("name") in (None, info["name"]), name
        assert state.pop("armed") is None, name  # (asked with the hook's secret only)
        assert state.pop("fading") is False, name  # (none fades out)
        assert state.pop("shown") == info["shown"], name
        assert state.pop("holder") in (None, info["holder"]), name
        assert state == {k: info[k] for k in ("states", "value", "checked", "connected")}, name
    assert both[2][1]["states"] == ["checked"]
    assert both[7][1]["value"] == "Medium"
