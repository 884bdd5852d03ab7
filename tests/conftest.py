"""Fixtures for tests that drive a real Chromium: the fixture-page servers, one event loop in
a background thread, one launched browser per test module, and a fresh agent tab per test.

`async def` tests run on that loop (no pytest-asyncio needed), bounded by their timeout
marker. A test fails when the engine logs a warning or an asyncio task dies unobserved.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterator

import fixture_server
import pytest
from extension_env import HOST_RULES, PERSON_TABS, ExtensionHub, chrome_call
from looprunner import DEFAULT_TIMEOUT, LoopThread, close_loop_thread, loop_thread
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import BrowserError

# the engine suite runs over each transport; TABSTEWARD_TEST_TRANSPORTS=launched narrows it
TRANSPORTS = os.environ.get("TABSTEWARD_TEST_TRANSPORTS", "launched,extension").split(",")
SETUP_HINT = ("run the README's setup (`bash packaging/bootstrap.sh test`), which installs "
              "Debian's chromium, or set TABSTEWARD_CHROMIUM to a Chromium binary")


def pytest_sessionfinish(session: pytest.Session) -> None:
    close_loop_thread()


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


@pytest.fixture(scope="module", params=TRANSPORTS)
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """One headless Chromium per test module and transport: launched (CDP over a pipe), and
    through the real extension and native host to a hub in this process. A missing browser
    fails, never skips."""
    loop = loop_thread()
    if request.param == "extension":
        yield from _over_extension(loop)
        return
    problem = ""
    try:
        launched = loop.run(Browser.launch(local_only=True, extra_args=[HOST_RULES]),
                            timeout=60)
    except BrowserError as exc:
        problem = exc.message
    if problem:
        pytest.fail(f"Chromium could not be started: {problem}. To fix: {SETUP_HINT}",
                    pytrace=False)
    yield launched
    loop.run(launched.close(), timeout=30)


def _over_extension(loop: LoopThread) -> Iterator[Browser]:
    hub = ExtensionHub([HOST_RULES])
    try:
        loop.run(hub.start(), timeout=30)
        connected = loop.run(hub.connect(), timeout=60)
        active = loop.run(chrome_call(connected, "tabs.query", {"active": True}), timeout=30)
        PERSON_TABS[connected] = sorted(t["id"] for t in active)
        yield connected
    finally:
        loop.run(hub.close(), timeout=60)


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
    if browser.kind == "extension":  # the person's tab stayed active all along
        active = loop.run(chrome_call(browser, "tabs.query", {"active": True}), timeout=30)
        assert sorted(t["id"] for t in active) == PERSON_TABS[browser], \
            "an agent tab became active in the person's browser"
    loop.run(session.close(), timeout=30)
    browser.sessions.pop(agent, None)
