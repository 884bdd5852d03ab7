"""Helpers the tool modules share: the agent's tab under its lock, targets, outcomes."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ..engine import outputs
from ..engine.actions import Outcome
from ..engine.tab import Tab
from ..engine.targets import Target, parse
from ..errors import UsageError
from .registry import Call, Param, Result

OVERWRITE = Param("overwrite", "bool", help="replace a file that is there already (where the "
                  "policy profile allows)")
FOLDER_HELP = ("default: your own folder, ~/Downloads/Tabsteward/AGENT, where a relative path "
               "starts too; elsewhere is asked about")

TARGET = Param("target", help="@N from a snapshot, loc=..., text=WORDS, or a CSS selector",
               required=True, positional=True)


@asynccontextmanager
async def tab_of(call: Call, args: dict[str, Any]) -> AsyncIterator[Tab]:
    """The tab a call acts on (its --tab, else the agent's current one), held exclusively."""
    tab_id = args.get("tab")
    session = call.session
    tab = session.tab(tab_id) if tab_id else await session.current_tab()
    async with tab.busy:
        tab.check_open()
        if tab.browser is not None:  # (in a window it shares, where only the front one draws)
            await tab.browser.to_front(tab)
        yield tab


def target(args: dict[str, Any], name: str = "target") -> Target:
    return parse(str(args[name]))


AT = Param("at", help="X,Y: this point of the element, in CSS pixels from its top-left "
           "corner, as `screenshot --target` shows it (a legend a chart draws, a map), instead "
           "of one picked where it shows")


def point_at(args: dict[str, Any]) -> tuple[float, float] | None:
    """The point of the element --at names, or None when it names none."""
    value = args.get("at")
    if value is None or value == "":
        return None
    try:
        x, y = (float(part) for part in str(value).split(","))
    except ValueError:
        x = y = math.nan
    if not (math.isfinite(x) and math.isfinite(y) and x >= 0 and y >= 0):
        raise UsageError(f"--at takes X,Y: two numbers of pixels from the element's top-left "
                         f"corner, e.g. 40,12 (not {str(value)[:40]!r}); nothing was done")
    return x, y


def optional_target(args: dict[str, Any], name: str = "target") -> Target | None:
    value = args.get(name)
    return parse(str(value)) if value else None


def result(out: Outcome, tab: Tab) -> Result:
    return Result(out.text(), {"done": out.did, "changes": out.changes, "tab": tab.id,
                               **out.data})


def output(call: Call, args: dict[str, Any], default_name: str = "") -> outputs.Output:
    """Where a tool that writes a file writes it (see outputs.output), for the calling agent."""
    session = call.session
    raw = args.get("path")
    return outputs.output(str(raw) if raw else None, session.principal or session.agent,
                          default_name, overwrite=bool(args.get("overwrite")))
