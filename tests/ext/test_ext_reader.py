"""Which of the engine's page-helper expressions can be read without a debugger, and how."""

from __future__ import annotations

import dataclasses
import json

import pytest
from tabsteward.bridge.cdp.ext_reader import Reader, ReaderTab, nav_events, translate
from tabsteward.bridge.engine.collect import HOOK_SECRET

QUOTED = 'it\'s "here", {a:1}'


def test_the_snapshot_call_with_its_options_literal_becomes_a_json_read() -> None:
    opts = f"{{hook:'{HOOK_SECRET}',interactive:true,viewport:false,scope:12}}"
    assert translate(f"JSON.stringify(__ts.snapshot({opts}))") == (
        "json", ["snapshot", [{"hook": HOOK_SECRET, "interactive": True, "viewport": False,
                               "scope": 12}]])


@pytest.mark.parametrize(("expression", "read"), [
    ("__ts.info(7)", ("call", ["info", [7]])),
    (f"__ts.query({json.dumps('a,b:hover, x')}, 1)", ("call", ["query", ["a,b:hover, x", 1]])),
    ("__ts.focusedInfo()", ("call", ["focusedInfo", []])),
    ('__ts.live(31, "alive")', ("call", ["live", [31, "alive"]])),
    ("document.readyState", ("readyState", [])),
    ("__ts.pageText().includes(" + json.dumps(QUOTED) + ")", ("includes", [QUOTED])),
    (f'__ts.readText("markdown", "{HOOK_SECRET}")',
     ("call", ["readText", ["markdown", HOOK_SECRET]])),
    (f'__ts.live(7, "aim", "{HOOK_SECRET}", {{"want": true, "toggles": ["switch"]}})',
     ("call", ["live", [7, "aim", HOOK_SECRET, {"want": True, "toggles": ["switch"]}]])),
])
def test_each_read_the_engine_writes_has_its_read(
        expression: str, read: tuple[str, list[object]]) -> None:
    assert translate(expression) == read


@pytest.mark.parametrize("expression", [
    "1+1", "fetch('/x')", "__ts.get(1).click()", "__ts.info(7); alert(1)",
    "document.cookie", "__ts.info(foo())", "JSON.stringify(__ts.snapshot({a: b()}))",
])
def test_anything_else_is_left_to_the_debugger(expression: str) -> None:
    assert translate(expression) is None


def test_only_by_value_reads_without_a_promise_are_taken() -> None:
    reader = Reader(lambda *a: None)  # type: ignore[arg-type,return-value]
    read = {"expression": "__ts.info(3)", "contextId": -1}
    assert reader.can("Runtime.evaluate", {**read, "returnByValue": True})
    assert not reader.can("Runtime.evaluate", read)  # a remote object: the debugger's
    assert not reader.can("Runtime.evaluate", {**read, "returnByValue": True,
                                               "awaitPromise": True})
    assert not reader.can("Input.dispatchMouseEvent", {})
    assert not reader.can("Page.navigate", {"url": "https://example.org"})
    assert not reader.can("Runtime.callFunctionOn", {"functionDeclaration": "function(){}",
                                                     "objectId": "tsowner:1:-1"})


async def test_where_input_goes_in_a_frame_is_left_to_the_debugger_that_sends_it() -> None:
    async def call(name: str, *args: object) -> object:  # the extension's answers
        return {"value": "complete", "doc": "D", "documentId": "DOC"}
    reader = Reader(call)
    tab = ReaderTab(5, "MAIN")
    main = (await reader.send(tab, "Page.createIsolatedWorld", {"frameId": "MAIN"}))
    ctx = main["executionContextId"]
    reader._contexts[ctx - 1] = dataclasses.replace(reader._contexts[ctx], frame=3)
    for what, in_frame in (("aim", False), ("point", False), ("info", True),
                           ("fullText", True)):
        read = {"expression": f'__ts.live(4, "{what}", "s", null)', "returnByValue": True}
        assert reader.can("Runtime.evaluate", {**read, "contextId": ctx})
        assert reader.can("Runtime.evaluate", {**read, "contextId": ctx - 1}) is in_frame


def test_frames_keep_the_debuggers_ids_where_known_and_get_their_own_elsewhere() -> None:
    tab = ReaderTab(5, "MAIN", {3: "CDP-3"})
    assert [tab.frame_id(n) for n in (0, 3, 9)] == ["MAIN", "CDP-3", "MAIN:9"]
    assert [tab.ext_id(f) for f in ("MAIN", "CDP-3", "MAIN:9", "OTHER:9", "x")] == [
        0, 3, 9, None, None]


def test_the_extensions_navigation_events_become_the_page_events_the_engine_waits_for() -> None:
    assert nav_events("M", "committed", "https://a.example/") == [
        ("Page.frameNavigated", {"frame": {"id": "M", "url": "https://a.example/"}})]
    assert nav_events("M", "loaded", "") == [
        ("Page.lifecycleEvent", {"frameId": "M", "name": "load"}),
        ("Page.frameStoppedLoading", {"frameId": "M"})]
    assert nav_events("M", "interactive", "")[0][1]["name"] == "DOMContentLoaded"
    assert nav_events("M", "whatever", "") == []
