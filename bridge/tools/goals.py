"""The built-in goal agent's tools: `run` a whole task from one sentence, and `runs` to
list and replay the transcripts of earlier runs."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import asdict
from typing import Any

from ..errors import UsageError
from ..records import context
from .registry import Call, Param, Result, tool

MAX_GOAL = 2000


@tool("run", "Hand the built-in goal agent a whole browser task in one sentence; it works "
      "in a background tab, step by step (every step passes policy), and reports the result",
      Param("goal", required=True, positional=True, help="the task, in one sentence"),
      Param("profile", help="the policy profile (must be the agent's own)"),
      Param("model", help="the model (default: the profile's)"),
      Param("key", help="the API key's name in the tray app (default: the profile's)"),
      Param("start_url", help="open this page first"),
      Param("verify_text", help="success also needs this text on the final page"),
      Param("max_actions", "int", help="at most this many actions (default and most: the "
            "profile's goal_actions)"),
      Param("max_seconds", "float", help="stop after this long (default and most: the "
            "profile's goal_seconds)"),
      Param("model_timeout", "float", help="seconds one model request may take (default 60)"),
      mutating=True, group="agent")
async def run(call: Call, args: dict[str, Any]) -> Result:
    from ..agent.goals import start_goal
    goal = str(args["goal"]).strip()
    if not goal or len(goal) > MAX_GOAL:
        raise UsageError(f"the goal must be 1 to {MAX_GOAL} characters; nothing was run")
    loop = asyncio.get_running_loop()
    sent: set[asyncio.Future[None]] = set()

    def progress(step: Any) -> None:
        task = loop.create_task(context.tell({"progress": asdict(step)}))
        sent.add(task)
        task.add_done_callback(sent.discard)

    outcome = await start_goal(call, goal, args, progress)
    for task in list(sent):
        with contextlib.suppress(Exception):
            await task
    data = outcome.to_json()
    lines = [f"{outcome.status}: {outcome.summary}"]
    if outcome.check:
        lines.append("check: " + json.dumps(outcome.check, ensure_ascii=False))
    usage = outcome.usage
    cost = usage.get("cost_usd")
    lines.append(f"{len(outcome.steps)} steps, {usage.get('requests')} model requests, "
                 f"{usage.get('input_tokens')} tokens in, {usage.get('output_tokens')} out"
                 + (f", about ${cost:.4f}" if isinstance(cost, float) else "")
                 + f", {outcome.seconds:.1f} s; transcript: tabsteward runs show "
                 f"{outcome.run_id}")
    return Result("\n".join(lines), data)


@tool("runs", "List the goal agent's runs, newest first, or replay one as text",
      Param("show", positional=True, help="`show`, then the run's id"),
      Param("id", positional=True, help="the run to replay"),
      mutating=False, group="agent", browser=False)
async def runs(call: Call, args: dict[str, Any]) -> Result:
    from ..agent import transcript
    what, run_id = args.get("show"), args.get("id")
    if what and what != "show":
        if run_id:
            raise UsageError("use `tabsteward runs` or `tabsteward runs show ID`; nothing "
                             "was shown")
        what, run_id = "show", what
    if what == "show":
        if not run_id:
            raise UsageError("`runs show` needs a run's id; `tabsteward runs` lists them")
        text = transcript.replay(str(run_id))
        return Result(text, {"id": run_id, "events": transcript.events(str(run_id))})
    found = transcript.runs()
    rows = [f"{r.id}  {r.status:<12} {r.steps:>3} steps  {r.goal[:80]}" for r in found]
    return Result("\n".join(rows) or "no runs yet",
                  {"runs": [asdict(r) for r in found]})
