"""An asyncio loop in a daemon thread, shared by the browser tests: sync fixtures and the
test runner hand it coroutines (no pytest-asyncio needed)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
DEFAULT_TIMEOUT = 120.0


class LoopThread:
    """An asyncio loop running in a daemon thread; `run` executes a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.problems: list[str] = []
        self.loop.set_exception_handler(self._on_exception)
        self._thread = threading.Thread(target=self._main, name="test-loop", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def _on_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        self.problems.append(f"{context.get('message')}: {exc!r}")
        loop.default_exception_handler(context)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = DEFAULT_TIMEOUT) -> T:
        """Run coro on the loop; after `timeout` s it is cancelled (its traceback shows where
        it hung)."""
        async def bounded() -> T:
            async with asyncio.timeout(timeout):
                return await coro

        fut = asyncio.run_coroutine_threadsafe(bounded(), self.loop)
        try:
            return fut.result()
        finally:  # interrupted (pytest-timeout, ^C): do not leave the coroutine running
            if not fut.done():
                fut.cancel()
                concurrent.futures.wait([fut], timeout=5)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self.loop.close()


_LOOP: LoopThread | None = None


def loop_thread() -> LoopThread:
    global _LOOP
    if _LOOP is None:
        _LOOP = LoopThread()
    return _LOOP


def close_loop_thread() -> None:
    global _LOOP
    if _LOOP is not None:
        _LOOP.close()
        _LOOP = None
