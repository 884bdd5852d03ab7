"""One async CDP interface: commands with optional session ids, replies matched, events pushed.

Concrete transports (a launched Chromium's pipe, a DevTools WebSocket, later the extension)
only move whole JSON messages; matching replies to requests lives here, once.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from ..errors import BrowserError, CDPError
from .kept_network import IDLE, KeptNetwork

log = logging.getLogger("tabsteward.cdp")

EventHandler = Callable[[str, dict[str, Any], str | None], None]
Command = tuple[str, dict[str, Any], str | None]  # method, params, session id
Answer = dict[str, Any] | Exception
DEFAULT_TIMEOUT = 30.0
# An isolated world that holds no page helper (the shield's, engine/shield.py): every
# transport makes it as Page.createIsolatedWorld does, none answers with a world of its own
BARE_WORLD = "tabsteward-bare"
SESSION_GONE = "its session was detached (the frame or tab went away) before it answered"


# an agent tab's data request (fetch, XMLHttpRequest) begun and answered, as the extension's
# worker hears them with no debugger (chrome.webRequest; ext_events.py): events of ours, so
# that they only say what a look waits for, never what the page sent (engine/sent.py)
DATA_BEGUN = "Tabsteward.dataRequested"
DATA_ANSWERED = "Tabsteward.dataAnswered"


class CDPConnection:
    """Request/reply matching and event fan-out over a message transport.

    Subclasses implement `_send_raw(text)` and call `_on_message(text)` for each message
    received and `_on_closed(reason)` once when the link is gone.
    """

    # whether the engine's page helper goes in its own world of each document as the
    # document starts (Page.addScriptToEvaluateOnNewDocument with a worldName); not over
    # the extension, which puts it in the extension's world itself
    helper_at_start = True
    # whether the page's data requests (fetch, XMLHttpRequest) are told without the Network
    # domain (engine/sent.py DATA_BEGUN): over the extension, whose worker hears them
    hears_data = False

    def outlives_sessions(self, context: int) -> bool:
        """Whether an execution context stays a tab's through a new debugger session (none
        does over plain CDP; over the extension, a world read through chrome.scripting)."""
        return False

    async def data_pending(self, session_id: str) -> set[str]:
        """The page's data requests begun and not answered that events may not have told
        yet (over the extension, see there); the ids its DATA_BEGUN events carry."""
        return set()

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        # id -> (its future, method, session)
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, str | None]] = {}
        self._handlers: list[EventHandler] = []
        self.closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._network = KeptNetwork(IDLE)  # on between actions (kept_network.py)

    # -- the interface -------------------------------------------------------------
    async def send(self, method: str, params: dict[str, Any] | None = None,
                   session_id: str | None = None,
                   timeout: float | None = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Send one command and return its result, or raise CDPError / BrowserError. A
        session's Network domain stays on between the engine's actions (kept_network.py)."""
        if session_id and method == "Network.enable":
            return await self._network.enable(session_id, params or {}, lambda: self._command(
                method, params, session_id, timeout))
        if session_id and method == "Network.disable" and self._network.keeps(session_id):
            self._network.release(session_id, lambda: self._command(
                method, params, session_id, timeout))
            return {}
        return await self._command(method, params, session_id, timeout)

    async def _command(self, method: str, params: dict[str, Any] | None,
                       session_id: str | None, timeout: float | None) -> dict[str, Any]:
        self.check_open(method)
        msg_id = next(self._ids)
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (fut, method, session_id)
        try:
            await self._send_raw(json.dumps(message))
            if timeout is None:
                return await fut
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            raise BrowserError(f"{method} got no answer within {timeout:g} s") from None
        finally:
            self._pending.pop(msg_id, None)

    async def sequence(self, steps: list[list[Command]],
                       timeout: float | None = DEFAULT_TIMEOUT, *,
                       hold: int | None = None) -> list[list[Answer]]:
        """Commands in steps: each step's sent together, the next step once they all
        answered; after a step with a failure nothing more is sent, nor after step `hold`
        (one Runtime.evaluate) when it answered false. The answers, step by step: a result,
        or the error (BrowserError "not sent" for one not sent). A transport may do it in
        fewer trips (the extension: one)."""
        out: list[list[Answer]] = []
        stop = False
        for n, step in enumerate(steps):
            if stop:
                out.append([not_sent(method) for method, _, _ in step])
                continue
            got = await asyncio.gather(*(self.send(m, p, s, timeout) for m, p, s in step),
                                       return_exceptions=True)
            for answer in got:
                if not isinstance(answer, dict | Exception):
                    raise answer  # cancelled
            out.append([a for a in got if isinstance(a, dict | Exception)])
            stop = held(out[-1]) if n == hold else \
                any(isinstance(a, Exception) for a in out[-1])
        return out

    def check_open(self, method: str) -> None:
        if self.closed.done():
            raise BrowserError(f"the browser connection is closed ({self.closed.result()}); "
                               f"{method} was not sent")

    def on_event(self, handler: EventHandler) -> Callable[[], None]:
        """Call `handler(method, params, session_id)` for every event; returns an unsubscribe."""
        self._handlers.append(handler)

        def remove() -> None:
            if handler in self._handlers:
                self._handlers.remove(handler)
        return remove

    async def close(self) -> None:
        self._on_closed("closed by Tabsteward")

    async def label_tab(self, target_id: str, agent: str) -> None:
        """Show the person which agent owns a new tab, where the transport can (a tab group
        through the extension); nothing here."""

    def show_agents(self, agents: list[dict[str, Any]]) -> None:
        """Show the person which agents use the browser, where the transport can."""

    # -- for subclasses --------------------------------------------------------------
    async def _send_raw(self, text: str) -> None:
        raise NotImplementedError

    def _on_message(self, text: str | bytes) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            log.warning("dropped a message that is not JSON (%d bytes)", len(text))
            return
        if not isinstance(message, dict):
            return
        msg_id = message.get("id")
        if isinstance(msg_id, int):
            entry = self._pending.get(msg_id)
            if entry is None:
                return
            fut, method, _session = entry
            if fut.done():
                return
            if "error" in message:
                err = message["error"] if isinstance(message["error"], dict) else {}
                fut.set_exception(CDPError(method, str(err.get("message", "unknown error")),
                                           err.get("code")))
            else:
                result = message.get("result")
                fut.set_result(result if isinstance(result, dict) else {})
            return
        event = message.get("method")
        if isinstance(event, str):
            params = message.get("params")
            session = message.get("sessionId")
            for handler in list(self._handlers):
                try:
                    handler(event, params if isinstance(params, dict) else {},
                            session if isinstance(session, str) else None)
                except Exception:  # a broken listener must not stop the others
                    log.exception("event handler failed on %s", event)
            if event == "Target.detachedFromTarget" and isinstance(params, dict):
                self._session_gone(params.get("sessionId"))

    def _session_gone(self, session_id: Any) -> None:
        """Fail the commands a detached session will never answer (a frame that moved to
        another process: Chrome drops them)."""
        if not isinstance(session_id, str):
            return
        self._network.forget(session_id)
        for fut, method, session in self._pending.values():
            if session == session_id and not fut.done():
                fut.set_exception(CDPError(method, SESSION_GONE))

    def _on_closed(self, reason: str) -> None:
        if self.closed.done():
            return
        self.closed.set_result(reason)
        self._network.close()
        for fut, method, _session in self._pending.values():
            if not fut.done():
                fut.set_exception(BrowserError(
                    f"the browser connection closed ({reason}) before {method} answered"))
        self._pending.clear()
        for handler in list(self._handlers):
            try:
                handler("Tabsteward.disconnected", {"reason": reason}, None)
            except Exception:
                log.exception("disconnect handler failed")


def held(answers: list[Answer]) -> bool:
    """Whether a sequence's `hold` step answered false (what comes after it is not sent);
    a read that failed holds nothing back."""
    first = answers[0] if answers else None
    return isinstance(first, dict) and first.get("result", {}).get("value") is False


def not_sent(method: str) -> BrowserError:
    return BrowserError(f"{method} was not sent: a command before it in its sequence failed")
