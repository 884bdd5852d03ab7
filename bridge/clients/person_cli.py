"""The person's commands at a terminal: the one-time code is typed (no echo) or read from
stdin, never taken from the command line; commands other than answers wait for the person
to confirm them (their code, typed here, or the tray's button)."""

from __future__ import annotations

import _socket
import contextlib
import getpass
import os
import select
import sys
from collections.abc import Iterator

from . import client


class NoCode(Exception):
    """No code was given (empty line, end of input); nothing was answered."""


def read_code(prompt: str) -> str:
    """A code typed on the terminal without echo, or one line of stdin when stdin is not a
    terminal (a script, a pipe)."""
    if sys.stdin.isatty():
        try:
            code = getpass.getpass(prompt)  # reads /dev/tty, echo off
        except EOFError:
            code = ""
    else:
        code = sys.stdin.readline()
    code = code.strip()
    if not code:
        raise NoCode("no code was given; nothing was answered")
    return code


def confirmed(request: dict[str, object]) -> dict[str, object]:
    """Send a command the person must confirm; while it waits, take their code here."""
    sock = client.connect()
    try:
        client.send(sock, {**request, "token": ""})
        asking = True
        while True:
            frame = client.receive(sock)
            if not client.is_notice(frame):
                return client.final(frame)
            assert isinstance(frame, dict)
            notice = frame.get("pending")
            if not isinstance(notice, dict) or notice.get("kind") != "person":
                client.exchange_notice(frame)
                continue
            qid = str(notice.get("id"))
            sys.stderr.write(f"tabsteward: the hub asks you to confirm this command as {qid}: "
                             "its code is on the hub's console, or press Allow in the "
                             "tray\n")
            sys.stderr.flush()
            while asking:
                code = _code_or_reply(f"code to approve {qid}: ", sock)
                if code is None:  # the reply came, or no more input
                    asking = False
                    break
                reply = client.request({"op": "answer", "argv": ["approve", qid],
                                        "cwd": request.get("cwd", "/"), "code": code},
                                       token="")
                if reply.get("ok") is True:
                    break
                sys.stderr.write(str(reply.get("stderr") or "error: the code was refused\n"))
                sys.stderr.flush()
    finally:
        sock.close()


def _code_or_reply(prompt: str, sock: _socket.socket) -> str | None:
    """A line typed (or read from stdin), or None once the hub's reply is ready to read
    (the tray answered) or input ended."""
    with _input(prompt) as fd:
        buf = b""
        while True:
            ready, _, _ = select.select([fd, sock.fileno()], [], [])
            if sock.fileno() in ready:
                return None
            chunk = os.read(fd, 256)
            if not chunk:
                return None
            buf += chunk
            if b"\n" in buf:
                line = buf.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
                if line:
                    return line
                buf = b""


@contextlib.contextmanager
def _input(prompt: str) -> Iterator[int]:
    """Where the code is read: the terminal with echo off, or stdin when not a terminal."""
    if not sys.stdin.isatty():
        yield sys.stdin.fileno()
        return
    try:
        import termios  # POSIX terminals only
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except (ImportError, OSError):
        yield sys.stdin.fileno()
        return
    old = termios.tcgetattr(fd)
    quiet = list(old)
    quiet[3] &= ~termios.ECHO
    try:
        termios.tcsetattr(fd, termios.TCSAFLUSH, quiet)
        os.write(fd, prompt.encode())
        yield fd
    finally:
        termios.tcsetattr(fd, termios.TCSAFLUSH, old)
        os.write(fd, b"\n")
        os.close(fd)
