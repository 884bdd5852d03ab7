"""The person's tools: list the questions waiting for them, answer one with its code, and
the grants they remembered.

No agent runs them (the hub refuses them to agent tokens, and MCP does not offer them).
`approve` and `deny` prove themselves with the code shown for that very answer, which only
the person's channels (the hub's console, the tray) show; it travels in the request's `code`
field, never on a command line. The others run once the person confirms the command."""

from __future__ import annotations

import time
from typing import Any

from ..errors import UsageError
from ..policy.categories import Category
from ..records import context, peer
from ..shown import shown
from .registry import PERSON, Call, Param, Result, tool

ID = Param("id", required=True, positional=True, help="the question's id, e.g. A3")


@tool("approvals", "List the actions and pairings waiting for the person", mutating=False,
      browser=False, group=PERSON)
async def approvals(call: Call, args: dict[str, Any]) -> Result:
    open_ = call.hub.approvals.open()
    if not open_:
        return Result("nothing waits for an answer", {"approvals": []})
    now = time.time()
    lines = []
    for q in open_:
        risk = f" [{', '.join(q.categories)}]" if q.categories else ""
        who = (f"says it is '{shown(q.agent)}'; {peer.describe(q.process)}"
               if q.kind == "pair" else peer.describe(q.process) if q.kind == "person"
               else shown(q.agent))
        lines.append(f"{q.id:<5} {q.kind:<8} {who:<16} {shown(q.summary)}{risk} "
                     f"({max(0, round(q.expires - now))} s left)")
    return Result("\n".join(lines), {"approvals": [q.public() for q in open_]})


@tool("approve", "Approve a waiting action or pairing (asks for its one-time code)", ID,
      Param("always", "bool", help="also allow it from now on, for this profile and site"),
      mutating=True, browser=False, group=PERSON, open=True)
async def approve(call: Call, args: dict[str, Any]) -> Result:
    return _answer(call, args, True)


@tool("deny", "Deny a waiting action or pairing (asks for its one-time code)", ID,
      mutating=True, browser=False, group=PERSON, open=True)
async def deny(call: Call, args: dict[str, Any]) -> Result:
    return _answer(call, args, False)


def _answer(call: Call, args: dict[str, Any], approve: bool) -> Result:
    always = bool(args.get("always"))
    q = call.hub.approvals.get(str(args["id"]).strip().upper())
    if always and q is not None and q.kind in ("pair", "person"):
        raise UsageError("--always is for actions, not pairings or commands; nothing was "
                         "answered")
    q = call.hub.approvals.answer(str(args["id"]), context.code.get(), approve,
                                  always=always, by="the person (console code)")
    verb = "approved" if approve else "denied"
    more = " and remembered for this site" if always else ""
    return Result(f"{verb} {q.id}{more}: {shown(q.summary)}",
                  {"id": q.id, "approved": approve, "always": always})


@tool("grants", "List what the person allowed always, by profile, site and risk",
      mutating=False, browser=False, group=PERSON)
async def grants(call: Call, args: dict[str, Any]) -> Result:
    rows = call.hub.policy.grants.list()
    if not rows:
        return Result("no grant is remembered", {"grants": []})
    lines = [shown(f"{g.profile:<12} {g.site:<40} {g.category.value}") for g in rows]
    return Result("\n".join(lines), {"grants": [g.to_json() for g in rows]})


@tool("revoke", "Forget remembered grants (all of a profile, or one site, or one risk)",
      Param("profile", required=True, positional=True, help="the policy profile"),
      Param("site", help="only this site, e.g. https://shop.example"),
      Param("category", help="only this risk category, e.g. purchase"),
      mutating=True, browser=False, group=PERSON)
async def revoke(call: Call, args: dict[str, Any]) -> Result:
    category = None
    if args.get("category"):
        try:
            category = Category(str(args["category"]))
        except ValueError:
            raise UsageError(f"no risk category {args['category']!r} (they are: "
                             f"{', '.join(c.value for c in Category)}); nothing was "
                             "revoked") from None
    n = call.hub.policy.grants.revoke(str(args["profile"]), site=args.get("site") or None,
                                      category=category)
    call.hub.record("grant", summary=f"revoked {n} grant(s) of {args['profile']}",
                    decision="revoked")
    return Result(f"revoked {n} grant(s)", {"revoked": n})
