"""A frame no page helper can reach (an error page) is left out of the snapshot at no cost:
through the extension, the frames the reader named before the debugger attached are not
searched for again on every snapshot after it."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import extension_calls, goto
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_snapshots_after_the_debugger_came_do_not_look_for_an_unreachable_frame_again(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("deadframe.html"))
    await tab.snapshot()  # through the extension: read without the debugger
    out = await actions.click(tab, parse('loc=button "Outer"'))  # the debugger attaches
    assert "clicked" in out.did
    await tab.snapshot()
    calls = extension_calls(tab)
    shot = await tab.snapshot()
    assert 'button "Outer pressed"' in shot.text
    assert "Same origin frame" in shot.text or "same" in shot.text
    assert "scripting.inject" not in calls, calls
    assert "debugger.sendCommand Runtime.enable" not in calls, calls
