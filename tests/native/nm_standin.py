"""A stand-in hub for native-messaging tests: a Unix socket that records and sends frames."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tabsteward.bridge.native import framing, handoff
from tabsteward.bridge.records.agents import Agents

TOKEN = "test-token-123"
IO_TIMEOUT = 20.0  # bounds a blocking read so a broken host fails instead of hanging
# the host's first frame: it offers Chrome's pipes where descriptors can be passed
FIRST = {"op": "extension", "token": TOKEN, **({handoff.OFFER: True} if handoff.CAN else {})}


@contextmanager
def hub_env(state: Path, extra_ids: str = "") -> Iterator[dict[str, str]]:
    """An environment whose hub folder (short path: sockets) holds a token and nothing else."""
    runtime = tempfile.mkdtemp(prefix="tsn", dir="/tmp")
    hub_dir = Path(runtime) / "tabsteward"
    hub_dir.mkdir(mode=0o700)
    (hub_dir / "hub.token").write_text(TOKEN + "\n", encoding="ascii")
    environ = {k: v for k, v in os.environ.items() if k != "TABSTEWARD_SOCKET"}
    environ.update(XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=str(state / "state"),
                   TABSTEWARD_EXTRA_EXTENSION_IDS=extra_ids)
    # a paired agent, for tests that talk to a real hub the host started (to stop it)
    environ["TABSTEWARD_TOKEN"] = Agents(state / "state" / "tabsteward" / "agents.json").add(
        "tests")[1]
    try:
        yield environ
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


class StandInHub:
    """A user-only Unix socket that records frames and can send some; one peer at a time."""

    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(4)
        self.listener.settimeout(IO_TIMEOUT)
        self.conn: socket.socket | None = None
        self.decoder = framing.Decoder()
        self.inbox: list[Any] = []

    def accept(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(IO_TIMEOUT)
        self.decoder = framing.Decoder()
        self.inbox = []

    def first(self) -> Any:
        """The host's first frame, with its offer of Chrome's pipes (if any) declined: the
        host relays."""
        message = self.recv()
        if isinstance(message, dict) and message.get(handoff.OFFER) is True:
            self.send(handoff.RELAY)
        return message

    def recv(self) -> Any:
        assert self.conn is not None
        while not self.inbox:
            data = self.conn.recv(1 << 20)
            if not data:
                raise EOFError("the host closed the hub connection")
            self.decoder.feed(data)
            self.inbox += self.decoder.messages()
        return self.inbox.pop(0)

    def recv_frame_bytes(self) -> bytes:
        """One frame as the host wrote it, header included, unparsed."""
        assert self.conn is not None
        assert self.decoder.pending == 0, "part of a frame was read as parsed"
        assert not self.inbox, "parsed frames are waiting"
        data = b""
        while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], sys.byteorder):
            more = self.conn.recv(1 << 20)
            if not more:
                raise EOFError("the host closed the hub connection")
            data += more
        return data

    def at_eof(self) -> bool:
        """True once the host has closed its end (reads until EOF, dropping frames)."""
        assert self.conn is not None
        while self.conn.recv(1 << 20):
            pass
        return True

    def send(self, message: Any) -> None:
        assert self.conn is not None
        self.conn.sendall(framing.encode(message))

    def drop(self) -> None:
        assert self.conn is not None
        self.conn.close()
        self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()
