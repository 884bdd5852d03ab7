"""The tool that reads the hub's activity log: who asked for what, who decided, what happened."""

from __future__ import annotations

import io
import os
import re
import time
from datetime import datetime
from typing import Any

from ..engine import outputs
from ..errors import PolicyError, TabstewardError, UsageError
from ..records import context
from ..records.activity import KINDS, MAX_QUERY, ActivityLog, Entry, Format
from ..shown import shown
from .common import OVERWRITE
from .registry import PERSON, Call, Param, Result, tool

DEFAULT_LIMIT = 50
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_AGO = re.compile(r"(\d{1,7})([smhdw])")
_FORMATS: dict[str, Format] = {".jsonl": "jsonl", ".csv": "csv"}


def parse_since(value: str, now: float | None = None) -> float:
    """Epoch seconds from "10m", "2h", "3d" (also s and w) or an ISO date or date-time
    (local time unless it names a zone)."""
    text = value.strip()
    ago = _AGO.fullmatch(text)
    if ago:
        return (time.time() if now is None else now) - int(ago[1]) * _UNITS[ago[2]]
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise UsageError(f"since must be a span such as 10m, 2h or 3d, or an ISO date such as "
                         f"2026-11-30 or 2026-11-30T09:00, not {value!r}; nothing was read"
                         ) from None


def line(entry: Entry) -> str:
    """One entry as one line: when, who, which tool, what was decided or happened, and what."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.ts))
    parts = [when, entry.agent or "-", entry.tool or "-", _what(entry)]
    if entry.summary:
        parts.append(entry.summary)
    if entry.reason:
        parts.append(f"({entry.reason})")
    return shown("  ".join(parts))  # agents' and pages' words, made inert for a terminal


def _what(entry: Entry) -> str:
    if entry.kind == "request":
        return "request"
    if entry.kind == "outcome":
        return f"→ {entry.outcome or 'unknown outcome'}"
    if entry.kind == "decision":
        what = entry.decision or "decision"
        policy = (entry.data or {}).get("policy")  # the policy's answer a person settled
        if isinstance(policy, str) and policy != what:
            what = f"{policy} → {what}"
    else:
        what = f"{entry.kind} {entry.decision or entry.outcome or ''}".rstrip()
    return f"{what} by {entry.decided_by}" if entry.decided_by else what


@tool("activity", "The activity log: each request, decision (who decided, how, why) and "
      "outcome, newest last; or --export it to a .jsonl or .csv file",
      Param("agent", help="only this agent's entries"),
      Param("kind", help="only entries of this kind", choices=KINDS),
      Param("since", help="only entries since a span ago (10m, 2h, 3d) or an ISO date/time"),
      Param("site", help="only entries whose site contains this text"),
      Param("grep", help="only entries whose summary or reason contains this text"),
      Param("limit", "int", help=f"at most this many entries, 1 to {MAX_QUERY} (default "
            f"{DEFAULT_LIMIT}; an export writes every match unless given)"),
      Param("export", help="write the entries to this new .jsonl or .csv file instead "
            "(never into Tabsteward's own folders or a dotfile)"),
      OVERWRITE, mutating=False, group=PERSON, browser=False)
async def activity(call: Call, args: dict[str, Any]) -> Result:
    limit = args.get("limit")
    if limit is not None and not 1 <= int(limit) <= MAX_QUERY:
        raise UsageError(f"limit must be from 1 to {MAX_QUERY}; nothing was read")
    since = args.get("since")
    filters: dict[str, Any] = {"agent": args.get("agent") or None,
                               "kind": args.get("kind") or None,
                               "since": parse_since(str(since)) if since else None,
                               "site": args.get("site") or None,
                               "text": args.get("grep") or None}
    log: ActivityLog | None = getattr(call.hub, "activity", None)
    if log is None:
        raise TabstewardError("this hub keeps no activity log (see its log for why); "
                              "nothing was read")
    if args.get("export"):
        return _export(log, _export_place(call, args), filters,
                       int(limit) if limit is not None else None)
    entries = log.query(**filters, limit=int(limit) if limit is not None else DEFAULT_LIMIT)
    entries.reverse()  # the latest ones, read top to bottom
    text = "\n".join(line(e) for e in entries) if entries else "no activity matches"
    return Result(text, {"entries": [e.to_dict() for e in entries]})


def _export_place(call: Call, args: dict[str, Any]) -> outputs.Output:
    """Where an export goes: an agent's only into its own folder (relative paths start
    there); the person's wherever they say (relative to their folder), never into
    Tabsteward's own folders or a dotfile."""
    agent = context.principal.get()
    raw, overwrite = str(args["export"]), bool(args.get("overwrite"))
    if agent is None:
        dest = outputs.output(raw, "person", "", cwd=call.cwd, overwrite=overwrite)
    else:
        dest = outputs.output(raw, agent.id, "", overwrite=overwrite)
        if not dest.inside:
            raise PolicyError(f"{dest.path} is outside the agent's own folder {dest.folder}; an "
                              "agent exports the activity log only there. Nothing was written")
    own = getattr(getattr(call.hub, "policy", None), "own_files", ())
    outputs.prepare(dest, own)
    return dest


def _export(log: ActivityLog, dest: outputs.Output, filters: dict[str, Any],
            limit: int | None) -> Result:
    path = dest.path
    fmt = _FORMATS.get(os.path.splitext(path)[1].lower())
    if fmt is None or dest.into:
        raise UsageError(f"export to a file ending in .jsonl or .csv, not {path}; "
                         "nothing was written")
    counted: list[int] = []

    def fill(fp: Any) -> None:
        text = io.TextIOWrapper(fp, encoding="utf-8", newline="")
        try:
            counted.append(log.export(text, fmt, **filters, limit=limit))
            text.flush()
        finally:
            text.detach()  # the binary file stays open for save to sync and close

    outputs.save(dest, fill)
    return Result(f"wrote {counted[0]} entries to {path}",
                  {"export": path, "format": fmt, "count": counted[0]})
