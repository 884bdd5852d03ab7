"""The activity log: appended entries are durable, filterable, exportable, bounded, redacted."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tabsteward.bridge.errors import TabstewardError, UsageError
from tabsteward.bridge.paths import state_dir
from tabsteward.bridge.records.activity import (
    DECISIONS,
    LIMITS,
    MAX_DATA,
    SCHEMA_VERSION,
    ActivityLog,
    Entry,
    Filters,
)
from tabsteward.bridge.records.redact import MARK, Redactor

NOW = time.time()


@pytest.fixture
def log(tmp_path: Path) -> Iterator[ActivityLog]:
    with ActivityLog(tmp_path / "activity.sqlite3", redactor=Redactor()) as opened:
        yield opened


def fill(log: ActivityLog) -> None:
    """A click that a person approved, and a fill that policy blocked an hour earlier."""
    log.append("request", agent="claude-code", tool="fill", site="https://bank.example",
               summary='fill "IBAN" on https://bank.example', request_id="r1", ts=NOW - 3600)
    log.append("decision", agent="claude-code", tool="fill", decision="block",
               decided_by="policy", reason="banking sites are blocked", request_id="r1",
               ts=NOW - 3599)
    log.append("request", agent="codex", tool="click", site="https://shop.example",
               summary='click button "Buy" on https://shop.example', request_id="r2", ts=NOW)
    log.append("decision", agent="codex", tool="click", decision="approved",
               decided_by="person (console)", data={"policy": "ask"}, request_id="r2", ts=NOW)
    log.append("outcome", agent="codex", tool="click", outcome="ok", request_id="r2", ts=NOW)


def test_an_appended_entry_reads_back_with_every_field(log: ActivityLog) -> None:
    entry_id = log.append("decision", agent="a", tool="click", site="https://x.test",
                          summary="click @3", decision="ask", decided_by="policy",
                          reason="first visit", outcome=None, request_id=7,
                          data={"ref": "@3", "n": [1, 2]}, ts=1000.5)
    [entry] = log.query()
    assert entry == Entry(entry_id, 1000.5, "decision", "a", "click", "https://x.test",
                          "click @3", "ask", "policy", "first visit", None, "7",
                          {"ref": "@3", "n": [1, 2]})
    assert entry.to_dict()["time"] == "1970-01-01T00:16:40.500+00:00"


def test_the_default_log_is_a_private_file_in_the_state_folder() -> None:
    with ActivityLog() as log:
        log.append("pairing", agent="a", outcome="paired")
        assert log.path == state_dir() / "activity.sqlite3"
    assert stat.S_IMODE(log.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.path.parent.stat().st_mode) == 0o700


def test_an_existing_log_readable_by_others_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    path.touch(mode=0o644)
    path.chmod(0o644)
    ActivityLog(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_log_uses_wal_with_normal_sync_and_records_its_schema_version(
        tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with ActivityLog(path) as log:
        db = log._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_entries_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with ActivityLog(path) as log:
        fill(log)
    with ActivityLog(path) as log:
        assert len(log.query()) == 5


def test_query_returns_newest_first_unless_asked_otherwise(log: ActivityLog) -> None:
    fill(log)
    assert [e.kind for e in log.query(limit=2)] == ["outcome", "decision"]
    assert [e.request_id for e in log.query(newest_first=False, limit=2)] == ["r1", "r1"]


def test_query_filters_by_agent_kind_time_site_and_text(log: ActivityLog) -> None:
    fill(log)
    assert {e.agent for e in log.query(agent="codex")} == {"codex"}
    assert [e.decision for e in log.query(kind="decision")] == ["approved", "block"]
    assert len(log.query(since=NOW - 60)) == 3
    assert len(log.query(until=NOW - 60)) == 2
    assert [e.tool for e in log.query(site="BANK.example")] == ["fill"]
    assert [e.kind for e in log.query(text="banking")] == ["decision"]
    assert [e.kind for e in log.query(text='"buy"')] == ["request"]
    assert log.query(agent="codex", kind="request", site="bank") == []


def test_query_filters_by_decision(log: ActivityLog) -> None:
    fill(log)
    log.append("decision", agent="codex", decision="override once", decided_by="person (tray)")
    assert [e.request_id for e in log.query(decision="block")] == ["r1"]
    assert [e.agent for e in log.query(decision="approved", agent="codex")] == ["codex"]
    assert [e.decided_by for e in log.query(decision="override once")] == ["person (tray)"]
    assert log.query(decision="denied") == []


def test_a_site_filter_is_a_substring_unless_it_asks_for_the_whole_site(
        log: ActivityLog) -> None:
    log.append("request", site="https://bank.example", summary="real")
    log.append("request", site="https://bank.example.evil.test", summary="lookalike")
    log.append("request", site="https://shop.example", summary="other")
    assert [e.summary for e in log.query(site="bank")] == ["lookalike", "real"]
    assert [e.summary for e in log.query(site="https://bank.example")] == ["lookalike", "real"]
    assert [e.summary for e in log.query(site="https://bank.example", exact_site=True)] == [
        "real"]
    assert log.query(site="bank", exact_site=True) == []


def test_filters_gathered_in_one_dict_work_for_query_and_export(log: ActivityLog) -> None:
    fill(log)
    filters = Filters(agent="codex", kind="decision", since=NOW - 60, until=NOW + 1,
                      site=None, exact_site=False, decision="approved", text=None)
    assert [e.decided_by for e in log.query(**filters)] == ["person (console)"]
    out = io.StringIO()
    assert log.export(out, "jsonl", **filters) == 1


def test_agents_and_sites_list_each_name_once_sorted(log: ActivityLog) -> None:
    fill(log)
    log.append("pairing", agent="aider", outcome="paired")
    assert log.agents() == ["aider", "claude-code", "codex"]
    assert log.sites() == ["https://bank.example", "https://shop.example"]
    assert log.agents(limit=2) == ["aider", "claude-code"]


def test_agents_and_sites_of_an_empty_log_are_empty(log: ActivityLog) -> None:
    log.append("request", summary="no agent, no site")
    assert (log.agents(), log.sites()) == ([], [])


def test_agents_and_sites_are_redacted_when_listed(log: ActivityLog) -> None:
    log.append("request", agent="agent-late-secret", site="https://x.test/late-secret")
    log.redactor.add("late-secret")
    assert log.agents() == [f"agent-{MARK}"]
    assert log.sites() == [f"https://x.test/{MARK}"]


@pytest.mark.parametrize("limit", [0, 10_001, True, 2.5])
def test_agents_and_sites_refuse_a_bad_limit(log: ActivityLog, limit: object) -> None:
    for listing in (log.agents, log.sites):
        with pytest.raises(UsageError, match="nothing was read"):
            listing(limit)  # type: ignore[arg-type]


BAD_FILTERS: list[dict[str, object]] = [
    {"since": "yesterday"}, {"until": "2026-11-30"}, {"since": float("nan")},
    {"until": float("inf")}, {"since": True}, {"agent": 7}, {"site": ["bank"]},
    {"text": b"buy"}, {"decision": "maybe"}, {"decision": "ALLOW"}, {"kind": "gossip"},
    {"exact_site": "yes"},
]


@pytest.mark.parametrize("bad", BAD_FILTERS, ids=lambda bad: ",".join(map(str, bad)))
def test_a_malformed_filter_is_refused_and_nothing_is_read(log: ActivityLog,
                                                          bad: dict[str, object]) -> None:
    fill(log)
    with pytest.raises(UsageError, match="nothing was read"):
        log.query(**bad)  # type: ignore[arg-type]
    out = io.StringIO()
    with pytest.raises(UsageError, match="nothing was read"):
        log.export(out, "csv", **bad)  # type: ignore[arg-type]
    assert out.getvalue() == ""


def test_an_error_about_a_filter_shows_the_value_short_and_on_one_line(
        log: ActivityLog) -> None:
    with pytest.raises(UsageError) as caught:
        log.query(decision="x\n" + "y" * 500)
    assert "\n" not in caught.value.message
    assert len(caught.value.message) < 300


def test_every_decision_word_of_the_vocabulary_is_a_valid_filter(log: ActivityLog) -> None:
    for decision in DECISIONS:
        log.append("decision", decision=decision)
    assert all(len(log.query(decision=d)) == 1 for d in DECISIONS)


def plan(log: ActivityLog, sql: str, *params: object) -> str:
    return " ".join(row[-1] for row in log._db.execute("EXPLAIN QUERY PLAN " + sql, params))


def test_the_site_and_decision_filters_and_the_lists_use_an_index(log: ActivityLog) -> None:
    fill(log)
    by_decision = plan(log, "SELECT id FROM entries WHERE decision = ? ORDER BY id DESC", "x")
    assert "INDEX entries_decision" in by_decision
    by_site = plan(log, "SELECT id FROM entries WHERE site = ? ORDER BY id DESC", "x")
    assert "INDEX entries_site" in by_site
    next_site = plan(log, "SELECT min(site) FROM entries WHERE site > ?", "x")
    assert "INDEX entries_site" in next_site
    next_agent = plan(log, "SELECT min(agent) FROM entries WHERE agent > ?", "x")
    assert "INDEX entries_agent" in next_agent


def test_a_log_made_before_the_new_indexes_gains_them_and_keeps_its_entries(
        tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with ActivityLog(path) as log:
        fill(log)
        log._db.execute("DROP INDEX entries_site")
        log._db.execute("DROP INDEX entries_decision")
    with ActivityLog(path) as log:
        names = {row[0] for row in log._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"entries_site", "entries_decision"} <= names
        assert len(log.query(decision="block", agent="claude-code")) == 1
        assert len(log.query(site="https://bank.example", exact_site=True)) == 1


def test_the_filter_lists_stay_cheap_on_a_long_log(log: ActivityLog) -> None:
    rows = [(float(i), "request", f"agent-{i % 4}", f"https://site-{i % 50}.test")
            for i in range(50_000)]
    log._db.execute("BEGIN")
    log._db.executemany("INSERT INTO entries (ts, kind, agent, site) VALUES (?, ?, ?, ?)",
                        rows)
    log._db.execute("COMMIT")
    started = time.perf_counter()
    agents, sites = log.agents(), log.sites()
    cost = time.perf_counter() - started
    print(f"agents() and sites() over 50,000 entries: {cost * 1e3:.1f} ms")
    assert (len(agents), len(sites)) == (4, 50)
    assert cost < 0.05  # a skip through the index, not a scan; generous for shared CI


def test_query_refuses_a_limit_outside_one_to_ten_thousand(log: ActivityLog) -> None:
    for limit in (0, 10_001):
        with pytest.raises(UsageError, match="nothing was read"):
            log.query(limit=limit)


def test_an_unknown_kind_is_refused_and_nothing_is_logged(log: ActivityLog) -> None:
    with pytest.raises(UsageError, match="nothing was logged"):
        log.append("gossip", summary="x")
    with pytest.raises(UsageError, match="nothing was read"):
        log.query(kind="gossip")
    assert log.query() == []


def test_export_as_json_lines_writes_every_match_oldest_first(log: ActivityLog) -> None:
    fill(log)
    out = io.StringIO()
    assert log.export(out, "jsonl", agent="codex") == 3
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["kind"] for r in rows] == ["request", "decision", "outcome"]
    assert rows[1]["decided_by"] == "person (console)"
    assert rows[1]["data"] == {"policy": "ask"}


def test_export_as_csv_has_a_header_and_one_row_per_entry(log: ActivityLog) -> None:
    fill(log)
    out = io.StringIO()
    assert log.export(out, "csv") == 5
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(rows[0]) == ["id", "time", "ts", "kind", "agent", "tool", "site", "summary",
                             "decision", "decided_by", "reason", "outcome", "request_id",
                             "data"]
    assert rows[0]["summary"] == 'fill "IBAN" on https://bank.example'
    assert json.loads(rows[3]["data"]) == {"policy": "ask"}
    assert rows[4]["data"] == ""


def test_csv_export_keeps_a_hostile_formula_as_text(log: ActivityLog) -> None:
    log.append("request", summary='=HYPERLINK("https://evil.test","x")')
    out = io.StringIO()
    log.export(out, "csv")
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["summary"].startswith("'=")


def test_export_refuses_an_unknown_format(log: ActivityLog) -> None:
    with pytest.raises(UsageError, match="jsonl or csv"):
        log.export(io.StringIO(), "xml")  # type: ignore[arg-type]


def test_prune_deletes_only_entries_older_than_the_days_kept(log: ActivityLog) -> None:
    log.append("request", summary="old", ts=NOW - 10 * 86400)
    log.append("request", summary="recent", ts=NOW - 86400)
    assert log.prune(7) == 1
    assert [e.summary for e in log.query()] == ["recent"]
    with pytest.raises(UsageError):
        log.prune(0)


def test_long_fields_are_cut_to_their_limit(log: ActivityLog) -> None:
    log.append("request", summary="s" * 100_000, reason="r" * 100_000, site="h" * 10_000)
    [entry] = log.query()
    assert LIMITS["summary"] == 500
    assert len(entry.summary or "") == 500
    assert (entry.summary or "").endswith("…")
    assert len(entry.reason or "") == LIMITS["reason"]
    assert len(entry.site or "") == LIMITS["site"]


def test_oversized_data_is_replaced_by_a_note_of_its_size(log: ActivityLog) -> None:
    log.append("outcome", data={"text": "x" * 100_000})
    [entry] = log.query()
    assert "100012 bytes" in (entry.data or {})["unlogged"]
    assert len(json.dumps(entry.data)) < MAX_DATA


def test_data_that_is_not_json_is_stored_as_its_redacted_repr(log: ActivityLog) -> None:
    log.redactor.add("s3cr3t-value")
    log.append("outcome", data={"obj": {"s3cr3t-value"}, "path": Path("/tmp/x")})
    [entry] = log.query()
    assert entry.data == {"obj": f"{{'{MARK}'}}", "path": "PosixPath('/tmp/x')"}


def test_control_characters_cannot_forge_a_second_line(log: ActivityLog) -> None:
    log.append("request", summary="click\n2026-11-30 09:00:00  approved\u2028\u202eevil")
    [entry] = log.query()
    assert entry.summary == "click 2026-11-30 09:00:00  approved  evil"


def test_known_secrets_are_redacted_from_every_field_and_the_file(tmp_path: Path) -> None:
    redactor = Redactor()
    redactor.add("Tr0ub4dor&3")
    path = tmp_path / "a.sqlite3"
    secret = "Tr0ub4dor&3"
    with ActivityLog(path, redactor=redactor) as log:
        log.append("request", agent=secret, tool=secret, site=f"https://x.test/?p={secret}",
                   summary=f"fill {secret}", decision=secret, decided_by=secret,
                   reason=secret, outcome=f"error 2: {secret}", request_id=secret,
                   data={"typed": secret, secret: [secret], "password": "other"})
        [entry] = log.query()
        out = io.StringIO()
        log.export(out, "csv")
        log.export(out, "jsonl")
    assert secret not in repr(entry)
    assert entry.summary == f"fill {MARK}"
    assert entry.data == {"typed": MARK, MARK: [MARK], "password": MARK}
    assert secret not in out.getvalue()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert secret.encode() not in on_disk
    assert b"other" not in on_disk


def test_a_secret_learned_later_is_redacted_when_read(log: ActivityLog) -> None:
    log.append("request", summary="typed late-secret-1")
    log.redactor.add("late-secret-1")
    assert log.query()[0].summary == f"typed {MARK}"


def test_a_corrupt_file_is_named_left_alone_and_nothing_is_logged(tmp_path: Path) -> None:
    path = tmp_path / "activity.sqlite3"
    garbage = b"this is not a database, just some text " * 200
    path.write_bytes(garbage)
    with pytest.raises(TabstewardError, match="nothing was logged") as caught:
        ActivityLog(path)
    assert str(path) in caught.value.message
    assert path.read_bytes() == garbage


def test_a_log_from_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "activity.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(TabstewardError, match="newer Tabsteward") as caught:
        ActivityLog(path)
    assert str(path) in caught.value.message
    assert "nothing was logged" in caught.value.message
    assert path.read_bytes() == before


def test_an_append_costs_well_under_a_millisecond(log: ActivityLog) -> None:
    for _ in range(20):
        log.append("request", agent="warm", summary="up")
    costs = []
    for i in range(300):
        started = time.perf_counter()
        log.append("request", agent="claude-code", tool="click", site="https://x.test",
                   summary=f'click button "Buy" #{i}', request_id=str(i), data={"ref": "@3"})
        costs.append(time.perf_counter() - started)
    costs.sort()
    median = costs[len(costs) // 2]
    print(f"append: median {median * 1e6:.0f} us, p95 {costs[int(len(costs) * 0.95)] * 1e6:.0f}"
          " us")
    assert median < 0.005  # generous: shared CI disks; the figure itself is printed


CHILD = """
import sys
from pathlib import Path
from tabsteward.bridge.records.activity import ActivityLog
log = ActivityLog(Path(sys.argv[1]))
i = 0
while True:
    entry = log.append("request", agent="child", summary=f"entry {i}", data={"i": i})
    print(f"done {entry} {i}", flush=True)
    i += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_every_append_a_killed_process_confirmed_is_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "activity.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    confirmed: dict[int, int] = {}
    try:
        while len(confirmed) < 200:
            words = child.stdout.readline().split()
            assert words[:1] == ["done"], "the child stopped before appending"
            confirmed[int(words[1])] = int(words[2])
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for rest in child.stdout:  # lines it printed before the kill landed
            words = rest.split()
            if len(words) == 3:
                confirmed[int(words[1])] = int(words[2])
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    with ActivityLog(path) as log:
        found = {e.id: (e.data or {}).get("i") for e in log.query(limit=10_000)}
    assert {k: found.get(k) for k in confirmed} == confirmed


def test_an_append_to_a_closed_log_fails_saying_nothing_was_logged(tmp_path: Path) -> None:
    log = ActivityLog(tmp_path / "a.sqlite3")
    log.close()
    with pytest.raises(TabstewardError, match="nothing was logged"):
        log.append("request", summary="late")
