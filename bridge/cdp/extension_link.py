"""One connected browser extension as the hub holds it: its hello, calls to it, its events.

The native host relays frames without looking inside; this is where the hub checks them.
A bad message from the extension is logged and dropped (the link stays up); a bad frame or
a wrong protocol version closes the link. See extension/PROTOCOL.md.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import BrowserError, PolicyError, TabError, TabstewardError, UsageError
from ..native import framing

log = logging.getLogger("tabsteward.extension")

PROTOCOL = 1
HELLO_TIMEOUT = 10.0
EVENTS = frozenset({"debugger.detached", "debugger.event", "tabs.removed", "tabs.updated",
                    "tabs.created", "tabs.opened", "downloads.created", "downloads.changed",
                    "agents.stopped", "nav.event", "nav.blocked", "net.data"})
_LABEL = re.compile(r"[^\x00-\x1f\x7f]{0,64}")

EventHandler = Callable[[str, list[Any]], None]


@dataclass
class Hello:
    """Who the extension is: checked fields of its hello."""

    install: str
    name: str
    profile: str
    user_agent: str
    stopped: bool
    abilities: frozenset[str] = frozenset()  # what it can do beyond its protocol


def check_hello(message: Any) -> Hello:
    """The hello's fields, or UsageError saying what is wrong with it."""
    if not isinstance(message, dict) or message.get("type") != "hello":
        raise UsageError("the extension's first message is not a hello; the link was closed")
    protocol = message.get("protocol")
    if protocol != PROTOCOL:
        raise UsageError(f"the extension speaks protocol {protocol!r}, this hub speaks "
                         f"{PROTOCOL}; the link was closed (update the extension or Tabsteward "
                         "so they match)")
    install = message.get("install")
    if not isinstance(install, str) or not re.fullmatch(r"[\w-]{8,64}", install):
        raise UsageError("the extension's hello has no valid install id; the link was closed")
    agent = _label(message.get("browser"), "browser", 512)
    name = _label(message.get("name"), "name", 64).strip()
    abilities = message.get("abilities", [])
    if not isinstance(abilities, list) or len(abilities) > 32 or not all(
            isinstance(a, str) and re.fullmatch(r"[\w.-]{1,64}", a) for a in abilities):
        raise UsageError("the extension's hello has a bad abilities field; the link was closed")
    return Hello(install=install, name=name or _brand(agent),
                 profile=_label(message.get("profile"), "profile", 64).strip(),
                 user_agent=agent, stopped=message.get("stopped") is True,
                 abilities=frozenset(abilities))


