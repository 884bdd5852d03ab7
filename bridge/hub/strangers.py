"""Connections that have shown no token yet (anyone on the machine may open one): capped per
process and in all, the one idle longest closed to make room, so idle connections never
crowd out the person's own commands."""

from __future__ import annotations

import logging
import time
from typing import Protocol

log = logging.getLogger("tabsteward.hub")

MAX_ALL = 64
MAX_PER_PROCESS = 8  # by the pid the socket reports


class Closable(Protocol):
    def close(self) -> None: ...


class Strangers:
    """The connections without a token: when each last did something (None while a request
    of its own runs, such as a pairing waiting for the person), and its process."""

    def __init__(self, max_all: int = MAX_ALL, max_per_process: int = MAX_PER_PROCESS) -> None:
        self.max_all = max_all
        self.max_per_process = max_per_process
        self._since: dict[Closable, float | None] = {}
        self._pid: dict[Closable, int | None] = {}
        self.evicted = 0  # connections closed to make room, in this hub's life

    def __contains__(self, conn: object) -> bool:
        return conn in self._since

    def __len__(self) -> int:
        return len(self._since)

    def admit(self, conn: Closable, pid: int | None) -> bool:
        """Count a new connection. Over the cap for its process, or for all, the one idle
        longest there is closed (none idle: this new one, and False is returned)."""
        mine = [c for c, p in self._pid.items() if p == pid] if pid is not None else []
        for limit, among in ((self.max_per_process, mine), (self.max_all, list(self._since))):
            if len(among) < limit:
                continue
            idle = [(since, c) for c in among if (since := self._since.get(c)) is not None]
            victim = min(idle, key=lambda pair: pair[0])[1] if idle else conn
            self.evicted += 1
            if self.evicted % 1000 == 1:  # a flood is logged, not every connection of it
                log.warning("too many connections without a token (%d open; this one from "
                            "pid %s): closed the one idle longest (%d so far)", len(self),
                            pid, self.evicted)
            self.drop(victim)
            victim.close()
            if victim is conn:
                return False
        self._since[conn] = time.monotonic()
        self._pid[conn] = pid
        return True

    def busy(self, conn: Closable, busy: bool) -> None:
        """A request of its own runs (not idle), or none does any more (idle from now)."""
        if conn in self._since:
            self._since[conn] = None if busy else time.monotonic()

    def drop(self, conn: Closable) -> None:
        """It showed a token, or it closed: no longer counted."""
        self._since.pop(conn, None)
        self._pid.pop(conn, None)
