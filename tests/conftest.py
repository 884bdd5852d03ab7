"""Fixtures for tests that drive a real Chromium: the fixture-page servers, one event loop in
a background thread, one launched browser per test module, and a fresh agent tab per test.

`async def` tests run on that loop (no pytest-asyncio needed), bounded by their timeout
marker. A test fails when the engine logs a warning or an asyncio task dies unobserved.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import fixture_server
import pytest
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import BrowserError

T = TypeVar("T")

# local_only keeps Chromium off the network; the second fixture site must stay reachable
HOST_RULES = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , "
              "EXCLUDE 127.0.0.2")
SETUP_HINT = ("run the README's setup (`bash packaging/bootstrap.sh test`), which installs "
              "Debian's chromium, or set TABSTEWARD_CHROMIUM to a Chromium binary")
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


def pytest_sessionfinish(session: pytest.Session) -> None:
    global _LOOP
    if _LOOP is not None:
        _LOOP.close()
        _LOOP = None


def _timeout_of(item: pytest.Function) -> float:
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    value = item.config.getini("timeout")
    return float(value) if value else DEFAULT_TIMEOUT


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests on the shared loop, cancelled a little before pytest-timeout."""
    func = pyfuncitem.obj
    if not asyncio.iscoroutinefunction(func) or pyfuncitem.get_closest_marker("anyio"):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    loop_thread().run(func(**kwargs), timeout=max(1.0, _timeout_of(pyfuncitem) - 5))
    return True


class _Problems(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture(autouse=True)
def no_engine_warnings(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a browser test whose engine logged a warning or lost an exception in a task."""
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    handler = _Problems()
    watched = [logging.getLogger("tabsteward"), logging.getLogger("asyncio")]
    for lg in watched:
        lg.addHandler(handler)
    loop = loop_thread()
    loop.problems.clear()
    try:
        yield
    finally:
        for lg in watched:
            lg.removeHandler(handler)
    problems = handler.records + loop.problems
    if problems:
        pytest.fail("the engine reported problems during the test:\n" + "\n".join(problems),
                    pytrace=False)


@pytest.fixture(scope="session")
def loop() -> LoopThread:
    """The loop the browser and the `async def` tests run on (for sync fixtures to use)."""
    return loop_thread()


@pytest.fixture(scope="session")
def site() -> Iterator[fixture_server.Site]:
    """The fixture pages, served on 127.0.0.1 and 127.0.0.2."""
    served = fixture_server.start()
    yield served
    served.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium per test module. A missing browser fails, never skips."""
    loop = loop_thread()
    try:
        launched = loop.run(Browser.launch(local_only=True, extra_args=[HOST_RULES]),
                            timeout=60)
    except BrowserError as exc:
        pytest.fail(f"Chromium could not be started: {exc.message}. To fix: {SETUP_HINT}",
                    pytrace=False)
    yield launched
    loop.run(launched.close(), timeout=30)


_agents = 0


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    """A fresh background tab of a fresh agent; the agent's tabs close after the test."""
    global _agents
    _agents += 1
    agent = f"agent{_agents}"
    session = browser.session(agent)
    loop = loop_thread()
    opened = loop.run(session.current_tab(), timeout=30)
    yield opened
    loop.run(session.close(), timeout=30)
    browser.sessions.pop(agent, None)
