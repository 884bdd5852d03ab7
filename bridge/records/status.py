"""What the hub's agents are doing right now, and the person's pause switch: the live state
the tray app shows (the activity log keeps the history)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .listeners import tell

log = logging.getLogger("tabsteward.hub")

KEEP_DONE = 50  # agents whose last action is remembered


@dataclass(frozen=True)
class Work:
    """One tool call of one agent: running (`ended` 0) or its last one."""

    agent: str
    tool: str
    started: float
    ended: float = 0.0
    outcome: str = ""


class Status:
    """Calls in flight by agent, each agent's last call, and whether agents are paused.
    Listeners hear every change (they must be quick: they run on the hub's loop)."""

    def __init__(self) -> None:
        self.goals = Goals()  # the goal agent's runs at work
        self._running: dict[int, Work] = {}
        self._last: dict[str, Work] = {}
        self._ids = itertools.count(1)
        self._resumed = asyncio.Event()
        self._resumed.set()
        self.listeners: list[Callable[[], None]] = []

    # -- the pause switch --
    @property
    def paused(self) -> bool:
        return not self._resumed.is_set()

    def pause(self) -> None:
        """Hold every agent request from now until `resume` (calls running finish)."""
        if not self.paused:
            log.info("the person paused all agents")
            self._resumed.clear()
            self._changed()

    def resume(self) -> None:
        if self.paused:
            log.info("the person resumed the agents")
            self._resumed.set()
            self._changed()

    async def wait_resumed(self) -> None:
        await self._resumed.wait()

    # -- agents at work --
    def begin(self, agent: str, tool: str) -> int:
        key = next(self._ids)
        self._running[key] = Work(agent, tool, time.time())
        self._changed()
        return key

    def end(self, key: int, outcome: str) -> None:
        work = self._running.pop(key, None)
        if work is None:
            return
        self._last.pop(work.agent, None)
        self._last[work.agent] = Work(work.agent, work.tool, work.started, time.time(),
                                      outcome)
        while len(self._last) > KEEP_DONE:
            del self._last[next(iter(self._last))]
        self._changed()

    def running(self) -> list[Work]:
        return sorted(self._running.values(), key=lambda w: w.started)

    def agents(self) -> list[Work]:
        """Each agent seen: its running call (the oldest), else its last one; newest first."""
        now: dict[str, Work] = {}
        for work in self.running():
            now.setdefault(work.agent, work)
        rows = [*now.values(), *(w for a, w in self._last.items() if a not in now)]
        return sorted(rows, key=lambda w: (w.ended == 0, w.ended or w.started), reverse=True)

    def _changed(self) -> None:
        tell(self.listeners, "status")


@dataclass
class RunningGoal:
    """A run of the goal agent at work, as the tray lists it (and may stop it)."""

    id: str
    agent: str
    goal: str
    started: float = field(default_factory=time.time)
    steps: int = 0
    last: str = ""
    task: asyncio.Task[Any] | None = None

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()


class Goals:
    """The goal agent's runs at work; listeners hear when one starts, steps or ends."""

    def __init__(self) -> None:
        self.running: dict[str, RunningGoal] = {}
        self.listeners: list[Callable[[], None]] = []

    def changed(self) -> None:
        tell(self.listeners, "goal")

    def stop(self, run_id: str) -> bool:
        """Stop a run (it ends as stopped); False when no such run is at work."""
        goal = self.running.get(run_id)
        if goal is None:
            return False
        log.info("the person stopped goal run %s", run_id)
        goal.stop()
        return True
