"""The tray's state at a glance, from what the hub knows (pure logic, no Qt)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TrayState(StrEnum):
    """What the icon shows, most urgent first in `of`."""

    WAITING = "waiting for you"
    PAUSED = "paused"
    DISCONNECTED = "a browser disconnected"
    WORKING = "agents working"
    IDLE = "idle"


@dataclass(frozen=True)
class Snapshot:
    """The counts the state is made of."""

    waiting: int = 0        # questions open for the person
    paused: bool = False    # the person paused all agents
    disconnected: int = 0   # browsers that went away while the hub ran
    working: int = 0        # agent calls in flight (a goal run is one)

    @property
    def state(self) -> TrayState:
        if self.waiting:
            return TrayState.WAITING
        if self.paused:
            return TrayState.PAUSED
        if self.disconnected:
            return TrayState.DISCONNECTED
        if self.working:
            return TrayState.WORKING
        return TrayState.IDLE

    def tooltip(self) -> str:
        """One line for the icon's tooltip."""
        parts = []
        if self.waiting:
            parts.append(f"{self.waiting} waiting for you")
        if self.paused:
            parts.append("agents paused")
        if self.disconnected:
            parts.append(f"{self.disconnected} browser{'s' if self.disconnected > 1 else ''} "
                         "disconnected")
        if self.working:
            parts.append(f"{self.working} action{'s' if self.working > 1 else ''} running")
        return "Tabsteward: " + ("; ".join(parts) or "idle")


def ago(seconds: float) -> str:
    """A short, human duration: "3 s", "2 min", "1 h"."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min"
    return f"{seconds // 3600:.0f} h"
