"""`tabsteward desktop`: the tray app, with the hub inside its event loop (qasync)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QSocketNotifier, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.hub import main as hub_main
from tabsteward.bridge.hub.main import Running

from .panel import Panel
from .single import SingleInstance
from .tray import Actions, Tray

log = logging.getLogger("tabsteward.desktop")

ACTIVITY_REFRESH_MS = 300  # an open activity window shows new entries this soon
FINISH_SECONDS = 10.0  # for the hub to stop once its display went away


def parser() -> argparse.ArgumentParser:
    p = hub_main.parser()  # the same browser options as `tabsteward serve`
    p.prog = "tabsteward desktop"
    p.description = ("Run Tabsteward's tray app with the hub inside it: agents' questions "
                     "wait in its panel, and its windows manage keys, profiles and activity.")
    return p


class Desktop:
    """The tray app around a running hub: icon, panel and windows (made when first opened)."""

    def __init__(self, running: Running) -> None:
        self.running = running
        running.gate.pictures = True
        self.panel = Panel(running.approvals, on_error=self._error)
        running.approvals.listeners.append(self.panel)
        self.windows: dict[str, QWidget] = {}
        self.tray = Tray(running, Actions(self.show_panel, self.keys, self.profiles,
                                          self.activity, self.quit))
        self.tray.show()
        if not self.tray.available:
            log.info("no system tray here: questions open the panel by themselves; "
                     "quit with Ctrl+C or `kill %d`", os.getpid())
        for q in running.approvals.open():  # asked before the panel listened
            self.panel.add(q)
        # an open activity window follows what agents do (each call starts and ends there)
        self._activity_later = QTimer()
        self._activity_later.setSingleShot(True)
        self._activity_later.setInterval(ACTIVITY_REFRESH_MS)
        self._activity_later.timeout.connect(self._refresh_activity)
        running.hub.status.listeners.append(self._activity_changed)

    def show_up(self) -> None:
        """Another start of the app: show what waits for the person, else the activity."""
        if self.panel.current is not None:
            self.show_panel()
        else:
            self.activity()

    def _activity_changed(self) -> None:
        window = self.windows.get("activity")
        if window is not None and window.isVisible() and not self._activity_later.isActive():
            self._activity_later.start()

    def _refresh_activity(self) -> None:
        window = self.windows.get("activity")
        refresh = getattr(window, "refresh", None)
        if window is not None and window.isVisible() and callable(refresh):
            refresh()

    def show_panel(self) -> None:
        if self.panel.current is not None:
            self.panel.show()
            self.panel.raise_()
            self.panel.activateWindow()  # the person asked for it

    def _error(self, message: str) -> None:
        if self.tray.icon.isVisible() and self.tray.icon.supportsMessages():
            self.tray.icon.showMessage("Tabsteward", message)

    def _window(self, name: str, make: Callable[[], QWidget]) -> QWidget:
        window = self.windows.get(name)
        if window is None:
            window = self.windows[name] = make()
        refresh = getattr(window, "refresh", None)
        if callable(refresh):
            refresh()
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def keys(self) -> QWidget:
        from tabsteward.bridge.secrets.apikeys import ApiKeys

        from .keys_window import KeysWindow
        return self._window("keys", lambda: KeysWindow(ApiKeys(), self.running.agents))

    def profiles(self) -> QWidget:
        from tabsteward.bridge.secrets.apikeys import ApiKeys

        from .profiles_window import ProfilesWindow
        gate = self.running.gate
        config_file = gate.config_file
        assert config_file is not None  # the hub's gate reads the policy file
        return self._window("profiles", lambda: ProfilesWindow(
            config_file, gate.grants, lambda: [k.name for k in ApiKeys().list()],
            self.running.hub.pool.names))

    def activity(self) -> QWidget:
        from .activity_window import ActivityWindow
        return self._window("activity", lambda: ActivityWindow(self.running.activity))

    def quit(self) -> None:
        self.running.hub.stop("the person quit the tray app")

    def close(self) -> None:
        self._activity_later.stop()
        hub = self.running.hub
        _drop(self.running.approvals.listeners, self.panel)
        _drop(hub.status.listeners, self._activity_changed)
        self.tray.close()
        for window in [self.panel, *self.windows.values()]:
            window.hide()
            window.deleteLater()


def _drop(listeners: list[Any], listener: Any) -> None:
    if listener in listeners:
        listeners.remove(listener)


class Signals:
    """SIGINT and SIGTERM stop the hub, though Qt, not Python, waits for events."""

    def __init__(self, on_signal: Callable[[int], None]) -> None:
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        self._old = signal.set_wakeup_fd(self._w)
        self._on_signal = on_signal
        self.notifier = QSocketNotifier(self._r, QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self._read)
        self._handlers = {sig: signal.signal(sig, lambda *_: None)
                          for sig in (signal.SIGINT, signal.SIGTERM)}

    def _read(self) -> None:
        try:
            data = os.read(self._r, 64)
        except BlockingIOError:
            return
        for number in data:
            self._on_signal(number)

    def close(self) -> None:
        self.notifier.setEnabled(False)
        signal.set_wakeup_fd(self._old)
        for sig, handler in self._handlers.items():
            signal.signal(sig, handler)
        os.close(self._r)
        os.close(self._w)


async def run(opts: argparse.Namespace, log_path: str, single: SingleInstance,
              started: list[Running]) -> int:
    """Start the hub (put in `started`), show the tray, serve until quit or stopped."""
    running = await hub_main.start(opts, log_path, console=sys.stderr.isatty())
    started.append(running)
    desktop = Desktop(running)
    single.on_show = desktop.show_up
    signals = Signals(lambda n: running.hub.stop(f"got {signal.Signals(n).name}"))
    print(hub_main.READY.format(running.server.socket_path), flush=True)
    try:
        return await running.run()
    finally:
        signals.close()
        desktop.close()


def main(argv: list[str] | None = None) -> int:
    opts = parser().parse_args(argv)
    import qasync  # after the options: `--help` needs no Qt

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("Tabsteward")
    app.setQuitOnLastWindowClosed(False)
    single = SingleInstance()
    if single.hand_over():
        print("Tabsteward's tray app is already running; it was asked to show itself",
              file=sys.stderr)
        return 0
    log_path = hub_main.setup_logging(opts.log)
    log.info("tabsteward tray app starting (pid %d)", os.getpid())
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    started: list[Running] = []
    try:
        with loop:
            task = loop.create_task(run(opts, log_path, single, started))
            code = run_in_qt(app, loop, task, lambda: _stop_hub(task, started))
    except TabstewardError as err:
        log.error("%s", err.message)  # on stderr too
        return err.exit_code
    finally:
        single.close()
        asyncio.set_event_loop(None)
    log.info("tabsteward tray app exits with status %d", code)
    return code


def _stop_hub(task: asyncio.Task[int], started: list[Running]) -> None:
    log.warning("the display went away; the tray app stops")
    if started:
        started[0].hub.stop("the display went away")
    else:
        task.cancel()


def run_in_qt(app: QApplication, loop: asyncio.AbstractEventLoop, task: asyncio.Task[int],
              stop: Callable[[], None]) -> int:
    """Run `task` on the qasync `loop` until it ends; its result is the exit status. When Qt
    leaves its event loop first (its display went away), call `stop`, then drive Qt's event
    dispatcher by hand, with `loop` marked running, so the task can still close its
    connections, the browser's and the clients', before the loop and its timers are gone.

    Not qasync's run_until_complete: after Qt's loop it runs pending callbacks once more with
    no loop marked running, and a step of the task then fails where it asks for its loop."""
    task.add_done_callback(lambda _: loop.stop())
    loop.run_forever()
    if not task.done():
        stop()
        dispatcher = app.eventDispatcher()
        deadline = time.monotonic() + FINISH_SECONDS
        asyncio.events._set_running_loop(loop)
        try:
            while not task.done() and time.monotonic() < deadline:
                dispatcher.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
                time.sleep(0.005)
        finally:
            asyncio.events._set_running_loop(None)
        if not task.done():
            log.error("the hub did not stop within %g s of its display going away",
                      FINISH_SECONDS)
            return 1
    if task.cancelled():
        return 1
    return task.result()
