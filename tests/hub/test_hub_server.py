"""The local API server on real Unix sockets, with a stand-in executor instead of the hub."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import pytest
from hub_env import agent_token
from tabsteward.bridge.errors import TabError
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.native import framing
from tabsteward.bridge.records import context, locate
from tabsteward.bridge.records.agents import Agents
from tabsteward.bridge.records.lock import HubRunning, claim, is_claimed

T = TypeVar("T")
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def run(coro: Coroutine[Any, Any, T]) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(30):
            return await coro
    return asyncio.run(bounded())


async def echo(request: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "echo": request}


@contextlib.asynccontextmanager
async def serving(handler: Handler = echo, **kwargs: Any) -> AsyncIterator[LocalServer]:
    server = LocalServer(handler, **kwargs)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


class Peer:
    """A raw client: frames (or any bytes) out, replies in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = framing.Decoder()
        self.got: list[Any] = []

    @classmethod
    async def open(cls) -> Peer:
        return cls(*await asyncio.open_unix_connection(locate.socket_path()))

    def send(self, message: Any) -> None:
        self.writer.write(framing.encode(message))

    async def replies(self, count: int) -> list[Any]:
        while len(self.got) < count:
            data = await self.reader.read(65536)
            assert data, f"connection closed after {len(self.got)} of {count} replies"
            self.decoder.feed(data)
            self.got += self.decoder.messages()
        out, self.got = self.got[:count], self.got[count:]
        return out

    async def closed_by_server(self) -> bool:
        """Read to the end: True once the server has closed the connection."""
        with contextlib.suppress(ConnectionResetError):
            while await self.reader.read(65536):
                pass
        await self.close()
        return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def ping(**extra: Any) -> dict[str, Any]:
    """A ping, which needs no token."""
    return {"op": "ping", **extra}


def tools(**extra: Any) -> dict[str, Any]:
    """A request only a paired agent may make, carrying the test agent's token."""
    return {"op": "tools", "token": agent_token(), **extra}


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


def test_oversized_frame_is_refused_and_connection_closed() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(ping(id=1))
            peer.writer.write((framing.DEFAULT_MAX + 1).to_bytes(4, "little"))
            replies = await peer.replies(2)
            answered = next(r for r in replies if "id" in r)
            refused = next(r for r in replies if "id" not in r)
            assert answered == {"ok": True, "echo": {"op": "ping"}, "id": 1}
            assert refused["error"]["type"] == "UsageError"
            assert "limit" in refused["error"]["message"]
            assert await peer.closed_by_server()
    run(scenario())


def test_bad_json_gets_an_error_reply_and_connection_closed() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            body = b"{not json"
            peer.writer.write(len(body).to_bytes(4, "little") + body)
            [reply] = await peer.replies(1)
            assert reply["error"]["type"] == "UsageError"
            assert "not UTF-8 JSON" in reply["error"]["message"]
            assert await peer.closed_by_server()
    run(scenario())


def test_frame_that_is_not_an_object_closes_the_connection() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(["ping"])
            [reply] = await peer.replies(1)
            assert "JSON object" in reply["error"]["message"]
            assert await peer.closed_by_server()
    run(scenario())


def test_schema_error_is_answered_and_the_connection_stays_open() -> None:
    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send({"op": "cli", "argv": "tabs", "cwd": "/", "id": 1,
                       "token": agent_token()})
            peer.send(tools(id=2))
            bad, good = await peer.replies(2)
            assert bad["id"] == 1
            assert bad["error"]["type"] == "UsageError"
            assert good == {"ok": True, "echo": {"op": "tools"}, "id": 2}
            await peer.close()
    run(scenario())


def test_pipelined_requests_run_concurrently_and_replies_carry_their_ids() -> None:
    release = asyncio.Event()

    async def gated(request: dict[str, Any]) -> dict[str, Any]:
        if request["tool"] == "slow":
            await release.wait()  # only the second request releases it
        else:
            release.set()
        return {"ok": True, "tool": request["tool"]}

    async def scenario() -> None:
        async with serving(gated):
            peer = await Peer.open()
            for rid, tool in ((1, "slow"), (2, "fast")):
                peer.send({"op": "call", "tool": tool, "id": rid, "token": agent_token()})
            first, second = await peer.replies(2)
            assert (first["id"], first["tool"]) == (2, "fast")
            assert (second["id"], second["tool"]) == (1, "slow")
            await peer.close()
    run(scenario())


