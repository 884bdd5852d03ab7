"""Running goals in the hub: each in a background tab of its agent, listed for the tray
(which may stop one), with the model and key its policy profile names."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import UsageError
from ..records.status import Goals, RunningGoal
from .loop import Budgets, GoalRun, Outcome, Step
from .transcript import Transcript

if TYPE_CHECKING:
    from ..engine.session import AgentSession


class Call(Protocol):
    """What a goal reads of the tool call that starts it (the `run` tool's; the tool table's
    Call is one): the agent's session and the hub. The tools import this module, not back."""

    @property
    def hub(self) -> Any: ...
    @property
    def session(self) -> AgentSession: ...


def _profile(call: Call, args: dict[str, Any]) -> Any:
    gate = getattr(call.hub, "policy", None)
    if gate is None:
        raise UsageError("this hub has no policy profiles; the goal agent needs one to know "
                         "its model and key. Nothing was run")
    session = call.session
    own = gate.profile(session.principal or session.agent)
    wanted = args.get("profile")
    if wanted and wanted != own.name:
        raise UsageError(f"this agent's policy profile is {own.name!r}, not {wanted!r}: a run "
                         "keeps its agent's profile (the person maps agents to profiles in "
                         "the tray app's Profiles window). Nothing was run")
    return own


def _less(budgets: Budgets, field: str, wanted: float, arg: str) -> Budgets:
    """The budgets with one of them lowered to what the agent asked for."""
    most = getattr(budgets, field)
    if not 1 <= wanted <= most:
        raise UsageError(f"{arg} must be 1 to {most:g} (the profile's budget); nothing "
                         "was run")
    return dataclasses.replace(budgets, **{field: type(most)(wanted)})


async def start_goal(call: Call, goal: str, args: dict[str, Any],
                     progress: Callable[[Step], None]) -> Outcome:
    """Run `goal` to its end in a new background tab of the caller's session."""
    from ..engine import actions
    from ..secrets.apikeys import ApiKeys
    from .models import config_for

    profile = _profile(call, args)
    model = config_for(profile, ApiKeys(), args.get("model"), args.get("key"))
    budgets = Budgets.of(profile)  # the person's; an agent may only ask for less
    for arg, field in (("max_actions", "actions"), ("max_seconds", "seconds")):
        if args.get(arg) is not None:
            budgets = _less(budgets, field, float(args[arg]), arg)
    timeout = float(args.get("model_timeout") or 60.0)
    if not 0.5 <= timeout <= 600:
        raise UsageError("model_timeout must be 0.5 to 600 seconds; nothing was run")
    verify_text = args.get("verify_text")
    goals: Goals = call.hub.status.goals
    session = call.session
    tab = await session.new_tab()
    record = Transcript()
    entry = RunningGoal(record.id, session.agent, goal)

    def stepped(step: Step) -> None:
        entry.steps, entry.last = step.n, f"{step.op} {step.target}"
        goals.changed()
        progress(step)

    async def verify(obs: Any) -> tuple[bool, str]:
        text = await actions.read(tab, "text")
        found = str(verify_text) in text
        return found, (f"the page shows {verify_text!r}" if found
                       else f"the page does not show {verify_text!r}")

    async with tab.busy:
        if args.get("start_url"):
            await actions.navigate(tab, str(args["start_url"]), "load")
        run = GoalRun(tab, goal, model, budgets=budgets, transcript=record, on_step=stepped,
                      verify=verify if verify_text else None, profile=profile.name,
                      timeout=timeout)
        entry.task = asyncio.ensure_future(run.run())
        goals.running[entry.id] = entry
        goals.changed()
        try:
            return await asyncio.shield(entry.task)
        except asyncio.CancelledError:
            entry.stop()  # the agent went away: the run stops too
            raise
        finally:
            goals.running.pop(entry.id, None)
            goals.changed()
