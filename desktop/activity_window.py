"""The tray app's activity window: the activity log, filtered, newest first, and exported."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSignalBlocker,
    Qt,
    QTimer,
)
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError, UsageError
from tabsteward.bridge.records.activity import DECISIONS, KINDS, ActivityLog, Entry, Filters, Format
from tabsteward.bridge.shown import shown

TITLE = "Tabsteward — Activity"
MAX_ROWS = 2000
# (key, label) of the time filter's choices; the key is the combo item's data
PERIODS = (("hour", "Last hour"), ("today", "Today"), ("week", "Last 7 days"),
           ("all", "Everything"))
DEFAULT_PERIOD = "week"
FILE_TYPES: dict[str, Format] = {"CSV (*.csv)": "csv", "JSON Lines (*.jsonl)": "jsonl"}
SUFFIXES: dict[str, Format] = {".csv": "csv", ".jsonl": "jsonl"}
_TYPING_PAUSE_MS = 250  # the site filter re-queries once typing pauses this long
_Index = QModelIndex | QPersistentModelIndex


def period_start(period: str, now: float) -> float | None:
    """When a time filter's period begins, in epoch seconds; None for the whole log."""
    if period == "hour":
        return now - 3600
    if period == "today":  # since local midnight
        day = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
        return day.timestamp()
    if period == "week":
        return now - 7 * 86400
    if period == "all":
        return None
    raise UsageError(f"unknown period {period!r} (periods: {', '.join(k for k, _ in PERIODS)});"
                     " nothing was read")


def export_format(path: Path, name_filter: str = "") -> Format:
    """The format a chosen export file is written in: its suffix's, else the file type
    picked in the dialog, else CSV."""
    return SUFFIXES.get(path.suffix.lower()) or FILE_TYPES.get(name_filter, "csv")


def write_export(log: ActivityLog, path: Path, fmt: Format, filters: Filters) -> int:
    """Write the entries matching `filters` to the new file `path` (mode 0600), whole or not
    at all: it is written under a temporary name and named only when complete. Returns how
    many entries were written; never replaces an existing file."""
    if fmt not in SUFFIXES.values():
        raise UsageError(f"export format must be csv or jsonl, not {fmt!r}; "
                         "nothing was exported")
    if os.path.lexists(path):
        raise UsageError(f"{path} already exists; nothing was exported (choose a new name)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write in {path.parent} ({exc.strerror or exc}); "
                         "nothing was exported") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fp:
            count: int = log.export(fp, fmt, **filters)
            fp.flush()
            os.fsync(fp.fileno())
        _name(Path(tmp), path)
    except OSError as exc:
        raise TabstewardError(f"could not write {path} ({exc.strerror or exc}); "
                              "nothing was exported") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return count


def _name(tmp: Path, path: Path) -> None:
    """Give the finished file its name, never replacing a file that appeared meanwhile."""
    try:
        os.link(tmp, path)  # unlike a rename, fails when `path` exists
    except FileExistsError:
        raise UsageError(f"{path} already exists; nothing was exported (choose a new name)"
                         ) from None
    except OSError:  # a filesystem without hard links (FAT, some network shares)
        if os.path.lexists(path):
            raise UsageError(f"{path} already exists; nothing was exported (choose a new "
                             "name)") from None
        os.rename(tmp, path)


@dataclass(frozen=True)
class Column:
    """One column of the table: its title and an entry's text in it."""

    title: str
    text: Callable[[Entry], str]


def _local_time(entry: Entry) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.ts))


def _field(name: str) -> Callable[[Entry], str]:
    def text(entry: Entry) -> str:
        value = getattr(entry, name)
        return value if isinstance(value, str) else ""
    return text


COLUMNS = (Column("Time", _local_time), Column("Kind", _field("kind")),
           Column("Agent", _field("agent")), Column("Tool", _field("tool")),
           Column("Site", _field("site")), Column("Summary", _field("summary")),
           Column("Decision", _field("decision")), Column("Decided by", _field("decided_by")),
           Column("Outcome", _field("outcome")))
SUMMARY = 5


def tooltip(entry: Entry, column: int) -> str:
    """A cell's full text, as plain text: the time also in UTC, the summary with the
    decision's reason."""
    text = COLUMNS[column].text(entry)
    if column == 0:
        return f"{text} (local time)\n{entry.time} (UTC)"
    if column == SUMMARY and entry.reason:
        return f"{text}\n\nWhy: {entry.reason}" if text else f"Why: {entry.reason}"
    return text


