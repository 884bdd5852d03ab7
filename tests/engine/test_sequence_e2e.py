"""A sequence of commands (a click's input, then its read-back): each step once the one
before it answered, nothing after a failed step; through the extension, in one message."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from fixture_server import Site
from pagetools import extension_calls, goto, without_cast
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


@contextlib.contextmanager
def _without(tab: Tab, ability: str) -> Iterator[None]:
    """Inside, the extension's hello says it cannot do `ability`, as an older extension's
    would (the extension transport only: the test is skipped on the other)."""
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("the hello's abilities are the extension's")
    link = tab.conn.link
    hello = link.hello
    assert hello is not None
    assert ability in hello.abilities
    link.hello = dataclasses.replace(hello, abilities=hello.abilities - {ability})
    try:
        yield
    finally:
        link.hello = hello


async def _ref_of(tab: Tab, name: str) -> str:
    snap = await tab.snapshot()
    return next(w for line in snap.text.splitlines() if f'"{name}"' in line
                for w in line.split() if w.startswith("@"))


async def _clicked_swatch(tab: Tab, site: Site) -> str:
    """frames.html with its main swatch clicked once (its clicks counted in `clicks`): the
    swatch's ref, the frames' shield worlds made."""
    await goto(tab, site.url("frames.html"))
    await tab.send(*_js(tab, "window.clicks = 0; document.querySelector("
                        "'[aria-label=\"Swatch main\"]').onclick = () => clicks++")[:2])
    ref = await _ref_of(tab, "Swatch main")
    await actions.click(tab, parse(ref))
    return ref


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


async def test_what_follows_a_hold_step_that_answers_false_is_not_sent(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])
    calls = extension_calls(tab)
    for answer, sent in (("false", "ab"), ("true", "abc"), ("0", "abc"), ("nope.x", "abc")):
        await tab.send(*_js(tab, "seq.length = 0")[:2])
        [first, _, then] = await tab.conn.sequence(
            [[_js(tab, "seq.push('a'), 1")], [_js(tab, f"seq.push('b'), {answer}")],
             [_js(tab, "seq.push('c'), 3")]], hold=1)
        assert first[0]["result"]["value"] == 1  # type: ignore[index]
        value = await tab.send(*_js(tab, "seq.join('')")[:2])
        assert value["result"]["value"] == sent, answer  # a read that threw holds nothing
        assert isinstance(then[0], BrowserError) == (sent == "ab"), (answer, then)
    if isinstance(tab.conn, ExtensionConnection):
        assert calls.count("debugger.sequence") == 4


async def test_an_extension_that_cannot_hold_has_a_held_sequence_sent_step_by_step(
        tab: Tab, site: Site) -> None:
    with _without(tab, "sequence.holds"):
        await goto(tab, site.url("form.html"))
        await tab.send(*_js(tab, "window.seq = []")[:2])
        calls = extension_calls(tab)
        [_, _, then] = await tab.conn.sequence(
            [[_js(tab, "seq.push('a'), 1")], [_js(tab, "seq.push('b'), false")],
             [_js(tab, "seq.push('c'), 3")]], hold=1)
    assert isinstance(then[0], BrowserError)
    value = await tab.send(*_js(tab, "seq.join('')")[:2])
    assert value["result"]["value"] == "ab"
    assert "debugger.sequence" not in calls


async def test_a_click_is_one_message_after_its_look_up_through_the_extension(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await actions.click(tab, parse('loc=textbox "Email"'))  # attaches, learns its world
    calls = extension_calls(tab)
    out = await actions.click(tab, parse('loc=checkbox "I accept the terms"'))
    assert "now checked" in out.text()
    if isinstance(tab.conn, ExtensionConnection):
        assert calls.count("debugger.sequence") == 1
        # the look-up and aim, before policy (read in the extension's world, as a
        # snapshot is); then input and read-back, in one message
        assert calls.index("reader.run") < calls.index("debugger.sequence")
        assert "debugger.sendCommand Runtime.evaluate" not in calls
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


async def marking_page(tab: Tab, site: Site) -> tuple[int, list[Any]]:
    """An extension's tab on a page with `seq`, and a command that marks it when it runs:
    the tab's id, and the command."""
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("debugger.sequence is the extension's call")
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])
    return int(tab.session_id[len(PREFIX):]), ["Runtime.evaluate",
                                               {"expression": "seq.push('ran')"}]


