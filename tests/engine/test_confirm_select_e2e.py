"""`select` on a control whose options are radios or check boxes in a dialog that chooses
nothing until its OK is pressed (Ionic's alert select): the options are clicked, then OK,
as a person ends the choice; several check boxes are taken as several choices. On both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_choice_a_dialog_holds_until_its_ok_is_confirmed_with_its_ok(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("confirmselect.html"))
    out = await actions.select(tab, parse("#country"), ["Japan"])
    assert await text_of(tab, "#out") == "Chosen: Japan"
    assert out.did.endswith('(button "OK"))'), out.text()
    assert 'now named "Country Japan"' in out.changes, out.text()
    assert await js(tab, "document.querySelector('[role=alertdialog]')") is None


async def test_several_check_boxes_of_such_a_dialog_are_several_choices(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("confirmselect.html"))
    out = await actions.select(tab, parse("#topics"), ["News", "Tech"])
    assert await text_of(tab, "#out") == "Chosen: News, Tech", out.text()
    assert out.data["selected"] == ["News", "Tech"]


async def test_a_choice_in_a_list_inside_a_forms_modal_is_never_confirmed_with_its_save(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("confirmselect.html"))
    out = await actions.select(tab, parse("#roles"), ["Admin", "Viewer"])
    assert out.data["selected"] == ["Admin", "Viewer"], out.text()
    assert "Save" not in out.text()
    assert await text_of(tab, "#saved") == "Saved: no"
