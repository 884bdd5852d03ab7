"""A lean reader of one secret from the freedesktop Secret Service, over the D-Bus session
bus (stdlib only: os, _socket, struct).

Each CLI call reads its agent's token. The `keyring` library takes 300-400 ms to import and
discover a backend here, more than a whole CLI call should; this reader takes about 10 ms.
It asks for a "plain" session: the secret crosses the user's own session bus unencrypted,
as it does when any client falls back to plain. Writing stays with `keyring`, which
stores items under the same {service, username} attributes that this reader searches.
"""

from __future__ import annotations

import _socket
import os
import struct

TYPE_CHECKING = False  # not typing's: importing typing costs the CLI milliseconds
if TYPE_CHECKING:
    from typing import Any

TIMEOUT = 2.0
SERVICE_NAME = "org.freedesktop.secrets"
SERVICE_PATH = "/org/freedesktop/secrets"
SERVICE_IFACE = "org.freedesktop.Secret.Service"
_ALIGN = {"y": 1, "b": 4, "u": 4, "i": 4, "s": 4, "o": 4, "g": 1, "a": 4, "v": 1, "(": 8,
          "{": 8}
MAX_MESSAGE = 1 << 20


class SecretServiceError(Exception):
    """No secret could be read: no session bus, no Secret Service, a locked keyring."""


class NoSecretService(SecretServiceError):
    """There is no session bus, or no Secret Service on it: nothing can be stored here."""


# -- the D-Bus wire format, the small part of it these calls need -------------------------

def _pad(n: int, align: int) -> int:
    return (-n) % align


def split_type(sig: str) -> tuple[str, str]:
    """The first complete type of a signature, and the rest; ValueError when malformed."""
    if not sig:
        raise ValueError("empty signature")
    if sig[0] == "a":
        inner, rest = split_type(sig[1:])
        return "a" + inner, rest
    if sig[0] in "({":
        closing = {"(": ")", "{": "}"}
        stack: list[str] = []
        for i, c in enumerate(sig):
            if c in closing:
                stack.append(closing[c])
            elif c in ")}":
                if not stack or stack.pop() != c:
                    break
                if not stack:
                    return sig[:i + 1], sig[i + 1:]
        raise ValueError(f"unbalanced signature {sig!r}")
    if sig[0] in ")}":
        raise ValueError(f"unbalanced signature {sig!r}")
    if sig[0] not in _ALIGN:
        raise ValueError(f"type {sig[0]!r} is not supported")
    return sig[0], sig[1:]


def types(sig: str) -> list[str]:
    out = []
    while sig:
        first, sig = split_type(sig)
        out.append(first)
    return out


def encode(buf: bytearray, t: str, value: Any) -> None:
    """Append `value` as D-Bus type `t` (little-endian) to buf."""
    if not t or t[0] not in _ALIGN:
        raise ValueError(f"type {t!r} is not supported")
    buf += b"\0" * _pad(len(buf), _ALIGN[t[0]])
    if t in ("s", "o"):
        raw = str(value).encode("utf-8")
        buf += struct.pack("<I", len(raw)) + raw + b"\0"
    elif t == "g":
        raw = str(value).encode("ascii")
        buf += bytes([len(raw)]) + raw + b"\0"
    elif t in ("u", "b"):
        buf += struct.pack("<I", int(value))
    elif t == "y":
        buf.append(int(value))
    elif t == "v":
        sig, inner = value
        encode(buf, "g", sig)
        encode(buf, sig, inner)
    elif t[0] in "({":
        for sub, item in zip(types(t[1:-1]), value, strict=True):
            encode(buf, sub, item)
    elif t[0] == "a":
        inner = t[1:]
        at = len(buf)
        buf += b"\0\0\0\0"
        buf += b"\0" * _pad(len(buf), _ALIGN[inner[0]])
        start = len(buf)
        items = value.items() if inner[0] == "{" else value
        for item in items:
            encode(buf, inner, item)
        struct.pack_into("<I", buf, at, len(buf) - start)
    else:
        raise ValueError(f"type {t!r} is not supported")


def decode(buf: bytes, pos: int, t: str) -> tuple[Any, int]:
    """The value of D-Bus type `t` at pos, and the position after it."""
    if not t or t[0] not in _ALIGN:
        raise ValueError(f"type {t!r} is not supported")
    pos += _pad(pos, _ALIGN[t[0]])
    if t in ("s", "o"):
        (n,) = struct.unpack_from("<I", buf, pos)
        return buf[pos + 4:pos + 4 + n].decode("utf-8"), pos + 5 + n
    if t == "g":
        n = buf[pos]
        return buf[pos + 1:pos + 1 + n].decode("ascii"), pos + 2 + n
    if t in ("u", "b"):
        return struct.unpack_from("<I", buf, pos)[0], pos + 4
    if t == "i":
        return struct.unpack_from("<i", buf, pos)[0], pos + 4
    if t == "y":
        return buf[pos], pos + 1
    if t == "v":
        sig, pos = decode(buf, pos, "g")
        inner, pos = decode(buf, pos, str(sig))
        return (sig, inner), pos
    if t[0] in "({":
        out = []
        for sub in types(t[1:-1]):
            item, pos = decode(buf, pos, sub)
            out.append(item)
        return tuple(out), pos
    if t[0] != "a":
        raise ValueError(f"type {t!r} is not supported")
    (n,) = struct.unpack_from("<I", buf, pos)
    pos += 4
    inner = t[1:]
    if inner == "y":
        return bytes(buf[pos:pos + n]), pos + n
    pos += _pad(pos, _ALIGN[inner[0]])
    end = pos + n
    if end > len(buf):
        raise ValueError("array runs past the message")
    items = []
    while pos < end:
        item, pos = decode(buf, pos, inner)
        items.append(item)
    return (dict(items) if inner[0] == "{" else items), pos