def _label(value: Any, what: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit or not value.isprintable():
        raise UsageError(f"the extension's hello has a bad {what} field; the link was closed")
    return value


def _brand(user_agent: str) -> str:
    for mark, name in (("Edg/", "edge"), ("Brave", "brave"), ("OPR/", "opera")):
        if mark in user_agent:
            return name
    return "chromium"


class ExtensionCallError(Exception):
    """A call the extension answered with an error: its numeric code and message."""

    def __init__(self, call: str, code: int, message: str) -> None:
        super().__init__(f"{call}: {message}")
        self.call = call
        self.code = code
        self.message = message

    def as_error(self, what: str) -> TabstewardError:
        """The Tabsteward error for this refusal, saying `what` did not happen."""
        if self.code == PolicyError.code:
            return PolicyError(f"{self.message} ({what})")
        if self.code == TabError.code:
            return TabError(f"{what}: {self.message}")
        if self.code == UsageError.code:
            return UsageError(f"{what}: the extension refused {self.call}: {self.message}")
        return BrowserError(f"{what}: {self.message}")


class ExtensionLink:
    """Calls to and events from one extension over the hub-side socket of its native host."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 decoder: framing.Decoder, early: list[Any] | None = None) -> None:
        self._reader = reader
        self._writer = writer
        self._decoder = decoder
        self._ids = itertools.count(1)
        self._next_id = 1
        self._pending: dict[int, tuple[asyncio.Future[Any], str]] = {}
        self._handlers: list[EventHandler] = []
        self._inbox: list[Any] = [*(early or []), *decoder.messages()]
        self.hello: Hello | None = None
        self.on_hello: Callable[[Hello], None] | None = None
        self.closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.dropped = 0  # malformed messages dropped

    async def start(self, timeout: float = HELLO_TIMEOUT) -> Hello:
        """Wait for the hello (UsageError when it is missing or wrong)."""
        async with asyncio.timeout(timeout):
            while not self._inbox:
                data = await self._reader.read(framing.HEADER + 65536)
                if not data:
                    raise UsageError("the extension closed the link before its hello")
                self._decoder.feed(data)
                self._inbox += self._decoder.messages()
        self.hello = check_hello(self._inbox.pop(0))
        return self.hello

    async def run(self) -> None:
        """Read until the link closes; then fail every pending call."""
        reason = "the extension's native host closed the link"
        try:
            for message in self._inbox:
                self._dispatch(message)
            self._inbox = []
            while True:
                data = await self._reader.read(1 << 20)
                if not data:
                    break
                try:
                    self._decoder.feed(data)
                except framing.FrameError as exc:
                    reason = f"the extension sent a bad frame ({exc})"
                    log.warning("%s; closing the link", reason)
                    break
                for message in self._decoder.messages():
                    self._dispatch(message)
        except (ConnectionError, OSError) as exc:
            reason = f"the link to the extension broke ({exc})"
        finally:
            self._close(reason)

    def on_event(self, handler: EventHandler) -> None:
        self._handlers.append(handler)

    async def call(self, name: str, *args: Any, timeout: float | None = 30.0) -> Any:
        """Call an allow-listed chrome.* function; its result, or ExtensionCallError."""
        if self.closed.done():
            raise BrowserError(f"the browser extension is gone ({self.closed.result()}); "
                               f"{name} was not sent")
        msg_id = next(self._ids)
        self._next_id = msg_id + 1
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (fut, name)
        try:
            self._writer.write(framing.encode({"id": msg_id, "call": name,
                                               "args": list(args)}))
            await self._writer.drain()
            if timeout is None:
                return await fut
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            raise BrowserError(f"the browser extension did not answer {name} within "
                               f"{timeout:g} s") from None
        except ConnectionError as exc:
            raise BrowserError(f"the link to the extension broke ({exc}); {name} may not "
                               "have been done") from None
        finally:
            self._pending.pop(msg_id, None)
            if not fut.done():
                fut.cancel()
            elif not fut.cancelled():
                fut.exception()  # the link closing set it while the write failed: seen here

    def notify(self, kind: str, **fields: Any) -> None:
        """Tell the extension something it shows (no reply); dropped when the link is gone."""
        if not self.closed.done() and not self._writer.is_closing():
            self._writer.write(framing.encode({"notify": kind, **fields}))

    def close(self) -> None:
        self._writer.close()
        self._close("closed by the hub")

    # -- inside --
    def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            self._drop("a message that is not an object")
            return
        if "id" in message:
            self._reply(message)
        elif "event" in message:
            name, args = message.get("event"), message.get("args")
            if not isinstance(name, str) or name not in EVENTS or not isinstance(args, list):
                self._drop(f"an unknown or malformed event {str(name)[:40]!r}")
                return
            for handler in list(self._handlers):
                try:
                    handler(str(name), args)
                except Exception:  # one broken listener must not stop the others
                    log.exception("extension event handler failed on %s", name)
        elif message.get("type") == "hello":
            try:
                hello = check_hello(message)
            except UsageError as exc:
                self._drop(exc.message)
                return
            self.hello = hello
            if self.on_hello is not None:
                self.on_hello(hello)
        else:
            self._drop("a message that is neither a reply, an event nor a hello")

    def _reply(self, message: dict[str, Any]) -> None:
        msg_id = message.get("id")
        entry = self._pending.get(msg_id) if isinstance(msg_id, int) else None
        if entry is None:
            if isinstance(msg_id, int) and 0 < msg_id < self._next_id:
                log.info("a reply came after its call gave up (id %d)", msg_id)
            else:
                self._drop(f"a reply to no call (id {str(msg_id)[:20]})")
            return
        fut, name = entry
        if fut.done():
            return
        error = message.get("error")
        if error is not None:
            code = error.get("code") if isinstance(error, dict) else None
            text = error.get("message") if isinstance(error, dict) else None
            fut.set_exception(ExtensionCallError(
                name, code if isinstance(code, int) else BrowserError.code,
                str(text)[:2000] if text else "the browser reported an error"))
        else:
            fut.set_result(message.get("result"))

    def _drop(self, what: str) -> None:
        self.dropped += 1
        log.warning("dropped %s from the extension", what)

    def _close(self, reason: str) -> None:
        if self.closed.done():
            return
        self.closed.set_result(reason)
        for fut, name in self._pending.values():
            if not fut.done():
                fut.set_exception(BrowserError(
                    f"the browser extension went away ({reason}) before {name} answered"))
        self._pending.clear()
        if not self._writer.is_closing():
            self._writer.close()
