"""Sans-I/O chunking of host-to-browser messages over Chrome's 1 MiB native-messaging limit.

A message whose frame would exceed the limit travels as `count` chunk messages

    {"chunk": {"id": N, "index": i, "count": n, "data": "<slice of the message's JSON text>"}}

sent in order, each frame strictly under the limit. The receiver concatenates the `data`
strings of one `id` in `index` order and parses the result. The extension side is:

    const parts = new Map();               // id -> array of data strings
    function join(msg) {                   // returns the whole message, or null for now
      if (!msg.chunk) return msg;
      const {id, index, count, data} = msg.chunk;
      const got = parts.get(id) || [];
      got[index] = data; parts.set(id, got);
      if (got.filter((s) => s !== undefined).length < count) return null;
      parts.delete(id);
      return JSON.parse(got.join(""));
    }

`Joiner` below is the same in Python (tests use it).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .framing import HEADER, NATIVE_TO_BROWSER_MAX, FrameError

# room for {"chunk":{"id":..,"index":..,"count":..,"data":""}} with 20-digit numbers
_OVERHEAD = 128


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(HEADER, sys.byteorder) + body


def _chunk_body(chunk_id: int, index: int, count: int, data: str) -> bytes:
    msg = {"chunk": {"id": chunk_id, "index": index, "count": count, "data": data}}
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode()


def _slices(text: str, budget: int) -> list[str]:
    """Cut `text` so that each piece, JSON-encoded as a string, takes at most `budget` bytes."""
    out: list[str] = []
    start = 0
    while start < len(text):
        n = min(budget, len(text) - start)
        while True:
            size = len(json.dumps(text[start:start + n], ensure_ascii=False).encode())
            if size <= budget:
                break
            n = max(1, min(n - 1, n * budget // size))
        out.append(text[start:start + n])
        start += n
    return out


def split_for_browser(body: bytes, chunk_id: int = 0,
                      limit: int = NATIVE_TO_BROWSER_MAX) -> list[bytes]:
    """The frames that carry one message (its UTF-8 JSON `body`) to the browser.

    One frame when it fits; otherwise chunk messages whose frames are each under `limit`
    bytes, header included. `chunk_id` tells the chunks of concurrent messages apart.
    """
    if HEADER + len(body) < limit:
        return [_frame(body)]
    budget = limit - HEADER - _OVERHEAD - 1
    if budget < 16:
        raise FrameError(f"a {limit}-byte limit leaves no room for chunks; nothing was split")
    text = body.decode("utf-8")
    pieces = _slices(text, budget)
    frames = [_frame(_chunk_body(chunk_id, i, len(pieces), p)) for i, p in enumerate(pieces)]
    assert all(len(f) < limit for f in frames)
    return frames


class Joiner:
    """Feed browser-bound messages in order; whole messages come back, chunks are held."""

    def __init__(self) -> None:
        self._parts: dict[int, dict[int, str]] = {}

    def feed(self, message: Any) -> Any | None:
        if not (isinstance(message, dict) and isinstance(message.get("chunk"), dict)):
            return message
        chunk = message["chunk"]
        got = self._parts.setdefault(int(chunk["id"]), {})
        got[int(chunk["index"])] = str(chunk["data"])
        count = int(chunk["count"])
        if len(got) < count:
            return None
        del self._parts[int(chunk["id"])]
        return json.loads("".join(got[i] for i in range(count)))
