"""Reading a page's text (`text`, `text @N`, `wait --text`): the words a person reads."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_text_keeps_the_words_of_touching_inline_block_badges_apart_as_the_snapshot_does(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("badges.html"))
    shot = await tab.snapshot()
    lines = (await actions.read(tab, "text")).splitlines()  # a shadow root: read node by node
    for said in ("Shoes New Sale", "Red Blue", "Stock Low", "Warm Cold"):
        assert f"> {said}" in shot.text.splitlines()
        assert said in lines, lines
    # words glued inline, and punctuation after a box, read as the page has them
    assert "Plain boldtext stays, links, too: $19.99" in lines
    # an element without a shadow root: its innerText, with a space put between the boxes
    assert await actions.read_element(tab, parse("#p1")) == ("text", "Shoes New Sale")
    assert await actions.read_element(tab, parse("#plain")) == (
        "text", "Plain boldtext stays, links, too: $19.99")
    # a text-transform that changes a word's length (ß to SS) does not lose the words after
    assert await actions.read_element(tab, parse("#up")) == ("text", "STRASSE then NEW Arrival")
    await actions.wait(tab, text="Shoes New Sale", timeout=5)
