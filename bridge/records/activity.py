"""The durable activity log: every request, decision and outcome, appended to local SQLite."""

from __future__ import annotations

import csv
import json
import math
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal, TypedDict

from ..errors import TabstewardError, UsageError
from ..paths import ensure_private_dir, state_dir
from .redact import REDACTOR, Redactor

SCHEMA_VERSION = 1
FILENAME = "activity.sqlite3"

KINDS = ("request", "decision", "outcome", "pairing", "grant", "person")  # person: a command
# of the person's, run from a terminal once they confirmed it
# What a `decision` entry's decision field usually holds, and who usually decides; the log
# stores any short text, so these are the vocabulary, not a check.
DECISIONS = ("allow", "ask", "block", "approved", "denied", "timeout", "withdrawn",
             "override once", "override always", "granted always")
DECIDERS = ("policy", "person (console)", "person (tray)", "grant")

# Longest text kept per field, in characters; longer text is cut and ends with "…".
LIMITS: dict[str, int] = {"agent": 100, "tool": 100, "site": 300, "summary": 500,
                          "decision": 40, "decided_by": 100, "reason": 500, "outcome": 500,
                          "request_id": 100}
MAX_DATA = 8 * 1024  # bytes of JSON
MAX_QUERY = 10_000
_BATCH = 500

Format = Literal["jsonl", "csv"]


class Filters(TypedDict, total=False):
    """The filters `query` and `export` take, gathered in one dict (`log.query(**filters)`);
    see `query` for what each one matches."""

    agent: str | None
    kind: str | None
    decision: str | None
    site: str | None
    exact_site: bool
    text: str | None
    since: float | None
    until: float | None

_SCHEMA = """
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    kind TEXT NOT NULL,
    agent TEXT, tool TEXT, site TEXT, summary TEXT,
    decision TEXT, decided_by TEXT, reason TEXT, outcome TEXT,
    request_id TEXT,
    data TEXT
);
CREATE INDEX entries_ts ON entries (ts);
CREATE INDEX entries_agent ON entries (agent, ts);
"""
# Indexes added after schema 1 shipped: made on open when missing (no format change), so
# the filter lists and the site and decision filters stay cheap on a long log.
_INDEXES = {"entries_site": "CREATE INDEX IF NOT EXISTS entries_site ON entries (site)",
            "entries_decision": "CREATE INDEX IF NOT EXISTS entries_decision "
                                "ON entries (decision)"}
_COLUMNS = ("id", "ts", "kind", *LIMITS, "data")
# Control characters, line and paragraph separators, and bidirectional overrides: a page
# could use them to forge lines or reorder text in the log's one-line-per-entry output.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# a lone surrogate has no UTF-8: SQLite would refuse the whole entry
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Entry:
    """One logged event, as read back (every text already redacted)."""

    id: int
    ts: float
    kind: str
    agent: str | None = None
    tool: str | None = None
    site: str | None = None
    summary: str | None = None
    decision: str | None = None
    decided_by: str | None = None
    reason: str | None = None
    outcome: str | None = None
    request_id: str | None = None
    data: dict[str, Any] | None = None

    @property
    def time(self) -> str:
        """When it happened, as an ISO 8601 UTC timestamp."""
        return datetime.fromtimestamp(self.ts, UTC).isoformat(timespec="milliseconds")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "time": self.time, **{k: v for k, v in asdict(self).items()
                                                     if k != "id"}}


def default_path() -> Path:
    return ensure_private_dir(state_dir()) / FILENAME


