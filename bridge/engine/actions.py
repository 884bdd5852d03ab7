"""Actions on a tab, one name for each: input, navigation, forms, waits, reading.

Rule: a mutation is never retried. Reads may be repeated (a fresh helper world, a stale ref
resolved again) only before anything was sent to the page. Each job has its module (acting:
what they share; navigation, pointer, entry, forms, waits, reading); this one names them all.
"""

from __future__ import annotations

from .acting import Outcome, _only_requested, describe, guarded
from .checking import check
from .entry import enter_text, press
from .forms import select
from .navigation import history, navigate, reload, with_scheme
from .pointer import click, focus, hover, modifier_mask, scroll
from .reading import dialog, evaluate, read, read_element
from .waits import wait

__all__ = [
    "Outcome", "_only_requested", "check", "click", "describe", "dialog", "enter_text",
    "evaluate", "focus", "guarded", "history", "hover", "modifier_mask", "navigate", "press",
    "read", "read_element", "reload", "scroll", "select", "wait", "with_scheme",
]
