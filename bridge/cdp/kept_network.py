"""The Network domain kept on between actions, per DevTools session, on both transports.

The engine switches Network on just before it sends input and off right after (to hear what
the page posts in reply): an enable is a round trip before every click, fill or key press
(1 to 3 ms over plain CDP, 5 to 10 through chrome.debugger). Here the first Network.enable
of a session is sent and later ones are answered with its answer, and Network.disable is
answered without sending: the domain stays on while the agent keeps acting. Through the
extension it goes off with the debugger, which leaves after a short idle time; over plain
CDP the disable is sent once no enable came for `idle` seconds (the same time), so a page's
own traffic is not streamed to the hub for long after its last action. The engine records
only the events that come while its action runs, so what it reports is the same.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

Send = Callable[[], Awaitable[dict[str, Any]]]

log = logging.getLogger("tabsteward.cdp")

IDLE = 10.0  # seconds; the extension's idle debugger detach (background.js)


class KeptNetwork:
    """Per session: the Network.enable sent on it (its parameters and answer), and over
    plain CDP the disable waiting for the session to idle."""

    def __init__(self, idle: float | None = None) -> None:
        self.idle = idle  # None: the domain goes off only with the session (`forget`)
        self._on: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._off: dict[str, asyncio.TimerHandle] = {}
        self._sending: set[asyncio.Task[Any]] = set()

    async def enable(self, session: str, params: dict[str, Any], send: Send
                     ) -> dict[str, Any]:
        """Network.enable on `session`: sent once (again when other parameters are asked
        for, or when the last one failed); its answer."""
        self._keep_on(session)
        key = json.dumps(params, sort_keys=True)
        known = self._on.get(session)
        if known is None or known[0] != key or _failed(known[1]):
            fut = asyncio.ensure_future(send())
            fut.add_done_callback(_seen)
            known = self._on[session] = (key, fut)
        return await asyncio.shield(known[1])

    def keeps(self, session: str) -> bool:
        """Whether Network is on for `session` by an enable that did not fail (a disable is
        then answered without sending)."""
        known = self._on.get(session)
        return known is not None and not _failed(known[1])

    def release(self, session: str, send_off: Send) -> None:
        """The engine is done listening on `session`: with `idle`, `send_off` (the real
        disable) runs once no enable came for that long; without, never."""
        if self.idle is None:
            return
        self._keep_on(session)
        loop = asyncio.get_running_loop()
        self._off[session] = loop.call_later(self.idle, self._switch_off, session, send_off)

    def forget(self, session: str) -> None:
        """The session ended or began: it has Network off."""
        self._keep_on(session)
        self._on.pop(session, None)

    def close(self) -> None:
        """The connection is gone: nothing more is sent."""
        for timer in self._off.values():
            timer.cancel()
        self._off.clear()
        self._on.clear()

    def _keep_on(self, session: str) -> None:
        timer = self._off.pop(session, None)
        if timer is not None:
            timer.cancel()

    def _switch_off(self, session: str, send_off: Send) -> None:
        """Idle: forgotten first, so an enable from now on is sent again (after this
        disable, on the same session, so the browser takes them in that order)."""
        self._off.pop(session, None)
        self._on.pop(session, None)
        task = asyncio.ensure_future(send_off())
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[Any]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # the session or the browser went away meanwhile: nothing is on any more
            log.debug("Network.disable after idling failed: %s", task.exception())


def _failed(fut: asyncio.Future[dict[str, Any]]) -> bool:
    return fut.done() and (fut.cancelled() or fut.exception() is not None)


def _seen(fut: asyncio.Future[dict[str, Any]]) -> None:
    """Mark a failed enable's error as retrieved (its callers got it already)."""
    if not fut.cancelled():
        fut.exception()
