"""The tray app's run of the hub on Qt's loop, when Qt leaves its loop before the hub ends."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QApplication
from tabsteward.desktop.app import run_in_qt


async def _hub_closing_after_qt_left(qapp: QApplication) -> int:
    qapp.exit()  # as when the display goes away: Qt's loop returns under the hub
    await asyncio.sleep(0)
    async with asyncio.timeout(5):  # asks for its task, as a websocket's close does
        await asyncio.sleep(0.01)
    return 3


def test_a_hub_still_closing_when_qt_leaves_its_loop_is_stopped_and_ends_with_its_status(
        qapp: QApplication, aloop: asyncio.AbstractEventLoop) -> None:
    stopped: list[bool] = []
    task = aloop.create_task(_hub_closing_after_qt_left(qapp))
    assert run_in_qt(qapp, aloop, task, lambda: stopped.append(True)) == 3
    assert stopped == [True]


def test_a_hub_that_ends_on_its_own_ends_the_run_with_its_status(
        qapp: QApplication, aloop: asyncio.AbstractEventLoop) -> None:
    async def serve() -> int:
        await asyncio.sleep(0.01)
        return 0

    stopped: list[bool] = []
    assert run_in_qt(qapp, aloop, aloop.create_task(serve()), lambda: stopped.append(True)) == 0
    assert stopped == []
