"""What a person cannot reach gets no ref: an `inert` subtree, and, while a modal dialog is
open, the page behind it (the browser makes it inert); their words are still shown, and the
snapshot says a modal dialog is open."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, target, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetError

pytestmark = pytest.mark.browser


async def test_an_inert_subtree_shows_its_words_but_gives_no_ref(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot()
    assert "> Recommended for you" in shot.text
    assert "Add the socks" in shot.text
    assert not [r for r, i in shot.refs.items() if i["name"] == "Add the socks"]
    assert ref(shot, "button", "Remove item")
    assert "modal dialog" not in shot.text


async def test_an_open_modal_dialog_leaves_only_its_own_controls_with_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot(interactive=True)
    behind = ref(shot, "button", "Remove item")
    await actions.click(tab, target(shot, "button", "Sign in"))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open; the page behind it takes no input" in shot.text
    names = sorted(i["name"] for i in shot.refs.values())
    assert names == ["Close", "Email"], shot.text
    # -i says what the dialog asks, over its controls (a <dialog> named by its heading)
    lines = [ln for ln in shot.text.splitlines() if ln.startswith(("-", " "))]
    assert lines[0] == '- dialog "Sign in to continue"', shot.text
    assert all(ln.startswith("  - ") for ln in lines[1:]), shot.text
    # an older ref to what is behind it is still refused, and nothing happens
    with pytest.raises(TargetError, match="nothing was done"):
        await actions.click(tab, parse(behind))
    assert await text_of(tab, "#out") == ""
    await actions.click(tab, target(shot, "button", "Close"))
    shot = await tab.snapshot(interactive=True)
    assert "modal dialog" not in shot.text
    assert ref(shot, "button", "Remove item") == behind


async def test_a_scoped_snapshot_inside_the_open_dialog_keeps_its_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Sign in"))
    await tab.snapshot()
    scoped = await tab.snapshot(scope=parse("#signin"))
    assert sorted(i["name"] for i in scoped.refs.values()) == ["Close", "Email"], scoped.text