class ActivityLog:
    """The log in one SQLite file. One connection, meant for the hub's event-loop thread.

    Durability: WAL with synchronous=NORMAL. An entry whose `append` returned is in the
    file's write-ahead log and survives the hub's crash or kill (the operating system
    holds it); only a crash of the whole system or a power cut before the next checkpoint
    can lose the last entries, never the file. FULL would sync the disk on every entry
    (three per action: request, decision, outcome), a few ms each on an agent's every
    command, to guard against a power cut, which no agent can cause."""

    def __init__(self, path: Path | None = None, *, redactor: Redactor | None = None) -> None:
        if path is None:
            path = default_path()
        else:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = path
        self.redactor = redactor if redactor is not None else REDACTOR
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise self._unusable(exc.strerror or str(exc)) from exc
        try:
            if hasattr(os, "fchmod") and os.fstat(fd).st_mode & 0o077:
                os.fchmod(fd, 0o600)  # a file made by hand or an older version: private now
        finally:
            os.close(fd)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._unusable(str(exc)) from exc
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise TabstewardError(
                    f"the activity log {self.path} was written by a newer Tabsteward (schema "
                    f"{version}; this one reads up to {SCHEMA_VERSION}); nothing was logged. "
                    "Upgrade Tabsteward, or move the file aside to start a new log.")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # see the class docstring
            db.execute("PRAGMA busy_timeout=2000")
            if version < 1:
                db.execute("BEGIN IMMEDIATE")
                if int(db.execute("PRAGMA user_version").fetchone()[0]) < 1:
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        db.execute(statement)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            _add_indexes(db)
            db.execute("SELECT 1 FROM entries LIMIT 1").fetchall()
        except TabstewardError:
            db.close()
            raise
        except sqlite3.Error as exc:
            db.close()
            raise self._unusable(str(exc)) from exc
        return db

    def _unusable(self, reason: str) -> TabstewardError:
        return TabstewardError(
            f"the activity log {self.path} cannot be used ({reason}); nothing was logged. "
            "It was left as it is: move it aside to start a new log.", path=str(self.path))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> ActivityLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writing

    def append(self, kind: str, *, agent: str | None = None, tool: str | None = None,
               site: str | None = None, summary: str | None = None,
               decision: str | None = None, decided_by: str | None = None,
               reason: str | None = None, outcome: str | None = None,
               request_id: str | int | None = None, data: Mapping[str, Any] | None = None,
               ts: float | None = None) -> int:
        """Append one entry and return its id once it is on disk; every text is redacted
        and cut to its field's limit first."""
        if kind not in KINDS:
            raise UsageError(f"unknown activity kind {kind!r} (kinds: {', '.join(KINDS)}); "
                             "nothing was logged")
        given = {"agent": agent, "tool": tool, "site": site, "summary": summary,
                 "decision": decision, "decided_by": decided_by, "reason": reason,
                 "outcome": outcome, "request_id": request_id}
        row = [time.time() if ts is None else float(ts), kind,
               *(self._field(name, given[name]) for name in LIMITS),
               self._data(data)]
        try:
            with self._lock:
                cur = self._db.execute(
                    "INSERT INTO entries (ts, kind, agent, tool, site, summary, decision, "
                    "decided_by, reason, outcome, request_id, data) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as exc:
            raise TabstewardError(f"could not append to the activity log {self.path} ({exc}); "
                                  "nothing was logged", path=str(self.path)) from exc
        assert cur.lastrowid is not None
        return cur.lastrowid

    def _field(self, name: str, value: object) -> str | None:
        if value is None:
            return None
        text = _UNSAFE.sub(" ", self.redactor.text(_SURROGATE.sub("\ufffd", str(value))))
        return _cut(text, LIMITS[name])

    def _data(self, data: Mapping[str, Any] | None) -> str | None:
        if data is None:
            return None
        clean = self.redactor.data(dict(data))
        try:
            encoded = json.dumps(clean, ensure_ascii=False, default=self._unknown)
        except (TypeError, ValueError) as exc:  # non-string keys, cycles, NaN is allowed
            encoded = json.dumps({"unlogged": f"data could not be stored as JSON: {exc}"})
        encoded = _SURROGATE.sub("\ufffd", encoded)
        size = len(encoded.encode("utf-8"))
        if size > MAX_DATA:
            encoded = json.dumps({"unlogged": f"data was {size} bytes; the log keeps at most "
                                              f"{MAX_DATA}"})
        return encoded

    def _unknown(self, obj: object) -> str:
        return self.redactor.text(_cut(repr(obj), 200))

    def prune(self, keep_days: float) -> int:
        """Delete the entries older than `keep_days` days; returns how many were deleted."""
        if not keep_days > 0:
            raise UsageError("keep_days must be more than 0; nothing was deleted")
        cutoff = time.time() - keep_days * 86400
        try:
            with self._lock:
                cur = self._db.execute("DELETE FROM entries WHERE ts < ?", (cutoff,))
        except sqlite3.Error as exc:
            raise TabstewardError(f"could not prune the activity log {self.path} ({exc}); "
                                  "nothing was deleted") from exc
        return cur.rowcount

    # reading

    def query(self, *, agent: str | None = None, kind: str | None = None,
              decision: str | None = None, since: float | None = None,
              until: float | None = None, site: str | None = None, exact_site: bool = False,
              text: str | None = None, limit: int = 100,
              newest_first: bool = True) -> list[Entry]:
        """Entries matching every filter given: `agent` exactly, `kind` and `decision` exactly
        (one of KINDS, DECISIONS), `since` <= ts < `until` (epoch seconds), `text` (in
        summary or reason) as a case-insensitive substring, and `site` as a case-insensitive
        substring ("bank" finds https://bank.example), or, with `exact_site`, as the whole
        site (one of `sites()`, and not https://bank.example.evil.test); at most `limit`
        (1..10000), newest first unless told otherwise. A malformed filter reads nothing."""
        _check_limit(limit, MAX_QUERY)
        filters = Filters(agent=agent, kind=kind, decision=decision, since=since, until=until,
                          site=site, exact_site=exact_site, text=text)
        return list(self._select(filters, limit, newest_first))

    def export(self, fp: IO[str], fmt: Format, *, agent: str | None = None,
               kind: str | None = None, decision: str | None = None,
               since: float | None = None, until: float | None = None,
               site: str | None = None, exact_site: bool = False, text: str | None = None,
               limit: int | None = None, newest_first: bool = False) -> int:
        """Write the entries matching the filters (as in `query`) to `fp` as JSON lines or CSV
        (oldest first, all of them unless `limit`); returns how many were written."""
        if fmt not in ("jsonl", "csv"):
            raise UsageError(f"export format must be jsonl or csv, not {fmt!r}; "
                             "nothing was exported")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 1):
            raise UsageError("limit must be a whole number of at least 1; nothing was exported")
        filters = Filters(agent=agent, kind=kind, decision=decision, since=since, until=until,
                          site=site, exact_site=exact_site, text=text)
        entries = self._select(filters, limit, newest_first)
        if fmt == "jsonl":
            return _write_jsonl(fp, entries)
        return _write_csv(fp, entries)

    def agents(self, limit: int = 1000) -> list[str]:
        """The distinct agent names in the log, sorted (at most `limit`); one index step per
        name, so cheap on a long log."""
        return self._distinct("agent", limit)

    def sites(self, limit: int = 1000) -> list[str]:
        """The distinct sites in the log, sorted (at most `limit`); as cheap as `agents`."""
        return self._distinct("site", limit)

    def _distinct(self, column: Literal["agent", "site"], limit: int) -> list[str]:
        _check_limit(limit, MAX_QUERY)
        assert column in ("agent", "site")  # a name of ours, never a caller's text
        # skip from one value to the next through the index, not over every row
        sql = (f"WITH RECURSIVE d(v) AS (SELECT min({column}) FROM entries UNION ALL "
               f"SELECT (SELECT min({column}) FROM entries WHERE {column} > d.v) FROM d "
               "WHERE d.v IS NOT NULL LIMIT ?) SELECT v FROM d WHERE v IS NOT NULL")
        try:
            with self._lock:
                rows = self._db.execute(sql, (limit,)).fetchall()
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from exc
        # redacted again on the way out, as entries are; two names may now be one
        return list(dict.fromkeys(self.redactor.text(str(row[0])) for row in rows))

    def _select(self, filters: Filters, limit: int | None,
                newest_first: bool) -> Iterator[Entry]:
        """The matching entries, read in batches (the filters are checked before any)."""
        where, params = _where(filters)
        sql = f"SELECT {', '.join(_COLUMNS)} FROM entries"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id " + ("DESC" if newest_first else "ASC")
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        try:
            with self._lock:
                cursor = self._db.execute(sql, params)
                first = cursor.fetchmany(_BATCH)
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from exc
        return self._rows(cursor, first)

    def _rows(self, cursor: sqlite3.Cursor, batch: list[Any]) -> Iterator[Entry]:
        while batch:
            for row in batch:
                yield self._entry(row)
            try:
                with self._lock:
                    batch = cursor.fetchmany(_BATCH)
            except sqlite3.Error as exc:
                raise self._unreadable(exc) from exc

    def _unreadable(self, exc: sqlite3.Error) -> TabstewardError:
        return TabstewardError(f"could not read the activity log {self.path} ({exc}); "
                               "nothing was read", path=str(self.path))

    def _entry(self, row: tuple[Any, ...]) -> Entry:
        # redacted again on the way out: a secret learned after the entry was written
        texts = {name: self.redactor.text(v) if isinstance(v, str) else None
                 for name, v in zip(LIMITS, row[3:-1], strict=True)}
        data: dict[str, Any] | None = None
        if row[-1] is not None:
            try:
                loaded = json.loads(row[-1])
            except ValueError:
                loaded = {"unreadable": "this entry's data is not valid JSON"}
            data = self.redactor.data(loaded) if isinstance(loaded, dict) else None
        return Entry(int(row[0]), float(row[1]), str(row[2]), **texts, data=data)


