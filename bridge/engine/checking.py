"""Checking and unchecking: a check box, radio button or switch clicked as a person does."""

from __future__ import annotations

import contextlib

from ..errors import TabstewardError, TargetNotInteractable
from ..policy.facts import is_toggle
from ..policy.intent import Element
from ..policy.words import TOGGLE_ROLES
from . import replies
from .acting import Outcome, describe
from .aiming import Ask
from .pointer import MOUSE, _click, state_said
from .tab import Tab
from .targets import Target

TOGGLE_WAIT = 1.0  # seconds a toggle's page may take to say its new state (its timers)
# the roles that are checked or not (policy's TOGGLE_ROLES), for the page to test
TOGGLES = sorted(TOGGLE_ROLES)


async def check(tab: Tab, target: Target, on: bool) -> Outcome:
    # read with where the click goes, in one trip, unless it is already as asked (nothing
    # is done then: it is not even scrolled to)
    tab.attach_ahead(MOUSE)
    handle, info, placed = await tab.resolve_placed(
        target, aiming=True, check={"want": on, "toggles": TOGGLES})
    what = describe(handle, info)
    word = "checked" if on else "unchecked"
    if not is_toggle(Element.from_page(info)):
        raise TargetNotInteractable(f"{what} is not a checkbox, radio button or switch, so it "
                                    f"cannot be {word}; nothing was done (to click it, use "
                                    "click)")
    checked = "checked" in info.get("states", []) or info.get("checked") is True
    mixed = "mixed" in info.get("states", [])  # (neither: some of what it stands for are)
    if checked == on and not mixed:
        return Outcome(f"{what} was already {word}; nothing was done")
    out, after = await _click(tab, handle, info, "left", 1, 0, Ask("check" if on else "uncheck"),
                              placed)
    if after is None:
        after = await tab.info(handle)
    if after.get("connected") is False:  # (drawn anew as another, whose state is unread)
        out.did = f"clicked {what}"
        out.changes.append(f"whether it is {word} now cannot be read: take a snapshot")
        return out
    now = "checked" in after.get("states", []) or after.get("checked") is True
    if now != on:
        # a page may say its new state on its next frame (FAST's elements reflect it then),
        # or once the timers it armed in reply ran (DevExtreme's switch slides over first)
        with contextlib.suppress(TabstewardError):
            await tab.frame_drawn()
            if out.armed:
                await replies.came(tab, out.armed_in, cap=TOGGLE_WAIT)
            after = await tab.info(handle)
            now = "checked" in after.get("states", []) or after.get("checked") is True
            if now == on:
                out.changes.insert(0, "now checked" if on else "now not checked")
    if now != on and mixed and "mixed" not in after.get("states", []):
        # a box for several (a table's "select all") that a click took from mixed to the
        # other end: a person clicks it once more
        said = "".join(f"; {c}" for c in out.changes if not state_said(c))
        raise TargetNotInteractable(f"clicked {what}, which was mixed: the page made it "
                                    f"{'checked' if now else 'unchecked'}{said}. To have it "
                                    f"{word}, {'check' if on else 'uncheck'} it again")
    if now != on:
        raise TargetNotInteractable(f"clicked {what} but it is still "
                                    f"{'checked' if now else 'unchecked'}; the page did not "
                                    "take the change")
    out.did = f"{word} {what}"
    return out
