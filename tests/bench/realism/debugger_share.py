"""How long a debugger (and Chrome's "is debugging this browser" bar) is attached while the
extension transport's agent works: the service worker is asked over the browser's
DevTools port (outside the hub) every 100 ms; a task's share is the polls within it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

POLL = 0.1
ATTACHED = ("chrome.debugger.getTargets().then(ts => ts.filter(t => t.attached && "
            "t.tabId !== undefined).length)")


class DebuggerPoll:
    """Polls in a thread of its own, from start() to stop(): (monotonic time, attached)."""

    def __init__(self, profile: Any, devtools: Callable[[Any], Awaitable[Any]],
                 in_worker: Callable[[Any, str], Awaitable[Any]]) -> None:
        self._profile, self._devtools, self._in_worker = profile, devtools, in_worker
        self.polls: list[tuple[float, bool]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    async def _run(self) -> None:
        dt = await self._devtools(self._profile)
        try:
            while not self._stop.is_set():
                n = await self._in_worker(dt, ATTACHED)
                self.polls.append((time.monotonic(), bool(n)))
                await asyncio.sleep(POLL)
        finally:
            await dt.close()

    def share(self, start: float, end: float) -> tuple[int, int]:
        """(polls that saw a debugger, all polls) between two monotonic times."""
        seen = [attached for t, attached in list(self.polls) if start <= t <= end]
        return sum(seen), len(seen)
