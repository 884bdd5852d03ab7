"""The SDK against a stand-in hub: requests, pipelining, errors, lost connections, autostart."""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import types
import typing
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hub_env import pair
from standin_hub import AGENT, TOKEN, Paths, Reply, StandinHub, answer_text
from tabsteward.bridge import errors
from tabsteward.bridge.records import context
from tabsteward.bridge.sdk import Tabsteward
from tabsteward.bridge.secrets import credentials

pytestmark = pytest.mark.timeout(30)


def run_with_hub(paths: Paths, scenario: Callable[[StandinHub], Awaitable[None]],
                 **hub_options: Any) -> None:
    async def main() -> None:
        hub = await StandinHub(paths, **hub_options).start()
        try:
            await scenario(hub)
        finally:
            await hub.stop()
    asyncio.run(main())


def test_a_call_carries_token_agent_tool_args_and_cwd_and_returns_text_and_data(
        paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(agent="tester", autostart=False) as ts:
            result = await ts.call("click", target="@3")
        assert result.text == "click done"
        assert result.data == {"tool": "click", "args": {"target": "@3"}}
        [call] = hub.calls
        assert call["token"] == TOKEN
        assert call["agent"] == "tester"
        assert call["tool"] == "click"
        assert call["args"] == {"target": "@3"}
        assert call["cwd"] == os.getcwd()
        assert isinstance(call["id"], int)

    run_with_hub(paths, scenario)


def test_whoami_ping_and_tools_send_no_agent_and_are_read(paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        ts = await Tabsteward.connect(agent="tester", autostart=False)
        try:
            assert ts.hub["version"] == "0-standin"
            assert ts.hub["agent"] == AGENT  # whoami: the paired agent the token is
            assert (await ts.ping())["version"] == "0-standin"
            tools = await ts.list_tools()
        finally:
            await ts.close()
        assert [t.name for t in tools] == ["open", "snapshot", "click"]
        assert tools[0].mutating
        assert not tools[1].mutating
        assert tools[0].input_schema["required"] == ["url"]
        assert [r["op"] for r in hub.requests] == ["whoami", "ping", "tools"]
        assert all("agent" not in r for r in hub.requests)

    run_with_hub(paths, scenario)


def test_pipelined_calls_are_answered_out_of_order_and_matched_by_id(paths: Paths) -> None:
    held: list[tuple[dict[str, Any], Reply]] = []

    async def hold_until_three(request: dict[str, Any], reply: Reply) -> None:
        held.append((request, reply))
        if len(held) == 3:  # every call arrived before any answer: they were pipelined
            for req, answer in reversed(held):
                await answer({"ok": True, "text": req["args"]["target"], "result": {}})

    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False) as ts:
            results = await asyncio.gather(ts.click("@1"), ts.click("@2"), ts.click("@3"))
        assert [r.text for r in results] == ["@1", "@2", "@3"]
        assert len({c["id"] for c in hub.calls}) == 3

    run_with_hub(paths, scenario, on_call=hold_until_three)


def test_a_hub_error_is_raised_as_its_tabsteward_error_subclass(paths: Paths) -> None:
    async def refuse(request: dict[str, Any], reply: Reply) -> None:
        await reply({"ok": False, "error": {
            "code": 21, "type": "RefNotFound",
            "message": "no element matches @9; nothing was clicked",
            "details": {"ref": "@9"}}})

    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False) as ts:
            with pytest.raises(errors.RefNotFound) as caught:
                await ts.click("@9")
        assert caught.value.message == "no element matches @9; nothing was clicked"
        assert caught.value.details == {"ref": "@9"}
        assert caught.value.code == 21

    run_with_hub(paths, scenario, on_call=refuse)


def test_an_unknown_error_type_becomes_the_base_error(paths: Paths) -> None:
    async def refuse(request: dict[str, Any], reply: Reply) -> None:
        await reply({"ok": False, "error": {"code": 99, "type": "FromTheFuture",
                                            "message": "not done"}})

    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False) as ts:
            with pytest.raises(errors.TabstewardError) as caught:
                await ts.call("whatever")
        assert type(caught.value) is errors.TabstewardError
        assert caught.value.message == "not done"

    run_with_hub(paths, scenario, on_call=refuse)


