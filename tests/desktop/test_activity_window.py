"""The activity window: each filter narrows the rows, newest first, capped, shown as plain
text, refreshed on demand, and exported whole or not at all."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, TypeVar

import pytest
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QPushButton, QTableView
from pytestqt.qtbot import QtBot
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.records.activity import DECISIONS, KINDS, ActivityLog
from tabsteward.bridge.records.redact import Redactor
from tabsteward.desktop.activity_window import (
    COLUMNS,
    SUMMARY,
    TITLE,
    ActivityWindow,
    export_format,
    period_start,
)

NOW = time.time()
CLOCK = NOW + 1  # the window's "now": every entry is in the past
HOUR, DAY = 3600, 86400
AGENTS = ("claude-code", "codex", "cursor")
SITES = ("https://bank.example", "https://bank.example.evil.test", "https://shop.example",
         "https://mail.example")
SOME_DECISIONS = ("allow", "block", "approved", "denied", "timeout")
KIND_CYCLE = ("request", "decision", "outcome")
W = TypeVar("W", bound=QObject)


@dataclass(frozen=True)
class Spec:
    """One entry put in the test log, to say independently which rows a filter should show."""

    i: int
    ts: float
    kind: str
    agent: str
    site: str
    decision: str | None

    @property
    def summary(self) -> str:
        return f"entry {self.i}"


def _spec(i: int) -> Spec:
    kind = KIND_CYCLE[i % 3]
    return Spec(i, NOW - (299 - i) * 3000, kind, AGENTS[(i // 3) % 3], SITES[i % 4],
                SOME_DECISIONS[(i // 3) % 5] if kind == "decision" else None)


# 300 entries, one every 50 minutes, over about ten and a half days
SPECS = [_spec(i) for i in range(300)]


def expected(keep: Callable[[Spec], bool], since: float | None = CLOCK - 7 * DAY) -> list[str]:
    """The summaries the table should show, newest first (the default period is 7 days)."""
    return [s.summary for s in reversed(SPECS)
            if keep(s) and (since is None or s.ts >= since)]


@pytest.fixture
def log(tmp_path: Path) -> Iterator[ActivityLog]:
    with ActivityLog(tmp_path / "activity.sqlite3", redactor=Redactor()) as opened:
        for s in SPECS:
            opened.append(s.kind, agent=s.agent, tool="click", site=s.site, summary=s.summary,
                          decision=s.decision, decided_by="policy" if s.decision else None,
                          reason="a reason" if s.decision else None,
                          outcome="ok" if s.kind == "outcome" else None, ts=s.ts)
        yield opened


def make(qtbot: QtBot, log: ActivityLog, **options: Any) -> ActivityWindow:
    window = ActivityWindow(log, clock=lambda: CLOCK, **options)
    qtbot.addWidget(window)
    return window


@pytest.fixture
def window(private_home: dict[str, str], qtbot: QtBot, log: ActivityLog) -> ActivityWindow:
    return make(qtbot, log)


def child(window: ActivityWindow, kind: type[W], name: str) -> W:
    found = window.findChild(kind, name)
    assert found is not None, f"no {kind.__name__} named {name!r}"
    return found


def choose(window: ActivityWindow, name: str, data: str | None) -> None:
    combo = child(window, QComboBox, name)
    index = combo.findData(data)
    assert index >= 0, f"{name} offers no {data!r}"
    combo.setCurrentIndex(index)


def cells(window: ActivityWindow, column: int = SUMMARY,
          role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole) -> list[Any]:
    model = child(window, QTableView, "table").model()
    return [model.data(model.index(row, column), role) for row in range(model.rowCount())]


def count_text(window: ActivityWindow) -> str:
    return child(window, QLabel, "count").text()


def status_text(window: ActivityWindow) -> str:
    return child(window, QLabel, "status").text()


# showing


def test_the_window_is_titled_and_its_widgets_can_be_found_by_name(
        window: ActivityWindow) -> None:
    assert window.windowTitle() == TITLE == "Tabsteward — Activity"
    for name in ("agent", "site", "decision", "kind", "period"):
        child(window, QComboBox, name)
    child(window, QTableView, "table")
    for name in ("refresh", "export"):
        child(window, QPushButton, name)
    for name in ("status", "count"):
        child(window, QLabel, name)
    model = child(window, QTableView, "table").model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(len(COLUMNS))]
    assert headers == ["Time", "Kind", "Agent", "Tool", "Site", "Summary", "Decision",
                       "Decided by", "Outcome"]


def test_the_filter_lists_offer_every_agent_decision_kind_and_period(
        window: ActivityWindow) -> None:
    def texts(name: str) -> list[str]:
        combo = child(window, QComboBox, name)
        return [combo.itemText(i) for i in range(combo.count())]

    assert texts("agent") == ["All agents", *AGENTS]
    assert texts("site") == sorted(SITES)
    assert texts("decision") == ["Any decision", *DECISIONS]
    assert texts("kind") == ["Any kind", *KINDS]
    assert texts("period") == ["Last hour", "Today", "Last 7 days", "Everything"]
    assert child(window, QComboBox, "period").currentText() == "Last 7 days"


def test_by_default_the_last_7_days_are_shown_newest_first(window: ActivityWindow) -> None:
    shown = cells(window)
    assert shown == expected(lambda s: True)
    assert 150 < len(shown) < 300
    times = cells(window, 0)
    assert times == sorted(times, reverse=True)
    assert count_text(window) == f"{len(shown)} entries"


def test_a_row_shows_each_field_and_the_time_in_local_time(window: ActivityWindow) -> None:
    newest = SPECS[-1]
    row = [cells(window, c)[0] for c in range(len(COLUMNS))]
    local = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(newest.ts))
    assert row == [local, newest.kind, newest.agent, "click", newest.site, newest.summary,
                   newest.decision or "", "policy" if newest.decision else "",
                   "ok" if newest.kind == "outcome" else ""]


def test_choosing_an_agent_shows_only_that_agents_entries(window: ActivityWindow) -> None:
    choose(window, "agent", "codex")
    assert cells(window) == expected(lambda s: s.agent == "codex")
    assert set(cells(window, 2)) == {"codex"}
    choose(window, "agent", None)
    assert cells(window) == expected(lambda s: True)


def test_typing_part_of_a_site_shows_every_site_containing_it_once_typing_pauses(
        window: ActivityWindow, qrun: Callable[..., Any]) -> None:
    everything = cells(window)
    child(window, QComboBox, "site").setEditText("BANK")
    assert cells(window) == everything  # not on every keystroke
    qrun(asyncio.sleep(0.5))
    assert cells(window) == expected(lambda s: "bank" in s.site)
    assert set(cells(window, 4)) == {"https://bank.example", "https://bank.example.evil.test"}


def test_a_whole_site_shows_only_that_site_not_a_lookalike(window: ActivityWindow) -> None:
    site = child(window, QComboBox, "site")
    site.setCurrentIndex(site.findText("https://bank.example"))
    window.refresh()
    assert cells(window) == expected(lambda s: s.site == "https://bank.example")
    site.setEditText("HTTPS://Bank.Example")  # typed whole, in any case
    window.refresh()
    assert cells(window) == expected(lambda s: s.site == "https://bank.example")


def test_choosing_a_decision_shows_only_entries_with_it(window: ActivityWindow) -> None:
    choose(window, "decision", "denied")
    assert cells(window) == expected(lambda s: s.decision == "denied")
    assert cells(window)  # the test data has some
    choose(window, "decision", "withdrawn")
    assert cells(window) == []
    assert count_text(window) == "no entries match"


def test_choosing_a_kind_shows_only_entries_of_it(window: ActivityWindow) -> None:
    choose(window, "kind", "outcome")
    assert cells(window) == expected(lambda s: s.kind == "outcome")
    assert set(cells(window, 1)) == {"outcome"}


def test_the_time_filter_narrows_to_the_last_hour_and_widens_to_everything(
        window: ActivityWindow) -> None:
    choose(window, "period", "hour")
    assert cells(window) == expected(lambda s: True, CLOCK - HOUR) == ["entry 299",
                                                                        "entry 298"]
    choose(window, "period", "today")
    assert cells(window) == expected(lambda s: True, period_start("today", CLOCK))
    choose(window, "period", "all")
    assert cells(window) == expected(lambda s: True, None)
    assert len(cells(window)) == 300


def test_filters_combine(window: ActivityWindow) -> None:
    choose(window, "agent", "cursor")
    choose(window, "kind", "decision")
    choose(window, "decision", "block")
    child(window, QComboBox, "site").setEditText("bank")
    choose(window, "period", "all")
    want = expected(lambda s: (s.agent, s.kind, s.decision) == ("cursor", "decision", "block")
                    and "bank" in s.site, None)
    assert cells(window) == want
    assert want


def test_today_begins_at_local_midnight_and_everything_has_no_start() -> None:
    now = datetime(2026, 3, 10, 15, 30).timestamp()
    assert period_start("today", now) == datetime(2026, 3, 10).timestamp()
    assert period_start("hour", now) == now - HOUR
    assert period_start("week", now) == now - 7 * DAY
    assert period_start("all", now) is None


def test_more_matches_than_the_cap_show_the_newest_and_say_so(
        private_home: dict[str, str], qtbot: QtBot, log: ActivityLog) -> None:
    window = make(qtbot, log, max_rows=50)
    choose(window, "period", "all")
    assert cells(window) == expected(lambda s: True, None)[:50]
    assert count_text(window) == "showing the newest 50 of more"
    choose(window, "agent", "codex")
    choose(window, "kind", "decision")
    want = expected(lambda s: (s.agent, s.kind) == ("codex", "decision"), None)
    assert 0 < len(want) < 50
    assert cells(window) == want
    assert count_text(window) == f"{len(want)} entries"


def test_exactly_as_many_matches_as_the_cap_are_not_called_more(
        private_home: dict[str, str], qtbot: QtBot, log: ActivityLog) -> None:
    window = make(qtbot, log, max_rows=300)
    choose(window, "period", "all")
    assert count_text(window) == "300 entries"


def test_markup_in_the_log_is_shown_literally(window: ActivityWindow,
                                              log: ActivityLog) -> None:
    log.append("request", agent="<i>sly</i>", site="https://x.test",
               summary='<b>x</b> <a href="https://evil.test">click</a> &amp;', ts=NOW)
    window.refresh()
    assert cells(window)[0] == '<b>x</b> <a href="https://evil.test">click</a> &amp;'
    assert cells(window, 2)[0] == "<i>sly</i>"
    tip = cells(window, SUMMARY, Qt.ItemDataRole.ToolTipRole)[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in tip
    assert "<b>" not in tip
    assert "<a " not in tip
    assert "&amp;amp;" in tip
    assert "<i>sly</i>" in [child(window, QComboBox, "agent").itemText(i)
                            for i in range(child(window, QComboBox, "agent").count())]
    for name in ("status", "count"):
        assert child(window, QLabel, name).textFormat() == Qt.TextFormat.PlainText


def test_a_tooltip_has_the_full_summary_and_the_reason(window: ActivityWindow,
                                                       log: ActivityLog) -> None:
    long = "fill " + "word " * 60
    log.append("decision", summary=long, reason="banking sites are blocked", ts=NOW)
    window.refresh()
    tip = cells(window, SUMMARY, Qt.ItemDataRole.ToolTipRole)[0]
    assert long.strip() in tip
    assert "Why: banking sites are blocked" in tip


def test_refresh_after_an_append_shows_the_new_row_and_agent(window: ActivityWindow,
                                                             log: ActivityLog) -> None:
    log.append("request", agent="aider", site="https://new.example", summary="brand new")
    assert cells(window)[0] != "brand new"
    child(window, QPushButton, "refresh").click()
    assert cells(window)[0] == "brand new"
    agent = child(window, QComboBox, "agent")
    assert "aider" in [agent.itemText(i) for i in range(agent.count())]
    site = child(window, QComboBox, "site")
    assert "https://new.example" in [site.itemText(i) for i in range(site.count())]


def test_refresh_keeps_the_chosen_filters(window: ActivityWindow, log: ActivityLog) -> None:
    choose(window, "agent", "codex")
    child(window, QComboBox, "site").setEditText("shop")
    window.refresh()
    log.append("request", agent="aider", site="https://shop.example", summary="other agent")
    log.append("request", agent="codex", site="https://shop.example", summary="codex again")
    window.refresh()
    assert child(window, QComboBox, "agent").currentData() == "codex"
    assert child(window, QComboBox, "site").currentText() == "shop"
    assert cells(window)[0] == "codex again"
    assert "other agent" not in cells(window)


def test_a_log_that_cannot_be_read_is_reported_and_the_rows_stay(window: ActivityWindow,
                                                                 log: ActivityLog) -> None:
    before = cells(window)
    log.close()
    window.refresh()
    assert "nothing was read" in status_text(window)
    assert "not refreshed" in status_text(window)
    assert cells(window) == before


# exporting


def exported_csv(path: Path) -> list[str]:
    return [row["summary"] for row in csv.DictReader(io.StringIO(path.read_text()))]


def exported_jsonl(path: Path) -> list[str]:
    return [json.loads(line)["summary"] for line in path.read_text().splitlines()]


def test_export_to_csv_writes_the_filtered_entries_oldest_first_privately(
        window: ActivityWindow, tmp_path: Path) -> None:
    choose(window, "agent", "claude-code")
    choose(window, "kind", "decision")
    path = tmp_path / "out.csv"
    want = expected(lambda s: s.agent == "claude-code" and s.kind == "decision")
    assert window.export_to(path, "csv") == len(want)
    assert exported_csv(path) == list(reversed(want))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert status_text(window) == f"Exported {len(want)} entries to {path}"


def test_export_to_jsonl_writes_the_filtered_entries_privately(window: ActivityWindow,
                                                              tmp_path: Path) -> None:
    child(window, QComboBox, "site").setEditText("mail")
    choose(window, "period", "all")
    path = tmp_path / "out.jsonl"
    want = expected(lambda s: "mail" in s.site, None)
    assert window.export_to(path, "jsonl") == len(want)
    assert exported_jsonl(path) == list(reversed(want))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["activity.sqlite3", "activity.sqlite3-shm",
                                            "activity.sqlite3-wal", "out.jsonl"]


def test_an_export_writes_every_match_not_only_the_rows_shown(
        private_home: dict[str, str], qtbot: QtBot, log: ActivityLog,
        tmp_path: Path) -> None:
    window = make(qtbot, log, max_rows=10)
    choose(window, "period", "all")
    path = tmp_path / "all.csv"
    assert window.export_to(path, "csv") == 300
    assert len(exported_csv(path)) == 300


def unwritable_paths(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    return {"a missing folder": tmp_path / "missing" / "out.csv",
            "a file as its folder": a_file / "out.csv"}


@pytest.mark.parametrize("case", ["a missing folder", "a file as its folder"])
def test_an_export_to_an_unwritable_path_says_so_and_leaves_no_file(
        window: ActivityWindow, tmp_path: Path, case: str) -> None:
    path = unwritable_paths(tmp_path)[case]
    assert window.export_to(path, "csv") is None
    assert "nothing was exported" in status_text(window)
    assert str(path.parent) in status_text(window)
    assert not os.path.lexists(path)


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="needs a folder this user cannot write (not root)")
def test_an_export_to_a_read_only_folder_says_so_and_leaves_no_file(
        window: ActivityWindow, tmp_path: Path) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert window.export_to(folder / "out.csv", "csv") is None
        assert "nothing was exported" in status_text(window)
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def test_an_export_that_fails_midway_leaves_no_file_behind(
        window: ActivityWindow, log: ActivityLog, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fail_midway(fp: IO[str], fmt: str, **filters: Any) -> int:
        fp.write("id,time\n1,half a row")
        raise TabstewardError("could not read the activity log (disk I/O error); "
                              "nothing was read")

    monkeypatch.setattr(log, "export", fail_midway)
    folder = tmp_path / "exports"
    folder.mkdir()
    assert window.export_to(folder / "out.csv", "csv") is None
    assert "disk I/O error" in status_text(window)
    assert os.listdir(folder) == []


def test_an_export_never_replaces_an_existing_file(window: ActivityWindow,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "keep.csv"
    path.write_text("precious")
    assert window.export_to(path, "csv") is None
    assert "already exists" in status_text(window)
    assert path.read_text() == "precious"


def test_an_error_shown_in_the_status_line_is_replaced_by_the_next_success(
        window: ActivityWindow, tmp_path: Path) -> None:
    window.export_to(tmp_path / "missing" / "x.csv", "csv")
    assert window.export_to(tmp_path / "x.csv", "csv")
    assert status_text(window).startswith("Exported ")


def test_the_export_button_opens_a_dialog_without_blocking_and_exports_the_choice(
        window: ActivityWindow, qtbot: QtBot, private_home: dict[str, str],
        tmp_path: Path) -> None:
    window.show()
    qtbot.mouseClick(child(window, QPushButton, "export"), Qt.MouseButton.LeftButton)
    dialog = window.findChild(QFileDialog)
    assert dialog is not None
    assert dialog.isVisible()  # open(), not exec(): the click returned with it showing
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    assert dialog.nameFilters() == ["CSV (*.csv)", "JSON Lines (*.jsonl)"]
    assert Path(dialog.directory().absolutePath()) == Path(private_home["HOME"])
    choose(window, "agent", "cursor")
    path = tmp_path / "chosen.jsonl"
    dialog.selectFile(str(path))
    dialog.accept()
    assert exported_jsonl(path) == list(reversed(expected(lambda s: s.agent == "cursor")))
    assert status_text(window).startswith("Exported ")


def test_the_export_format_follows_the_suffix_then_the_chosen_file_type() -> None:
    assert export_format(Path("a.JSONL")) == "jsonl"
    assert export_format(Path("a.csv"), "JSON Lines (*.jsonl)") == "csv"
    assert export_format(Path("a.txt"), "JSON Lines (*.jsonl)") == "jsonl"
    assert export_format(Path("a")) == "csv"


def test_what_agents_and_pages_wrote_is_shown_inert(private_home: dict[str, str],
                                                    qtbot: QtBot, tmp_path: Path) -> None:
    # the attack: a page title or process name with escape, bidi and newline characters
    with ActivityLog(tmp_path / "inert.sqlite3", redactor=Redactor()) as opened:
        opened.append("request", agent="codex", tool="open", ts=NOW,
                      summary="open Docs\x1b]0;owned\x07\u202egnp.exe\nforged line")
        window = make(qtbot, opened)
        [summary] = cells(window)
        [tip] = cells(window, role=Qt.ItemDataRole.ToolTipRole)
        for text in (summary, tip):
            assert not {"\x1b", "\x07", "\u202e", "\n"} & set(text), text
        assert "forged line" in summary
