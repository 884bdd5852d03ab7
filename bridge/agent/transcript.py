"""A goal run's record: one JSON line per event in the state folder, listed and replayed by
`tabsteward runs`. Page text and typed values are never written, only digests and sizes;
what is written (a goal, a model's reason) is redacted of every secret typed into a password
field when written, and again when the run ends and when read (a secret typed later, such
as the password a goal names, typed during the run)."""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..paths import ensure_private_dir, state_dir
from ..records.redact import REDACTOR

FOLDER = "runs"
_ID = re.compile(r"r[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")
MAX_LINE = 64 * 1024  # a line longer than this in a transcript is not read


def folder() -> Path:
    return state_dir() / FOLDER


def new_id() -> str:
    return time.strftime("r%Y%m%d-%H%M%S", time.localtime()) + "-" + secrets.token_hex(3)


class Transcript:
    """Appends events to runs/ID.jsonl (user-only), flushed line by line."""

    def __init__(self, run_id: str | None = None, where: Path | None = None) -> None:
        self.id = run_id or new_id()
        base = ensure_private_dir(where or folder())
        self.path = base / f"{self.id}.jsonl"
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._out = os.fdopen(fd, "a", encoding="utf-8")

    def write(self, event: str, **fields: Any) -> None:
        line = json.dumps(REDACTOR.data({"t": round(time.time(), 3), "event": event,
                                          **fields}),
                          ensure_ascii=False, default=str)
        self._out.write(line + "\n")
        self._out.flush()

    def close(self) -> None:
        self._out.close()
        _redact_file(self.path)


def _redact_file(path: Path) -> None:
    """Rewrite the run's lines with every secret known now redacted (only if one was)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    clean = [_redact_line(line) for line in lines]
    if clean == lines:
        return
    temp = path.with_name(f".{path.name}.tmp")  # not a run id: `runs` never lists it
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.writelines(clean)
    os.replace(temp, path)


def _redact_line(line: str) -> str:
    try:
        event = json.loads(line)
    except ValueError:
        return REDACTOR.text(line)  # a line cut short: redacted as text
    clean = REDACTOR.data(event)
    return line if clean == event else json.dumps(clean, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class RunInfo:
    """A run as `runs` lists it."""

    id: str
    started: float
    goal: str
    status: str
    steps: int


def _read(path: Path) -> list[dict[str, Any]]:
    events = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if len(line) > MAX_LINE:
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue  # a run cut short mid-line (the hub stopped)
            if isinstance(event, dict):
                events.append(REDACTOR.data(event))
    return events


def runs(where: Path | None = None, limit: int = 50) -> list[RunInfo]:
    """The newest runs first."""
    base = where or folder()
    try:
        paths = sorted((p for p in base.iterdir() if _ID.fullmatch(p.stem)),
                       key=lambda p: p.name, reverse=True)[:limit]
    except FileNotFoundError:
        return []
    found = []
    for path in paths:
        events = _read(path)
        start = next((e for e in events if e.get("event") == "start"), {})
        end = next((e for e in events if e.get("event") == "end"), {})
        found.append(RunInfo(path.stem, float(start.get("t", 0) or 0),
                             str(start.get("goal", "")), str(end.get("status", "running or cut "
                                                                     "short")),
                             sum(1 for e in events if e.get("event") == "step")))
    return found


def events(run_id: str, where: Path | None = None) -> list[dict[str, Any]]:
    if not _ID.fullmatch(run_id):
        raise UsageError(f"{run_id!r} is not a run id (like r20261130-121314-a1b2c3); "
                         "`tabsteward runs` lists them")
    path = (where or folder()) / f"{run_id}.jsonl"
    if not path.exists():
        raise UsageError(f"no run {run_id}; `tabsteward runs` lists them")
    return _read(path)


def replay(run_id: str, where: Path | None = None) -> str:
    """The run as text: its goal, each step, and how it ended."""
    lines = []
    for e in events(run_id, where):
        kind = e.get("event")
        if kind == "start":
            lines.append(f"run {run_id}: {e.get('goal')!s}")
            lines.append(f"  model {e.get('model')} ({e.get('provider')}), profile "
                         f"{e.get('profile')}, budgets {e.get('budgets')}")
        elif kind == "step":
            lines.append(f"  {e.get('n'):>3}. {e.get('op')} {e.get('target') or ''} → "
                         f"{e.get('result')}  [{e.get('elapsed_ms')} ms, model "
                         f"{e.get('model_ms')} ms, prompt {e.get('prompt_bytes')} B, "
                         f"policy {e.get('policy')}]")
        elif kind == "observed":
            lines.append(f"       page {e.get('url')} ({e.get('candidates')} refs, "
                         f"{e.get('chars')} chars, digest {str(e.get('digest'))[:12]})")
        elif kind == "refused":
            lines.append(f"       refused answer: {e.get('why')}")
        elif kind == "end":
            lines.append(f"ended {e.get('status')}: {e.get('summary')}")
            check = e.get("check") or {}
            if check:
                lines.append(f"  check: {check}")
            lines.append(f"  usage: {e.get('usage')}")
    return "\n".join(lines)