def test_losing_the_connection_fails_every_pending_call_with_hub_unavailable(
        paths: Paths) -> None:
    async def never_answer(request: dict[str, Any], reply: Reply) -> None:
        return None

    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False) as ts:
            pending = [asyncio.create_task(ts.click("@1")),
                       asyncio.create_task(ts.fill("@2", "x"))]
            await hub.wait_for_calls(2)
            await hub.drop_connections()
            outcomes = await asyncio.gather(*pending, return_exceptions=True)
        for outcome, tool in zip(outcomes, ("click", "fill"), strict=True):
            assert isinstance(outcome, errors.HubUnavailable)
            assert f"`{tool}` got no answer" in outcome.message
            assert "may or may not have run" in outcome.message

    run_with_hub(paths, scenario, on_call=never_answer)


def test_the_next_call_after_a_lost_connection_opens_a_new_one(paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        async def hang_up_on_the_first(request: dict[str, Any], reply: Reply) -> None:
            if len(hub.calls) == 1:
                await hub.drop_connections()
            else:
                await answer_text(request, reply)

        hub.on_call = hang_up_on_the_first
        async with Tabsteward(autostart=False) as ts:
            with pytest.raises(errors.HubUnavailable, match="`open` got no answer"):
                await ts.open("http://127.0.0.1/a")
            assert (await ts.open("http://127.0.0.1/b")).text == "open done"
        assert [c["args"]["url"] for c in hub.calls] == ["http://127.0.0.1/a",
                                                         "http://127.0.0.1/b"]
        assert len({r["token"] for r in hub.requests}) == 1
        assert [r["op"] for r in hub.requests] == ["whoami", "call", "whoami", "call"]

    run_with_hub(paths, scenario)


def test_a_connection_level_error_without_id_is_what_pending_calls_raise(
        paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        async def speak_up_and_hang_up(request: dict[str, Any], reply: Reply) -> None:
            await hub.send_all({"id": None, "ok": False, "error": {
                "code": 3, "type": "AuthError", "message": "token revoked; nothing was done"}})
            await hub.drop_connections()

        hub.on_call = speak_up_and_hang_up
        async with Tabsteward(autostart=False) as ts:
            with pytest.raises(errors.AuthError, match="token revoked"):
                await ts.back()

    run_with_hub(paths, scenario)


def test_no_hub_and_no_autostart_says_where_no_hub_answers(paths: Paths) -> None:
    async def scenario() -> None:
        with pytest.raises(errors.HubUnavailable) as caught:
            await Tabsteward.connect(autostart=False)
        assert caught.value.message == f"no hub answers at {paths.socket}"
        ts = Tabsteward(autostart=False)
        with pytest.raises(errors.HubUnavailable) as caught:
            await ts.open("http://127.0.0.1/")
        assert caught.value.message == f"`open` was not sent: no hub answers at {paths.socket}"

    asyncio.run(scenario())


def test_autostart_starts_a_hub_in_a_thread_then_connects(
        paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        hub = StandinHub(paths)
        started: list[str] = []

        def ensure_hub() -> None:
            started.append("yes")
            asyncio.run_coroutine_threadsafe(hub.start(), loop).result(timeout=10)

        fake = types.ModuleType("tabsteward.bridge.clients.autostart")
        fake.ensure_hub = ensure_hub  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "tabsteward.bridge.clients.autostart", fake)
        try:
            async with Tabsteward() as ts:
                assert (await ts.tabs()).text == "tabs done"
        finally:
            await hub.stop()
        assert started == ["yes"]

    asyncio.run(scenario())


def test_autostart_that_fails_raises_hub_unavailable(
        paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    def ensure_hub() -> None:
        raise errors.HubUnavailable("no browser could be launched; no hub was started")

    fake = types.ModuleType("tabsteward.bridge.clients.autostart")
    fake.ensure_hub = ensure_hub  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tabsteward.bridge.clients.autostart", fake)

    async def scenario() -> None:
        with pytest.raises(errors.HubUnavailable, match="no hub was started"):
            await Tabsteward.connect()

    asyncio.run(scenario())


def test_a_token_in_the_environment_that_the_hub_refuses_is_an_auth_error_without_pairing(
        paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABSTEWARD_TOKEN", "not-the-token")

    async def scenario(hub: StandinHub) -> None:
        with pytest.raises(errors.AuthError, match="does not accept the token in "
                                                   "TABSTEWARD_TOKEN"):
            await Tabsteward.connect(autostart=False)
        assert [r["op"] for r in hub.requests] == ["whoami"]  # the person was not asked

    run_with_hub(paths, scenario)


def test_a_keyring_that_cannot_be_read_is_refused_before_anything_is_sent(
        paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    def locked(name: str) -> str | None:
        raise credentials.TokenStoreError("the agent's token could not be read from the "
                                          "keyring: the keyring holding the token is locked")

    monkeypatch.delenv("TABSTEWARD_TOKEN")
    monkeypatch.setattr(credentials, "load", locked)

    async def scenario(hub: StandinHub) -> None:
        with pytest.raises(errors.AuthError, match=r"keyring.*nothing was sent"):
            await Tabsteward.connect(autostart=False)
        assert hub.requests == []

    run_with_hub(paths, scenario)


@pytest.mark.parametrize("kept", [None, "revoked-token"])
def test_an_unpaired_agent_asks_the_hub_to_pair_then_keeps_and_uses_its_new_token(
        paths: Paths, monkeypatch: pytest.MonkeyPatch, kept: str | None) -> None:
    name = "python3 in ~/src/shop"
    monkeypatch.delenv("TABSTEWARD_TOKEN")
    keyring: dict[str, str] = {} if kept is None else {name: kept}
    forgotten: list[str] = []
    monkeypatch.setattr(credentials, "load", keyring.get)
    monkeypatch.setattr(credentials, "save", keyring.__setitem__)
    monkeypatch.setattr(credentials, "forget", forgotten.append)

    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False, name=name) as ts:
            assert ts.hub["agent"] == AGENT
            assert (await ts.tabs()).text == "tabs done"
        assert [r["op"] for r in hub.requests] == ["whoami", "pair", "whoami", "call"]
        assert hub.requests[1]["name"] == name
        assert keyring == {name: "stand-in-paired-1"}
        assert {r["token"] for r in hub.requests[2:]} == {"stand-in-paired-1"}
        assert forgotten == ([] if kept is None else [name])

    run_with_hub(paths, scenario)


def test_a_cancelled_call_leaves_the_connection_usable(paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        held: list[Reply] = []

        async def hold_first(request: dict[str, Any], reply: Reply) -> None:
            if request["tool"] == "wait":
                held.append(reply)
            else:
                await reply({"ok": True, "text": "ok", "result": {}})

        hub.on_call = hold_first
        async with Tabsteward(autostart=False) as ts:
            waiting = asyncio.create_task(ts.wait("@1"))
            await hub.wait_for_calls(1)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            await held[0]({"ok": True, "text": "late", "result": {}})  # nobody awaits it now
            assert (await ts.reload()).text == "ok"

    run_with_hub(paths, scenario)


def test_a_closed_client_sends_nothing(paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        ts = await Tabsteward.connect(autostart=False)
        await ts.close()
        with pytest.raises(errors.UsageError, match="`forward` was not sent"):
            await ts.forward()
        assert hub.calls == []

    run_with_hub(paths, scenario)


def test_convenience_methods_leave_out_none_and_shape_lists(paths: Paths) -> None:
    async def scenario(hub: StandinHub) -> None:
        async with Tabsteward(autostart=False) as ts:
            await ts.snapshot(interactive=True)
            await ts.select("@4", "red")
            await ts.click("@5", modifiers=("Shift",))
            await ts.press("Enter")
        assert [(c["tool"], c["args"]) for c in hub.calls] == [
            ("snapshot", {"interactive": True, "viewport": False}),
            ("select", {"target": "@4", "values": ["red"]}),
            ("click", {"target": "@5", "button": "left", "count": 1, "modifiers": ["Shift"]}),
            ("press", {"keys": "Enter"}),
        ]

    run_with_hub(paths, scenario)


CONVENIENCE = ("open", "snapshot", "click", "fill", "type", "press", "select", "check",
               "uncheck", "hover", "scroll", "wait", "screenshot", "download", "upload", "tabs",
               "tab_new",
               "tab_select", "tab_close", "back", "forward", "reload", "text", "eval")


def test_convenience_methods_match_the_tool_table() -> None:
    registry = pytest.importorskip("tabsteward.bridge.tools.registry")
    try:
        table = registry.table()
    except ImportError as exc:
        pytest.skip(f"the tool table is not importable yet: {exc}")
    mismatches: list[str] = []
    for name in CONVENIENCE:
        tool = table.get(name.replace("_", "-"))
        if tool is None:
            mismatches.append(f"{name}: no such tool")
            continue
        method = getattr(Tabsteward, name)
        sig = inspect.signature(method)
        params = {p for p in sig.parameters if p != "self"}
        hints = typing.get_type_hints(method)
        for param in tool.params:
            if param.choices and param.name in params:
                mismatches += [f"{name}: {param.name} allows {c!r}, which the tool refuses"
                               for c in _literals(hints[param.name]) if c not in param.choices]
        known = {p.name for p in tool.params}
        mismatches += [f"{name}: the tool has no parameter {p}" for p in sorted(params - known)]
        required = {p.name for p in tool.params if p.required}
        without_default = {p for p in params
                           if sig.parameters[p].default is inspect.Parameter.empty}
        mismatches += [f"{name}: {p} is required by the tool but has a default here"
                       for p in sorted(required - without_default)]
    assert mismatches == []


def _literals(annotation: Any) -> list[str]:
    """The strings a resolved annotation such as `Literal["a", "b"] | None` allows."""
    found: list[str] = []
    stack = [annotation]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        stack.extend(typing.get_args(item))
    return found


def test_the_real_local_server_accepts_what_the_sdk_sends_as_its_paired_agent(
        paths: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    server_module = pytest.importorskip("tabsteward.bridge.hub.server")
    monkeypatch.setenv("TABSTEWARD_TOKEN", pair(paths.env, "real-test"))
    seen: list[dict[str, Any]] = []
    principals: set[str | None] = set()

    async def handler(request: dict[str, Any]) -> dict[str, Any]:
        seen.append(request)
        principal = context.principal.get()
        principals.add(principal.id if principal else None)
        if request["op"] == "whoami":
            return {"ok": True, "version": "test", "pid": os.getpid(),
                    "agent": principal.id if principal else None}
        if request["op"] == "tools":
            return {"ok": True, "tools": []}
        if request["args"].get("target") == "@9":
            raise errors.RefNotFound("no element matches @9; nothing was clicked")
        return {"ok": True, "text": f"{request['tool']} by {request['agent']}", "result": {}}

    async def scenario() -> None:
        server = server_module.LocalServer(handler)
        await server.start()
        try:
            async with Tabsteward(agent="real-test", autostart=False) as ts:
                assert ts.hub["agent"] == "real-test"
                assert await ts.list_tools() == []
                results = await asyncio.gather(ts.click("@1"), ts.hover("@2"))
                with pytest.raises(errors.RefNotFound, match="no element matches @9"):
                    await ts.click("@9")
        finally:
            await server.close()
        assert [r.text for r in results] == ["click by real-test", "hover by real-test"]
        assert [r["op"] for r in seen] == ["whoami", "tools", "call", "call", "call"]
        assert principals == {"real-test"}

    asyncio.run(scenario())
