"""The SDK's one pipelined connection to the hub: requests framed out with their ids,
replies matched to the calls that wait for them, notices handed to the calls' listeners."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ..errors import HubUnavailable, UsageError, from_wire
from ..native import framing

log = logging.getLogger("tabsteward.bridge.sdk")

_READ_CHUNK = 256 * 1024
# told what a call waits for when the hub holds it for the person: {"id", "summary", ...}
Pending = Callable[[dict[str, Any]], None]


class Connection:
    """One socket to the hub: frames out, a reader task matching replies to futures by id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 token: str) -> None:
        self._reader = reader
        self._writer = writer
        self._token = token
        self._decoder = framing.Decoder()
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str]] = {}
        self._notices: dict[int, Pending] = {}
        self._next_id = 0
        # An error the hub sent about the connection itself (a reply with no id), if any.
        self._hub_error: dict[str, Any] | None = None
        self.lost: str | None = None
        self._task = asyncio.get_running_loop().create_task(self._read_loop(),
                                                            name="tabsteward-sdk-reader")

    @property
    def open(self) -> bool:
        return self.lost is None

    async def request(self, body: dict[str, Any], label: str,
                      on_pending: Pending | None = None) -> dict[str, Any]:
        """Send one request and wait for the reply with its id; `label` names it in errors,
        `on_pending` hears when it waits for the person."""
        if self.lost is not None:
            raise HubUnavailable(f"{label} was not sent: {self.lost}")
        self._next_id += 1
        rid = self._next_id
        try:
            frame = framing.encode({"id": rid, "token": self._token, **body})
        except framing.FrameError as exc:
            raise UsageError(f"{label}: {exc}") from exc
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = (future, label)
        if on_pending is not None:
            self._notices[rid] = on_pending
        try:
            self._writer.write(frame)
            try:
                await self._writer.drain()
            except OSError as exc:
                self._fail_all(f"the connection to the hub broke ({exc})")
            return await future
        finally:
            self._pending.pop(rid, None)
            self._notices.pop(rid, None)

    async def _read_loop(self) -> None:
        reason = "the hub closed the connection"
        try:
            while True:
                chunk = await self._reader.read(_READ_CHUNK)
                if not chunk:
                    break
                self._decoder.feed(chunk)
                for message in self._decoder.messages():
                    self._dispatch(message)
        except framing.FrameError as exc:
            reason = f"the hub sent a malformed frame ({exc}), so the connection was closed"
        except OSError as exc:
            reason = f"the connection to the hub broke ({exc})"
        finally:
            self._fail_all(reason)
            self._writer.close()

    def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            log.warning("ignored a hub message that is not a JSON object")
            return
        rid = message.get("id")
        entry = self._pending.get(rid) if isinstance(rid, int) else None
        if entry is not None and "ok" not in message and ("pending" in message or
                                                          "progress" in message):
            key = "progress" if "progress" in message else "pending"
            pending = message[key] if isinstance(message[key], dict) else {}
            if key == "progress":  # a step of a long command: listeners tell them apart
                pending = {"progress": pending}
            else:
                log.info("%s waits for the person (%s): %s", entry[1], pending.get("id"),
                         pending.get("summary"))
            listener = self._notices.get(rid) if isinstance(rid, int) else None
            if listener is not None:
                try:
                    listener(pending)
                except Exception:  # a listener's failure must not lose the reply
                    log.exception("the pending listener of %s failed", entry[1])
            return
        if entry is not None:
            if not entry[0].done():
                entry[0].set_result(message)
            return
        error = message.get("error")
        if rid is None and isinstance(error, dict):
            self._hub_error = error
            log.warning("the hub refused this connection: %s", error.get("message"))
            return
        log.debug("ignored a reply to request %r, which nobody awaits any more", rid)

    def _fail_all(self, reason: str) -> None:
        """Mark the connection lost and fail every call still waiting for a reply."""
        if self.lost is None:
            self.lost = reason
        for future, label in list(self._pending.values()):
            if future.done():
                continue
            if self._hub_error is not None:
                future.set_exception(from_wire(self._hub_error))
            else:
                future.set_exception(HubUnavailable(
                    f"{label} got no answer: {reason}; it may or may not have run"))

    async def close(self) -> None:
        self._fail_all("this client closed the connection")
        self._task.cancel()
        await asyncio.wait([self._task])
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError as exc:
            log.debug("closing the hub connection reported %s", exc)


async def open_socket(path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect to the hub's socket; HubUnavailable when nothing listens there."""
    try:
        return await asyncio.open_unix_connection(path)
    except (FileNotFoundError, ConnectionRefusedError) as exc:
        raise HubUnavailable(f"no hub answers at {path}", socket=path) from exc
    except OSError as exc:
        raise HubUnavailable(f"could not connect to the hub at {path}: {exc}",
                             socket=path) from exc
