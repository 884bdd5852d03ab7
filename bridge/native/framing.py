"""Sans-I/O framing: a 32-bit native-order length, then that many bytes of UTF-8 JSON.

Native messaging uses this framing, and so does the hub's local socket, so one codec
serves the native host, the hub and every client. Bytes go in; frame bodies (`Splitter`, for
the host's relay) or parsed messages (`Decoder`) come out.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HEADER = 4
# Chrome refuses host-to-browser messages over 1 MiB; browser-to-host may be larger.
NATIVE_TO_BROWSER_MAX = 1024 * 1024
DEFAULT_MAX = 64 * 1024 * 1024


class FrameError(ValueError):
    """The byte stream is not valid framing; the connection must be closed."""


def encode(message: Any, max_size: int = DEFAULT_MAX) -> bytes:
    """One message as a frame; refuses what the reader would refuse."""
    try:
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError as exc:  # a lone surrogate: no UTF-8 for it
        raise FrameError(f"message is not valid Unicode ({exc.reason}); it was not "
                         "sent") from None
    if len(body) > max_size:
        raise FrameError(f"message of {len(body)} bytes is over the {max_size}-byte limit; "
                         "it was not sent")
    return len(body).to_bytes(HEADER, sys.byteorder) + body


class Splitter:
    """Feed bytes with `feed`; take whole frame bodies, unparsed, with `bodies` (what a relay
    needs). With `utf8` a body that is not UTF-8 fails the stream."""

    def __init__(self, max_size: int = DEFAULT_MAX, utf8: bool = True) -> None:
        self.max_size = max_size
        self.utf8 = utf8
        self._buf = bytearray()
        self._out: list[bytes] = []
        self.failed: FrameError | None = None

    def feed(self, data: bytes) -> None:
        if self.failed:
            raise self.failed
        self._buf += data
        while len(self._buf) >= HEADER:
            size = int.from_bytes(self._buf[:HEADER], sys.byteorder)
            if size > self.max_size:
                self.failed = FrameError(f"frame of {size} bytes announced, over the "
                                         f"{self.max_size}-byte limit")
                raise self.failed
            if len(self._buf) < HEADER + size:
                break
            body = bytes(self._buf[HEADER:HEADER + size])
            del self._buf[:HEADER + size]
            if self.utf8:
                try:
                    body.decode("utf-8")
                except UnicodeDecodeError as exc:
                    self.failed = FrameError(f"frame is not UTF-8: {str(exc)[:200]}")
                    raise self.failed from None
            self._out.append(body)

    def bodies(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    @property
    def pending(self) -> int:
        """Bytes received that do not yet make a whole frame."""
        return len(self._buf)


class Decoder:
    """Feed bytes with `feed`; take whole messages (parsed JSON) with `messages`."""

    def __init__(self, max_size: int = DEFAULT_MAX) -> None:
        self._frames = Splitter(max_size, utf8=False)  # checked below, as it is decoded
        self._out: list[Any] = []
        self.failed: FrameError | None = None

    def feed(self, data: bytes) -> None:
        if self.failed:
            raise self.failed
        try:
            self._frames.feed(data)
        except FrameError as exc:
            self._parse()  # the whole frames before the bad one still count
            self.failed = exc
            raise
        self._parse()

    def _parse(self) -> None:
        for body in self._frames.bodies():
            try:  # decoded first: json.loads would also take UTF-16 and a BOM
                self._out.append(json.loads(body.decode("utf-8")))
            except (ValueError, RecursionError) as exc:  # ValueError: bad UTF-8 or JSON,
                # or an integer too long to convert; RecursionError: nested too deep
                self.failed = FrameError(f"frame is not UTF-8 JSON: {str(exc)[:200]}")
                raise self.failed from exc

    def messages(self) -> list[Any]:
        out, self._out = self._out, []
        return out

    @property
    def pending(self) -> int:
        """Bytes received that do not yet make a whole frame."""
        return self._frames.pending
