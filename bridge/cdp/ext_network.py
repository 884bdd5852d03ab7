"""The Network domain kept on for a debugger session's life, over the extension.

The engine switches Network on just before it sends input and off right after (to hear what
the page posts in reply). Through chrome.debugger, Network.enable costs 5 to 10 ms, against
1 to 3 over plain CDP: on every click, before its input. Here the first Network.enable of a
debugger session is sent and later ones are answered with its answer, and Network.disable is
answered without sending: the domain stays on until the session ends, which is soon (the
debugger leaves after a short idle time). The engine records only the events that come
while its action runs, so what it reports is the same.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

Send = Callable[[], Awaitable[dict[str, Any]]]


class KeptNetwork:
    """Per debugger session: the Network.enable sent on it (its parameters and answer)."""

    def __init__(self) -> None:
        self._on: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}

    async def enable(self, session: str, params: dict[str, Any], send: Send
                     ) -> dict[str, Any]:
        """Network.enable on `session`: sent once (again when other parameters are asked
        for, or when the last one failed); its answer."""
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

    def forget(self, session: str) -> None:
        """The debugger session ended or began: it has Network off."""
        self._on.pop(session, None)


def _failed(fut: asyncio.Future[dict[str, Any]]) -> bool:
    return fut.done() and (fut.cancelled() or fut.exception() is not None)


def _seen(fut: asyncio.Future[dict[str, Any]]) -> None:
    """Mark a failed enable's error as retrieved (its callers got it already)."""
    if not fut.cancelled():
        fut.exception()
