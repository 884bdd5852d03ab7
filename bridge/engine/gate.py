"""The engine's one question before it acts: may this action run? The hub answers it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..policy.intent import Intent
    from .tab import Tab

# Returns when the action may run; raises PolicyError (what did not happen, and why) when
# not. It may wait: for the person's answer, while the tab stays held.
Gate = Callable[["Tab", "Intent"], Awaitable[None]]
