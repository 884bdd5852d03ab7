"""`tabsteward mcp` driven by the mcp package's own stdio client, against a stand-in hub."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import Implementation, TextContent
from standin_hub import TOKEN, TOOLS, Paths, Reply, StandinHub
from tabsteward.bridge.hub.protocol import DEFAULT_AGENT

pytestmark = pytest.mark.timeout(60)

CLIENT = "test-agent"
MODES = ["legacy", "auto"]  # the initialize handshake, and the 2026 per-request envelope

SNAPSHOT = ('- heading "Café ☕ menu" [level=1]\n'
            '  - link "Ünïcode, \\"quoted\\"" @3 loc=role=link[name="x"]\n'
            "\n"
            "   trailing spaces   \n"
            "\t- textbox (multi-line) @12\n")


def server_command() -> list[str]:
    """`python -m tabsteward.bridge mcp` once the CLI exists, else main() directly."""
    if importlib.util.find_spec("tabsteward.bridge.__main__") is not None:
        return ["-m", "tabsteward.bridge", "mcp"]
    return ["-c", "from tabsteward.bridge.mcp.server import main; raise SystemExit(main())"]


def run_session(paths: Paths, scenario: Callable[[Client], Awaitable[None]], *,
                hub: StandinHub | None, mode: str = "legacy",
                env: dict[str, str] | None = None) -> str:
    """Run `scenario` against a real `tabsteward mcp` process; return what it logged."""
    params = StdioServerParameters(
        command=sys.executable, args=server_command(), cwd=paths.env["HOME"],
        env={**paths.env, "TABSTEWARD_NO_AUTOSTART": "1", **(env or {})})
    log_path = os.path.join(paths.root, "mcp.stderr")

    async def main() -> None:
        if hub is not None:
            await hub.start()
        try:
            with open(log_path, "w", encoding="utf-8") as errlog:
                transport = stdio_client(params, errlog=errlog)
                async with Client(transport, client_info=Implementation(name=CLIENT, version="1"),
                                  mode=mode) as client:
                    await scenario(client)
        finally:
            if hub is not None:
                await hub.stop()

    try:
        asyncio.run(main())
    finally:
        with open(log_path, encoding="utf-8") as f:
            logged = f.read()
        print(logged)  # shown by pytest when the test fails
    assert "Traceback" not in logged
    return logged


@pytest.mark.parametrize("mode", MODES)
def test_the_hub_tools_are_listed_with_their_schemas_and_hints(paths: Paths, mode: str) -> None:
    async def scenario(client: Client) -> None:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == [t["name"] for t in TOOLS]
        for tool, hub_tool in zip(listed, TOOLS, strict=True):
            assert tool.input_schema == hub_tool["inputSchema"]
            assert tool.description == hub_tool["summary"]
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is (not hub_tool["mutating"])
            assert tool.annotations.destructive_hint is hub_tool["mutating"]

    run_session(paths, scenario, hub=StandinHub(paths), mode=mode)


PERSON_TOOLS: list[dict[str, Any]] = [
    {"name": name, "summary": f"The person's {name}.", "mutating": True, "group": "person",
     "inputSchema": {"type": "object", "properties": {}, "required": [],
                     "additionalProperties": False}}
    for name in ("approvals", "approve", "deny", "grants", "revoke", "agents", "unpair",
                 "activity")]


def test_the_persons_tools_are_neither_offered_nor_run_for_an_agent(paths: Paths) -> None:
    hub = StandinHub(paths, tools=TOOLS + PERSON_TOOLS)

    async def scenario(client: Client) -> None:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == [t["name"] for t in TOOLS]
        for tool in PERSON_TOOLS:
            result = await client.call_tool(tool["name"], {})
            assert result.is_error
            assert result.content == [TextContent(
                text=f"{tool['name']} is for the person, not for agents; nothing was done")]

    run_session(paths, scenario, hub=hub)
    assert hub.calls == []


@pytest.mark.parametrize("mode", MODES)
def test_a_call_returns_the_hub_text_exactly_as_the_clis_default_agent(
        paths: Paths, mode: str) -> None:
    async def snapshot_text(request: dict[str, Any], reply: Reply) -> None:
        await reply({"ok": True, "text": SNAPSHOT, "result": {"refs": {"@3": {}}}})

    hub = StandinHub(paths, on_call=snapshot_text)

    async def scenario(client: Client) -> None:
        result = await client.call_tool("snapshot", {"interactive": True})
        assert not result.is_error
        assert result.content == [TextContent(text=SNAPSHOT)]

    run_session(paths, scenario, hub=hub, mode=mode)
    [call] = hub.calls
    assert call["token"] == TOKEN  # the paired agent's, from TABSTEWARD_TOKEN
    assert call["tool"] == "snapshot"
    assert call["args"] == {"interactive": True}
    assert call["agent"] == DEFAULT_AGENT
    assert call["cwd"] == os.path.realpath(paths.env["HOME"])


def test_tabsteward_agent_overrides_the_default_agent(paths: Paths) -> None:
    hub = StandinHub(paths)

    async def scenario(client: Client) -> None:
        result = await client.call_tool("click", {"target": "@3"})
        assert result.content == [TextContent(text="click done\n")]  # as the CLI prints it

    run_session(paths, scenario, hub=hub, env={"TABSTEWARD_AGENT": "night-shift"})
    assert [c["agent"] for c in hub.calls] == ["night-shift"]


@pytest.mark.parametrize("mode", MODES)
def test_a_hub_error_becomes_an_is_error_result_with_its_message(
        paths: Paths, mode: str) -> None:
    async def refuse(request: dict[str, Any], reply: Reply) -> None:
        await reply({"ok": False, "error": {
            "code": 22, "type": "TargetCovered",
            "message": "@3 is covered by dialog \"Cookies\"; nothing was clicked"}})

    async def scenario(client: Client) -> None:
        result = await client.call_tool("click", {"target": "@3"})
        assert result.is_error
        assert result.content == [
            TextContent(text="@3 is covered by dialog \"Cookies\"; nothing was clicked")]

    run_session(paths, scenario, hub=StandinHub(paths, on_call=refuse), mode=mode)


def test_a_token_the_hub_refuses_is_named_and_no_pairing_is_asked(paths: Paths) -> None:
    hub = StandinHub(paths)

    async def scenario(client: Client) -> None:
        with pytest.raises(MCPError) as caught:
            await client.list_tools()
        assert "does not accept the token in TABSTEWARD_TOKEN" in caught.value.message

    run_session(paths, scenario, hub=hub, env={"TABSTEWARD_TOKEN": "revoked-token"})
    assert {r["op"] for r in hub.requests} == {"whoami"}


def test_a_hub_that_is_down_gives_a_clear_error(paths: Paths) -> None:
    async def scenario(client: Client) -> None:
        with pytest.raises(MCPError) as caught:
            await client.list_tools()
        assert caught.value.message.startswith(
            f"Tabsteward listed no tools: no hub answers at {paths.socket}.")
        result = await client.call_tool("open", {"url": "http://127.0.0.1/"})
        assert result.is_error
        assert result.content == [
            TextContent(text=f"`open` was not sent: no hub answers at {paths.socket}")]

    logged = run_session(paths, scenario, hub=None)
    assert "no hub answers" in logged


def test_the_tools_are_listed_once_the_hub_comes_up(paths: Paths) -> None:
    hub = StandinHub(paths)

    async def scenario(client: Client) -> None:
        with pytest.raises(MCPError):
            await client.list_tools()
        await hub.start()
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == [t["name"] for t in TOOLS]
        await hub.stop()

    run_session(paths, scenario, hub=None)


def test_stdout_carries_only_json_rpc_for_a_plain_2025_06_18_client(paths: Paths) -> None:
    """What a hand-written client (like the benchmark's) sees: one JSON-RPC message a line."""
    hub = StandinHub(paths)
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "plain-client", "version": "0.1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "snapshot", "arguments": {"interactive": False}}},
    ]

    async def main() -> list[dict[str, Any]]:
        await hub.start()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, *server_command(), cwd=paths.env["HOME"],
                env={**os.environ, **paths.env, "TABSTEWARD_NO_AUTOSTART": "1"},
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL)
            assert proc.stdin is not None
            assert proc.stdout is not None
            for request in requests:
                proc.stdin.write(json.dumps(request).encode() + b"\n")
            await proc.stdin.drain()
            replies = []
            while len(replies) < 3:
                line = await proc.stdout.readline()
                assert line, "the server closed stdout early"
                replies.append(json.loads(line))
            proc.stdin.close()
            rest = await proc.stdout.read()
            assert await proc.wait() == 0
        finally:
            await hub.stop()
        assert rest == b""
        return replies

    replies = asyncio.run(main())
    assert all(r["jsonrpc"] == "2.0" for r in replies)
    by_id = {r["id"]: r for r in replies}
    assert by_id[1]["result"]["protocolVersion"] == "2025-06-18"
    assert by_id[1]["result"]["serverInfo"]["name"] == "tabsteward"
    assert [t["name"] for t in by_id[2]["result"]["tools"]] == [t["name"] for t in TOOLS]
    assert by_id[2]["result"]["tools"][0]["annotations"] == {"readOnlyHint": False,
                                                             "destructiveHint": True}
    assert by_id[3]["result"]["content"] == [{"type": "text", "text": "snapshot done\n"}]
    assert by_id[3]["result"]["isError"] is False
    assert hub.calls[0]["agent"] == DEFAULT_AGENT
