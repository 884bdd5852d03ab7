"""The person's tools for paired agents: list them, and unpair one (its token stops
working at once)."""

from __future__ import annotations

import time
from typing import Any

from ..shown import shown
from .registry import PERSON, Call, Param, Result, tool


@tool("agents", "List the paired agents (each has its own token)", mutating=False,
      browser=False, group=PERSON)
async def agents(call: Call, args: dict[str, Any]) -> Result:
    rows = call.hub.agents.list()
    if not rows:
        return Result("no agent is paired", {"agents": []})
    lines = []
    for a in rows:
        used = (time.strftime("%Y-%m-%d %H:%M", time.localtime(a.last_used))
                if a.last_used else "never")
        lines.append(f"{a.id:<26} {shown(a.name)}  (paired "
                     f"{time.strftime('%Y-%m-%d', time.localtime(a.created))}, used {used})")
    return Result("\n".join(lines), {"agents": [a.public() for a in rows]})


@tool("unpair", "Unpair an agent: its token stops working now",
      Param("id", required=True, positional=True, help="the agent's id from `agents`"),
      mutating=True, browser=False, group=PERSON)
async def unpair(call: Call, args: dict[str, Any]) -> Result:
    agent = call.hub.agents.revoke(str(args["id"]))
    call.hub.record("pairing", agent=agent.id, summary=f"unpaired {agent.name!r}",
                    decision="revoked")
    return Result(f"unpaired {agent.id} ({shown(agent.name)}); it must pair again to use the "
                  "hub (under a new id: ids are never given again)",
                  {"unpaired": agent.id})