async def test_a_malformed_sequence_is_refused_by_the_extension_and_nothing_of_it_runs(
        tab: Tab, site: Site) -> None:
    tab_id, mark = await marking_page(tab, site)
    malformed: list[tuple[Any, Any]] = [
        ({"tabId": tab_id}, [[mark]] * 9),                 # more steps than it takes
        ({"tabId": tab_id}, [[mark] * 17]),                # a step longer than it takes
        ({"tabId": tab_id}, [[mark], "Runtime.evaluate"]),  # a step that is no list
        ({"tabId": tab_id}, [[mark], [[42, {}]]]),         # a method that is no string
        ({"tabId": tab_id}, [[mark], [[*mark, 42]]]),      # a session id that is no string
        ({"tabId": tab_id}, [[mark], [[*mark, ""]]]),      # an empty session id
        ({"tabId": tab_id}, [[mark], [[*mark, "S", 1]]]),  # a command of four parts
        ({"tabId": tab_id}, {"steps": [[mark]]}),          # steps that are no list
        ({"tabId": str(tab_id)}, [[mark]]),                # a tab id that is no integer
        (None, [[mark]]),                                  # no target
    ]
    holds: list[Any] = ["0", 1.5, -1, 1, None, True]  # no step of the sequence to hold on
    for target, steps, *hold in [*malformed, *(({"tabId": tab_id}, [[mark]], h) for h in holds)]:
        with pytest.raises(ExtensionCallError) as refused:
            await tab.conn.link.call("debugger.sequence", target, steps, *hold)
        assert refused.value.code == UsageError.code
        assert "nothing was sent" in refused.value.message
    value = await tab.send(*_js(tab, "seq.length")[:2])
    assert value["result"]["value"] == 0


async def test_a_malformed_read_in_a_sequence_is_refused_and_nothing_after_it_is_sent(
        tab: Tab, site: Site) -> None:
    tab_id, mark = await marking_page(tab, site)
    for bad in ({"documentId": 7, "name": "readyState", "args": []},  # no string id
                {"documentId": "", "name": ["readyState"], "args": []},  # a name no string
                {"documentId": "", "name": "readyState", "args": "x"},  # args no list
                None):
        [[read], [after]] = await tab.conn.link.call(
            "debugger.sequence", {"tabId": tab_id}, [[["Tabsteward.read", bad]], [mark]])
        assert read["error"]["code"] == UsageError.code
        assert "nothing was read" in read["error"]["message"]
        assert after is None  # not sent
    value = await tab.send(*_js(tab, "seq.length")[:2])
    assert value["result"]["value"] == 0
    # a well-formed one answers as the reader does, the page helper's read
    [[read]] = await tab.conn.link.call("debugger.sequence", {"tabId": tab_id}, [
        [["Tabsteward.read", {"documentId": "", "name": "readyState", "args": []}]]])
    assert read["result"]["value"] == "complete"


async def test_a_click_beside_another_sites_frame_shields_it_in_the_same_message(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("frames.html"))
    ref = await _ref_of(tab, "Swatch main")
    await actions.click(tab, parse(ref))  # attaches, learns the frames' worlds
    assert any(f.session != tab.session_id for f in tab.frames.values())  # another process
    frame_calls: list[str] = []
    if isinstance(tab.conn, ExtensionConnection):
        link = tab.conn.link
        call = link.call

        async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
            if name == "debugger.sequence":
                frame_calls.extend(f"sequence {c[0]} in a frame" for step in args[1]
                                   for c in step if len(c) == 3)
            elif args and isinstance(args[0], dict) and "sessionId" in args[0]:
                frame_calls.append(f"{name} {args[1]} apart")
            return await call(name, *args, **kwargs)
        link.call = counted  # type: ignore[method-assign]
    calls = extension_calls(tab)
    out = await actions.click(tab, parse(ref))
    assert out.text().startswith(f"clicked {ref}")
    if isinstance(tab.conn, ExtensionConnection):
        assert calls.count("debugger.sequence") == 1
        # up before the input, down beside the read, for the one frame: nothing apart
        # its look-up and aim; then shield up, input, read and shield down in one message
        # (and, once it was answered, the hidden tab's cast beside it: drawing.for_input)
        assert without_cast(calls) == ["reader.run", "debugger.sequence"]
        assert frame_calls == ["sequence Runtime.evaluate in a frame"] * 2


async def test_a_click_whose_shield_cannot_go_up_in_its_sequence_is_still_sent_once(
        tab: Tab, site: Site) -> None:
    ref = await _clicked_swatch(tab, site)
    other = next(f for f in tab.frames.values() if f.session != tab.session_id)
    other.world = 987654  # a world its document no longer has: the raise fails in the sequence
    out = await actions.click(tab, parse(ref))
    assert out.text().startswith(f"clicked {ref}")
    value = await tab.send(*_js(tab, "clicks")[:2])
    assert value["result"]["value"] == 2  # the input went once, after the shield apart


