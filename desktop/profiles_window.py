"""The Profiles window: edit policy profiles and agents' profiles, revoke remembered grants
(the profile's form in profile_form.py, the grants' tab in grants_page.py)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.policy import writer
from tabsteward.bridge.policy.grants import Grants
from tabsteward.bridge.policy.profiles import BUILTIN, DEFAULT, Config, valid_name
from tabsteward.bridge.policy.watch import ConfigFile

from .confirm import SecondClick
from .grants_page import GrantsPage
from .profile_form import ProfileForm, named

TITLE = "Tabsteward — Profiles"
CHANGED_ON_DISK = "policy.toml changed on disk; Reload to see it"
POLL_MS = 1000  # how often a visible window looks whether policy.toml changed
_NAME = Qt.ItemDataRole.UserRole
_ERROR_STYLE = "color: #b3261e;"


class ProfilesWindow(QWidget):
    """Every profile of policy.toml, editable; nothing is written until Save, and Save writes
    nothing unless the real reader accepts the whole file."""

    def __init__(self, config_file: ConfigFile, grants: Grants,
                 key_names: Callable[[], list[str]], browser_names: Callable[[], list[str]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self._file, self._grants = config_file, grants
        self._key_names, self._browser_names = key_names, browser_names
        self._seen = Config()        # the file's config this window last reacted to
        self._error: str | None = None  # the file's mistake last shown
        self._tables: dict[str, dict[str, Any]] = {}  # the edited profiles, as TOML tables
        self._default = DEFAULT
        self._agents: dict[str, str] = {}
        self._selected: str | None = None
        self._dirty = False
        self._filling = False        # the window, not the person, is changing the widgets
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.reload)
        self._build()
        self.reload(discard=True)

    # -- building --
    def _build(self) -> None:
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        self.reload_button = named(QPushButton("Reload"), "reload")
        self.reload_button.setToolTip("Show policy.toml as it is on disk, dropping unsaved edits")
        self.reload_button.clicked.connect(lambda: self.reload(discard=True))
        self.save_button = named(QPushButton("Save"), "save")
        self.save_button.clicked.connect(self.save)
        tabs = QTabWidget()
        self.form = ProfileForm(self._edited)
        self.grants_page = GrantsPage(self._grants, self._say)
        tabs.addTab(self.form, "Profile")
        tabs.addTab(self._agents_page(), "Agents")
        tabs.addTab(self.grants_page, "Remembered grants")
        body = QHBoxLayout()
        body.addWidget(self._profiles_column())
        body.addWidget(tabs, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.reload_button)
        bottom.addWidget(self.save_button)
        root = QVBoxLayout(self)
        root.addLayout(body, 1)
        root.addLayout(bottom)
        self.resize(900, 640)

    def _profiles_column(self) -> QWidget:
        self.profiles_list = named(QListWidget(), "profiles_list")
        self.profiles_list.currentRowChanged.connect(self._selection_changed)
        self.default_profile = named(QComboBox(), "default_profile")
        self.default_profile.setToolTip("The profile of every agent not listed under Agents")
        self.default_profile.currentTextChanged.connect(self._default_changed)
        self.new_name = named(QLineEdit(), "new_name")
        self.new_name.setPlaceholderText("name of a new profile")
        self.new_inherits = named(QComboBox(), "new_inherits")
        self.new_button = named(QPushButton("New profile"), "new_profile")
        self.new_button.clicked.connect(self._new_clicked)
        self.delete_button = named(QPushButton("Delete"), "delete")
        self.delete_button.clicked.connect(self._delete_clicked)
        self._deleting = SecondClick(self.delete_button, "delete")
        new = QFormLayout()
        new.addRow("Name", self.new_name)
        new.addRow("Copy of", self.new_inherits)
        new.addRow(self.new_button)
        column = QGroupBox("Profiles")
        layout = QVBoxLayout(column)
        layout.addWidget(self.profiles_list, 1)
        layout.addWidget(self.delete_button)
        layout.addLayout(new)
        layout.addWidget(QLabel("Default profile"))
        layout.addWidget(self.default_profile)
        return column

    def _agents_page(self) -> QWidget:
        self.agents_table = named(QTableWidget(0, 2), "agents_table")
        self.agents_table.setHorizontalHeaderLabels(["Agent", "Profile"])
        self.agents_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.agents_table.verticalHeader().setVisible(False)
        self.agents_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        return self.agents_table

    # -- the file --
    def reload(self, *, discard: bool = False) -> None:
        """Look at policy.toml and the grants again and show what changed; with unsaved
        edits (and unless `discard`), only say that the file changed."""
        config = self._file.current()
        self.grants_page.refresh()
        changed = config != self._seen
        self._seen = config
        if discard:
            self._show(config)
            self._error = None  # say again what is wrong with the file, if anything
        elif changed and self._dirty:
            self._say(CHANGED_ON_DISK)
        elif changed:
            self._show(config)
            self._say("Showing policy.toml as changed on disk")
        self._show_file_error()

    def save(self) -> bool:
        """Write the edited profiles to policy.toml when the real reader accepts them all;
        otherwise say what is wrong and write nothing. Whether it was written."""
        self._commit()
        self._disarm()
        tables = {"default_profile": self._default, "agents": dict(self._agents),
                  "profiles": self._tables}
        try:
            saved = self._file.save(writer.from_tables(tables, self._file.path))
        except TabstewardError as exc:
            self._say(exc.message, error=True)
            return False
        self._seen = saved
        self._show(saved)
        self._say(f"Saved to {self._file.path}")
        return True

    def _show(self, config: Config) -> None:
        """Show `config`, dropping unsaved edits."""
        self._tables = {name: writer.profile_table(p) for name, p in config.profiles.items()}
        self._default = config.default_profile
        self._agents = dict(config.agents)
        self._dirty = False
        self._disarm()
        keep = self._selected if self._selected in self._tables else self._default
        self._selected = None
        self._refresh_names(keep)
        self._say("")

    def _show_file_error(self) -> None:
        error = self._file.error
        if error != self._error:
            self._error = error
            if error:
                self._say("policy.toml has a mistake, so the last good version stays in use: "
                          + error, error=True)

    # -- the profile list and the combos naming profiles --
    def _refresh_names(self, select: str) -> None:
        names = list(self._tables)
        self._filling = True
        try:
            self.profiles_list.clear()
            for name in names:
                item = QListWidgetItem(f"{name} (built-in)" if name in BUILTIN else name)
                item.setData(_NAME, name)
                self.profiles_list.addItem(item)
            self.profiles_list.setCurrentRow(names.index(select))
            for combo, current in ((self.default_profile, self._default),
                                   (self.new_inherits, select)):
                combo.clear()
                combo.addItems(names)
                combo.setCurrentText(current)
            self._fill_agents(names)
        finally:
            self._filling = False
        self._fill(select)

    def _fill_agents(self, names: list[str]) -> None:
        self.agents_table.setRowCount(len(self._agents))
        for row, agent in enumerate(sorted(self._agents)):
            self.agents_table.setItem(row, 0, QTableWidgetItem(agent))
            combo = QComboBox()
            combo.addItems(names)
            combo.setCurrentText(self._agents[agent])
            combo.currentTextChanged.connect(
                lambda text, agent=agent: self._agent_changed(agent, text))
            self.agents_table.setCellWidget(row, 1, combo)

    def _selection_changed(self, row: int) -> None:
        if self._filling or row < 0:
            return
        self._commit()
        self._disarm()
        self._fill(str(self.profiles_list.item(row).data(_NAME)))

    def _default_changed(self, name: str) -> None:
        if self._filling or not name:
            return
        self._default = name
        self._edited()

    def _agent_changed(self, agent: str, name: str) -> None:
        if self._filling or not name:
            return
        self._agents[agent] = name
        self._edited()

    # -- the selected profile's form --
    def _fill(self, name: str) -> None:
        """Show the profile `name` in the form."""
        self._selected = name
        self._filling = True
        try:
            self.form.fill(name, self._tables[name], self._key_names(), self._browser_names())
        finally:
            self._filling = False
        self._update_delete()

    def _commit(self) -> None:
        """Keep what the form says about the selected profile in its table."""
        if self._selected in self._tables:
            self.form.commit(self._tables[self._selected])

    def _edited(self) -> None:
        if self._filling:
            return
        self._dirty = True
        self._disarm()
        self._update_delete()

    # -- new and delete --
    def _new_clicked(self) -> None:
        name = self.new_name.text().strip()
        base = self.new_inherits.currentText()
        if not valid_name(name):
            self._say("A profile name is letters, digits, '-', '_' or '.' (at most 64); "
                      "no profile was made", error=True)
            return
        if name in self._tables:
            self._say(f"There is a profile named {name!r} already; no profile was made",
                      error=True)
            return
        self._commit()
        self._tables[name] = copy.deepcopy(self._tables[base])
        self._dirty = True
        self.new_name.clear()
        self._refresh_names(name)
        self._say(f"Made profile {name!r} as a copy of {base!r}; Save to keep it")

    def _delete_clicked(self) -> None:
        name = self._selected
        if name is None or self._why_kept(name):
            return
        if not self._deleting.confirmed(name, name):
            self._say(f"Click Delete again to delete the profile {name!r}")
            return
        del self._tables[name]
        self._selected = None
        self._dirty = True
        self._refresh_names(self._default)
        self._say(f"Deleted the profile {name!r}; Save to write it to policy.toml")

    def _why_kept(self, name: str) -> str:
        """Why the profile cannot be deleted; "" when it can."""
        if name in BUILTIN:
            return "Built-in profiles cannot be deleted"
        if name == self._default or name in self._agents.values():
            return "This profile is in use (default profile or an agent's); it cannot be deleted"
        return ""

    def _update_delete(self) -> None:
        why = self._why_kept(self._selected) if self._selected else "No profile is selected"
        self.delete_button.setEnabled(not why)
        self.delete_button.setToolTip(why)

    def _disarm(self) -> None:
        self._deleting.disarm()

    # -- status and watching --
    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(_ERROR_STYLE if error else "")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.reload()
        self._timer.start()

    def hideEvent(self, event: QHideEvent) -> None:
        self._timer.stop()
        super().hideEvent(event)
