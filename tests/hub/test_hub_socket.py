"""The local API server on real Unix sockets, with a stand-in executor instead of the hub:
frames that are wrong, pipelined requests, errors and oversized replies, and its socket's
life (the lock, a second hub, a stale socket file, closing)."""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

import pytest
from hub_env import agent_token
from server_peer import Peer, echo, ping, run, serving, tools
from tabsteward.bridge.errors import TabError
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.native import framing
from tabsteward.bridge.records import locate
from tabsteward.bridge.records.lock import HubRunning, claim, is_claimed


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
