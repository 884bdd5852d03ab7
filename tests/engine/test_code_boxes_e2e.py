"""Text longer than its field takes (its maxlength) goes on as a person's keys do: into the
fields a page moves focus on to (a code's six boxes), each judged by policy before a key
goes in there; keys that no field takes are reported. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.policy.intent import Intent

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("mode", ["fill", "type"])
async def test_a_code_goes_into_its_boxes_as_the_page_moves_focus_on(
        tab: Tab, site: Site, mode: str) -> None:
    await goto(tab, site.url("codeboxes.html"))
    out = await actions.enter_text(tab, parse('loc=textbox "Digit 1"'), "493817", mode)
    assert await text_of(tab, "#out") == "493817"
    assert "it takes 1 character; the rest went on, a key at a time, into the 5 fields " \
        "the page moved focus to" in out.changes, out.text()


async def test_characters_a_full_field_does_not_take_are_reported(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("codeboxes.html"))
    out = await actions.enter_text(tab, parse("#zip"), "1234567", "fill")
    assert await js(tab, "document.getElementById('zip').value") == "12345"
    assert "2 characters did not go in: the field that had focus was full" in out.changes, \
        out.text()


async def test_a_field_focus_moves_to_is_judged_before_a_key_goes_in(
        tab: Tab, site: Site, browser: Browser) -> None:
    asked: list[Intent] = []

    async def no_passwords(_tab: Tab, intent: Intent) -> None:
        asked.append(intent)
        if intent.element is not None and intent.element.type == "password":
            raise PolicyError("asked about: typing into a password field")

    await goto(tab, site.url("codeboxes.html"))
    browser.gate = no_passwords
    try:
        with pytest.raises(PolicyError, match=r"typed 2 characters; the rest was not: asked "
                           "about: typing into a password field"):
            await actions.enter_text(tab, parse('loc=textbox "Pin 1"'), "4821", "fill")
    finally:
        browser.gate = None
    assert [i.element.name for i in asked if i.action == "fill" or i.action == "type"
            if i.element is not None] == ["Pin 1", "Pin 2", "Password"]
    assert await js(tab, "document.getElementById('pw').value") == ""
