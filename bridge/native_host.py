"""The native-messaging host Chrome starts: it hands Chrome's pipes to the hub, or relays.

Chrome runs `native_host chrome-extension://ID/ [--parent-window=N]`. The host checks the
origin against the pinned extension ids, connects to the hub's Unix socket and sends
`{"op": "extension", "token": TOKEN, "pipes": true}` as its first frame. A hub that takes
the offer gets Chrome's two pipes over the socket (native/handoff.py) and reads and writes
them itself; the host keeps no copy and waits until the hub closes its end. Otherwise (an
older hub, or a system without descriptor passing) the host copies frames both ways,
unparsed: browser to hub as they come (up to 64 MiB each), hub to browser split into chunk
messages when over Chrome's 1 MiB limit (see nm_chunks). The JSON inside is checked where it
is read, by the hub and by Chrome. Nothing but frames reaches stdout; the log is
`state_dir()/native-host.log`. When no hub answers, the host starts one as the CLI does
(the tray app on a display, else the headless hub) and connects to it.
Exit codes: 0 on stdin EOF, hub socket loss or SIGTERM; 1 on a refused origin, when no
hub could be started, or when the hub refused the connection; 2 on a malformed frame (over
its size limit, or not UTF-8) from either side.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from . import paths
from .browsers.extension_ids import allowed_origins
from .native import framing, handoff
from .native.chunks import split_for_browser
from .records import locate

EXTRA_IDS_ENV = "TABSTEWARD_EXTRA_EXTENSION_IDS"
BROWSER_MAX = framing.DEFAULT_MAX
READ_SIZE = 256 * 1024

log = logging.getLogger("tabsteward.native_host")


def _setup_logging() -> None:
    try:
        folder = paths.ensure_private_dir(paths.state_dir())
        handler: logging.Handler = logging.FileHandler(folder / "native-host.log",
                                                       encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler(sys.stderr)  # Chrome keeps stderr in its own log
    handler.setFormatter(logging.Formatter(
        f"%(asctime)s native-host[{os.getpid()}] %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def _claim_stdout() -> BinaryIO:
    """The frame channel: fd 1 moved aside, with stray writes to fd 1 sent to stderr."""
    out_fd = os.dup(1)
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr: stray writes go nowhere rather than into the channel
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    sys.stdout = sys.stderr
    return os.fdopen(out_fd, "wb", buffering=0)


async def _pump(source: asyncio.StreamReader, side: str, max_size: int,
                sink: asyncio.StreamWriter, encode: Callable[[bytes], list[bytes]]) -> int:
    """Copy whole frames from source to sink (re-framed by `encode`) until EOF (0) or a
    malformed frame (2). The host never parses a message: the hub and Chrome check the
    JSON inside (parsing it here cost 23 ms of CPU per MB)."""
    splitter = framing.Splitter(max_size)
    while True:
        data = await source.read(READ_SIZE)
        if not data:
            log.info("%s closed its end; exiting", side)
            return 0
        try:
            splitter.feed(data)
        except framing.FrameError as exc:
            log.error("malformed frame from %s (%s); closing, nothing more relayed", side, exc)
            return 2
        for body in splitter.bodies():
            for frame in encode(body):
                sink.write(frame)
        await sink.drain()


def _to_hub(body: bytes) -> list[bytes]:
    return [len(body).to_bytes(framing.HEADER, sys.byteorder) + body]


def _to_browser_encoder() -> Callable[[bytes], list[bytes]]:
    """Frames for Chrome: messages over 1 MiB split into numbered chunks."""
    ids = itertools.count(1)

    def encode(body: bytes) -> list[bytes]:
        return split_for_browser(body, next(ids))
    return encode


async def _connect() -> tuple[str, asyncio.StreamReader, asyncio.StreamWriter] | None:
    """The native host token (hub.token) and a connection to the hub, or None when no hub
    answers."""
    token = locate.read_token()
    if token is None:
        return None
    try:
        reader, writer = await asyncio.open_unix_connection(locate.socket_path(),
                                                            limit=READ_SIZE)
    except OSError as exc:
        log.info("no hub answers at %s (%s)", locate.socket_path(), exc)
        return None
    return token, reader, writer


async def _relay(stdout_file: BinaryIO) -> int:
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    connected = await _connect()
    if connected is None:
        from .clients import autostart
        from .errors import HubUnavailable
        log.info("no hub answers at %s; starting one", locate.socket_path())
        try:
            await asyncio.to_thread(autostart.ensure_hub)
        except HubUnavailable as exc:
            log.error("%s", exc.message)
            return 1
        connected = await _connect()
        if connected is None:
            log.error("the hub started but does not take connections at %s; not connected",
                      locate.socket_path())
            return 1
    token, hub_reader, hub_writer = connected
    offer = {handoff.OFFER: True} if handoff.CAN else {}
    hub_writer.write(framing.encode({"op": "extension", "token": token, **offer}))
    if offer:
        answer = await _answer(hub_reader)
        if answer == handoff.SEND:
            return await _hand_over(hub_reader, hub_writer, stdout_file, stopped)
        if answer is not None and answer != handoff.RELAY:
            log.error("the hub refused the connection (%s); nothing was relayed",
                      str(answer)[:200])
            hub_writer.close()
            return 1
    stdin = asyncio.StreamReader(limit=READ_SIZE)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin,
                                                        stdout_file)
    stdout = asyncio.StreamWriter(transport, protocol, None, loop)
    log.info("connected to the hub at %s; relaying", locate.socket_path())
    tasks = {
        asyncio.create_task(_pump(stdin, "the browser", BROWSER_MAX, hub_writer, _to_hub)),
        asyncio.create_task(_pump(hub_reader, "the hub", framing.DEFAULT_MAX, stdout,
                                  _to_browser_encoder())),
        asyncio.create_task(stopped.wait()),
    }
    code = 0
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            result = task.result()
            code = result if isinstance(result, int) else 0
        if stopped.is_set():
            log.info("SIGTERM received; exiting")
            code = 0
    except (ConnectionError, BrokenPipeError) as exc:
        log.info("a peer went away (%s); exiting", exc)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        hub_writer.close()
        transport.close()
    return code


async def _answer(hub: asyncio.StreamReader) -> Any:
    """The hub's answer to the offer of Chrome's pipes; None when it gave none in time (a
    hub from before the offer, waiting for the extension's hello)."""
    try:
        async with asyncio.timeout(handoff.PIPES_WAIT):
            header = await hub.readexactly(framing.HEADER)
            body = await hub.readexactly(int.from_bytes(header, sys.byteorder))
    except TimeoutError:
        return None
    except asyncio.IncompleteReadError:
        return "the connection closed"
    decoder = framing.Decoder()
    try:
        decoder.feed(header + body)
    except framing.FrameError as exc:
        return str(exc)
    return decoder.messages()[0]


async def _hand_over(hub_reader: asyncio.StreamReader, hub_writer: asyncio.StreamWriter,
                     stdout_file: BinaryIO, stopped: asyncio.Event) -> int:
    """Give the hub Chrome's two pipes and keep none: frames then go between Chrome and the
    hub directly. Wait, as the process Chrome started, until the hub closes its end (the
    extension's link ended) or SIGTERM."""
    sock = hub_writer.get_extra_info("socket")
    try:
        with socket.socket(fileno=os.dup(sock.fileno())) as dup:
            handoff.send(dup, sys.stdin.fileno(), stdout_file.fileno())
    except OSError as exc:
        log.error("could not hand Chrome's pipes to the hub (%s); nothing was relayed", exc)
        return 1
    stdout_file.close()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, sys.stdin.fileno())  # Chrome's pipe is the hub's alone now
    os.close(null)
    log.info("connected to the hub at %s; it reads and writes Chrome's pipes itself",
             locate.socket_path())
    ended = asyncio.ensure_future(hub_reader.read())
    waiting = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({ended, waiting}, return_when=asyncio.FIRST_COMPLETED)
    log.info("SIGTERM received; exiting" if stopped.is_set() else
             "the hub closed the extension's link; exiting")
    for task in (ended, waiting):
        task.cancel()
    hub_writer.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Check the caller origin, then relay until EOF, hub loss or SIGTERM; the exit code."""
    args = sys.argv if argv is None else argv
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # until the loop takes over
    stdout_file = _claim_stdout()
    _setup_logging()
    origin = args[1] if len(args) > 1 else ""
    if origin not in allowed_origins():
        log.error("caller origin %r is not an allowed extension; nothing was relayed", origin)
        return 1
    try:
        return asyncio.run(_relay(stdout_file))
    except Exception:
        log.exception("the relay failed; nothing more is relayed and the host exits")
        return 1
    finally:
        with contextlib.suppress(OSError):
            stdout_file.close()


if __name__ == "__main__":
    sys.exit(main())
