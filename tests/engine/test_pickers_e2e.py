"""Comboboxes whose chosen value sits beside an empty search input (react-select, Ant Design,
vue-select) show that value on their line, as a select shows its chosen option; a
placeholder or words around the box are never taken for it."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def test_a_search_combobox_shows_the_choice_beside_its_input(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("pickers.html"))
    shot = await tab.snapshot(interactive=True)
    assert line_of(shot, ref(shot, "combobox", "Flavour")).endswith('value="Chocolate"')
    assert shot.refs[ref(shot, "combobox", "City")]["value"] == "Lisbon"


@pytest.mark.parametrize("name", ["Size", "Country", "Search"])
async def test_a_placeholder_or_the_words_around_a_box_are_no_choice(
        tab: Tab, site: Site, name: str) -> None:
    await goto(tab, site.url("pickers.html"))
    shot = await tab.snapshot(interactive=True)
    assert "value=" not in line_of(shot, ref(shot, "combobox", name))
