"""The snapshot an action prints right after it (`-i`, `--snapshot`): one command where an
agent would run two, the same text `snapshot` would print next."""

from __future__ import annotations

from typing import Any

from ..engine import reporting, settling
from ..engine.acting import Outcome
from ..engine.tab import Tab
from ..errors import PolicyError
from .common import result
from .registry import Param, Result

SNAPSHOT = Param("snapshot", "bool", help="then print the page's snapshot, as `snapshot` would")
INTERACTIVE = Param("interactive", "bool", short="-i",
                    help="then print the interactive snapshot, as `snapshot -i` would")
DELTA = Param("delta", "bool", help="then print only what changed since your last snapshot "
              "of this page (as -i's unless --snapshot is given)")
LOOK = (SNAPSHOT, INTERACTIVE, DELTA)  # the options of every tool that changes the page


def wanted(args: dict[str, Any]) -> bool:
    return bool(args.get("interactive") or args.get("snapshot") or args.get("delta"))


async def reported(tab: Tab, out: Outcome, args: dict[str, Any], *,
                   loads: bool | None = None) -> Result:
    """The action's report, and under it the snapshot `args` asked for (see then_look),
    once what the action set going came (settling.py: the page it loaded, the data it had
    the page fetch, the timers the page armed in reply to its input; `loads` defaults to
    whether it began a page's load): what a person looking right after a click or a
    keystroke that loads results sees once they came. A field's suggestions the page
    drew or fetched in reply to the text are waited for with no look too (Outcome.suggests).
    """
    if tab.state.closed:  # (a popup whose own button closed it: a sign-in's Allow)
        now = tab.browser.session(tab.agent).went(tab)
        out.changes.append("the tab closed itself" +
                           (f"; tab {now.id} is current now" if now is not None else ""))
        out.data["tab_closed"] = tab.id
        # (the look asked for is of the tab current now: the opener the popup answered)
        return await then_look(now, result(out, tab), args) if now is not None else \
            result(out, tab)
    await reporting.top_replied(tab, out)  # (an action in a frame: what changed around it)
    if not wanted(args) and not (out.suggests and out.armed is not False):
        # (what the page said once the data it fetched came)
        await settling.said_once_answered(tab, out)
        if out.answered is not None:
            out.answered.cancel()
        return result(out, tab)
    # (the snapshot's own trip to the page comes after the page took the answers in:
    # measured, 20 of 20 drawn on both transports without a pause of ours)
    late = await settling.settle(tab, out, loads)  # (what the page said meanwhile joins it)
    if out.recheck is not None and tab.state.dialog is None:
        await out.recheck()  # (the clicked element as it ended)
    done = result(out, tab)
    for said in late:
        done.text += f"\n{said}; read as it was"
    return await then_look(tab, done, args)


async def then_look(tab: Tab, done: Result, args: dict[str, Any]) -> Result:
    """`done`, and under it the snapshot `args` asked for (none when they asked none, or a
    dialog holds the page: it says so)."""
    if not wanted(args):
        return done
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