def method_call(serial: int, path: str, iface: str, member: str, dest: str, sig: str,
                args: tuple[Any, ...]) -> bytes:
    body = bytearray()
    for t, value in zip(types(sig), args, strict=True):
        encode(body, t, value)
    fields: list[tuple[int, tuple[str, str]]] = [
        (1, ("o", path)), (2, ("s", iface)), (3, ("s", member)), (6, ("s", dest))]
    if sig:
        fields.append((8, ("g", sig)))
    msg = bytearray(b"l\x01\x00\x01") + struct.pack("<II", len(body), serial)
    encode(msg, "a(yv)", fields)
    msg += b"\0" * _pad(len(msg), 8)
    return bytes(msg + body)


# -- the bus ----------------------------------------------------------------------------

def _bus_address() -> str:
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    for part in address.split(";"):
        kind, _, params = part.partition(":")
        if kind != "unix":
            continue
        keys = dict(p.split("=", 1) for p in params.split(",") if "=" in p)
        if "path" in keys:
            return keys["path"]
        if "abstract" in keys:
            return "\0" + keys["abstract"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.exists(os.path.join(runtime, "bus")):
        return os.path.join(runtime, "bus")
    raise NoSecretService("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")


class Bus:
    """One authenticated connection to the session bus; `call` waits for the reply."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self._buf = b""
        self._serial = 0
        try:
            self.sock.connect(_bus_address())
            uid = str(os.getuid()).encode("ascii").hex().encode("ascii")
            self.sock.sendall(b"\0AUTH EXTERNAL " + uid + b"\r\n")
            if not self._line().startswith(b"OK "):
                raise SecretServiceError("the session bus refused us")
            self.sock.sendall(b"BEGIN\r\n")
            self.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello",
                      "org.freedesktop.DBus")
        except OSError as exc:
            self.close()
            raise NoSecretService(f"the session bus cannot be used ({exc})") from None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.sock.close()

    def _line(self) -> bytes:
        while b"\r\n" not in self._buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise SecretServiceError("the session bus closed the connection")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\r\n")
        return line

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SecretServiceError("the session bus closed the connection")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def call(self, path: str, iface: str, member: str, dest: str, sig: str = "",
             *args: Any) -> list[Any]:
        self._serial += 1
        self.sock.sendall(method_call(self._serial, path, iface, member, dest, sig, args))
        while True:  # signals and other traffic may come first
            head = self._read(16)
            if head[:1] != b"l":
                raise SecretServiceError("the bus answered big-endian, which is not read here")
            body_len, _, fields_len = struct.unpack_from("<III", head, 4)
            size = fields_len + _pad(16 + fields_len, 8) + body_len
            if size > MAX_MESSAGE:
                raise SecretServiceError("the bus sent an oversized message")
            full = head + self._read(size)
            raw_fields, _ = decode(full, 12, "a(yv)")
            fields = {code: v[1] for code, v in raw_fields}
            if head[1] in (2, 3) and fields.get(5) == self._serial:
                pos = 16 + fields_len + _pad(16 + fields_len, 8)
                values = []
                for t in types(str(fields.get(8, ""))):
                    value, pos = decode(full, pos, t)
                    values.append(value)
                if head[1] == 3:
                    raise SecretServiceError(f"{fields.get(4, 'an error')}: "
                                             f"{values[0] if values else ''}")
                return values


def read_secret(service: str, username: str, timeout: float = TIMEOUT) -> str | None:
    """The secret stored for {service, username}, None when there is none; raises
    SecretServiceError when the Secret Service cannot be asked or the item is locked."""
    bus = Bus(timeout)
    try:
        try:
            try:
                _, session = bus.call(SERVICE_PATH, SERVICE_IFACE, "OpenSession",
                                      SERVICE_NAME, "sv", "plain", ("s", ""))
            except SecretServiceError as exc:
                raise NoSecretService(f"no Secret Service answers on the session bus "
                                      f"({exc})") from None
            unlocked, locked = bus.call(SERVICE_PATH, SERVICE_IFACE, "SearchItems",
                                        SERVICE_NAME, "a{ss}",
                                        {"service": service, "username": username})
            if not unlocked:
                if locked:
                    raise SecretServiceError("the keyring holding the token is locked; "
                                             "unlock it (log in to the desktop) and retry")
                return None
            item = unlocked[0]
            (found,) = bus.call(SERVICE_PATH, SERVICE_IFACE, "GetSecrets", SERVICE_NAME,
                                "aoo", [item], session)
        except OSError as exc:
            raise SecretServiceError(f"the Secret Service did not answer ({exc})") from None
        secret = found[item][2]
        return bytes(secret).decode("utf-8")
    except (ValueError, KeyError, IndexError, TypeError, struct.error) as exc:
        raise SecretServiceError(f"the Secret Service's answer could not be read ({exc})") \
            from None
    finally:
        bus.close()
