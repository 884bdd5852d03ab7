"""A number set on a widget of the page's own (an ARIA slider or spin button) as a person
sets it without the mouse: focused, then its keys pressed until it shows the number."""

from __future__ import annotations

from ..errors import CDPError, TargetNotInteractable, UsageError
from . import keyboard, keys
from .acting import Outcome, guarded
from .model import Handle
from .reporting import replied, report_replied
from .tab import Tab

PRESSES_MAX = 200  # a widget still short of the number after this many is left there
# its value and bounds as ARIA states them, and the words it says its value in
_READ = ("(e => e && e.isConnected ? ['aria-valuenow', 'aria-valuemin', 'aria-valuemax', "
         "'aria-valuetext'].map(a => e.getAttribute(a)) : null)(__ts.get({}))")


def number(text: str | None) -> float | None:
    """A number as ARIA or an agent writes it ("7", "-2.5"); None for anything else."""
    try:
        value = float(str(text).strip())
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def shown(value: float) -> str:
    return f"{value:g}"


async def _read(tab: Tab, handle: Handle) -> tuple[float | None, float | None, float | None]:
    got = await tab.evaluate(handle.frame, _READ.format(handle.local))
    if not isinstance(got, list) or len(got) != 4:
        return None, None, None
    now, low, high, said = (number(v) if v is not None else None for v in got)
    if said is not None and (now is None or (low is not None and low == high)):
        # a wheel that states no range, its value only in words (Ionic's date picker
        # column: 0 to 0, "2000"): the number it says, no bounds
        return said, None, None
    return now, low, high


async def set_number(tab: Tab, handle: Handle, role: str, what: str, text: str,
                     out: Outcome) -> Outcome:
    """Press the widget's keys (Home or End for its ends, else an arrow at a time) until
    it shows `text`'s number; says where it stopped when the page would not go further."""
    want = number(text)
    if want is None:
        raise UsageError(f"{what} takes a number; {text[:40]!r} is not one, and nothing was "
                         "done")
    now, low, high = await _read(tab, handle)
    if now is None:
        raise TargetNotInteractable(f"{what} states no value (aria-valuenow), so it cannot be "
                                    "set to a number; nothing was done")
    if (low is not None and want < low) or (high is not None and want > high):
        raise UsageError(f"{what} takes {shown(low) if low is not None else 'any'} to "
                         f"{shown(high) if high is not None else 'any'}; {shown(want)} is "
                         "outside, and nothing was done")
    # ARIA's keys: a spin button goes up and down; a slider takes right and left too, which
    # a page may handle alone (and Up and Down, which never swap in a right-to-left page)
    pairs = [("ArrowUp", "ArrowDown")] if role == "spinbutton" else [
        ("ArrowRight", "ArrowLeft"), ("ArrowUp", "ArrowDown")]
    await tab.ready_for(keyboard.KEY)
    obj = await tab.object_id(handle)
    try:
        await tab.send("DOM.focus", {"objectId": obj}, session=handle.frame.session)
    except CDPError as exc:  # (the role on a box no key reaches)
        raise TargetNotInteractable(f"{what} takes no focus, so no key reaches it; nothing "
                                    "was done. Click its own buttons to change it") from exc
    pressed = 0

    async def step(key: str, at: float | None) -> float | None:
        nonlocal pressed
        pressed += 1
        await keyboard.press_chord(tab, keys.parse_chord(key))
        new = (await _read(tab, handle))[0]
        if new == at:  # a page may say its value on its next frame (FAST's slider)
            await tab.frame_drawn()
            new = (await _read(tab, handle))[0]
        return new

    async def act() -> float | None:
        at: float | None = now
        if want in (low, high):
            at = await step("Home" if want == low else "End", at)
        moved = False  # whether a pair of keys moved it: the page's own pair
        flipped = False  # its up key lowers it (a wheel whose up goes back a year)
        while at is not None and at != want and pressed < PRESSES_MAX:
            up, down = pairs[0]
            new = await step(up if (want > at) != flipped else down, at)
            if new == at and not moved and len(pairs) > 1:
                pairs.pop(0)  # not its keys: the others
                continue
            if new is None or new == at:
                break  # the page goes no further that way
            if not moved and abs(new - want) > abs(at - want):
                flipped = not flipped  # the other way round: its other key
            moved = True
            passed = (new - want) * (at - want) < 0
            at = new
            if passed:
                break  # its step does not land on the number: as near as it goes
        return at

    at = await guarded(tab, act(), "fill", out, barrier=False)
    if at is None:
        out.changes.append("it no longer states a value")
        return out
    out.changes.append(f"value now {shown(at)!r}")
    out.data["value"] = shown(at)
    if at != want:
        out.changes.append(f"it stopped at {shown(at)}, not {shown(want)}, after {pressed} key "
                           f"press{'' if pressed == 1 else 'es'}: the page takes it no nearer")
    report_replied(tab, handle.frame, await replied(tab, handle.frame), out)
    return out
