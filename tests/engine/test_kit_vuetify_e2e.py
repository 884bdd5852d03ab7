"""Fields, switches, menus and dialogs drawn as Vuetify draws them: the field's box that
says it is the combobox is no line of its own, and a click on its field (which lets the
pointer through) opens it; an empty live region and a switch's track say nothing; list
items that act are named by their words; a dialog titled by a div is named by it. On both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_combobox_box_around_its_field_is_one_line_and_opens_through_the_field(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kit_vuetify.html"))
    shot = await tab.snapshot()
    fields = [line for line in shot.text.splitlines() if "combobox" in line]
    assert len(fields) == 1, shot.text
    assert '"Fruit"' in fields[0], shot.text
    assert "- alert" not in shot.text, shot.text  # (empty)
    assert "clickable" not in shot.text, shot.text  # (neither the box nor the track)
    out = await actions.select(tab, parse(ref(shot, "combobox", "Fruit")), ["Cherry"])
    assert out.did.startswith('chose "Cherry"'), out.did
    assert await text_of(tab, "#out") == "fruit Cherry"
    await actions.check(tab, parse(ref(shot, "checkbox", "Dark")), True)
    assert await text_of(tab, "#out") == "dark true"


async def test_list_items_that_act_are_named_by_their_words_and_chosen_from(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kit_vuetify.html"))
    await actions.click(tab, parse("#more"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "listitem", "Move"), shot.text
    await actions.click(tab, parse("#more"))  # (shut again)
    out = await actions.select(tab, parse("#more"), ["Move"])
    assert '(listitem "Move")' in out.did, out.did
    assert await text_of(tab, "#out") == "menu Move"


async def test_a_dialog_titled_by_a_div_is_named_by_its_first_words(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kit_vuetify.html"))
    await actions.click(tab, parse("#ask"))
    shot = await tab.snapshot(interactive=True)
    assert '- dialog "Discard draft?"' in shot.text, shot.text
    assert line_of(shot, ref(shot, "button", "Discard"))