class ActivityModel(QAbstractTableModel):
    """The shown entries, one per row, in the order given (newest first); text only, never
    interpreted as markup."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[Entry] = []

    def set_entries(self, entries: Sequence[Entry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self.endResetModel()

    def entry(self, row: int) -> Entry:
        return self._entries[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._entries):
            return None
        entry = self._entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:  # agents' and pages' words, made inert
            return shown(COLUMNS[index.column()].text(entry))
        if role == Qt.ItemDataRole.ToolTipRole:
            text = tooltip(entry, index.column())
            if not text:
                return None
            # a tooltip that looks like markup is rendered as markup: escape it all
            return GuiQt.convertFromPlainText(shown(text, lines=True),
                                              Qt.WhiteSpaceMode.WhiteSpaceNormal)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section].title
        return None


class ActivityWindow(QWidget):
    """The activity log filtered by agent, site, decision, kind and time, newest first, at
    most `max_rows` rows; `refresh()` re-reads it, `export_to()` writes every match."""

    def __init__(self, log: ActivityLog, parent: QWidget | None = None, *,
                 max_rows: int = MAX_ROWS, clock: Callable[[], float] = time.time) -> None:
        super().__init__(parent)
        self.log = log
        self.max_rows = max_rows
        self._clock = clock
        self._refresh_failed = False
        self._dialog: QFileDialog | None = None
        self.setWindowTitle(TITLE)
        self.resize(1200, 640)
        self._build()
        self._connect()
        self.refresh()

    # building

    def _build(self) -> None:
        self.agent = _combo("agent", [("All agents", None)])
        self.site = _combo("site", [])
        self.site.setEditable(True)
        self.site.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.site.setMinimumContentsLength(24)
        self.site.setToolTip("Type part of a site (bank finds https://bank.example), or pick "
                             "a whole site to see only that one")
        line = self.site.lineEdit()
        assert line is not None
        line.setPlaceholderText("Any site")
        line.setClearButtonEnabled(True)
        completer = QCompleter(self.site.model(), self.site)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)  # suggest, never fill in
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.site.setCompleter(completer)
        self.decision = _combo("decision", [("Any decision", None),
                                            *((d, d) for d in DECISIONS)])
        self.kind = _combo("kind", [("Any kind", None), *((k, k) for k in KINDS)])
        self.period = _combo("period", [(label, key) for key, label in PERIODS])
        self.period.setCurrentIndex(self.period.findData(DEFAULT_PERIOD))

        self.model = ActivityModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("table")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setAlternatingRowColors(True)
        rows = self.table.verticalHeader()
        rows.hide()
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(SUMMARY, QHeaderView.ResizeMode.Stretch)
        for column, width in enumerate((140, 65, 100, 65, 170, 0, 95, 110, 100)):
            if width:
                self.table.setColumnWidth(column, width)

        self.count = _label("count")
        self.status = _label("status")
        self.status.setWordWrap(True)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.setObjectName("refresh")
        self.export_button = QPushButton("Export…", self)
        self.export_button.setObjectName("export")
        self.export_button.setToolTip("Write every entry the filters match to a CSV or JSON "
                                      "Lines file")
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(_TYPING_PAUSE_MS)
        self._lay_out()

    def _lay_out(self) -> None:
        filters = QHBoxLayout()
        for text, widget in (("&Agent", self.agent), ("&Site", self.site),
                             ("&Decision", self.decision), ("&Kind", self.kind),
                             ("&Time", self.period)):
            label = QLabel(text, self)
            label.setBuddy(widget)
            filters.addWidget(label)
            filters.addWidget(widget, 2 if widget is self.site else 0)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count)
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.refresh_button)
        bottom.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

    def _connect(self) -> None:
        for combo in (self.agent, self.decision, self.kind, self.period):
            combo.currentIndexChanged.connect(self.refresh)
        self.site.editTextChanged.connect(self._typing.start)
        self.site.activated.connect(self.refresh)
        line = self.site.lineEdit()
        assert line is not None
        line.returnPressed.connect(self.refresh)
        self._typing.timeout.connect(self.refresh)
        self.refresh_button.clicked.connect(self.refresh)
        self.export_button.clicked.connect(self.open_export_dialog)

    # reading

    def filters(self) -> Filters:
        """The filters the widgets show now (the period counted back from now)."""
        filters = Filters(agent=self.agent.currentData(), decision=self.decision.currentData(),
                          kind=self.kind.currentData(),
                          since=period_start(self.period.currentData(), self._clock()))
        site = self.site.currentText().strip()
        if site:
            listed = {self.site.itemText(i).lower(): self.site.itemText(i)
                      for i in range(self.site.count())}
            exact = listed.get(site.lower())  # a whole site picked or typed: only that one
            filters["site"] = exact or site
            filters["exact_site"] = exact is not None
        return filters

    def refresh(self) -> None:
        """Re-read the filter lists and the newest matching entries; on failure, keep what is
        shown and say why in the status line."""
        self._typing.stop()
        try:
            self._fill_lists()
            entries = self.log.query(**self.filters(), limit=self.max_rows + 1)
        except TabstewardError as exc:
            self._refresh_failed = True
            self._say(f"{exc.message}; the list was not refreshed", error=True)
            return
        if self._refresh_failed:
            self._refresh_failed = False
            self._say("")
        self.model.set_entries(entries[:self.max_rows])
        self.count.setText(_count_text(len(entries), self.max_rows))

    def _fill_lists(self) -> None:
        agent = self.agent.currentData()
        agents = sorted({*self.log.agents(), *([agent] if agent else [])})
        _refill(self.agent, [("All agents", None), *((a, a) for a in agents)])
        sites = self.log.sites()
        if [self.site.itemText(i) for i in range(self.site.count())] != sites:
            text = self.site.currentText()
            with QSignalBlocker(self.site):
                self.site.clear()
                self.site.addItems(sites)
                self.site.setEditText(text)

    # exporting

    def open_export_dialog(self) -> QFileDialog:
        """Ask where to export, without blocking (the answer arrives as a signal); returns
        the dialog, which is already open."""
        if self._dialog is not None:
            self._dialog.raise_()
            return self._dialog
        dialog = QFileDialog(self, "Export activity")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        # export_to never replaces a file, so no "replace it?" box (a nested modal loop)
        dialog.setOption(QFileDialog.Option.DontConfirmOverwrite)
        dialog.setNameFilters(list(FILE_TYPES))
        dialog.setDefaultSuffix("csv")
        dialog.setDirectory(str(Path.home()))
        dialog.selectFile(f"tabsteward-activity-{time.strftime('%Y-%m-%d')}.csv")
        dialog.filterSelected.connect(lambda chosen: dialog.setDefaultSuffix(
            FILE_TYPES.get(chosen, "csv")))
        dialog.fileSelected.connect(lambda chosen: self._export_chosen(
            Path(chosen), dialog.selectedNameFilter()))
        dialog.finished.connect(self._dialog_closed)
        self._dialog = dialog
        dialog.open()
        return dialog

    def _dialog_closed(self) -> None:
        if self._dialog is not None:
            self._dialog.deleteLater()
            self._dialog = None

    def _export_chosen(self, path: Path, name_filter: str) -> None:
        self.export_to(path, export_format(path, name_filter))

    def export_to(self, path: Path, fmt: Format) -> int | None:
        """Write every entry the current filters match (not only the rows shown) to the new
        file `path` as CSV or JSON Lines; returns how many, or None after saying in the
        status line why nothing was exported."""
        try:
            count = write_export(self.log, path, fmt, self.filters())
        except TabstewardError as exc:
            self._say(exc.message, error=True)
            return None
        self._say(f"Exported {_entries(count)} to {path}")
        return count

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #b3261e;" if error else "")


def _combo(name: str, items: Sequence[tuple[str, str | None]]) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    for text, data in items:
        combo.addItem(text, data)
    return combo


def _refill(combo: QComboBox, items: Sequence[tuple[str, str | None]]) -> None:
    """Replace a combo's items, keeping its choice and sending no signal, if they changed."""
    if [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] == list(items):
        return
    chosen = combo.currentData()
    with QSignalBlocker(combo):
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen is not None else 0)


def _label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages are never markup
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _count_text(found: int, shown_at_most: int) -> str:
    if found > shown_at_most:
        return f"showing the newest {shown_at_most:,} of more"
    return _entries(found) if found else "no entries match"


def _entries(count: int) -> str:
    return f"{count:,} entry" if count == 1 else f"{count:,} entries"
