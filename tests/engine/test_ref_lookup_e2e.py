"""An action on a ref reads its element and places it (scrolled into view, hit-tested) in one
call to the page, and a ref whose element was replaced still finds the new one."""

from __future__ import annotations

from typing import Any

import pytest
from extension_env import debugger_attached
from fixture_server import Site
from pagetools import goto, ref, target, text_of
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


def page_calls(tab: Tab, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The helper expressions the tab evaluates from now on, in order."""
    seen: list[str] = []
    inner = tab.evaluate

    async def evaluate(frame: Any, expression: str, timeout: float | None = 30,
                       **options: Any) -> Any:
        seen.append(expression)
        return await inner(frame, expression, timeout, **options)
    monkeypatch.setattr(tab, "evaluate", evaluate)
    return seen


def up_to_aiming(calls: list[str]) -> list[str]:
    aim = next(i for i, c in enumerate(calls) if "__ts.aim(" in c or "__ts.point(" in c or
               (c.startswith("__ts.live(") and ('"aim"' in c or '"point"' in c)))
    return calls[:aim + 1]


async def test_a_click_on_a_live_ref_reads_and_aims_at_the_element_in_one_call_to_the_page(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    calls = page_calls(tab, monkeypatch)
    out = await actions.click(tab, parse(ref(shot, "button", "Save")))
    assert await text_of(tab, "#out") == "save clicked"
    assert "Save" in out.did
    assert len(up_to_aiming(calls)) == 1, calls
    assert calls[0].startswith("__ts.live("), calls


async def test_a_fill_on_a_live_ref_reads_and_places_the_field_in_one_call_to_the_page(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("form.html"))
    shot = await tab.snapshot()
    calls = page_calls(tab, monkeypatch)
    await actions.enter_text(tab, parse(ref(shot, "textbox", "Email")), "a@b.org", "fill")
    # (through the extension the fill's input attaches the debugger, whose attach waits for
    # the page it showed to draw: placing.py `drawn_once_shown`, no call of the fill's)
    calls[:] = [c for c in calls if not c.startswith("__ts.drawnSince(")]
    assert len(up_to_aiming(calls)) == 1, calls
    assert calls[0].startswith("__ts.live("), calls
    # then focus and select it; its value is read after the input in the input's sequence
    # (tab.conn.sequence) where the field's world is known, else by one more call here
    assert len(calls) in (2, 3), calls
    assert (await tab.info(await tab.resolve(parse('loc=textbox "Email"'))))["value"] == "a@b.org"


async def test_a_ref_whose_element_was_replaced_reaches_the_new_one_by_role_and_name(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    save = ref(shot, "button", "Save")
    await actions.click(tab, target(shot, "button", "Redraw"))  # the old node leaves the page
    out = await actions.click(tab, parse(save))
    assert await text_of(tab, "#out") == "save clicked"
    assert out.did.startswith("clicked")


async def test_text_of_a_live_ref_reads_it_whole_in_one_call_and_of_a_redrawn_one_still(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    save = ref(shot, "button", "Save")
    calls = page_calls(tab, monkeypatch)
    assert await actions.read_element(tab, parse(save)) == ("text", "Save")
    assert len(calls) == 1, calls
    assert calls[0].startswith("__ts.live("), calls
    assert '"fullText"' in calls[0], calls
    if isinstance(tab.conn, ExtensionConnection):  # a read: no debugger comes for it
        assert not await debugger_attached(tab.browser, tab)
    await actions.click(tab, target(shot, "button", "Redraw"))  # the old node leaves the page
    assert await actions.read_element(tab, parse(save)) == ("text", "Save")
