"""`select` on a control whose menu says nothing of it: the menu kept beside a button is
chosen from whether it is shut or open already; a menu bar's submenu that shows under the
pointer comes with the press of its item; an option another control's list shows is named
by its ref, never said to be missing. On both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_menu_kept_beside_its_button_is_chosen_from_shut_or_open(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("menubeside.html"))
    await actions.select(tab, parse("#user-actions"), ["Reset password"])
    assert await text_of(tab, "#out") == "Done: Reset password"
    await actions.click(tab, parse("#user-actions"))  # open: its items are on the page
    await tab.snapshot(interactive=True)
    out = await actions.select(tab, parse("#user-actions"), ["Duplicate"])
    assert await text_of(tab, "#out") == "Done: Duplicate", out.text()


async def test_a_submenu_that_shows_under_the_pointer_comes_with_the_press_of_its_item(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("menubeside.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.select(tab, parse(ref(shot, "menuitem", "Catalog")), ["Categories"])
    assert await text_of(tab, "#out") == "Done: Categories", out.text()


async def test_an_option_another_controls_open_menu_shows_is_named_by_its_ref(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("menubeside.html"))
    await actions.click(tab, parse("#user-actions"))
    shot = await tab.snapshot(interactive=True)
    duplicate = ref(shot, "menuitem", "Duplicate")
    with pytest.raises(TargetNotInteractable) as refused:
        await actions.select(tab, parse("#team-actions"), ["Duplicate"])
    said = refused.value.message
    assert f'"Duplicate" ({duplicate}) is in a list that is not this control\'s' in said, said
    assert said.endswith("(its list may still be open; to type into it, use type)"), said
    assert await text_of(tab, "#out") == "Done: nothing"