def _add_indexes(db: sqlite3.Connection) -> None:
    """Make the indexes a log written before them lacks (a write only when one is missing)."""
    have = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    missing = [sql for name, sql in _INDEXES.items() if name not in have]
    if missing:
        db.execute("BEGIN IMMEDIATE")
        for sql in missing:
            db.execute(sql)
        db.execute("COMMIT")


def _check_limit(limit: object, most: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= most:
        raise UsageError(f"limit must be a whole number from 1 to {most}; nothing was read")


def _where(filters: Filters) -> tuple[list[str], list[Any]]:
    """The SQL conditions and their parameters for `filters`, each value checked first."""
    where: list[str] = []
    params: list[Any] = []
    for name in ("agent", "kind", "decision"):
        value = _text(filters, name)
        if value is not None:
            where.append(f"{name} = ?")
            params.append(value)
    since, until = _time(filters, "since"), _time(filters, "until")
    if since is not None:
        where.append("ts >= ?")
        params.append(since)
    if until is not None:
        where.append("ts < ?")
        params.append(until)
    exact = filters.get("exact_site", False)
    if not isinstance(exact, bool):
        raise UsageError(f"exact_site must be true or false, not {_shown(exact)}; "
                         "nothing was read")
    site = _text(filters, "site")
    if site:
        where.append("site = ?" if exact else "instr(lower(site), lower(?)) > 0")
        params.append(site)
    text = _text(filters, "text")
    if text:
        where.append("(instr(lower(summary), lower(?)) > 0 "
                     "OR instr(lower(reason), lower(?)) > 0)")
        params += [text, text]
    return where, params


def _text(filters: Filters, name: Literal["agent", "kind", "decision", "site", "text"]
          ) -> str | None:
    value: object = filters.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise UsageError(f"the {name} filter must be text, not {_shown(value)}; "
                         "nothing was read")
    if name == "kind" and value not in KINDS:
        raise UsageError(f"unknown activity kind {_shown(value)} (kinds: {', '.join(KINDS)}); "
                         "nothing was read")
    if name == "decision" and value not in DECISIONS:
        raise UsageError(f"unknown decision {_shown(value)} (decisions: "
                         f"{', '.join(DECISIONS)}); nothing was read")
    return value


def _time(filters: Filters, name: Literal["since", "until"]) -> float | None:
    value: object = filters.get(name)
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value)):
        raise UsageError(f"{name} must be a time in seconds since 1970, not {_shown(value)}; "
                         "nothing was read")
    return float(value)


def _shown(value: object) -> str:
    """A caller's value as it may appear in an error message: short and on one line."""
    return _UNSAFE.sub(" ", _cut(repr(value), 60))


def _write_jsonl(fp: IO[str], entries: Iterator[Entry]) -> int:
    count = 0
    for entry in entries:
        fp.write(json.dumps(entry.to_dict(), ensure_ascii=False) + "\n")
        count += 1
    return count


def _write_csv(fp: IO[str], entries: Iterator[Entry]) -> int:
    writer = csv.writer(fp, lineterminator="\n")
    names = [f.name for f in fields(Entry)]
    writer.writerow(["id", "time", *names[1:]])
    count = 0
    for entry in entries:
        row = entry.to_dict()
        writer.writerow([row["id"], row["time"], row["ts"],
                         *(_cell(row[name]) for name in names[2:-1]),
                         _cell(json.dumps(row["data"], ensure_ascii=False)
                               if row["data"] is not None else None)])
        count += 1
    return count


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _cell(value: str | None) -> str:
    """A CSV cell a spreadsheet shows as text, never runs as a formula."""
    if value is None:
        return ""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