def test_executor_errors_are_replies_and_crashes_hide_their_details() -> None:
    async def failing(request: dict[str, Any]) -> dict[str, Any]:
        if request.get("tool") == "gone":
            raise TabError("tab t9 is closed; nothing was done")
        if request.get("tool") == "crash":
            raise RuntimeError("secret internals")
        return {"ok": True}

    async def scenario() -> None:
        async with serving(failing, log_path="/x/hub.log"):
            peer = await Peer.open()
            for rid, tool in ((1, "gone"), (2, "crash")):
                peer.send({"op": "call", "tool": tool, "id": rid, "token": agent_token()})
            replies = {r["id"]: r for r in await peer.replies(2)}
            assert replies[1]["error"]["type"] == "TabError"
            crash = replies[2]["error"]
            assert crash["code"] == 1
            assert "secret" not in crash["message"]
            assert "internal error" in crash["message"]
            assert "/x/hub.log" in crash["message"]
            peer.send(ping(id=3))
            assert (await peer.replies(1))[0]["ok"] is True
            await peer.close()
    run(scenario())


def test_reply_over_the_frame_limit_is_replaced_by_an_error() -> None:
    async def big(request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "data": "x" * 2000}

    async def scenario() -> None:
        async with serving(big, max_frame=1000):
            peer = await Peer.open()
            peer.send(ping(id=9))
            [reply] = await peer.replies(1)
            assert reply["id"] == 9
            assert reply["ok"] is False
            assert "too big" in reply["error"]["message"]
            await peer.close()
    run(scenario())


def test_server_keeps_serving_after_a_broken_connection() -> None:
    async def scenario() -> None:
        async with serving():
            rude = await Peer.open()
            rude.writer.write(b"\x05\x00")  # half a header, then gone
            await rude.close()
            peer = await Peer.open()
            peer.send(ping(id=1))
            assert (await peer.replies(1))[0]["ok"] is True
            await peer.close()
    run(scenario())


def test_a_hub_getting_ready_holds_the_lock_before_it_listens() -> None:
    async def scenario() -> None:
        path = locate.socket_path()
        lock = claim(path)  # what serve does first
        assert is_claimed(path)
        assert not os.path.exists(path)  # not listening yet
        with pytest.raises(HubRunning):
            await LocalServer(echo).start()
        server = LocalServer(echo)
        await server.start(lock)
        try:
            peer = await Peer.open()
            peer.send(ping(id=1))
            assert (await peer.replies(1))[0]["ok"] is True
            await peer.close()
        finally:
            await server.close()
        assert not is_claimed(path)
    run(scenario())


def test_second_hub_on_the_same_socket_is_refused() -> None:
    async def scenario() -> None:
        async with serving() as first:
            with pytest.raises(HubRunning, match=r"already runs on .*did not start"):
                claim(first.socket_path)
            assert is_claimed(first.socket_path)
            second = LocalServer(echo)
            with pytest.raises(HubRunning, match=str(os.getpid())):
                await second.start()
            # the refused hub left the running one's files alone
            assert os.path.exists(first.socket_path)
            assert locate.read_token() == first.token
    run(scenario())


def test_stale_socket_file_is_replaced() -> None:
    path = locate.socket_path()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()  # the file stays, nobody listens: what a crashed hub leaves

    async def scenario() -> None:
        async with serving():
            peer = await Peer.open()
            peer.send(ping(id=1))
            assert (await peer.replies(1))[0]["ok"] is True
            await peer.close()
    run(scenario())


def test_close_removes_socket_and_token() -> None:
    async def scenario() -> None:
        async with serving() as server:
            paths = server.socket_path, server.token_path
        assert not any(os.path.exists(p) for p in paths)
    run(scenario())


def test_close_leaves_files_that_are_no_longer_its_own() -> None:
    async def scenario() -> None:
        async with serving() as server:
            with open(server.token_path, "w") as f:
                f.write("someone-else\n")
            os.unlink(server.socket_path)
            other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            other.bind(server.socket_path)
        assert os.path.exists(server.socket_path)
        with open(server.token_path) as f:
            assert f.read() == "someone-else\n"
        other.close()
    run(scenario())


def test_close_lets_running_requests_answer() -> None:
    started = asyncio.Event()
    finish = asyncio.Event()

    async def slow(request: dict[str, Any]) -> dict[str, Any]:
        started.set()
        await finish.wait()
        return {"ok": True, "done": True}

    async def scenario() -> None:
        server = LocalServer(slow)
        await server.start()
        peer = await Peer.open()
        peer.send(ping(id=1))
        await started.wait()
        closing = asyncio.create_task(server.close())
        finish.set()
        [reply] = await peer.replies(1)
        assert reply == {"ok": True, "done": True, "id": 1}
        await closing
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
