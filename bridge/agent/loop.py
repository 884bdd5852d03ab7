"""The goal loop: observe, one model request, validate, act, observe again, within budgets;
DONE is checked by a second, independent request before it counts as success."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine import actions, settling
from ..engine.acting import Outcome as Done
from ..engine.tab import Tab
from ..engine.targets import parse as parse_target
from ..errors import PolicyError, TabstewardError
from ..policy.profiles import GOAL_ACTIONS, GOAL_CANDIDATES, GOAL_REQUESTS, GOAL_SECONDS, Profile
from ..records.redact import REDACTOR
from . import decision as dec
from . import prompt
from .models import ModelConfig, ModelError, ModelOutputError, Usage, complete
from .observe import Observation, observe
from .transcript import Transcript

log = logging.getLogger("tabsteward.agent")

SCROLL_PIXELS = 600
_REFS = re.compile(r" @\d+| \[new\]")


@dataclass(frozen=True)
class Budgets:
    """What one run may spend (each profile sets its own; these are the defaults)."""

    actions: int = GOAL_ACTIONS
    requests: int = GOAL_REQUESTS
    seconds: float = float(GOAL_SECONDS)
    candidates: int = GOAL_CANDIDATES
    unchanged: int = 3  # pages in a row that an action left as they were: then blocked
    page_chars: int = 12000

    @classmethod
    def of(cls, profile: Profile) -> Budgets:
        return cls(actions=profile.goal_actions, requests=profile.goal_requests,
                   seconds=float(profile.goal_seconds), candidates=profile.goal_candidates)


@dataclass
class Step:
    """One step as it is reported: what ran, on what, what came of it, and what it cost."""

    n: int
    op: str
    target: str
    result: str
    ok: bool
    elapsed_ms: int
    model_ms: int
    prompt_bytes: int
    response_bytes: int
    policy: str
    loop_ms: int  # the loop's own time in the step: all of it but the model and the action


@dataclass
class Outcome:
    """How a run ended. `status`: done (the check agrees), unverified (the model said done,
    the check did not agree), blocked, failed, budget, stopped."""

    run_id: str
    status: str
    summary: str
    claim: str = ""
    evidence: str = ""
    check: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    transcript: str = ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["steps"] = [asdict(s) for s in self.steps]
        return data


Verify = Callable[[Observation], Awaitable[tuple[bool, str]]]
OnStep = Callable[[Step], None]


class _End(Exception):
    def __init__(self, status: str, summary: str, **extra: Any) -> None:
        super().__init__(summary)
        self.status, self.summary, self.extra = status, summary, extra


class GoalRun:
    """One goal in one tab: `run()` returns its Outcome (it never raises for the page's or
    the model's failures; cancelling it stops the run)."""

    def __init__(self, tab: Tab, goal: str, model: ModelConfig, *,
                 budgets: Budgets | None = None, transcript: Transcript | None = None,
                 on_step: OnStep | None = None, verify: Verify | None = None,
                 profile: str = "", timeout: float = 60.0) -> None:
        self.tab = tab
        self.goal = goal
        self.model = model
        self.budgets = budgets or Budgets()
        self.transcript = transcript or Transcript()
        self.on_step = on_step
        self.verify = verify
        self.profile = profile
        self.timeout = timeout
        self.usage = Usage()
        self.steps: list[Step] = []
        self.history: list[str] = []
        self.actions = 0
        self._started = 0.0
        self._scrolled: tuple[Any, ...] = ()
        self._wheeled: tuple[Any, ...] = ()  # the box the last scroll moved, and where to

    # -- the loop --
    async def run(self) -> Outcome:
        self._started = time.monotonic()
        b = self.budgets
        self.transcript.write("start", goal=self.goal, model=self.model.model,
                              provider=self.model.provider, profile=self.profile,
                              budgets=asdict(b), url=self.tab.state.url)
        try:
            outcome = await self._loop()
        except asyncio.CancelledError:  # stopped (the tray, or its agent went away)
            outcome = self._outcome("stopped", "the run was stopped before it finished; "
                                    "the step under way may or may not have run")
        except PolicyError as err:  # policy refused even reading the page it got to
            outcome = self._outcome("blocked", err.message)
        except TabstewardError as err:  # the tab closed, the browser went away
            outcome = self._outcome("failed", f"the page could not be read: {err.message}")
        self._end(outcome)
        return outcome

    async def _loop(self) -> Outcome:
        feedback: str | None = None
        unchanged = 0
        obs = await self._observe()
        while True:
            try:
                self._check_budgets()
                step_start = time.monotonic()
                messages = prompt.step_messages(self.goal, obs, self.history, feedback,
                                                self._left())
                size = prompt.prompt_bytes(prompt.SYSTEM, messages)
                reply_data, model_ms, response_bytes = await self._ask(
                    prompt.SYSTEM, messages, dec.SCHEMA, "decision")
                try:
                    decision = dec.parse(reply_data, obs)
                except dec.InvalidDecision as bad:
                    feedback = bad.message
                    self.transcript.write("refused", why=bad.message, prompt_bytes=size)
                    continue
                feedback = None
                # consumed before it runs: whatever happens next, it is never run again
                self.transcript.write("decision", op=decision.op, ref=decision.ref,
                                      reason=decision.reason[:300],
                                      value_chars=len(decision.value or ""))
                if decision.op == "done":
                    return await self._done(decision, obs)
                if decision.op == "blocked":
                    raise _End("blocked", f"the model gave up: {decision.reason}")
                described = dec.describe(decision, obs)  # "click button "Go" (@3)"
                target = described.removeprefix(decision.op).strip()
                before = self._look(obs)  # before the act: a scroll keeps where it went
                act_start = time.monotonic()
                ok, result, policy = await self._act(decision)
                act_ms = (time.monotonic() - act_start) * 1000
                self.actions += 1
                obs = await self._observe()
                unchanged = unchanged + 1 if self._look(obs) == before else 0
                elapsed = (time.monotonic() - step_start) * 1000
                # a step is the run's record (progress, the person's status, the outcome):
                # what was typed into a password field just now is not in it
                step = Step(len(self.steps) + 1, decision.op, REDACTOR.text(target),
                            REDACTOR.text(result), ok,
                            round(elapsed), round(model_ms), size, response_bytes, policy,
                            round(max(0.0, elapsed - model_ms - act_ms)))
                self._record(step)
                if policy == "denied":
                    raise _End("blocked", f"the person did not allow it: {result}")
                if unchanged >= self.budgets.unchanged:
                    raise _End("blocked", f"the page did not change after {unchanged} "
                               "actions in a row")
            except _End as end:
                return self._outcome(end.status, end.summary, **end.extra)
            except ModelOutputError as bad:
                feedback = f"your last answer could not be used: {bad.message}"
                self.transcript.write("refused", why=bad.message)
            except ModelError as err:
                return self._outcome("failed", f"the model could not be asked: {err.message}")

    async def _ask(self, system: str, messages: list[dict[str, str]], schema: dict[str, Any],
                   name: str) -> tuple[dict[str, Any], float, int]:
        if self.usage.requests >= self.budgets.requests:
            raise _End("budget", f"the run used its {self.budgets.requests} model requests")
        t0 = time.monotonic()
        try:
            reply = await complete(self.model, system, messages, schema, name,
                                   timeout=self.timeout)
        except ModelOutputError:
            self.usage.requests += 1
            raise
        self.usage.add(reply)
        return reply.data, (time.monotonic() - t0) * 1000, reply.response_bytes

    def _check_budgets(self) -> None:
        b = self.budgets
        if self.actions >= b.actions:
            raise _End("budget", f"the run used its {b.actions} actions")
        if time.monotonic() - self._started > b.seconds:
            raise _End("budget", f"the run took its {b.seconds:g} s")

    def _left(self) -> dict[str, int]:
        b = self.budgets
        return {"actions": b.actions - self.actions,
                "requests": b.requests - self.usage.requests,
                "seconds": int(b.seconds - (time.monotonic() - self._started))}

    async def _observe(self) -> Observation:
        tab = self.tab
        await tab.permit("read")
        shot = await tab.snapshot(max_chars=self.budgets.page_chars * 2)
        # where the page is scrolled to counts too: scrolling changes what a person sees
        position = await tab.evaluate(tab.frames[tab.target_id], "[scrollX, scrollY]")
        self._scrolled = tuple(position) if isinstance(position, list) else ()
        obs = observe(shot.url, shot.title, shot.text, shot.refs,
                      max_candidates=self.budgets.candidates,
                      max_chars=self.budgets.page_chars)
        self.transcript.write("observed", digest=obs.digest, url=obs.url,
                              candidates=len(obs.candidates), chars=len(obs.text),
                              cut_candidates=obs.cut_candidates, cut_chars=obs.cut_chars)
        return obs

    def _look(self, obs: Observation) -> tuple[str, tuple[Any, ...]]:
        """What a person sees of the page: its text without ref numbers (a page that draws
        the same thing again gets new ones) and where it is scrolled to."""
        return _REFS.sub("", obs.text), self._scrolled + self._wheeled

    # -- acting --
    async def _act(self, d: dec.Decision) -> tuple[bool, str, str]:
        """(it worked, what happened, policy: allowed | denied)."""
        try:
            text = await self._run_op(d)
        except PolicyError as err:
            return False, err.message, "denied"
        except TabstewardError as err:  # the page said no: the model hears why next step
            return False, f"failed: {err.message}", "allowed"
        return True, text, "allowed"

    async def _run_op(self, d: dec.Decision) -> str:
        """The operation, then what it set going (settling.py), as a person waits for the
        page to answer before looking again: the model is not asked about a spinner."""
        if d.op == "wait":
            seconds = float(d.value) if d.value else 1.0
            await asyncio.sleep(seconds)
            return f"waited {seconds:g} s"
        out = await self._operate(d)
        said = await settling.settle(self.tab, out, False if d.op == "navigate" else None)
        return "; ".join([out.text(), *said])

    async def _operate(self, d: dec.Decision) -> Done:
        tab = self.tab
        target = parse_target(d.ref) if d.ref else None
        if d.op == "click" and target is not None:
            return await actions.click(tab, target)
        if d.op == "fill" and target is not None:
            return await actions.enter_text(tab, target, d.value or "", "fill")
        if d.op == "select" and target is not None:
            return await actions.select(tab, target, [d.value or ""])
        if d.op == "check" and target is not None:
            return await actions.check(tab, target, (d.value or "true") != "false")
        if d.op == "press":
            return await actions.press(tab, d.value or "", target)
        if d.op == "scroll":
            dy = -SCROLL_PIXELS if d.value == "up" else SCROLL_PIXELS
            out = await actions.scroll(tab, target, 0, 0 if target else dy)
            # a page that does not scroll passes it to its list pane: where that went counts
            self._wheeled = tuple(out.data.get(k) for k in ("box", "x", "y"))
            return out
        if d.op == "navigate":
            return await actions.navigate(tab, d.value or "", "load")
        raise TabstewardError(f"the operation {d.op} has nothing to act on; nothing was done")

    # -- ending --
    async def _done(self, d: dec.Decision, obs: Observation) -> Outcome:
        """The model says the goal is met: a second request judges it over the final page,
        and the caller's verify hook too, when given."""
        claim = d.evidence or d.reason
        check: dict[str, Any] = {}
        try:
            data, _, _ = await self._ask(prompt.JUDGE_SYSTEM,
                                         prompt.judge_messages(self.goal, obs, claim),
                                         prompt.JUDGE_SCHEMA, "judgement")
            check["judge"] = bool(data.get("achieved"))
            check["judge_reason"] = str(data.get("reason", ""))[:300]
        except (ModelError, _End) as err:
            check["judge"] = None
            check["judge_reason"] = f"the check could not be made: {err}"
        if self.verify is not None:
            try:
                ok, why = await self.verify(obs)
            except Exception as exc:  # noqa: BLE001  (the caller's hook: report, never crash)
                ok, why = False, f"the verify hook failed: {exc}"
            check["verify"], check["verify_reason"] = ok, why
        agreed = check.get("judge") is True and check.get("verify", True) is True
        status = "done" if agreed else "unverified"
        summary = (f"the goal is met: {claim}" if agreed else
                   f"the model says the goal is met ({claim}), but the check does not "
                   "agree")
        return self._outcome(status, summary, claim=claim, evidence=d.evidence or "",
                             check=check)

    def _outcome(self, status: str, summary: str, **extra: Any) -> Outcome:
        return Outcome(self.transcript.id, status, summary, steps=list(self.steps),
                       usage=asdict(self.usage),
                       seconds=round(time.monotonic() - self._started, 3),
                       transcript=str(self.transcript.path), **extra)

    def _record(self, step: Step) -> None:
        self.steps.append(step)
        self.history.append(f"{step.n}. {step.op} {step.target}: {step.result[:200]}")
        self.transcript.write("step", **asdict(step))
        log.info("goal %s step %d: %s %s -> %s (%d ms)", self.transcript.id, step.n, step.op,
                 step.target, step.result[:120], step.elapsed_ms)
        if self.on_step is not None:
            self.on_step(step)

    def _end(self, outcome: Outcome) -> None:
        self.transcript.write("end", status=outcome.status, summary=outcome.summary,
                              check=outcome.check, usage=outcome.usage,
                              seconds=outcome.seconds)
        self.transcript.close()
