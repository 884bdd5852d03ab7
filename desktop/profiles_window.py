"""The Profiles window: edit policy profiles and agents' profiles, revoke remembered grants."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.policy import writer
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.grants import Grant, Grants
from tabsteward.bridge.policy.profiles import (
    ASK_TIMEOUT_BOUNDS,
    BUILTIN,
    DEFAULT,
    GOAL_BOUNDS,
    GOAL_FIELDS,
    GOAL_HELP,
    MAX_TABS_BOUNDS,
    Config,
    valid_name,
)
from tabsteward.bridge.policy.watch import ConfigFile

from .confirm import SecondClick

W = TypeVar("W", bound=QWidget)

TITLE = "Tabsteward — Profiles"
CHANGED_ON_DISK = "policy.toml changed on disk; Reload to see it"
POLL_MS = 1000  # how often a visible window looks whether policy.toml changed
_NAME = Qt.ItemDataRole.UserRole
_ERROR_STYLE = "color: #b3261e;"
# the goal agent's budgets in the editor: label, suffix and step of each one's spin box
_GOAL_BOXES = {
    "goal_actions": ("Actions per run", "", 10),
    "goal_requests": ("Model requests per run", "", 10),
    "goal_seconds": ("Time limit per run", " s", 60),
    "goal_candidates": ("Page elements shown per look", "", 50),
}


def _named(widget: W, name: str) -> W:
    widget.setObjectName(name)
    return widget


def _lines(text: str) -> list[str]:
    """The site patterns of a text box: one a line, blank lines left out."""
    return [line.strip() for line in text.splitlines() if line.strip()]


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
        self._shown_grants: list[Grant] = []
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.reload)
        self._build()
        self.reload(discard=True)

    # -- building --
    def _build(self) -> None:
        self.status = _named(QLabel(), "status")
        self.status.setWordWrap(True)
        self.reload_button = _named(QPushButton("Reload"), "reload")
        self.reload_button.setToolTip("Show policy.toml as it is on disk, dropping unsaved edits")
        self.reload_button.clicked.connect(lambda: self.reload(discard=True))
        self.save_button = _named(QPushButton("Save"), "save")
        self.save_button.clicked.connect(self.save)
        tabs = QTabWidget()
        tabs.addTab(self._editor(), "Profile")
        tabs.addTab(self._agents_page(), "Agents")
        tabs.addTab(self._grants_page(), "Remembered grants")
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
        self.profiles_list = _named(QListWidget(), "profiles_list")
        self.profiles_list.currentRowChanged.connect(self._selection_changed)
        self.default_profile = _named(QComboBox(), "default_profile")
        self.default_profile.setToolTip("The profile of every agent not listed under Agents")
        self.default_profile.currentTextChanged.connect(self._default_changed)
        self.new_name = _named(QLineEdit(), "new_name")
        self.new_name.setPlaceholderText("name of a new profile")
        self.new_inherits = _named(QComboBox(), "new_inherits")
        self.new_button = _named(QPushButton("New profile"), "new_profile")
        self.new_button.clicked.connect(self._new_clicked)
        self.delete_button = _named(QPushButton("Delete"), "delete")
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

    def _editor(self) -> QWidget:
        self.editing = _named(QLabel(), "editing")
        self.allow_sites = self._sites_box("allow_sites", "Sites agents may use, one a line")
        self.deny_sites = self._sites_box("deny_sites", "Sites refused even when allowed")
        self.rules: dict[Category, QComboBox] = {}
        rules = QFormLayout()
        for category in Category:
            combo = _named(QComboBox(), f"rule_{category.value}")
            combo.addItems([rule.value for rule in Rule])
            combo.setToolTip(category.value)
            combo.currentIndexChanged.connect(self._edited)
            self.rules[category] = combo
            rules.addRow(category.label[:1].upper() + category.label[1:], combo)
        low, high = ASK_TIMEOUT_BOUNDS
        self.ask_timeout = _named(QDoubleSpinBox(), "ask_timeout")
        self.ask_timeout.setRange(low, high)
        self.ask_timeout.setDecimals(1)
        self.ask_timeout.setSingleStep(5)
        self.ask_timeout.setSuffix(" s")
        self.ask_timeout.valueChanged.connect(self._edited)
        self.model = _named(QLineEdit(), "model")
        self.model.setPlaceholderText("none")
        self.model.textChanged.connect(self._edited)
        self.key = _named(QComboBox(), "key")
        self.key.currentIndexChanged.connect(self._edited)
        self.browser = _named(QComboBox(), "browser")
        self.browser.setEditable(True)
        self.browser.currentTextChanged.connect(self._edited)
        self.goal: dict[str, QSpinBox] = {key: self._goal_box(key) for key in GOAL_FIELDS}
        self.max_tabs = _named(QSpinBox(), "max_tabs")
        self.max_tabs.setRange(*MAX_TABS_BOUNDS)
        low, high = MAX_TABS_BOUNDS
        self.max_tabs.setToolTip("The most tabs one agent may have open in a browser, those "
                                 f"its pages open included ({low} to {high})")
        self.max_tabs.valueChanged.connect(self._edited)
        form = QFormLayout()
        form.addRow(self.editing)
        form.addRow("Allowed sites", self.allow_sites)
        form.addRow("Denied sites", self.deny_sites)
        form.addRow(QLabel("What agents may do: allow, ask you, or block"))
        form.addRow(rules)
        form.addRow("Wait for your answer", self.ask_timeout)
        form.addRow("Browser", self.browser)
        form.addRow("Tabs per agent", self.max_tabs)
        goal_agent = _named(QLabel("Goal agent"), "goal_agent")
        goal_agent.setToolTip("Tabsteward's own agent for goals you give it: the model it "
                              "uses and what one run may spend")
        form.addRow(goal_agent)
        form.addRow("Model", self.model)
        form.addRow("API key", self.key)
        for key, box in self.goal.items():
            form.addRow(_GOAL_BOXES[key][0], box)
        page = QWidget()
        page.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        return scroll

    def _goal_box(self, key: str) -> QSpinBox:
        _label, suffix, step = _GOAL_BOXES[key]
        low, high = GOAL_BOUNDS[key]
        box = _named(QSpinBox(), key)
        box.setRange(low, high)
        box.setSingleStep(step)
        box.setSuffix(suffix)
        box.setToolTip(f"{GOAL_HELP[key][:1].upper()}{GOAL_HELP[key][1:]} ({low} to {high})")
        box.valueChanged.connect(self._edited)
        return box

    def _sites_box(self, name: str, tip: str) -> QPlainTextEdit:
        box = _named(QPlainTextEdit(), name)
        box.setToolTip(tip)
        box.setTabChangesFocus(True)
        box.setFixedHeight(80)
        box.textChanged.connect(self._edited)
        return box

    def _agents_page(self) -> QWidget:
        self.agents_table = _named(QTableWidget(0, 2), "agents_table")
        self.agents_table.setHorizontalHeaderLabels(["Agent", "Profile"])
        self.agents_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.agents_table.verticalHeader().setVisible(False)
        self.agents_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        return self.agents_table

    def _grants_page(self) -> QWidget:
        self.grants_table = _named(QTableWidget(0, 4), "grants_table")
        self.grants_table.setHorizontalHeaderLabels(["Profile", "Site", "Category", "Since"])
        self.grants_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.grants_table.horizontalHeader().setStretchLastSection(True)
        self.grants_table.verticalHeader().setVisible(False)
        self.grants_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grants_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.revoke_button = _named(QPushButton("Revoke selected"), "revoke")
        self.revoke_button.clicked.connect(self._revoke_clicked)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.grants_table, 1)
        layout.addWidget(self.revoke_button)
        return page

    # -- the file --
    def reload(self, *, discard: bool = False) -> None:
        """Look at policy.toml and the grants again and show what changed; with unsaved
        edits (and unless `discard`), only say that the file changed."""
        config = self._file.current()
        self._refresh_grants()
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
        table = self._tables[name]
        self._selected = name
        self._filling = True
        try:
            self.editing.setText(f"Profile: {name}"
                                 + (" (built in; your changes are saved as an override)"
                                    if name in BUILTIN else ""))
            self.allow_sites.setPlainText("\n".join(table["allow_sites"]))
            self.deny_sites.setPlainText("\n".join(table["deny_sites"]))
            for category, combo in self.rules.items():
                combo.setCurrentText(table["rules"][category.value])
            self.ask_timeout.setValue(table["ask_timeout"])
            self.model.setText(table["model"])
            self._fill_key(table["key"])
            self._fill_browser(table["browser"])
            for key, box in self.goal.items():
                box.setValue(table[key])
            self.max_tabs.setValue(table["max_tabs"])
        finally:
            self._filling = False
        self._update_delete()

    def _fill_key(self, key: str) -> None:
        self.key.clear()
        self.key.addItem("(none)", "")
        for name in self._key_names():
            self.key.addItem(name, name)
        if key and self.key.findData(key) < 0:
            self.key.addItem(f"{key} (not among your keys)", key)
        self.key.setCurrentIndex(self.key.findData(key))

    def _fill_browser(self, browser: str) -> None:
        self.browser.clear()
        self.browser.addItems(["", *self._browser_names()])
        self.browser.setCurrentText(browser)

    def _commit(self) -> None:
        """Keep what the form says about the selected profile in its table."""
        if self._selected not in self._tables:
            return
        table = self._tables[self._selected]
        table["allow_sites"] = _lines(self.allow_sites.toPlainText())
        table["deny_sites"] = _lines(self.deny_sites.toPlainText())
        table["rules"] = {c.value: combo.currentText() for c, combo in self.rules.items()}
        shown = self.ask_timeout.value()
        if abs(shown - table["ask_timeout"]) >= 0.5 * 10 ** -self.ask_timeout.decimals():
            table["ask_timeout"] = shown  # the person changed it, not the display's rounding
        table["model"] = self.model.text().strip()
        table["key"] = str(self.key.currentData() or "")
        table["browser"] = self.browser.currentText().strip()
        for key, box in self.goal.items():
            table[key] = box.value()
        table["max_tabs"] = self.max_tabs.value()

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

    # -- remembered grants --
    def _refresh_grants(self) -> None:
        try:
            grants = self._grants.list()
        except TabstewardError as exc:
            self._say(exc.message, error=True)
            return
        if grants == self._shown_grants:
            return
        self._shown_grants = grants
        self.grants_table.setRowCount(len(grants))
        for row, grant in enumerate(grants):
            category = QTableWidgetItem(grant.category.value)
            category.setToolTip(grant.category.label)
            cells = [QTableWidgetItem(grant.profile), QTableWidgetItem(grant.site), category,
                     QTableWidgetItem(grant.created.astimezone().strftime("%Y-%m-%d %H:%M"))]
            for column, cell in enumerate(cells):
                self.grants_table.setItem(row, column, cell)

    def _revoke_clicked(self) -> None:
        rows = sorted({index.row() for index in self.grants_table.selectedIndexes()})
        chosen = [self._shown_grants[row] for row in rows if row < len(self._shown_grants)]
        if not chosen:
            self._say("Select the grants to revoke first; nothing was revoked")
            return
        try:
            for grant in chosen:
                self._grants.revoke(grant.profile, grant.site, grant.category)
        except TabstewardError as exc:
            self._say(exc.message, error=True)
        else:
            self._say(f"Revoked {len(chosen)} remembered grant{'s' * (len(chosen) != 1)}")
        self._refresh_grants()

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
