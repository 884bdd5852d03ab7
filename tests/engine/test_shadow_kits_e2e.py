"""What web components keep in their shadow roots, read as a person sees it: a toast whose host
lies over the page (Ionic's) is part of the page's text; a modal dialog in a shadow root
that fades out as it closes (Shoelace's) leaves the page behind it its refs, as one in the
page does; a select of several keeps its field, parked under the chosen tags beside one kept
hidden for its form, and the focus it takes back is no news (Shoelace's); a modal named by
no attribute is named by its title, not the words a web component's button draws before it
(Ionic's); on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import listened_snapshot, ref, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_toast_whose_host_lies_over_the_page_is_part_of_its_text(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("shadowkits.html"))
    text = (await run_tool(tab, "text")).text
    assert "Saved: Grace Hopper" in text, text


async def test_a_modal_in_a_shadow_root_fading_out_leaves_the_page_its_refs(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("shadowkits.html"))
    await run_tool(tab, "click", target="#open")
    said = (await run_tool(tab, "click", target="#confirm")).text
    assert 'closed the dialog "Delete account?"' in said, said
    shot = await tab.snapshot(interactive=True)
    assert "modal" not in shot.text, shot.text
    ref(shot, "button", "Open help")


async def test_a_select_of_several_in_a_shadow_root_keeps_its_field_once_chosen_from(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("shadowkits.html"))
    field = ref(shot, "combobox", "Interests")
    said = (await run_tool(tab, "select", target=field, values=["News"])).text
    assert "focus moved" not in said, said
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "combobox", "Interests") == field, shot.text


async def test_a_modal_is_named_by_its_title_not_its_toolbars_button_before_it(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("shadowkits.html"))
    said = (await run_tool(tab, "click", target="#edit-address")).text
    assert 'opened the dialog "Address"' in said, said
