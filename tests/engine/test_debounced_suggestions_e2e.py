"""Suggestions a field's list draws a moment after the typing (a debounce): the report of
`type` or `fill` into a field that completes from a list waits for them, with no look after
it, and says the list that opened, then how many options it holds as more is typed, not
how many items left it; a choice in such a list says how the list ended; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_typing_says_the_list_of_suggestions_a_debounce_drew(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("debounced.html"))
    field = ref(await tab.snapshot(interactive=True), "combobox", "Country")
    said = (await run_tool(tab, "type", target=field, text="Bra")).text
    assert 'opened the list "Countries" of 1 option' in said, said


async def test_more_typing_says_how_many_options_the_open_list_holds_now(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("debounced.html"))
    field = ref(await tab.snapshot(interactive=True), "combobox", "Country")
    await run_tool(tab, "fill", target=field, text="C")
    said = (await run_tool(tab, "fill", target=field, text="Ch")).text
    assert 'the list "Countries" now holds 2 options' in said, said
    assert "removed" not in said, said
    said = (await run_tool(tab, "type", target=field, text="i")).text
    assert "now holds" not in said, said  # (China and Chile still)
    assert "opened" not in said, said
    shot = await tab.snapshot(interactive=True)
    await run_tool(tab, "click", target=ref(shot, "option", "China"))
    assert "China" in (await tab.snapshot()).text


async def test_a_look_after_the_typing_shows_the_suggestions(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("debounced.html"))
    field = ref(await tab.snapshot(interactive=True), "combobox", "Country")
    out = await run_tool(tab, "fill", target=field, text="B", interactive=True)
    assert 'option "Belgium"' in out.text, out.text
    assert 'option "Brazil"' in out.text, out.text


async def test_a_choice_says_how_the_list_ended_not_how_it_opened(tab: Tab, site: Site) -> None:
    # (its toggle expanded with the list and collapsed with it; its options left with it)
    await goto(tab, site.url("togglecombo.html"))
    field = ref(await tab.snapshot(interactive=True), "combobox", "From")
    said = (await run_tool(tab, "select", target=field, values=["Paris (CDG)"])).text
    assert "value now 'Paris (CDG)'" in said, said
    assert "expanded" not in said, said
    assert "removed from a list" not in said, said
    assert "now holds" not in said, said
