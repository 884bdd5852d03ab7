"""`type` sends each character as a person's keys (keydown, keypress, input, keyup), into
whatever has focus as each lands, judged by policy where the page moved focus; `fill` types
the keys of a field whose keys the page hears."""

from __future__ import annotations

import asyncio

import pytest
from fixture_server import Site
from pagetools import goto, js, target, text_of, value_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError
from test_keys_policy_e2e import DefaultPolicy, policy  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser


async def shown(tab: Tab, selector: str) -> list[str]:
    return await js(tab, f"[...document.querySelectorAll('{selector} li')]"
                         ".filter(li => !li.hidden).map(li => li.textContent)")


async def test_type_filters_a_list_that_listens_for_keyup_only(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    out = await actions.enter_text(tab, parse("#filter"), "ban", "type")
    assert out.data["value"] == "ban"
    assert await text_of(tab, "#keyups") == "3 keyups"
    assert await shown(tab, "#fruit") == ["Banana"]


async def test_type_filters_a_grid_header_that_reads_its_field_after_each_keydown(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    await actions.enter_text(tab, parse("#cities"), "L", "type")
    await actions.enter_text(tab, parse("#cities"), "on", "type")
    await asyncio.sleep(0.2)  # the page's own 50 ms timer
    assert await shown(tab, "#city") == ["London"]


async def test_a_field_that_turns_keys_away_keeps_only_what_it_took(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    out = await actions.enter_text(tab, parse("#phone"), "12ab34", "type")
    assert out.data["value"] == "1234"
    assert await value_of(tab, "#phone") == "1234"


async def test_fill_types_the_keys_of_a_field_whose_keys_the_page_hears(
        tab: Tab, site: Site) -> None:
    # (a fill that put the text in at once left a list filtered on keyup as it was; a field
    # no key listener hears takes it at once: test_key_fields_e2e)
    await watch_listeners(tab)
    await goto(tab, site.url("keyfilters.html"))
    await actions.enter_text(tab, parse("#filter"), "che", "fill")
    assert await value_of(tab, "#filter") == "che"
    assert await text_of(tab, "#keyups") == "3 keyups"
    assert await shown(tab, "#fruit") == ["Cherry"]


async def test_keys_a_page_hands_on_to_a_password_field_are_judged_there_and_refused(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:  # noqa: F811
    await goto(tab, site.url("keyfilters.html"))
    with pytest.raises(PolicyError) as refused:
        await actions.enter_text(tab, parse("#search"), "hunter2", "type")
    assert refused.value.message.startswith("typed 1 character; the rest was not")
    assert "credentials" in refused.value.details["categories"]
    assert await value_of(tab, "#search") == "h"
    assert await value_of(tab, "#password") == ""


async def test_type_says_where_keys_went_once_the_page_moved_focus(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    out = await actions.enter_text(tab, parse("#search"), "abc", "type")
    assert "on into the 1 field the page moved focus to" in out.text()
    assert await value_of(tab, "#search") == "a"
    assert await value_of(tab, "#password") == "bc"


async def test_type_stops_where_the_page_takes_focus_away_and_says_what_was_left(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    out = await actions.enter_text(tab, parse("#tag"), "abcdef\nxyz", "type")
    assert "6 characters did not go in: no field had focus any more" in out.text()
    assert await value_of(tab, "#tag") == "abc"


async def test_type_into_a_components_shadow_field_stays_in_it(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    shot = await tab.snapshot()
    out = await actions.enter_text(tab, target(shot, "textbox", "Nickname"), "Zoë", "type")
    assert out.data["value"] == "Zoë"
    assert "moved focus" not in out.text()


async def test_type_takes_letters_no_key_types_and_tabs_as_text(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("keyfilters.html"))
    await actions.enter_text(tab, parse("#notes"), "Ünïcode 漢字 🙂\tend", "type")
    assert await value_of(tab, "#notes") == "Ünïcode 漢字 🙂\tend"
    assert await js(tab, "document.activeElement.id") == "notes"
