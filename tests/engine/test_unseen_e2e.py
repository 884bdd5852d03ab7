"""Who gets a ref: nothing a zero-sized box hides (a list kept for screen readers, a panel
collapsed by height, a skip link), and no app root that listens for every kind of event on
behalf of its tree (React's container); what escapes such a box, and a card that listens
for its own clicks, still do."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, target, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

pytestmark = pytest.mark.browser


async def test_what_a_zero_sized_box_hides_gets_no_ref(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("unseen.html"))
    shot = await tab.snapshot()
    names = {i["name"] for i in shot.refs.values()}
    assert not names & {"Small", "Large", "Shipping rates", "Skip to content"}, shot.text
    assert {"Shipping", "My account"} <= names, shot.text


async def test_an_app_root_listening_for_everything_is_no_control_and_keeps_its_words(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("delegated.html"))
    shot = await tab.snapshot()
    assert "> 3 unread messages" in shot.text
    assert not [i for i in shot.refs.values() if i["name"].startswith("Inbox")], shot.text
    out = await actions.click(tab, target(shot, "clickable", "Open the weekly report"))
    assert out.did.startswith("clicked")
    assert await text_of(tab, "#out") == "opened"
