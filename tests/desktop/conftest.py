"""Fixtures for the tray app's tests: Qt offscreen, the qasync loop on the main thread, and
private HOME/XDG folders so nothing touches the person's own config, keys or log.

Async work runs with `qrun(coro)` on the session's qasync loop (never a nested Qt loop: no
`qtbot.waitUntil`, `qtbot.wait`, `QTest.qWait` or `exec()`), bounded by a timeout.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from hub_env import FOLDERS
from PySide6.QtWidgets import QApplication

T = TypeVar("T")
QRun = Callable[..., Any]


@pytest.fixture
def private_home(tmp_path_factory: pytest.TempPathFactory,
                 monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """HOME and the XDG folders of this test, in a fresh short folder under /tmp."""
    root = tmp_path_factory.mktemp("tsd")
    env = {}
    for var, sub in FOLDERS.items():
        path = root / sub
        path.mkdir(mode=0o700)
        env[var] = str(path)
        monkeypatch.setenv(var, str(path))
    monkeypatch.delenv("TABSTEWARD_TOKEN", raising=False)
    return env


@pytest.fixture(scope="session")
def aloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    """The qasync loop over the session's QApplication, closed at the end of the session.
    One for all tests, as the app has one: a subprocess or a transport that outlives a test
    must never call back into a loop already closed (which crashes Qt)."""
    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            yield loop
    finally:
        asyncio.set_event_loop(None)


@pytest.fixture
def qrun(aloop: asyncio.AbstractEventLoop) -> Callable[[Awaitable[T], float], T]:
    """Run a coroutine to its end on the qasync loop, failing after `timeout` seconds."""

    def run(coro: Awaitable[T], timeout: float = 30.0) -> T:
        return aloop.run_until_complete(asyncio.wait_for(coro, timeout))

    return run


@pytest.fixture(autouse=True)
def no_windows_left(qapp: QApplication) -> Iterator[None]:
    """Close every window a test leaves open: a dialog still open (say, a modal file
    dialog) would otherwise take the next test's clicks."""
    yield
    for widget in qapp.topLevelWidgets():
        if widget.isVisible():
            widget.close()
        if widget.isModal() or widget.isWindow():
            widget.hide()
