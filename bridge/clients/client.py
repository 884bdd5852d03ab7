"""A lean blocking client for the hub's local socket (imports only os, sys, _socket, _json)."""

# Every CLI command pays for its imports, so this module avoids json, socket, re, typing and
# asyncio: JSON goes through CPython's C accelerators directly.

from __future__ import annotations

import _json
import _socket
import sys

from ..records import locate

# The framing of framing.py, written again here to stay lean: a 32-bit native-order length,
# then that many bytes of UTF-8 JSON. Keep the two in sync.
HEADER = 4
MAX_FRAME = 64 * 1024 * 1024  # framing.DEFAULT_MAX


class NoHub(Exception):
    """No hub listens on the socket (missing or refused); nothing was sent."""


class HubLost(Exception):
    """The connection broke after the request was sent; it may or may not have run."""


# -- JSON, small and strict --------------------------------------------------------------

_quote = _json.encode_basestring_ascii


def dumps(value: object) -> str:
    """JSON for what requests hold: dicts with string keys, lists, str, int, float,
    bool, None."""
    if isinstance(value, str):
        return _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("JSON has no NaN or infinity; the request was not sent")
        return float.__repr__(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join([dumps(v) for v in value]) + "]"
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("JSON object keys must be strings; the request was not sent")
            items.append(_quote(key) + ":" + dumps(item))
        return "{" + ",".join(items) + "}"
    raise TypeError(f"{type(value).__name__} is not JSON; the request was not sent")


class _Context:
    """What _json.make_scanner reads from json.JSONDecoder."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity


# typeshed types the context as a scanner; any object with the attributes above does
_scan = _json.make_scanner(_Context())  # type: ignore[arg-type]
_SPACE = " \t\n\r"


def loads(text: str) -> object:
    """One JSON value; ValueError when text is not exactly one."""
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _scan(text, start)
    except (StopIteration, ValueError, SystemError):
        # without json.decoder loaded, the C scanner fails with SystemError
        raise ValueError("the hub's reply is not JSON") from None
    if text[end:].strip(_SPACE):
        raise ValueError("the hub's reply has data after its JSON")
    return value


# -- the socket ------------------------------------------------------------------------

def _recv_exactly(sock: _socket.socket, size: int) -> bytes:
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = sock.recv_into(view[got:])
        if n == 0:
            raise HubLost("the hub closed the connection before replying; the command may "
                          "or may not have run")
        got += n
    return bytes(buf)


def connect(path: str | None = None, timeout: float | None = None) -> _socket.socket:
    """A connected socket to the hub, or NoHub when none listens."""
    path = path or locate.socket_path()
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except (FileNotFoundError, ConnectionRefusedError) as exc:
        sock.close()
        raise NoHub(f"no hub listens on {path}") from exc
    except OSError:
        sock.close()
        raise
    return sock


def _pending(notice: object) -> None:
    """Tell the person running the command why it waits (stderr; stdout stays the reply)."""
    if not isinstance(notice, dict):
        return
    what = notice.get("summary")
    qid = notice.get("id")
    timeout = notice.get("timeout")
    if timeout is None:  # not a question: the person paused the agents
        sys.stderr.write(f"waiting: {what}\n")
    else:
        sys.stderr.write(f"waiting for the person to answer {qid} (up to {timeout} s): "
                         f"{what}\n")
    sys.stderr.flush()


def _progress(step: object) -> None:
    """One line per step of a long command (the goal agent's `run`), on stderr."""
    if not isinstance(step, dict):
        return
    mark = "" if step.get("ok", True) else " (failed)"
    sys.stderr.write(f"{step.get('n', '?'):>3}. {step.get('op', '')} {step.get('target', '')}"
                     f" → {str(step.get('result', ''))[:200]}{mark}  "
                     f"[{step.get('elapsed_ms', '?')} ms]\n")
    sys.stderr.flush()


def send(sock: _socket.socket, message: dict[str, object]) -> None:
    """Send one request frame."""
    body = dumps(message).encode("ascii")
    try:
        sock.sendall(len(body).to_bytes(HEADER, sys.byteorder) + body)
    except (BrokenPipeError, ConnectionResetError, TimeoutError) as exc:
        raise HubLost(f"the connection to the hub broke ({exc.strerror or exc}); the "
                      "command may or may not have run") from exc


def receive(sock: _socket.socket) -> object:
    """Read one frame: a reply, or a notice (`pending`, `progress`) that comes before it."""
    try:
        size = int.from_bytes(_recv_exactly(sock, HEADER), sys.byteorder)
        if size > MAX_FRAME:
            raise HubLost(f"the hub announced a {size}-byte reply, over the limit; it "
                          "was not read")
        return loads(_recv_exactly(sock, size).decode("utf-8"))
    except (BrokenPipeError, ConnectionResetError, TimeoutError) as exc:
        raise HubLost(f"the connection to the hub broke ({exc.strerror or exc}); the "
                      "command may or may not have run") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise HubLost(f"{exc}; the command may or may not have run") from exc


def is_notice(frame: object) -> bool:
    return (isinstance(frame, dict) and "ok" not in frame and
            ("pending" in frame or "progress" in frame))


def exchange(sock: _socket.socket, message: dict[str, object]) -> dict[str, object]:
    """Send one request on an open connection and read its reply (notices that it waits
    for the person are shown on stderr meanwhile)."""
    send(sock, message)
    while True:
        reply = receive(sock)
        if not is_notice(reply):
            break
        assert isinstance(reply, dict)
        exchange_notice(reply)
    return final(reply)


def exchange_notice(frame: dict[str, object]) -> None:
    """Show a notice that came before the reply (it waits for the person, a step done)."""
    if "progress" in frame:
        _progress(frame["progress"])
    else:
        _pending(frame["pending"])


def final(reply: object) -> dict[str, object]:
    """The reply, checked to be an object."""
    if not isinstance(reply, dict):
        raise HubLost("the hub's reply is not a JSON object; the command may or may not "
                      "have run")
    return reply


def request(message: dict[str, object], path: str | None = None, token: str = "",
            timeout: float | None = None) -> dict[str, object]:
    """One request on a fresh connection, with the agent's token added; the hub's reply."""
    sock = connect(path, timeout)
    try:
        return exchange(sock, {**message, "token": token})
    finally:
        sock.close()


def ping(path: str | None = None, timeout: float = 2.0) -> bool:
    """Whether a hub answers on the socket (any well-formed reply counts, a refusal too)."""
    try:
        request({"op": "ping"}, path, "", timeout)
    except (NoHub, HubLost, OSError):
        return False
    return True
