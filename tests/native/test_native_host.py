"""The real native host process, started as Chrome starts it, against a stand-in hub socket."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from nm_standin import FIRST, IO_TIMEOUT, StandInHub, hub_env
from tabsteward.bridge.native import framing, handoff
from tabsteward.bridge.native.chunks import Joiner

MiB = 1024 * 1024
EXT_ID = "b" * 32
ORIGIN = f"chrome-extension://{EXT_ID}/"


class Host:
    """The host subprocess with Chrome's view of it: frames on its stdin and stdout."""

    def __init__(self, env: dict[str, str], origin: str = ORIGIN) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tabsteward.bridge.native_host", origin,
             "--parent-window=0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.decoder = framing.Decoder()
        self.inbox: list[Any] = []

    def send(self, message: Any) -> None:
        self.write(framing.encode(message))

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_frame_bytes(self) -> bytes:
        assert self.proc.stdout is not None
        header = self.proc.stdout.read(4)
        assert len(header) == 4, "the host closed stdout"
        size = int.from_bytes(header, sys.byteorder)
        return header + self.proc.stdout.read(size)

    def recv(self) -> Any:
        self.decoder.feed(self.read_frame_bytes())
        return self.decoder.messages()[0]

    def wait(self) -> int:
        return self.proc.wait(timeout=IO_TIMEOUT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()


def in_thread(fn: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    with hub_env(tmp_path, extra_ids=f"{'c' * 32}, {EXT_ID}") as environ:
        yield environ


@pytest.fixture
def hub(env: dict[str, str]) -> Iterator[StandInHub]:
    stand_in = StandInHub(os.path.join(env["XDG_RUNTIME_DIR"], "tabsteward", "hub.sock"))
    yield stand_in
    stand_in.close()


@pytest.fixture
def host(env: dict[str, str], hub: StandInHub) -> Iterator[Host]:
    """A relaying host: the stand-in hub has accepted it, read its first frame and (where
    the host offered Chrome's pipes) asked it to relay."""
    started = Host(env)
    hub.accept()
    assert hub.first() == FIRST
    yield started
    started.stop()


def log_text(env: dict[str, str]) -> str:
    return (Path(env["XDG_STATE_HOME"]) / "tabsteward" / "native-host.log").read_text()


@pytest.mark.timeout(60)
def test_the_host_relays_frames_both_ways(host: Host, hub: StandInHub) -> None:
    host.send({"id": 1, "hello": {"protocol": 1}})
    assert hub.recv() == {"id": 1, "hello": {"protocol": 1}}
    hub.send({"id": 2, "cmd": "tabs.query", "args": {"active": False}})
    assert host.recv() == {"id": 2, "cmd": "tabs.query", "args": {"active": False}}


@pytest.mark.timeout(60)
def test_a_3_mb_hub_message_reaches_the_browser_in_chunks_under_1_mib(
        host: Host, hub: StandInHub) -> None:
    big = {"id": 3, "result": {"tree": ["node-é😀" * 20] * 22_000}}
    assert len(json.dumps(big, ensure_ascii=False).encode()) > 3 * MiB
    sender = in_thread(lambda: hub.send(big))
    joiner, whole, frames = Joiner(), None, 0
    while whole is None:
        frame = host.read_frame_bytes()
        frames += 1
        assert len(frame) < MiB
        decoder = framing.Decoder()
        decoder.feed(frame)
        whole = joiner.feed(decoder.messages()[0])
    sender.join()
    assert frames >= 3
    assert whole == big


@pytest.mark.timeout(60)
def test_a_5_mb_browser_message_reaches_the_hub_whole(host: Host, hub: StandInHub) -> None:
    big = {"id": 4, "result": "x" * (5 * MiB)}
    writer = in_thread(lambda: host.send(big))
    assert hub.recv() == big
    writer.join()


@pytest.mark.timeout(60)
def test_a_forged_origin_is_refused_without_reading_stdin_or_calling_the_hub(
        env: dict[str, str], hub: StandInHub) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, framing.encode({"id": 1}))
    keep = os.dup(read_end)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabsteward.bridge.native_host",
         f"chrome-extension://{'d' * 32}/"], stdin=read_end, stdout=subprocess.PIPE, env=env)
    os.close(read_end)
    out, _ = proc.communicate(timeout=IO_TIMEOUT)
    os.close(write_end)
    assert proc.returncode == 1
    assert out == b""
    assert os.read(keep, 100) == framing.encode({"id": 1})  # still in the pipe: unread
    os.close(keep)
    assert "not an allowed extension" in log_text(env)
    hub.listener.setblocking(False)
    with pytest.raises(BlockingIOError):
        hub.listener.accept()


