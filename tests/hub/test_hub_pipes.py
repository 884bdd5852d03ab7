"""A native host that hands the hub Chrome's two pipes (native/handoff.py): the hub serves
the extension on them, frames over Chrome's 1 MiB limit go in chunks, and pipes that do not
come as agreed are refused, closed, and never served."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from server_peer import Peer, run, serving
from tabsteward.bridge.native import framing, handoff
from tabsteward.bridge.native.chunks import Joiner

pytestmark = pytest.mark.skipif(not handoff.CAN, reason="no descriptor passing here")
MiB = 1024 * 1024


def offer(token: str) -> dict[str, Any]:
    return {"op": "extension", "token": token, handoff.OFFER: True}


def hand(peer: Peer, data: bytes, fds: list[int]) -> None:
    """Send bytes with descriptors on the peer's socket, as the host does."""
    raw = peer.writer.get_extra_info("socket")
    with socket.socket(fileno=os.dup(raw.fileno())) as sock:
        socket.send_fds(sock, [data], fds)


def read_frames(fd: int, count: int) -> list[bytes]:
    """Frames as Chrome reads them off its pipe, headers included."""
    frames: list[bytes] = []
    buf = b""
    while len(frames) < count:
        chunk = os.read(fd, 1 << 20)
        assert chunk, "the hub closed Chrome's pipe"
        buf += chunk
        while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], sys.byteorder):
            size = 4 + int.from_bytes(buf[:4], sys.byteorder)
            frames.append(buf[:size])
            buf = buf[size:]
    return frames


def test_a_host_that_hands_over_chromes_pipes_is_served_on_them() -> None:
    async def go() -> None:
        served: list[Any] = []
        big = {"notify": "page", "text": "é" * (3 * MiB // 2)}  # 3 MB of UTF-8

        async def extension(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            decoder: framing.Decoder, early: list[Any]) -> None:
            while not (messages := decoder.messages()):
                decoder.feed(await reader.read(65536))
            served.extend([early, messages])
            writer.write(framing.encode({"id": 1, "result": "ok"}))
            writer.write(framing.encode(big))
            await writer.drain()

        to_hub, to_chrome = os.pipe(), os.pipe()  # (read, write) each
        async with serving(extension_handler=extension) as server:
            host = await Peer.open()
            host.send(offer(server.token))
            assert await host.replies(1) == [handoff.SEND]
            hand(host, b"\0", [to_hub[0], to_chrome[1]])
            os.close(to_hub[0])  # the host keeps no copy
            os.close(to_chrome[1])
            os.write(to_hub[1], framing.encode({"type": "hello"}))
            frames = await asyncio.to_thread(read_frames, to_chrome[0], 5)
            assert served == [[], [{"type": "hello"}]]
            decoder, joiner = framing.Decoder(), Joiner()
            for frame in frames:
                assert len(frame) < MiB  # Chrome refuses larger messages to it
                decoder.feed(frame)
            whole = [m for m in map(joiner.feed, decoder.messages()) if m is not None]
            assert whole == [{"id": 1, "result": "ok"}, big]
            assert await host.closed_by_server()  # the link ended: the host may go
            assert os.read(to_chrome[0], 1) == b""  # and Chrome sees its pipe end
        os.close(to_hub[1])
        os.close(to_chrome[0])
    run(go())


def _file() -> int:
    fd, path = tempfile.mkstemp()
    os.unlink(path)
    return fd


# what a host (or anyone holding its token) might send instead of two pipes
MALFORMED: dict[str, Callable[[tuple[int, int], tuple[int, int]], tuple[bytes, list[int]]]] = {
    "no descriptors": lambda a, b: (b"\0", []),
    "one pipe": lambda a, b: (b"\0", [a[0]]),
    "three": lambda a, b: (b"\0", [a[0], b[1], a[1]]),
    "the pipes the wrong way round": lambda a, b: (b"\0", [b[1], a[0]]),
    "a file for a pipe": lambda a, b: (b"\0", [_file(), b[1]]),
    "another byte": lambda a, b: (b"x", [a[0], b[1]]),
}


@pytest.mark.parametrize("what", [*MALFORMED, "nothing in time"])
def test_pipes_that_do_not_come_as_agreed_are_refused_and_none_is_kept(
        what: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handoff, "PIPES_WAIT", 0.3)

    async def go() -> None:
        served: list[Any] = []

        async def extension(*args: Any) -> None:
            served.append(args)

        to_hub, to_chrome = os.pipe(), os.pipe()
        async with serving(extension_handler=extension) as server:
            host = await Peer.open()
            host.send(offer(server.token))
            assert await host.replies(1) == [handoff.SEND]
            if what in MALFORMED:
                data, fds = MALFORMED[what](to_hub, to_chrome)
                hand(host, data, fds)
            assert await host.closed_by_server()
        assert served == []
        os.close(to_hub[0])  # with ours gone too, no reader is left: the hub kept none
        with pytest.raises(BrokenPipeError):
            os.write(to_hub[1], b"x")
        os.close(to_chrome[1])
        assert os.read(to_chrome[0], 1) == b""  # nor a writer
        for fd in (to_hub[1], to_chrome[0]):
            os.close(fd)
    run(go())


def test_a_host_that_sends_frames_after_its_offer_is_told_to_relay_them() -> None:
    async def go() -> None:
        handed: list[list[Any]] = []

        async def extension(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            decoder: framing.Decoder, early: list[Any]) -> None:
            handed.append(early)

        async with serving(extension_handler=extension) as server:
            host = await Peer.open()
            host.send(offer(server.token))
            host.send({"type": "hello"})  # in the same write: it is relaying already
            assert await host.replies(1) == [handoff.RELAY]
            assert handed == [[{"type": "hello"}]]
            await host.close()
    run(go())
