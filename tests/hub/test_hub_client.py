"""The lean CLI client: what it imports, its JSON, and its framing against the real server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
from hub_env import agent_token
from tabsteward.bridge.clients import client
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.records import locate

HEAVY = {"json", "socket", "re", "asyncio", "enum", "argparse", "pathlib", "typing",
         "logging", "subprocess"}


def test_lean_client_imports_no_heavy_module() -> None:
    code = ("import sys; before = set(sys.modules); import tabsteward.bridge.cli; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True,
                         text=True, check=True)
    added = set(out.stdout.split())
    assert "tabsteward.bridge.clients.client" in added
    assert not added & HEAVY, f"the CLI path imports {sorted(added & HEAVY)}"
    allowed = {"__future__", "_json", "_socket", "tabsteward", "tabsteward.bridge",
               "tabsteward.bridge.cli", "tabsteward.bridge.clients.client",
               "tabsteward.bridge.clients", "tabsteward.bridge.secrets",
               "tabsteward.bridge.secrets.credentials", "tabsteward.bridge.records",
               "tabsteward.bridge.records.locate"}
    assert added <= allowed, f"unexpected imports: {sorted(added - allowed)}"
    # -X importtime lists every module the statement imported, after site's own
    timed = out.stderr.split("| site\n", 1)[-1]
    names = {line.rsplit("|", 1)[-1].strip() for line in timed.splitlines() if "|" in line}
    assert not names & HEAVY


SAMPLES: list[Any] = [
    {"op": "cli", "argv": ["type", "@1", "héllo \u2603 \"q\" \\ \n\t\x00"], "id": 1},
    {"n": [0, -5, 2**70, 1.5, -0.0, 1e300, True, False, None], "": {}},
    ["\ud800 lone surrogate", "\U0001f600"],
]


@pytest.mark.parametrize("value", SAMPLES)
def test_client_json_reads_back_as_python_json_does(value: Any) -> None:
    text = client.dumps(value)
    assert json.loads(text) == value
    assert client.loads(json.dumps(value, ensure_ascii=False)) == value


@pytest.mark.parametrize("bad", [float("nan"), {1: "x"}, {"a": object()}])
def test_client_json_refuses_what_json_cannot_carry(bad: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        client.dumps(bad)


@pytest.mark.parametrize("text", ["", "{", '{"a": 1} x', "nul", '{"a": 1}{"b": 2}'])
def test_client_refuses_a_reply_that_is_not_one_json_value(text: str) -> None:
    with pytest.raises(ValueError, match="reply"):
        client.loads(text)


def test_client_says_no_hub_when_the_socket_is_missing() -> None:
    with pytest.raises(client.NoHub, match="no hub listens"):
        client.request({"op": "ping"})
    assert client.ping() is False


def test_client_round_trips_unicode_through_the_real_server() -> None:
    async def echo(request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "argv": request["argv"]}

    words = ["open", "https://example.test/é?q=\u2603", "\U0001f600", "x" * 200_000]

    async def scenario() -> dict[str, object]:
        server = LocalServer(echo)
        await server.start()
        try:
            return await asyncio.to_thread(
                client.request, {"op": "cli", "argv": words, "cwd": "/", "id": 5}, None,
                agent_token())
        finally:
            await server.close()

    reply = asyncio.run(scenario())
    assert reply == {"ok": True, "argv": words, "id": 5}


async def _echo_ok(request: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True}


def ask(message: dict[str, object], token: str | None = None) -> dict[str, object]:
    """One request to a real server on the test's socket (its own token file when
    `token` is None)."""
    async def scenario() -> dict[str, object]:
        server = LocalServer(_echo_ok)
        await server.start()
        try:
            assert locate.read_token() == server.token
            given = server.token if token is None else token
            return await asyncio.to_thread(client.request, message, None, given)
        finally:
            await server.close()
    return asyncio.run(scenario())


def unpaired_refusal(reply: dict[str, object]) -> bool:
    error = reply["error"]
    assert reply["ok"] is False
    assert isinstance(error, dict)
    return (error["code"], error["type"], error["details"]) == (
        3, "AuthError", {"unpaired": True})


@pytest.mark.parametrize("token", ["old-token", ""])
def test_client_with_a_stale_or_no_token_gets_the_hubs_unpaired_auth_error(token: str) -> None:
    assert unpaired_refusal(ask({"op": "tools"}, token))


def test_client_with_the_hubs_token_file_is_no_agent() -> None:
    assert unpaired_refusal(ask({"op": "call", "tool": "tabs"}))  # the native host's token


def test_client_ping_finds_a_hub_without_any_token() -> None:
    async def scenario() -> tuple[bool, dict[str, object]]:
        server = LocalServer(_echo_ok)
        await server.start()
        try:
            found = await asyncio.to_thread(client.ping)
            reply = await asyncio.to_thread(client.request, {"op": "ping", "id": 1})
            return found, reply
        finally:
            await server.close()

    found, reply = asyncio.run(scenario())
    assert found is True
    assert reply == {"ok": True, "id": 1}
