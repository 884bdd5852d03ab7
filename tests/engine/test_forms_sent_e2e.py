"""A form the page sends right after an action (on change, on focus, or submitted by the
input itself), and data its scripts post, are reported in the action's result, as
scheme://host/path."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_a_page_that_submits_its_form_when_an_option_is_chosen_is_reported(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    shot = await tab.snapshot()
    before = len(site.posts())
    out = await actions.select(tab, target(shot, "combobox", "Newsletter"), ["Daily"])
    sent = f"{site.origin}/prefs"
    assert out.changes[0] == f"the page sent a form to {sent} right after this action"
    assert out.data["sent_to"] == [sent]
    assert out.did.startswith("selected Daily in")
    assert [p.path for p in site.posts()[before:]] == ["/prefs"]


async def test_a_page_that_submits_its_form_on_focus_is_reported(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    out = await actions.focus(tab, parse("[name=nick]"))
    assert f"the page sent a form to {site.origin}/prefs right after this action" in \
        out.changes


async def test_a_harmless_button_whose_handler_submits_the_form_is_reported(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Show more"))
    assert out.data["sent_to"] == [f"{site.origin}/prefs"]


async def test_data_a_script_posts_right_after_a_click_is_reported(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "button", "Remember"))
    sent = f"{site.origin}/api/save"
    assert f"the page sent data to {sent} right after this action" in out.changes
    assert out.data["sent_to"] == [sent]


async def test_each_click_reports_what_its_page_posted_not_what_the_page_posted_before(
        tab: Tab, site: Site) -> None:
    # the Network domain stays on between clicks (cdp/kept_network.py)
    await goto(tab, site.url("autosubmit.html"))
    shot = await tab.snapshot()
    first = await actions.click(tab, target(shot, "button", "Remember"))
    await tab.send("Runtime.evaluate", {"expression": "fetch('/api/between', {method: "
                                        "'POST', body: 'x'}).then(() => 1)",
                                        "awaitPromise": True})
    second = await actions.click(tab, target(shot, "button", "Remember"))
    sent = [f"{site.origin}/api/save"]
    assert first.data["sent_to"] == sent
    assert second.data["sent_to"] == sent
    assert "/api/between" in [p.path for p in site.posts()]  # posted, between the clicks


async def test_a_form_sent_with_get_is_reported_without_what_it_sent(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    await tab.send("Runtime.evaluate", {"expression": """(() => {
        const f = document.getElementById('prefs'); f.method = 'get';
        document.querySelector('select').onchange = () => f.submit(); })()"""})
    shot = await tab.snapshot()
    out = await actions.select(tab, target(shot, "combobox", "Newsletter"), ["Daily"])
    assert out.data["sent_to"] == [f"{site.origin}/prefs"]
    assert "freq=daily" not in out.changes[0]


async def test_an_action_that_sends_no_form_reports_none(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("checkout.html"))
    out = await actions.enter_text(tab, parse("[name=name]"), "Ada", "type")
    assert "sent_to" not in out.data
    assert not any("sent a form" in c for c in out.changes)


async def test_a_select_whose_page_opens_a_dialog_on_change_reports_the_dialog(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("autosubmit.html"))
    await tab.send("Runtime.evaluate", {"expression": (
        "document.querySelector('select').onchange = () => alert('Saved?')")})
    shot = await tab.snapshot()
    out = await actions.select(tab, target(shot, "combobox", "Newsletter"), ["Daily"])
    assert out.data["dialog"] == {"type": "alert", "message": "Saved?"}
    await actions.dialog(tab, "accept")
