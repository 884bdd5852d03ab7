"""The tray icon and its menu: the hub's state at a glance, its browsers and agents, the
pause switch, and the way to the panel and the windows."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon
from tabsteward.bridge.hub.main import Running
from tabsteward.bridge.records.status import RunningGoal

from .icons import icon
from .state import Snapshot, TrayState, ago

NOTIFY_MS = 8000


@dataclass
class Actions:
    """What the menu's entries do (the app owns the windows)."""

    show_panel: Callable[[], object]
    keys: Callable[[], object]
    profiles: Callable[[], object]
    activity: Callable[[], object]
    quit: Callable[[], object]


class Tray(QObject):
    """Keeps the icon, its tooltip and its menu in step with the hub."""

    def __init__(self, running: Running, actions: Actions) -> None:
        super().__init__()
        self.running = running
        self.actions = actions
        self.icon = QSystemTrayIcon()
        self.icon.setObjectName("tray")
        self.menu = QMenu()
        self.menu.setObjectName("tray_menu")
        self.menu.aboutToShow.connect(self.rebuild)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        self.icon.messageClicked.connect(actions.show_panel)
        self.state = TrayState.IDLE
        self._later = QTimer(self)  # many changes at once make one update
        self._later.setSingleShot(True)
        self._later.setInterval(50)
        self._later.timeout.connect(self.update)
        hub = running.hub
        hub.status.listeners.append(self.changed)
        hub.status.goals.listeners.append(self.changed)
        hub.pool.listeners.append(self.changed)
        running.approvals.listeners.append(self._question)
        self.pause = QAction("Pause all agents", self)
        self.pause.setCheckable(True)
        self.pause.toggled.connect(self.set_paused)
        self.update()
        self.rebuild()

    @property
    def available(self) -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        self.icon.show()

    def close(self) -> None:
        """Hide the icon and stop listening to the hub."""
        self._later.stop()
        hub = self.running.hub
        for changes in (hub.status.listeners, hub.status.goals.listeners,
                        hub.pool.listeners):
            if self.changed in changes:
                changes.remove(self.changed)
        if self._question in self.running.approvals.listeners:
            self.running.approvals.listeners.remove(self._question)
        self.icon.hide()
        self.menu.deleteLater()
        self.icon.deleteLater()

    # -- state --
    def snapshot(self) -> Snapshot:
        hub = self.running.hub
        return Snapshot(waiting=len(self.running.approvals.open()), paused=hub.status.paused,
                        disconnected=len(hub.pool.disconnected),
                        working=len(hub.status.running()))

    def changed(self) -> None:
        if not self._later.isActive():
            self._later.start()

    def update(self) -> None:
        snap = self.snapshot()
        if snap.state is not self.state or self.icon.icon().isNull():
            self.state = snap.state
            self.icon.setIcon(icon(snap.state))
        self.icon.setToolTip(snap.tooltip())
        if self.pause.isChecked() != snap.paused:
            self.pause.blockSignals(True)
            self.pause.setChecked(snap.paused)
            self.pause.blockSignals(False)
        if self.menu.isVisible():
            self.rebuild()

    def set_paused(self, paused: bool) -> None:
        status = self.running.hub.status
        if paused:
            status.pause()
        else:
            status.resume()

    def _question(self, event: str, q: object, answer: object) -> None:
        self.changed()
        if event == "asked" and self.icon.isVisible() and self.icon.supportsMessages():
            agent = getattr(q, "agent", "an agent")
            summary = getattr(q, "summary", "")
            self.icon.showMessage(f"Tabsteward: {agent} waits for you", summary,
                                  icon(TrayState.WAITING), NOTIFY_MS)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger and self.running.approvals.open():
            self.actions.show_panel()

    # -- the menu --
    def rebuild(self) -> None:
        """Fill the menu with what is true now."""
        m = self.menu
        m.clear()
        snap = self.snapshot()
        m.addAction(snap.tooltip()).setEnabled(False)
        if snap.waiting:
            m.addAction(f"Answer {snap.waiting} waiting for you…", self.actions.show_panel)
        m.addSeparator()
        m.addSection("Browsers")
        for line in self.browser_lines():
            m.addAction(line).setEnabled(False)
        m.addSection("Agents")
        lines = self.agent_lines()
        for line in lines or ["no agent has acted yet"]:
            m.addAction(line).setEnabled(False)
        goals = self.running.hub.status.goals
        if goals.running:
            m.addSection("Goals")
            for goal in list(goals.running.values()):
                action = m.addAction(self.goal_line(goal))
                action.triggered.connect(lambda _=False, i=goal.id: goals.stop(i))
        m.addSeparator()
        m.addAction(self.pause)
        m.addAction("Keys and agent tokens…", self.actions.keys)
        m.addAction("Profiles…", self.actions.profiles)
        m.addAction("Activity…", self.actions.activity)
        m.addSeparator()
        m.addAction("Quit Tabsteward", self.actions.quit)

    def browser_lines(self) -> list[str]:
        pool = self.running.hub.pool
        lines = []
        for row in pool.describe():
            if not row.get("connected"):
                if row.get("name") in ("launched", "attached"):
                    lines.append(f"{row['name']}: starts when an agent needs it")
                continue
            agents = ", ".join(row.get("agents") or []) or "no agents"
            state = "; stopped by you" if row.get("stopped") else ""
            lines.append(f"{row['name']} ({row.get('kind', '')}, {row.get('tabs', 0)} tabs, "
                         f"{agents}){state}")
        for name, why in pool.disconnected.values():
            lines.append(f"⚠ {name}: disconnected ({why})")
        return lines

    @staticmethod
    def goal_line(goal: RunningGoal) -> str:
        """A running goal as its menu entry, which stops it."""
        step = f", step {goal.steps}: {goal.last[:40]}" if goal.steps else ""
        return f"Stop {goal.agent}: {goal.goal[:50]} ({ago(time.time() - goal.started)}{step})"

    def agent_lines(self) -> list[str]:
        now = time.time()
        lines = []
        for work in self.running.hub.status.agents():
            if not work.ended:
                lines.append(f"{work.agent}: {work.tool}, for {ago(now - work.started)}")
            else:
                lines.append(f"{work.agent}: last {work.tool} ({work.outcome[:60]}), "
                             f"{ago(now - work.ended)} ago")
        return lines[:12]
