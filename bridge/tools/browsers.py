"""The tool about the hub itself: which browsers it drives."""

from __future__ import annotations

from typing import Any

from .registry import Call, Result, tool


@tool("browsers", "List the connected browsers (use one with --browser NAME)", mutating=False,
      browser=False)
async def browsers(call: Call, args: dict[str, Any]) -> Result:
    rows = call.hub.pool.describe()
    lines = []
    for row in rows:
        state = ("stopped by the person" if row["stopped"] else
                 "connected" if row["connected"] else "starts on first use")
        profile = f" profile {row['profile']!r}" if row.get("profile") else ""
        agents = ", ".join(row["agents"]) or "no agents"
        lines.append(f"{row['name']:<12} {row['kind']:<9} {state}{profile}; "
                     f"{row['version'] or 'version unknown'}; {agents}, {row['tabs']} tab(s)")
    return Result("\n".join(lines), {"browsers": rows})
