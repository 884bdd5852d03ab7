"""Chrome's native-messaging pipes, handed by the native host to the hub, so the extension's
frames go between Chrome and the hub with no process relaying them.

The host's first frame offers them (`"pipes": true` beside its op and token). The hub
answers `{"pipes": "send"}`, and the host sends one byte on its Unix socket carrying two
descriptors (SCM_RIGHTS): the pipe Chrome writes the extension's messages into (the host's
stdin), then the pipe Chrome reads (its stdout). The host then closes its own copies and
only waits, as the process Chrome started for the port. A hub that wants frames relayed
answers `{"pipes": "relay"}`; one from before this answers nothing, and the host relays
after `PIPES_WAIT`. Where descriptors cannot be passed (Windows), nothing is offered.
"""

from __future__ import annotations

import asyncio
import fcntl
import itertools
import os
import socket
import stat
import sys
from dataclasses import dataclass
from typing import Any

from .chunks import split_for_browser
from .framing import DEFAULT_MAX, Splitter

OFFER = "pipes"
SEND: dict[str, Any] = {OFFER: "send"}
RELAY: dict[str, Any] = {OFFER: "relay"}
PIPES_WAIT = 2.0  # seconds the host waits for an answer to its offer
CAN = sys.platform != "win32" and hasattr(socket, "send_fds") and hasattr(socket, "recv_fds")
_BYTE = b"\0"


class HandoffError(ValueError):
    """The pipes did not come as agreed; any descriptor that came is closed."""


def send(sock: socket.socket, read_end: int, write_end: int) -> None:
    """The host's half: the two pipe ends, on its connected socket (whose buffer is empty:
    one byte goes at once)."""
    sent = socket.send_fds(sock, [_BYTE], [read_end, write_end])
    if sent != len(_BYTE):
        raise OSError("the hub's socket took no byte")


def check(data: bytes, fds: list[int]) -> tuple[int, int]:
    """The hub's check of what came: one byte and two pipes, the first to read, the second
    to write; every descriptor is closed when they are not."""
    try:
        if data != _BYTE or len(fds) != 2:
            raise HandoffError(f"{len(data)} bytes and {len(fds)} descriptors came, not one "
                               "byte and two")  # (a -1 stands for those cut off)
        modes = (os.O_RDONLY, os.O_WRONLY)
        for fd, mode in zip(fds, modes, strict=True):
            if not stat.S_ISFIFO(os.fstat(fd).st_mode):
                raise HandoffError("a descriptor that came is not a pipe")
            if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE != mode:
                raise HandoffError("the pipes came the wrong way round")
            os.set_inheritable(fd, False)
    except BaseException:
        for fd in fds:
            if fd >= 0:
                os.close(fd)
        raise
    return fds[0], fds[1]


async def receive(sock: socket.socket, timeout: float | None = None) -> tuple[int, int]:
    """The hub's half, once it answered SEND: the two pipe ends from the host's socket
    (`sock`, a duplicate of the connection's: its transport must not read meanwhile).
    HandoffError when they do not come in time (PIPES_WAIT) or are not as agreed."""
    timeout = PIPES_WAIT if timeout is None else timeout
    loop = asyncio.get_running_loop()
    came: asyncio.Future[tuple[bytes, list[int]]] = loop.create_future()

    def readable() -> None:
        try:
            data, fds, flags, _ = socket.recv_fds(sock, len(_BYTE), 2)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            came.set_exception(HandoffError(f"the host's socket failed ({exc})"))
        else:  # more descriptors than two were cut off (and closed by the system)
            came.set_result((data, [*fds, -1] if flags & socket.MSG_CTRUNC else fds))
        loop.remove_reader(sock.fileno())

    loop.add_reader(sock.fileno(), readable)
    try:
        async with asyncio.timeout(timeout):
            data, fds = await came
    except TimeoutError:
        raise HandoffError(f"the native host sent no pipes within {timeout:g} s") from None
    finally:
        loop.remove_reader(sock.fileno())
    return check(data, fds)


class BrowserPipe(asyncio.StreamWriter):
    """The hub's writer on the pipe Chrome reads: a frame over Chrome's 1 MiB limit goes as
    chunk messages, as the relaying host sends it (chunks.py)."""

    def __init__(self, transport: asyncio.WriteTransport, protocol: asyncio.BaseProtocol,
                 loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(transport, protocol, None, loop)
        self._frames = Splitter(DEFAULT_MAX, utf8=False)
        self._chunk_ids = itertools.count(1)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._frames.feed(bytes(data))
        for body in self._frames.bodies():
            for frame in split_for_browser(body, next(self._chunk_ids)):
                super().write(frame)


@dataclass
class Pipes:
    """Streams on Chrome's two pipes: the extension's frames from it, and the writer of
    frames to it."""

    reader: asyncio.StreamReader
    writer: BrowserPipe
    _incoming: asyncio.ReadTransport

    def close(self) -> None:
        self.writer.close()
        self._incoming.close()


async def open_pipes(read_end: int, write_end: int, limit: int) -> Pipes:
    """Streams on the two pipe ends, which they own (or which are closed here when the
    streams cannot be made)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit)
    # file objects own the descriptors from here on: each is closed once, through them
    incoming_file = os.fdopen(read_end, "rb", buffering=0)
    outgoing_file = os.fdopen(write_end, "wb", buffering=0)
    try:
        incoming, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), incoming_file)
        try:
            transport, protocol = await loop.connect_write_pipe(
                asyncio.streams.FlowControlMixin, outgoing_file)
        except BaseException:
            incoming.close()
            raise
    except BaseException:
        incoming_file.close()
        outgoing_file.close()
        raise
    return Pipes(reader, BrowserPipe(transport, protocol, loop), incoming)
