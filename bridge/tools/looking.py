"""The snapshot an action prints right after it (`-i`, `--snapshot`): one command where an
agent would run two, the same text `snapshot` would print next."""

from __future__ import annotations

import asyncio
from typing import Any

from ..engine import replies, sent
from ..engine.acting import ANSWERS_WAIT, Outcome
from ..engine.tab import Tab
from ..errors import ActionTimeout, PolicyError
from .common import result
from .registry import Param, Result

SNAPSHOT = Param("snapshot", "bool", help="then print the page's snapshot, as `snapshot` would")
INTERACTIVE = Param("interactive", "bool", short="-i",
                    help="then print the interactive snapshot, as `snapshot -i` would")
DELTA = Param("delta", "bool", help="then print only what changed since your last snapshot "
              "of this page (as -i's unless --snapshot is given)")
LOOK = (SNAPSHOT, INTERACTIVE, DELTA)  # the options of every tool that changes the page
LOAD_WAIT = 10.0  # seconds a page a click opened may take to load before it is read anyway


def wanted(args: dict[str, Any]) -> bool:
    return bool(args.get("interactive") or args.get("snapshot") or args.get("delta"))


def began_load(out: Outcome) -> bool:
    """Whether the action began loading another page in the tab (a link, a form sent)."""
    return "url" in out.data or "navigation still loading" in out.changes


async def reported(tab: Tab, out: Outcome, args: dict[str, Any], *,
                   loads: bool | None = None) -> Result:
    """The action's report, and under it the snapshot `args` asked for (see then_look);
    `loads` defaults to whether the action began a page's load. The snapshot waits for the
    data the action had the page fetch (up to ANSWERS_WAIT), and for the timers the page
    armed in reply to its input (a search box's debounce) and their data (replies.py): what
    a person looking right after a click or a keystroke that loads results sees once they
    came."""
    done = result(out, tab)
    if wanted(args) and out.answered is not None:
        # the snapshot's own trip to the page comes after the page took the answers in
        # (measured: 20 of 20 drawn on both transports without a pause of ours)
        await asyncio.wait({out.answered}, timeout=ANSWERS_WAIT)
        if not out.answered.done() or out.answered.cancelled():
            done.text += (f"\nthe page was still loading data after {ANSWERS_WAIT:g} s; "
                          "read as it was")
    if out.answered is not None:
        out.answered.cancel()
    loads = began_load(out) if loads is None else loads
    if wanted(args) and not loads and out.armed is not False and tab.state.dialog is None \
            and not await replies.came(tab):
        # the timers it armed in reply to the input (a search box's debounce), and their data
        done.text += (f"\nthe page was still replying to the input after "
                      f"{replies.TIMERS_WAIT:g} s; read as it was")
    return await then_look(tab, done, args, loads=loads)


async def then_look(tab: Tab, done: Result, args: dict[str, Any], *, loads: bool = False
                    ) -> Result:
    """`done`, and under it the snapshot `args` asked for (none when they asked none, or a
    dialog holds the page: it says so). `loads`: the action began a page's load, which is
    awaited first, then the data the page was still fetching at its load (up to
    ANSWERS_WAIT), as a person waits for the page to fill in before reading it."""
    if not wanted(args):
        return done
    if loads:  # (returns at once when a dialog holds the page)
        try:
            await tab.wait_load(LOAD_WAIT, "load")
        except ActionTimeout:
            done.text += f"\nthe page was still loading after {LOAD_WAIT:g} s; read as it was"
        else:  # and the data it was still fetching then, as after an open
            if tab.state.dialog is None and not await sent.data_in_flight(tab, ANSWERS_WAIT):
                done.text += (f"\nthe page was still loading data after {ANSWERS_WAIT:g} s; "
                              "read as it was")
    if tab.state.dialog is not None:
        # a dialog holds the page's script: the snapshot would wait on it; say so
        done.text += "\nno snapshot taken: answer the dialog first"
        return done
    try:
        await tab.permit("read")
    except PolicyError as exc:  # the action stands: say that only the reading was refused
        done.text += f"\nno snapshot taken: {exc.message}"
        return done
    delta = bool(args.get("delta"))
    shot = await tab.snapshot(interactive=bool(args.get("interactive")) or
                              (delta and not args.get("snapshot")), delta=delta)
    done.data["snapshot"] = {"text": shot.text, "refs": shot.refs}
    return Result(f"{done.text}\n{shot.text}", done.data)
