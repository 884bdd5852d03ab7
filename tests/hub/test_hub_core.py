"""The Hub's ops and life cycle, with a stand-in browser and the tiny tool table.

The real engine and tools are driven end to end in test_hub_e2e.py.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from hub_env import agent_token
from hub_tables import SECRET, make_table
from tabsteward.bridge.clients import client
from tabsteward.bridge.hub.core import Hub, session_name
from tabsteward.bridge.hub.pool import BrowserPool
from tabsteward.bridge.hub.server import LocalServer

T = TypeVar("T")


class StandInSession:
    def __init__(self, agent: str) -> None:
        self.agent = agent


class StandInBrowser:
    """What the Hub uses of a Browser: sessions by agent, `closed`, `close()`."""

    def __init__(self) -> None:
        self.closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.sessions: dict[str, StandInSession] = {}
        self.close_calls = 0
        self.allow_eval = False

    def session(self, agent: str, principal: str | None = None) -> StandInSession:
        return self.sessions.setdefault(agent, StandInSession(agent))

    async def close(self) -> None:
        self.close_calls += 1

    def show_agents(self) -> None:
        pass


def run(coro: Coroutine[Any, Any, T]) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(30):
            return await coro
    return asyncio.run(bounded())


def make_hub(**kwargs: Any) -> tuple[Hub, StandInBrowser]:
    browser = StandInBrowser()
    pool = BrowserPool(primary=browser)  # type: ignore[arg-type]
    hub = Hub(pool, tools=make_table(), log_path="/logs/hub.log", **kwargs)
    return hub, browser


def cli(*argv: str, agent: str | None = None) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        hub, _ = make_hub()
        request: dict[str, Any] = {"op": "cli", "argv": list(argv), "cwd": "/work"}
        if agent:
            request["agent"] = agent
        return await hub.execute(request)
    return run(go())


def call(tool: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        hub, _ = make_hub()
        return await hub.execute({"op": "call", "tool": tool, "args": args, **extra})
    return run(go())


def test_call_runs_the_tool_with_defaults_filled() -> None:
    reply = call("echo", {"text": "hi"}, agent="sdk", cwd="/home/me")
    assert reply["ok"] is True
    assert reply["text"] == "echo hi"
    result = reply["result"]
    assert result["agent"] == "sdk"
    assert result["cwd"] == "/home/me"
    assert result["args"]["times"] == 1
    assert result["args"]["tab"] is None


def test_call_without_agent_uses_the_default_agent() -> None:
    assert call("echo", {"text": "x"})["result"]["agent"] == "default"


def test_call_with_an_unknown_argument_is_refused_before_the_tool_runs() -> None:
    reply = call("boom", {"force": True})
    assert reply["ok"] is False
    assert reply["error"]["type"] == "UsageError"
    assert "has no argument force" in reply["error"]["message"]


def test_call_of_an_unknown_tool_suggests_a_close_name() -> None:
    reply = call("ech", {})
    assert "did you mean echo" in reply["error"]["message"]


def test_tool_error_is_reported_with_its_code() -> None:
    reply = call("miss", {})
    assert reply == {"ok": False, "error": {"code": 20, "type": "TargetError",
                                            "message": "no element matches @9; nothing was "
                                                       "clicked"}}


def test_internal_error_hides_its_details_and_names_the_log() -> None:
    reply = call("boom", {})
    assert reply["ok"] is False
    assert reply["error"] == {"code": 1, "type": "TabstewardError", "message":
                              "internal error in boom; nothing more was done; see the hub "
                              "log at /logs/hub.log"}


def test_cli_prints_the_tool_text_and_exits_zero() -> None:
    reply = cli("echo", "hello", "-n", "2")
    assert reply == {"ok": True, "exit": 0, "stdout": "echo hello\n", "stderr": ""}


def test_cli_json_prints_the_result_data_as_is() -> None:
    reply = cli("snapshot", "-i", "--json")
    assert reply["exit"] == 0
    assert json.loads(reply["stdout"]) == {"text": "- button \"OK\" @1",
                                           "refs": {"1": {"role": "button", "name": "OK"}}}


def test_cli_usage_error_exits_2_with_the_message_on_stderr() -> None:
    reply = cli("echo")
    assert reply["ok"] is False
    assert reply["exit"] == 2
    assert reply["stdout"] == ""
    assert reply["stderr"].startswith("error: echo needs TEXT")


def test_cli_tool_error_exits_with_its_exit_code() -> None:
    reply = cli("miss")
    assert (reply["exit"], reply["stderr"]) == (6, "error: no element matches @9; nothing "
                                                   "was clicked\n")


def test_cli_json_error_prints_the_error_object() -> None:
    reply = cli("miss", "--json")
    assert reply["exit"] == 6
    assert reply["stderr"] == ""
    assert json.loads(reply["stdout"]) == {"ok": False, "error": {
        "code": 20, "type": "TargetError", "message": "no element matches @9; nothing was "
                                                      "clicked"}}


def test_cli_internal_error_exits_1_without_details() -> None:
    reply = cli("boom")
    assert reply["exit"] == 1
    assert SECRET not in reply["stderr"]
    assert "internal error in boom" in reply["stderr"]


def test_cli_agent_option_beats_the_request_agent_and_tab_reaches_the_tool() -> None:
    data = json.loads(cli("echo", "x", "--json", "--agent", "a2", "--tab", "t4",
                          agent="env-agent")["stdout"])
    assert data["agent"] == "a2"
    assert data["args"]["tab"] == "t4"
    assert data["cwd"] == "/work"
    assert json.loads(cli("echo", "x", "--json", agent="env-agent")["stdout"])["agent"] \
        == "env-agent"


def test_cli_help_comes_from_the_table() -> None:
    assert "Say the text back" in cli("--help")["stdout"]
    reply = cli("echo", "--help")
    assert reply["exit"] == 0
    assert reply["stdout"].startswith("usage: tabsteward echo TEXT")


def test_ping_reports_version_and_pid() -> None:
    async def go() -> dict[str, Any]:
        return await make_hub()[0].execute({"op": "ping"})
    reply = run(go())
    assert reply["ok"] is True
    assert reply["pid"] == os.getpid()
    assert reply["version"]


def test_tools_op_lists_every_tool_as_json_schema() -> None:
    async def go() -> dict[str, Any]:
        return await make_hub()[0].execute({"op": "tools"})
    tools = run(go())["tools"]
    assert [t["name"] for t in tools] == list(make_table())
    echo = tools[0]
    assert echo["inputSchema"]["required"] == ["text"]
    assert set(echo["inputSchema"]["properties"]) == {"text", "times", "ratio", "loud", "mode",
                                                      "tags", "tab"}


def test_shutdown_asks_the_person_and_stops_the_hub_cleanly_once_they_allow_it() -> None:
    async def go() -> tuple[int, dict[str, object], StandInBrowser, LocalServer, str]:
        hub, browser = make_hub()
        server = LocalServer(hub.execute)
        await server.start()
        running = asyncio.create_task(hub.run(server))
        asked = asyncio.create_task(asyncio.to_thread(
            client.request, {"op": "shutdown"}, None, agent_token()))
        while not hub.approvals.open():
            await asyncio.sleep(0.01)
        [q] = hub.approvals.open()
        assert not running.done()  # nothing stops before the person says so
        hub.approvals.settle(q, True, by="person (tray)")
        reply = await asked
        return await running, reply, browser, server, q.summary

    code, reply, browser, server, summary = run(go())
    assert summary == "stop the Tabsteward hub"
    assert reply == {"ok": True}
    assert code == 0
    assert browser.close_calls == 1
    assert not os.path.exists(server.socket_path)
    assert not os.path.exists(server.token_path)


def test_an_agents_shutdown_the_person_denies_leaves_the_hub_running() -> None:
    # the attack: stop the person's hub, to start one with a policy of the agent's own
    async def go() -> tuple[dict[str, object], bool]:
        hub, _ = make_hub()
        server = LocalServer(hub.execute)
        await server.start()
        running = asyncio.create_task(hub.run(server))
        asked = asyncio.create_task(asyncio.to_thread(
            client.request, {"op": "shutdown"}, None, agent_token()))
        while not hub.approvals.open():
            await asyncio.sleep(0.01)
        [q] = hub.approvals.open()
        hub.approvals.settle(q, False, by="person (tray)")
        reply = await asked
        await asyncio.sleep(0.1)
        still = not running.done()
        hub.stop("test over")
        await running
        return reply, still

    reply, still_running = run(go())
    assert reply["ok"] is False
    assert "did not confirm" in str(reply["error"])
    assert still_running


def test_idle_hub_stops_itself() -> None:
    async def go() -> tuple[int, StandInBrowser]:
        hub, browser = make_hub(idle_timeout=0.05)
        server = LocalServer(hub.execute)
        await server.start()
        return await hub.run(server), browser

    code, browser = run(go())
    assert code == 0
    assert browser.close_calls == 1


def test_idle_hub_stays_up_while_a_client_keeps_its_connection_open() -> None:
    async def go() -> tuple[bool, int]:
        hub, _ = make_hub(idle_timeout=0.05)
        server = LocalServer(hub.execute)
        await server.start()
        running = asyncio.create_task(hub.run(server))
        _reader, writer = await asyncio.open_unix_connection(server.socket_path)
        # several idle timeouts pass while the connection stays open
        done, _ = await asyncio.wait({running}, timeout=0.4)
        still_up = not done
        writer.close()
        await writer.wait_closed()
        return still_up, await asyncio.wait_for(running, 10)

    still_up, code = run(go())
    assert still_up
    assert code == 0


def test_hub_that_loses_its_browser_exits_non_zero() -> None:
    async def go() -> tuple[int, LocalServer]:
        hub, browser = make_hub()
        server = LocalServer(hub.execute)
        await server.start()
        browser.closed.set_result("the browser process exited")
        return await hub.run(server), server

    code, server = run(go())
    assert code != 0
    assert not os.path.exists(server.socket_path)


def test_stop_signal_path_stops_with_status_0() -> None:
    async def go() -> int:
        hub, _ = make_hub()
        server = LocalServer(hub.execute)
        await server.start()
        asyncio.get_running_loop().call_soon(hub.stop, "got SIGTERM")
        return await hub.run(server)

    assert run(go()) == 0


@pytest.mark.parametrize("argv", [["tabs"], ["snapshot", "-i"]])
def test_cli_reply_always_has_exit_stdout_and_stderr(argv: list[str]) -> None:
    reply = cli(*argv)
    assert set(reply) >= {"ok", "exit", "stdout", "stderr"}


def served(*requests: dict[str, Any], token: str | None = None) -> list[dict[str, Any]]:
    """The replies of a Hub behind a real LocalServer to requests sent one by one as the
    paired test agent (or with `token`)."""
    async def go() -> list[dict[str, Any]]:
        hub, _ = make_hub()
        server = LocalServer(hub.execute)
        await server.start()
        try:
            given = agent_token() if token is None else token
            return [await asyncio.to_thread(client.request, r, None, given) for r in requests]
        finally:
            await server.close()
    return run(go())


def test_whoami_names_the_paired_agent_and_the_hub() -> None:
    [reply] = served({"op": "whoami"})
    assert reply == {"ok": True, "version": reply["version"], "pid": os.getpid(),
                     "agent": "tests", "name": "tests"}
    assert reply["version"]


def test_whoami_and_tool_calls_are_refused_to_an_agent_that_is_not_paired() -> None:
    for request in ({"op": "whoami"}, {"op": "call", "tool": "echo", "args": {"text": "x"}}):
        [reply] = served(request, token="never-paired")
        assert reply["ok"] is False
        assert reply["error"]["code"] == 3
        assert reply["error"]["details"] == {"unpaired": True}


def test_a_paired_agents_calls_use_its_own_session_or_one_it_names() -> None:
    replies = served(
        {"op": "call", "tool": "echo", "args": {"text": "x"}},
        {"op": "call", "tool": "echo", "args": {"text": "x"}, "agent": "default"},
        {"op": "call", "tool": "echo", "args": {"text": "x"}, "agent": "shopper"},
        {"op": "cli", "argv": ["echo", "x", "--json", "--agent", "shopper"], "cwd": "/"})
    agents = [r["result"]["agent"] for r in replies[:3]]
    assert agents == ["tests", "tests", "tests/shopper"]
    assert json.loads(replies[3]["stdout"])["agent"] == "tests/shopper"


@pytest.mark.parametrize(("principal", "label", "session"), [
    (None, None, "default"), (None, "shopper", "shopper"),
    ("tests", None, "tests"), ("tests", "default", "tests"), ("tests", "tests", "tests"),
    ("tests", "shopper", "tests/shopper"), ("tests", "x" * 64, "tests/" + "x" * 58)])
def test_session_name_is_the_paired_agents_id_then_its_label(
        principal: str | None, label: str | None, session: str) -> None:
    assert session_name(principal, label) == session
