"""A sequence of commands (a click's input, then its read-back): each step once the one
before it answered, nothing after a failed step; through the extension, in one message."""

from __future__ import annotations

from typing import Any

import pytest
from fixture_server import Site
from pagetools import extension_calls, goto
from tabsteward.bridge.cdp.ext_events import PREFIX
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.cdp.extension_link import ExtensionCallError
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import BrowserError, CDPError, UsageError

pytestmark = pytest.mark.browser


def _js(tab: Tab, expression: str) -> tuple[str, dict[str, Any], str | None]:
    return "Runtime.evaluate", {"expression": expression, "returnByValue": True}, tab.session_id


async def test_each_step_runs_after_the_one_before_and_in_one_message_through_the_extension(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])  # the debugger attaches
    calls = extension_calls(tab)
    steps = [[_js(tab, "seq.push('a'), 1"), _js(tab, "seq.push('b'), 2")],
             [_js(tab, "seq.push('c'), seq.join('')")]]
    [first, then] = await tab.conn.sequence(steps)
    assert [a["result"]["value"] for a in first] == [1, 2]  # type: ignore[index]
    assert then[0]["result"]["value"] == "abc"  # type: ignore[index]
    if isinstance(tab.conn, ExtensionConnection):  # (the attach's own set-up may still run)
        assert calls.count("debugger.sequence") == 1
        assert "debugger.sendCommand Runtime.evaluate" not in calls


async def test_after_a_failed_step_nothing_more_is_sent(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])
    steps = [[_js(tab, "seq.push('a'), 1"), ("Input.noSuchMethod", {}, tab.session_id)],
             [_js(tab, "seq.push('never'), 3")]]
    [first, then] = await tab.conn.sequence(steps)
    assert first[0]["result"]["value"] == 1  # type: ignore[index]
    assert isinstance(first[1], CDPError)
    assert isinstance(then[0], BrowserError)
    assert "was not sent" in then[0].message
    value = await tab.send(*_js(tab, "seq.join('')")[:2])
    assert value["result"]["value"] == "a"


async def test_a_click_is_one_message_after_its_look_up_through_the_extension(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await actions.click(tab, parse('loc=textbox "Email"'))  # attaches, learns its world
    calls = extension_calls(tab)
    out = await actions.click(tab, parse('loc=checkbox "I accept the terms"'))
    assert "now checked" in out.text()
    if isinstance(tab.conn, ExtensionConnection):
        assert calls.count("debugger.sequence") == 1
        # the look-up and aim, before policy; then input and read-back, in one message
        assert calls.index("debugger.sendCommand Runtime.evaluate") < \
            calls.index("debugger.sequence")
        assert "debugger.sendCommand Input.dispatchMouseEvent" not in calls


async def test_a_fill_is_one_message_after_its_look_up_through_the_extension(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await actions.click(tab, parse('loc=textbox "Email"'))
    calls = extension_calls(tab)
    out = await actions.enter_text(tab, parse('loc=textbox "Email"'), "ann@example.org", "fill")
    assert "value now 'ann@example.org'" in out.text()
    if isinstance(tab.conn, ExtensionConnection):
        assert calls.count("debugger.sequence") == 1


async def test_a_malformed_sequence_is_refused_by_the_extension_and_nothing_of_it_runs(
        tab: Tab, site: Site) -> None:
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("debugger.sequence is the extension's call")
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])
    tab_id = int(tab.session_id[len(PREFIX):])
    mark = ["Runtime.evaluate", {"expression": "seq.push('ran')"}]
    malformed: list[tuple[Any, Any]] = [
        ({"tabId": tab_id}, [[mark]] * 9),                 # more steps than it takes
        ({"tabId": tab_id}, [[mark] * 17]),                # a step longer than it takes
        ({"tabId": tab_id}, [[mark], "Runtime.evaluate"]),  # a step that is no list
        ({"tabId": tab_id}, [[mark], [[42, {}]]]),         # a method that is no string
        ({"tabId": tab_id}, {"steps": [[mark]]}),          # steps that are no list
        ({"tabId": str(tab_id)}, [[mark]]),                # a tab id that is no integer
        (None, [[mark]]),                                  # no target
    ]
    for target, steps in malformed:
        with pytest.raises(ExtensionCallError) as refused:
            await tab.conn.link.call("debugger.sequence", target, steps)
        assert refused.value.code == UsageError.code
        assert "nothing was sent" in refused.value.message
    value = await tab.send(*_js(tab, "seq.length")[:2])
    assert value["result"]["value"] == 0
