"""The keys window: LLM API keys (kept in the OS keyring) and the paired agents' tokens."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.records.agents import Agent, Agents
from tabsteward.bridge.secrets import apikeys
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry
from tabsteward.bridge.secrets.providers import PROVIDERS, check

from .confirm import SecondClick

log = logging.getLogger("tabsteward.desktop")

W = TypeVar("W", bound=QWidget)
KEY_COLUMNS = ("Name", "Provider", "Base URL", "Model", "Stored in")
AGENT_COLUMNS = ("Agent", "Id", "Paired", "Last used")


def named(widget: W, name: str) -> W:
    """The widget, with the objectName tests and screenshot scripts find it by."""
    widget.setObjectName(name)
    return widget


def when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "never"


def table(name: str, columns: tuple[str, ...]) -> QTableWidget:
    """A read-only table whose rows are selected one at a time."""
    t = named(QTableWidget(0, len(columns)), name)
    t.setHorizontalHeaderLabels(list(columns))
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def fill(t: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    t.clearSelection()
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            t.setItem(r, c, QTableWidgetItem(text))
    t.resizeColumnsToContents()


def selected_row(t: QTableWidget) -> int | None:
    rows = t.selectionModel().selectedRows()
    return rows[0].row() if rows else None


class KeysWindow(QWidget):
    """Add, replace, test and remove LLM keys; revoke paired agents. Never shows a secret."""

    def __init__(self, keys: ApiKeys, agents: Agents, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.keys = keys
        self.agents = agents
        self.test_task: asyncio.Future[None] | None = None  # the running or last key test
        self._entries: list[KeyEntry] = []
        self._agents: list[Agent] = []
        self.setWindowTitle("Tabsteward — Keys")
        self._build()
        self.refresh()

    # -- layout ----------------------------------------------------------------------------

    def _build(self) -> None:
        self.banner = named(QLabel(), "banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fde2e1; color: #7a1712; padding: 6px;")
        self.keys_table = table("keys_table", KEY_COLUMNS)
        self.keys_table.itemSelectionChanged.connect(self._key_selected)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(QLabel("<b>LLM keys</b> (secrets stay in the OS keyring)"))
        layout.addWidget(self.keys_table)
        layout.addLayout(self._form())
        layout.addLayout(self._key_buttons())
        layout.addWidget(self.status)
        layout.addWidget(QLabel("<b>Agent tokens</b> (paired agents)"))
        self.agents_table = table("agents_table", AGENT_COLUMNS)
        self.agents_table.itemSelectionChanged.connect(self._disarm_revoke)
        layout.addWidget(self.agents_table)
        self.revoke = self._button("revoke", "Revoke selected", self._revoke_clicked)
        self._revoking = SecondClick(self.revoke, "revoke")
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.revoke)
        layout.addLayout(row)

    def _form(self) -> QFormLayout:
        self.name = named(QLineEdit(), "name")
        self.name.setPlaceholderText("work, personal, local…")
        self.provider = named(QComboBox(), "provider")
        for provider in PROVIDERS.values():
            self.provider.addItem(provider.label, provider.id)
        self.base_url = named(QLineEdit(), "base_url")
        self.model = named(QLineEdit(), "model")
        self.model.setPlaceholderText("optional, such as gpt-4o-mini")
        self.secret = named(QLineEdit(), "secret")
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret.setPlaceholderText("the API key (kept only in the OS keyring)")
        self.provider.currentIndexChanged.connect(self._provider_chosen)
        self._provider_chosen()
        form = QFormLayout()
        for label, widget in (("Name", self.name), ("Provider", self.provider),
                              ("Base URL", self.base_url), ("Model", self.model),
                              ("Key", self.secret)):
            form.addRow(label, widget)
        return form

    def _key_buttons(self) -> QHBoxLayout:
        self.add = self._button("add", "Add", self._add_clicked)
        self.replace = self._button("replace", "Replace selected", self._replace_clicked)
        self.test = self._button("test", "Test selected", self._test_clicked)
        self.remove = self._button("remove", "Remove selected", self._remove_clicked)
        self._removing = SecondClick(self.remove, "remove")
        row = QHBoxLayout()
        for button in (self.add, self.replace, self.test, self.remove):
            row.addWidget(button)
        return row

    def _button(self, name: str, text: str, slot: Callable[[], None]) -> QPushButton:
        button = named(QPushButton(text), name)
        button.clicked.connect(slot)
        return button

    # -- showing state ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the keys, the keyring's state and the paired agents again."""
        problem = apikeys.backend_problem()
        self.banner.setText(problem or "")
        self.banner.setVisible(problem is not None)
        self.add.setEnabled(problem is None)
        self.replace.setEnabled(problem is None)
        self._disarm_remove()
        self._disarm_revoke()
        self._load_keys("" if problem else apikeys.backend_name())
        self._load_agents()

    def _load_keys(self, stored_in: str) -> None:
        try:
            self._entries = self.keys.list()
        except TabstewardError as exc:
            self._entries = []
            self.say(exc.message)
        fill(self.keys_table, [(e.name, PROVIDERS[e.provider].label, e.base_url, e.model,
                                stored_in or "no keyring") for e in self._entries])

    def _load_agents(self) -> None:
        try:
            self._agents = self.agents.list()
        except TabstewardError as exc:
            self._agents = []
            self.say(exc.message)
        rows = []
        for agent in self._agents:
            info = agent.public()
            rows.append((str(info["name"]), str(info["id"]), when(agent.created),
                         when(agent.last_used)))
        fill(self.agents_table, rows)

    def say(self, text: str) -> None:
        self.status.setText(text)

    def selected_key(self) -> KeyEntry | None:
        row = selected_row(self.keys_table)
        return self._entries[row] if row is not None and row < len(self._entries) else None

    def selected_agent(self) -> Agent | None:
        row = selected_row(self.agents_table)
        return self._agents[row] if row is not None and row < len(self._agents) else None

    # -- the form --------------------------------------------------------------------------

    def _provider_chosen(self) -> None:
        """Fill in the provider's base URL unless the person typed one of their own."""
        current = self.base_url.text().strip().rstrip("/")
        defaults = {p.default_base_url for p in PROVIDERS.values()}
        provider = PROVIDERS[str(self.provider.currentData())]
        if not current or current in defaults:
            self.base_url.setText(provider.default_base_url)
        self.base_url.setPlaceholderText(provider.default_base_url or "https://host/v1 "
                                         "(required)")

    def _key_selected(self) -> None:
        self._disarm_remove()
        entry = self.selected_key()
        if entry is None:
            return
        self.name.setText(entry.name)
        self.provider.setCurrentIndex(self.provider.findData(entry.provider))
        self.base_url.setText(entry.base_url)
        self.model.setText(entry.model)

    def _form_entry(self) -> KeyEntry:
        return KeyEntry(self.name.text().strip(), str(self.provider.currentData()),
                        self.base_url.text(), self.model.text())

    def _save(self, replace: bool) -> None:
        try:
            entry = self._form_entry()
            if replace:
                chosen = self.selected_key()
                if chosen is None or chosen.name != entry.name:
                    self.say("select the key to replace, and keep its name in the form; "
                             "nothing was replaced")
                    return
            self.keys.add(entry, self.secret.text(), replace=replace)
        except TabstewardError as exc:
            self.say(exc.message)
            return
        self.secret.clear()
        self.refresh()
        self.say(f"{'replaced' if replace else 'added'} the key {entry.name} "
                 f"({PROVIDERS[entry.provider].label}); it is kept in the OS keyring")

    def _add_clicked(self) -> None:
        self._save(replace=False)

    def _replace_clicked(self) -> None:
        self._save(replace=True)

    # -- testing ---------------------------------------------------------------------------

    def _test_clicked(self) -> None:
        entry = self.selected_key()
        if entry is None:
            self.say("select a key to test; nothing was checked")
            return
        self.test.setEnabled(False)
        self.say(f"testing {entry.name} with {entry.base_url}…")
        self.test_task = asyncio.ensure_future(self._test(entry))
        self.test_task.add_done_callback(self._tested)

    async def _test(self, entry: KeyEntry) -> None:
        try:
            result = await asyncio.to_thread(self._check, entry)
        except TabstewardError as exc:
            self.say(f"{entry.name}: {exc.message}")
        else:
            self.say(f"{entry.name}: {result}")
        finally:
            self.test.setEnabled(True)

    def _check(self, entry: KeyEntry) -> str:
        """Run in a worker thread: read the secret and ask the provider."""
        return check(entry, self.keys.secret(entry.name))

    def _tested(self, task: asyncio.Future[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:  # a bug, not a refusal: its text might quote the key, so not shown
            log.error("the key test failed unexpectedly: %s", type(exc).__name__)
            self.say(f"the test failed unexpectedly ({type(exc).__name__}); the key was not "
                     "checked")

    # -- removing and revoking (a second click confirms) -----------------------------------

    def _remove_clicked(self) -> None:
        entry = self.selected_key()
        if entry is None:
            self.say("select a key to remove; nothing was removed")
            return
        if not self._removing.confirmed(entry.name, entry.name):
            return
        try:
            self.keys.remove(entry.name)
        except TabstewardError as exc:
            self.say(exc.message)
            return
        self.refresh()
        self.say(f"removed the key {entry.name} from the OS keyring and the list")

    def _disarm_remove(self) -> None:
        self._removing.disarm()

    def _revoke_clicked(self) -> None:
        agent = self.selected_agent()
        if agent is None:
            self.say("select an agent to revoke; nothing was revoked")
            return
        if not self._revoking.confirmed(agent.id, agent.name):
            return
        try:
            self.agents.revoke(agent.id)
        except TabstewardError as exc:
            self.say(exc.message)
            return
        self.refresh()
        self.say(f"revoked {agent.name}; its token no longer works (pair it again to let "
                 "it back)")

    def _disarm_revoke(self) -> None:
        self._revoking.disarm()