async def test_the_first_click_on_a_page_read_without_the_debugger_is_one_message_too(
        tab: Tab, site: Site) -> None:
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("only the extension reads without a debugger")
    await goto(tab, site.url("form.html"))
    ref = await _ref_of(tab, "I accept the terms")  # read in the extension's world
    calls = extension_calls(tab)
    out = await actions.click(tab, parse(ref))  # attaches, then names the world it read
    assert "now checked" in out.text()
    assert "debugger.attach" in calls
    assert calls.count("debugger.sequence") == 1
    assert "debugger.sendCommand Input.dispatchMouseEvent" not in calls
    # its look-up and its read after the input are the extension world's, as read: the
    # debugger never searches for its own context of that world
    assert "debugger.sendCommand Runtime.enable" not in calls
    assert "debugger.sendCommand Runtime.evaluate" not in calls


async def test_an_extension_that_cannot_read_in_a_sequence_has_the_world_searched_for_instead(
        tab: Tab, site: Site) -> None:
    with _without(tab, "sequence.reads"):
        await goto(tab, site.url("form.html"))
        ref = await _ref_of(tab, "I accept the terms")  # read in the extension's world
        calls = extension_calls(tab)
        out = await actions.click(tab, parse(ref))
    assert "now checked" in out.text()
    assert calls.count("debugger.sendCommand Runtime.enable") == 1  # the debugger's context
    assert calls.count("debugger.sequence") == 1  # input and read still in one message


async def test_an_extension_that_cannot_sequence_frame_commands_gets_the_shields_apart(
        tab: Tab, site: Site) -> None:
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("the hello's abilities are the extension's")
    await goto(tab, site.url("frames.html"))
    ref = await _ref_of(tab, "Swatch main")
    await actions.click(tab, parse(ref))
    hello = tab.conn.link.hello
    assert hello is not None
    assert "sequence.sessions" in hello.abilities
    link = tab.conn.link
    link.hello = dataclasses.replace(hello, abilities=frozenset())  # an older extension's
    sent: list[tuple[str, Any]] = []
    call = link.call

    async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        sent.append((name, args))
        return await call(name, *args, **kwargs)
    link.call = counted  # type: ignore[method-assign]
    try:
        out = await actions.click(tab, parse(ref))
    finally:
        link.hello = hello
        link.call = call  # type: ignore[method-assign]
    assert out.text().startswith(f"clicked {ref}")
    sequences = [args[1] for name, args in sent if name == "debugger.sequence"]
    assert all(len(c) == 2 for s in sequences for step in s for c in step)  # page only
    apart = [args[1] for name, args in sent
             if name == "debugger.sendCommand" and "sessionId" in args[0]]
    assert apart == ["Runtime.evaluate", "Runtime.evaluate"]  # the frame's shield, up, down


async def test_a_step_longer_than_the_extension_takes_goes_command_by_command_and_batching_stays(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await tab.send(*_js(tab, "window.seq = []")[:2])
    # a click beside many frames of other sites: one shield command per frame in a step
    [first] = await tab.conn.sequence([[_js(tab, f"seq.push({i}), {i}") for i in range(17)]])
    assert [a["result"]["value"] for a in first] == list(range(17))  # type: ignore[index]
    calls = extension_calls(tab)
    await tab.conn.sequence([[_js(tab, "1")], [_js(tab, "2")]])
    if isinstance(tab.conn, ExtensionConnection):
        assert calls == ["debugger.sequence"]  # not taken for an extension without it


async def test_the_first_click_beside_another_sites_frame_looks_for_no_world_of_that_frame(
        tab: Tab, site: Site) -> None:
    if not isinstance(tab.conn, ExtensionConnection):
        pytest.skip("only the extension searches for its world")
    await goto(tab, site.url("frames.html"))
    ref = await _ref_of(tab, "Swatch main")  # read through the extension's world
    in_frames: list[str] = []
    link = tab.conn.link
    call = link.call

    async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], dict) and "sessionId" in args[0]:
            in_frames.append(f"{name} {args[1]}")
        return await call(name, *args, **kwargs)
    link.call = counted  # type: ignore[method-assign]
    out = await actions.click(tab, parse(ref))  # attaches; the frame gets a shield
    assert out.text().startswith(f"clicked {ref}")
    other = next(f for f in tab.frames.values() if f.session != tab.session_id)
    assert other.world is None  # a bare world, no helper
    assert other.guard is not None
    assert "debugger.sendCommand Runtime.enable" not in in_frames  # no search there
    assert "debugger.sendCommand Page.createIsolatedWorld" in in_frames


async def test_a_shield_whose_bare_world_went_makes_it_again_and_the_click_goes_once(
        tab: Tab, site: Site) -> None:
    ref = await _clicked_swatch(tab, site)
    other = next(f for f in tab.frames.values() if f.session != tab.session_id)
    other.world, other.guard = None, 987654  # as if its document changed unseen
    out = await actions.click(tab, parse(ref))
    assert out.text().startswith(f"clicked {ref}")
    assert other.guard not in (None, 987654)  # made again in the document it has
    value = await tab.send(*_js(tab, "clicks")[:2])
    assert value["result"]["value"] == 2