@pytest.mark.timeout(60)
def test_the_host_exits_0_on_stdin_eof_and_closes_the_hub_connection(
        host: Host, hub: StandInHub) -> None:
    assert host.proc.stdin is not None
    host.proc.stdin.close()
    assert host.wait() == 0
    assert hub.at_eof()


@pytest.mark.timeout(60)
def test_the_host_exits_0_when_the_hub_socket_is_lost(
        env: dict[str, str], host: Host, hub: StandInHub) -> None:
    hub.drop()
    assert host.wait() == 0
    assert "the hub closed its end" in log_text(env)


@pytest.mark.timeout(60)
def test_the_host_exits_0_on_sigterm(host: Host, hub: StandInHub) -> None:
    host.proc.send_signal(signal.SIGTERM)
    assert host.wait() == 0
    assert hub.at_eof()


@pytest.mark.timeout(60)
def test_a_frame_that_is_not_json_is_relayed_unread_for_the_hub_to_judge(
        host: Host, hub: StandInHub) -> None:
    body = b"{not json"
    host.write(len(body).to_bytes(4, sys.byteorder) + body)
    assert hub.recv_frame_bytes() == len(body).to_bytes(4, sys.byteorder) + body
    host.send({"id": 5, "still": "relaying"})
    assert hub.recv() == {"id": 5, "still": "relaying"}


@pytest.mark.timeout(60)
def test_a_frame_that_is_not_utf8_from_the_browser_ends_the_host_but_not_the_hub(
        env: dict[str, str], host: Host, hub: StandInHub) -> None:
    body = b'{"id": "\xff"}'
    host.write(len(body).to_bytes(4, sys.byteorder) + body)
    assert host.wait() == 2
    assert hub.at_eof()
    assert "malformed frame from the browser" in log_text(env)
    second = Host(env)
    try:
        hub.accept()
        assert hub.recv() == FIRST
    finally:
        second.stop()


@pytest.mark.timeout(60)
def test_a_huge_announced_length_from_the_browser_ends_the_host_at_once(
        env: dict[str, str], host: Host, hub: StandInHub) -> None:
    host.write((1 << 31).to_bytes(4, sys.byteorder) + b"xx")
    assert host.wait() != 0
    assert hub.at_eof()
    assert "malformed frame from the browser" in log_text(env)


needs_handoff = pytest.mark.skipif(not handoff.CAN, reason="no descriptor passing here")


def offered(env: dict[str, str], hub: StandInHub) -> Host:
    """A host whose offer of Chrome's pipes the stand-in hub has read, not answered yet."""
    started = Host(env)
    hub.accept()
    assert hub.recv() == FIRST
    return started


def handed(env: dict[str, str], hub: StandInHub) -> tuple[Host, int, int]:
    """A host that handed the stand-in hub Chrome's pipes: the host, then the pipe Chrome
    writes into (to read) and the one Chrome reads (to write)."""
    host = offered(env, hub)
    hub.send(handoff.SEND)
    assert hub.conn is not None
    data, fds, _, _ = socket.recv_fds(hub.conn, 1, 4)
    assert data == b"\0"
    assert len(fds) == 2
    return host, fds[0], fds[1]


