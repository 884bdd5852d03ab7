"""The local API server on real Unix sockets, with a stand-in executor instead of the hub:
who may connect and what each may ask (frames, errors and the socket's life:
test_hub_socket.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from typing import Any

import pytest
from hub_env import agent_token
from server_peer import Peer, ping, run, serving, tools
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.native import framing
from tabsteward.bridge.records import context, locate
from tabsteward.bridge.records.agents import Agents

# every op that needs a paired agent's token, as a request that is otherwise well formed
AGENT_OPS: list[dict[str, Any]] = [
    {"op": "tools"}, {"op": "whoami"},
    {"op": "call", "tool": "click", "args": {"target": "@1"}},
    {"op": "cli", "argv": ["tabs"], "cwd": "/"},
]


def test_the_refusal_tests_cover_every_op_that_is_not_open() -> None:
    assert {m["op"] for m in AGENT_OPS} == set(protocol.OPS) - protocol.OPEN_OPS


def refused_as_unpaired(reply: dict[str, Any], rid: int) -> None:
    assert reply["ok"] is False
    assert reply["id"] == rid
    assert reply["error"]["type"] == "AuthError"
    assert reply["error"]["code"] == 3
    assert reply["error"]["details"] == {"unpaired": True}
    assert "nothing was done" in reply["error"]["message"]


def test_authenticated_request_reaches_the_executor_without_its_token() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(tools(id="a1"))
            [reply] = await peer.replies(1)
            assert reply == {"ok": True, "echo": {"op": "tools"}, "id": "a1"}
            await peer.close()
    run(scenario())


def test_ping_and_pair_are_answered_without_a_token() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(ping(id=1))
            peer.send({"op": "pair", "name": "Claude Code in ~/shop", "id": 2})
            replies = {r["id"]: r for r in await peer.replies(2)}
            assert replies[1] == {"ok": True, "echo": {"op": "ping"}, "id": 1}
            assert replies[2] == {"ok": True, "echo": {"op": "pair",
                                                       "name": "Claude Code in ~/shop"},
                                  "id": 2}
            peer.send(tools(id=3))  # the connection stays open for what follows
            assert (await peer.replies(1))[0]["ok"] is True
            await peer.close()
    run(scenario())


def test_the_executor_learns_which_paired_agent_sent_each_request() -> None:
    seen: list[tuple[str, str | None]] = []

    async def who(request: dict[str, Any]) -> dict[str, Any]:
        principal = context.principal.get()
        seen.append((request["op"], principal.id if principal else None))
        return {"ok": True}

    async def scenario() -> None:
        async with serving(who):
            peer = await Peer.open()
            peer.send(tools(id=1))
            await peer.replies(1)
            peer.send(ping(id=2))
            await peer.replies(1)
            await peer.close()
    run(scenario())
    assert seen == [("tools", "tests"), ("ping", None)]


def test_socket_token_and_folder_are_private_to_the_user() -> None:
    async def scenario() -> None:
        async with serving() as server:
            folder = os.path.dirname(server.socket_path)
            assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
            assert stat.S_IMODE(os.stat(server.socket_path).st_mode) == 0o600
            assert stat.S_IMODE(os.stat(server.token_path).st_mode) == 0o600
            assert locate.read_token() == server.token
    run(scenario())


@pytest.mark.parametrize("request_", AGENT_OPS, ids=[m["op"] for m in AGENT_OPS])
@pytest.mark.parametrize("token", ["wrong", None, 42, "é", "", "x" * 257])
def test_request_with_wrong_or_missing_token_is_refused_as_unpaired_and_connection_closed(
        token: Any, request_: dict[str, Any]) -> None:
    calls: list[dict[str, Any]] = []

    async def record(request: dict[str, Any]) -> dict[str, Any]:
        calls.append(request)
        return {"ok": True}

    async def scenario() -> None:
        async with serving(record):
            peer = await Peer.open()
            message: dict[str, Any] = {**request_, "id": 3}
            if token is not None:
                message["token"] = token
            peer.send(message)
            peer.send(tools(id=4))  # even a good request after it goes unread
            [reply] = await peer.replies(1)
            refused_as_unpaired(reply, 3)
            assert await peer.closed_by_server()
    run(scenario())
    assert calls == []


@pytest.mark.parametrize("request_", AGENT_OPS, ids=[m["op"] for m in AGENT_OPS])
def test_the_native_hosts_token_is_refused_for_every_op_but_extension(
        request_: dict[str, Any]) -> None:
    calls: list[dict[str, Any]] = []

    async def record(request: dict[str, Any]) -> dict[str, Any]:
        calls.append(request)
        return {"ok": True}

    async def scenario() -> None:
        async with serving(record) as server:
            assert locate.read_token() == server.token  # what any local process could read
            peer = await Peer.open()
            peer.send({**request_, "token": server.token, "id": 5})
            [reply] = await peer.replies(1)
            refused_as_unpaired(reply, 5)
            assert await peer.closed_by_server()
    run(scenario())
    assert calls == []


def test_an_agent_unpaired_while_the_hub_runs_is_refused_from_its_next_request() -> None:
    async def scenario() -> None:
        async with serving():
            before = await Peer.open()
            before.send(tools(id=1))
            assert (await before.replies(1))[0]["ok"] is True
            Agents().revoke("tests")  # as `tabsteward unpair tests` does, in another process
            before.send(tools(id=2))
            refused_as_unpaired((await before.replies(1))[0], 2)
            assert await before.closed_by_server()
    run(scenario())


def test_an_agent_paired_while_the_hub_runs_is_let_in() -> None:
    async def scenario() -> None:
        async with serving():
            token = Agents().add("Codex in ~/src/shop")[1]
            peer = await Peer.open()
            peer.send({"op": "tools", "token": token, "id": 1})
            assert (await peer.replies(1))[0] == {"ok": True, "echo": {"op": "tools"}, "id": 1}
            await peer.close()
    run(scenario())


@pytest.mark.parametrize("origin_key", ["origin", "Origin"])
def test_request_with_browser_origin_is_refused(origin_key: str) -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(ping(**{origin_key: "https://evil.example"}))
            [reply] = await peer.replies(1)
            assert reply["error"]["type"] == "AuthError"
            assert "web page" in reply["error"]["message"]
            assert await peer.closed_by_server()
    run(scenario())


@pytest.mark.parametrize("start", [b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                                   b"POST /api HTTP/1.1\r\nOrigin: https://evil\r\n\r\n{}",
                                   b"OPTIONS * HTTP/1.1\r\n\r\n"])
def test_http_request_from_a_browser_gets_403_and_is_closed(start: bytes) -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.writer.write(start)
            answer = await peer.reader.read()
            assert answer.startswith(b"HTTP/1.1 403 Forbidden\r\n")
            await peer.close()
    run(scenario())


def test_an_extension_connection_needs_the_hosts_token_and_must_come_first() -> None:
    async def go() -> None:
        handed: list[list[Any]] = []

        async def extension(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            decoder: framing.Decoder, early: list[Any]) -> None:
            handed.append(early)
            writer.close()

        async with serving(extension_handler=extension) as server:
            forged = []
            for token in ("wrong", agent_token()):  # an agent's token is not the host's
                peer = await Peer.open()
                peer.send({"op": "extension", "token": token})
                [reply] = await peer.replies(1)
                assert reply["error"]["type"] == "AuthError"
                assert await peer.closed_by_server()
                forged.append(peer)
            late = await Peer.open()
            late.send(ping(id=1))
            late.send({"op": "extension", "token": server.token})
            replies = await late.replies(2)  # the refusal may overtake the ping's reply
            [refusal] = [r for r in replies if "error" in r]
            assert "first message" in refusal["error"]["message"]
            host = await Peer.open()
            host.send({"op": "extension", "token": server.token})
            host.send({"type": "hello"})  # in the same write: it reaches the handler
            await host.writer.drain()
            async with asyncio.timeout(10):
                while not handed:
                    await asyncio.sleep(0.01)
            assert handed == [[{"type": "hello"}]]
            for peer in (*forged, late, host):
                peer.writer.close()
    run(go())


def test_a_hub_without_an_extension_handler_refuses_extension_connections() -> None:
    async def go() -> None:
        async with serving() as server:
            host = await Peer.open()
            host.send({"op": "extension", "token": server.token})
            [reply] = await host.replies(1)
            assert "serves no browser extension" in reply["error"]["message"]
            host.writer.close()
    run(go())


# -- connections without a token: capped, and closed when idle ----------------------------

def test_a_connection_without_a_token_that_stays_idle_is_closed() -> None:
    async def go() -> tuple[float, float]:
        async with serving() as server:
            server.idle_seconds = 0.2
            silent = await Peer.open()  # sends nothing at all
            started = asyncio.get_running_loop().time()
            assert await silent.closed_by_server()
            quiet = await Peer.open()  # one ping, then nothing
            quiet.send(ping(id=1))
            assert (await quiet.replies(1))[0]["ok"] is True
            assert await quiet.closed_by_server()
            return asyncio.get_running_loop().time() - started, server.idle_seconds

    took, idle = run(go())
    assert idle <= took < 5


def test_a_connection_waiting_for_the_person_is_not_idle() -> None:
    async def slow(request: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0.6)  # a pairing the person answers after a while
        return {"ok": True}

    async def go() -> list[Any]:
        async with serving(slow) as server:
            server.idle_seconds = 0.2
            peer = await Peer.open()
            peer.send({"op": "pair", "name": "slow agent", "id": 1})
            got = await peer.replies(1)
            await peer.close()
            return got

    assert run(go())[0]["ok"] is True


def test_idle_connections_without_a_token_are_capped_and_the_oldest_make_room() -> None:
    # the attack: hold thousands of idle connections so the person's own command waits
    async def go() -> tuple[int, dict[str, Any], int]:
        async with serving() as server:
            server.strangers.max_all = 8
            idle = [await Peer.open() for _ in range(30)]
            await asyncio.sleep(0.1)
            person = await Peer.open()
            person.send(ping(id=1))
            [reply] = await person.replies(1)
            held = len(server.strangers)
            closed = 0
            for peer in idle:
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(peer.reader.read(1), 0.2) == b"":
                        closed += 1
                await peer.close()
            await person.close()
            return held, reply, closed

    held, reply, closed = run(go())
    assert reply["ok"] is True
    assert held <= 8
    assert closed >= 30 - 8


def test_a_paired_agents_connection_is_not_counted_as_anonymous() -> None:
    async def go() -> int:
        async with serving() as server:
            server.strangers.max_all = 2
            agent = await Peer.open()
            agent.send(tools(id=1))
            await agent.replies(1)
            others = [await Peer.open() for _ in range(5)]
            await asyncio.sleep(0.1)
            agent.send(tools(id=2))
            [second] = await agent.replies(1)
            for peer in [*others, agent]:
                await peer.close()
            return int(second["id"])

    assert run(go()) == 2
