"""The `activity` tool: one line per entry, the entries as data, and a safe export."""

from __future__ import annotations

import asyncio
import csv
import json
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tabsteward.bridge.errors import TabstewardError, UsageError
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.records.activity import ActivityLog
from tabsteward.bridge.records.redact import Redactor
from tabsteward.bridge.tools.activity import parse_since
from tabsteward.bridge.tools.registry import Call, Result, table

NOW = time.time()


@dataclass
class HubLike:
    activity: ActivityLog | None


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubLike]:
    log = ActivityLog(tmp_path / "state" / "activity.sqlite3", redactor=Redactor())
    log.append("request", agent="claude-code", tool="click", site="https://shop.example",
               summary='click button "Buy" on https://shop.example', request_id="1",
               ts=NOW - 7200)
    log.append("decision", agent="claude-code", tool="click", decision="approved",
               decided_by="person (console)", data={"policy": "ask"},
               summary='click button "Buy" on https://shop.example', request_id="1",
               ts=NOW - 7190)
    log.append("outcome", agent="claude-code", tool="click", outcome="ok", request_id="1",
               ts=NOW - 7189)
    log.append("decision", agent="codex", tool="eval", decision="block", decided_by="policy",
               reason="eval is off", request_id="2", ts=NOW - 60)
    yield HubLike(log)
    log.close()


def run(hub: Any, cwd: Path, **args: Any) -> Result:
    tool = table()["activity"]
    checked = protocol.check_args(tool, args)
    return asyncio.run(tool.handler(Call(None, str(cwd), hub), checked))


def test_the_tool_is_a_read_only_tool_of_the_person() -> None:
    tool = table()["activity"]
    assert (tool.browser, tool.mutating, tool.group) == (False, False, "person")


def test_text_shows_one_line_per_entry_oldest_first(hub: HubLike, tmp_path: Path) -> None:
    out = run(hub, tmp_path)
    lines = out.text.splitlines()
    assert len(lines) == 4
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(NOW - 7190))
    assert lines[1] == (f'{when}  claude-code  click  ask → approved by person (console)  '
                        'click button "Buy" on https://shop.example')
    assert lines[2].endswith("claude-code  click  → ok")
    assert lines[3].endswith("codex  eval  block by policy  (eval is off)")


def test_data_holds_the_entries_with_every_field(hub: HubLike, tmp_path: Path) -> None:
    out = run(hub, tmp_path, agent="codex")
    [entry] = out.data["entries"]
    assert entry["decision"] == "block"
    assert entry["reason"] == "eval is off"
    assert set(entry) >= {"id", "time", "ts", "kind", "agent", "data"}


def test_filters_narrow_the_entries(hub: HubLike, tmp_path: Path) -> None:
    assert len(run(hub, tmp_path, since="1h").data["entries"]) == 1
    assert len(run(hub, tmp_path, kind="decision").data["entries"]) == 2
    assert len(run(hub, tmp_path, site="shop").data["entries"]) == 1
    assert len(run(hub, tmp_path, grep="EVAL IS").data["entries"]) == 1
    latest = run(hub, tmp_path, limit=2).data["entries"]
    assert [e["request_id"] for e in latest] == ["1", "2"]


def test_nothing_matching_says_so(hub: HubLike, tmp_path: Path) -> None:
    assert run(hub, tmp_path, agent="nobody").text == "no activity matches"


@pytest.mark.parametrize(("value", "ago"), [("10m", 600), ("2h", 7200), ("3d", 3 * 86400),
                                            ("30s", 30), ("1w", 7 * 86400)])
def test_since_accepts_spans(value: str, ago: int) -> None:
    assert parse_since(value, now=10_000_000.0) == 10_000_000.0 - ago


def test_since_accepts_iso_dates_and_times() -> None:
    assert parse_since("2026-11-30T09:12:03+00:00") == 1796029923.0
    assert parse_since("2026-11-30") == time.mktime((2026, 11, 30, 0, 0, 0, 0, 0, -1))


@pytest.mark.parametrize("value", ["yesterday", "10 minutes", "-5m", "5y", "2026-13-01"])
def test_a_bad_since_is_refused_and_nothing_is_read(hub: HubLike, tmp_path: Path,
                                                    value: str) -> None:
    with pytest.raises(UsageError, match="nothing was read"):
        run(hub, tmp_path, since=value)


def test_a_limit_outside_one_to_ten_thousand_is_refused(hub: HubLike, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="nothing was read"):
        run(hub, tmp_path, limit=0)


def test_export_writes_a_private_jsonl_file_relative_to_the_callers_folder(
        hub: HubLike, tmp_path: Path) -> None:
    out = run(hub, tmp_path, export="log.jsonl")
    path = tmp_path / "log.jsonl"
    assert out.data == {"export": str(path), "format": "jsonl", "count": 4}
    assert out.text == f"wrote 4 entries to {path}"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["request_id"] for r in rows] == ["1", "1", "1", "2"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.jsonl", "state"]


def test_export_writes_csv_with_the_filters_applied(hub: HubLike, tmp_path: Path) -> None:
    run(hub, tmp_path, export="sub.CSV", agent="codex")
    with open(tmp_path / "sub.CSV", newline="") as fp:
        rows = list(csv.DictReader(fp))
    assert [r["tool"] for r in rows] == ["eval"]


def test_export_refuses_a_file_that_is_not_jsonl_or_csv(hub: HubLike, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="nothing was written"):
        run(hub, tmp_path, export="log.txt")
    assert not (tmp_path / "log.txt").exists()


def test_export_never_overwrites_an_existing_file(hub: HubLike, tmp_path: Path) -> None:
    existing = tmp_path / "log.jsonl"
    existing.write_text("keep me\n")
    with pytest.raises(UsageError, match="already exists; nothing was written"):
        run(hub, tmp_path, export=str(existing))
    assert existing.read_text() == "keep me\n"


def test_export_into_a_missing_folder_makes_it(hub: HubLike, tmp_path: Path) -> None:
    run(hub, tmp_path, export="new/log.csv")
    assert (tmp_path / "new" / "log.csv").read_text().startswith("id,time,")


def test_a_hub_without_a_log_says_nothing_was_read(tmp_path: Path) -> None:
    with pytest.raises(TabstewardError, match="nothing was read"):
        run(HubLike(None), tmp_path)