@needs_handoff
@pytest.mark.timeout(60)
def test_the_host_hands_chromes_pipes_to_a_hub_that_takes_them_and_keeps_none(
        env: dict[str, str], hub: StandInHub) -> None:
    host, from_chrome, to_chrome = handed(env, hub)
    try:
        host.send({"id": 1, "hello": {"protocol": 1}})  # Chrome's frame, read by the hub
        decoder = framing.Decoder()
        while not (got := decoder.messages()):
            decoder.feed(os.read(from_chrome, 65536))
        assert got == [{"id": 1, "hello": {"protocol": 1}}]
        os.write(to_chrome, framing.encode({"id": 2, "cmd": "tabs.query"}))
        assert host.recv() == {"id": 2, "cmd": "tabs.query"}  # the hub's, read by Chrome
        # the host lets go of its copy of Chrome's pipe right after handing it over (on a
        # busy machine, a moment after the frames above already went past it)
        stdin = f"/proc/{host.proc.pid}/fd/0"
        deadline = time.monotonic() + 10
        while os.readlink(stdin) != os.devnull and time.monotonic() < deadline:
            time.sleep(0.01)
        os.close(from_chrome)  # the host kept no reader of Chrome's pipe: nobody reads
        with pytest.raises(BrokenPipeError):
            host.send({"id": 3})
        assert host.proc.poll() is None  # it waits, as the process Chrome started
        hub.drop()  # the hub ends the link
        assert host.wait() == 0
        os.close(to_chrome)
        assert "the hub closed the extension's link" in log_text(env)
    finally:
        host.stop()


@needs_handoff
@pytest.mark.timeout(60)
def test_a_host_that_handed_its_pipes_over_exits_0_on_sigterm(
        env: dict[str, str], hub: StandInHub) -> None:
    host, from_chrome, to_chrome = handed(env, hub)
    try:
        host.proc.send_signal(signal.SIGTERM)
        assert host.wait() == 0
        assert hub.at_eof()
        os.close(from_chrome)
        os.close(to_chrome)
    finally:
        host.stop()


@needs_handoff
@pytest.mark.timeout(60)
def test_a_host_whose_hub_answers_nothing_relays_as_before(
        env: dict[str, str], hub: StandInHub) -> None:
    host = offered(env, hub)  # a hub from before the offer: it waits for the hello
    try:
        host.send({"id": 1, "hello": {"protocol": 1}})
        assert hub.recv() == {"id": 1, "hello": {"protocol": 1}}  # after the wait
        hub.send({"id": 2, "cmd": "tabs.query"})
        assert host.recv() == {"id": 2, "cmd": "tabs.query"}
    finally:
        host.stop()


@needs_handoff
@pytest.mark.timeout(60)
@pytest.mark.parametrize("answer", [
    {"ok": False, "error": {"type": "AuthError", "message": "wrong token"}},
    {handoff.OFFER: "both"}, [1, 2]])
def test_a_hub_that_answers_the_offer_otherwise_ends_the_host_with_1(
        env: dict[str, str], hub: StandInHub, answer: Any) -> None:
    host = offered(env, hub)
    try:
        hub.send(answer)
        assert host.wait() == 1
        assert host.proc.stdout is not None
        assert host.proc.stdout.read() == b""
        assert "the hub refused the connection" in log_text(env)
    finally:
        host.stop()


SHUTDOWN = (  # the shutdown op asks the person: stop the hub with a signal, as they would
    "import os, signal; from tabsteward.bridge.clients import client; "
    "os.kill(client.request({'op': 'ping', 'id': 1})['pid'], signal.SIGTERM)")


@pytest.mark.timeout(90)
def test_the_host_starts_a_hub_when_none_answers_and_connects_to_it(
        env: dict[str, str]) -> None:
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tabsteward.bridge.native_host", ORIGIN],
            input=b"", capture_output=True, env=env, timeout=60, check=False)
        assert proc.returncode == 0  # stdin was empty: EOF, after connecting
        assert proc.stdout == b""
        text = log_text(env)
        assert "starting one" in text
        assert "connected to the hub" in text
    finally:
        subprocess.run([sys.executable, "-c", SHUTDOWN], env=env, timeout=30, check=False,
                       capture_output=True)


@pytest.mark.timeout(60)
def test_the_host_exits_1_when_no_hub_can_be_started(env: dict[str, str]) -> None:
    unusable = {**env, "TABSTEWARD_SOCKET": "/" + "x" * 120 + "/hub.sock"}
    proc = subprocess.run(
        [sys.executable, "-m", "tabsteward.bridge.native_host", ORIGIN],
        input=b"", capture_output=True, env=unusable, timeout=IO_TIMEOUT * 2, check=False)
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert "starting one" in log_text(env)
