"""Telling the hub's listeners (the tray app) that something changed, one failure apart."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

log = logging.getLogger("tabsteward.hub")

Listener = Callable[[], None]


def tell(listeners: Iterable[Listener], what: str) -> None:
    """Call every listener; one that raises is logged and the rest are still called."""
    for listener in list(listeners):
        try:
            listener()
        except Exception:  # a listener is the tray's code: its failure must not reach the hub
            log.exception("a %s listener failed; the others were told", what)
