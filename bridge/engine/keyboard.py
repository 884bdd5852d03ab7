"""Keys sent step by step, each step judged against the element focused when it starts."""

# `press` and `type` (entry.py) run these inside `guarded`. Where a key sequence is cut into
# steps is pure policy (policy/keystrokes.py); here each step's focused element is asked for,
# in whichever frame holds focus, and handed to policy before the step's keys are sent.

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from ..errors import PolicyError
from ..policy import keystrokes
from . import keys
from .model import Handle
from .tab import Tab

T = TypeVar("T")
KEY, TEXT = "Input.dispatchKeyEvent", "Input.insertText"  # the debugger's keyboard input


async def press_chord(tab: Tab, chord: keys.Chord) -> None:
    for ev in keys.events(chord):
        await tab.send(KEY, ev)


async def press_steps(tab: Tab, steps: list[list[str]], focused: Handle | None,
                      pressed: list[str]) -> None:
    """Send the steps of a `press`, the first already judged (on `focused`, the target just
    focused, when there is one); each chord sent goes into `pressed`."""
    for n, step in enumerate(steps):
        if n > 0 or (focused is not None and keystrokes.activates(step[0])
                     and not await still_focused(tab, focused)):
            await tab.permit("press", await tab.focused_info(), keys=" ".join(step))
        for part in step:
            chord = keys.parse_chord(part)
            await press_chord(tab, chord)
            pressed.append(part)
            if chord.key.code == "Tab":
                await tab.settle_focus()


async def type_lines(tab: Tab, text: str, typed: list[str]) -> None:
    """Type text as a person would: each line break is an Enter, judged like a `press` of
    Enter against the element focused when it lands (it may submit a form or send). What
    went in is counted into `typed`, never quoted (it may be a password)."""
    for n, piece in enumerate(keystrokes.lines(text)):
        if n > 0:
            await tab.permit("press", await tab.focused_info(), keys="Enter")
            await press_chord(tab, keys.parse_chord("Enter"))
            typed.append("Enter")
        if piece:
            await tab.send(TEXT, {"text": piece})
            typed.append(f"{len(piece)} character{'s' if len(piece) != 1 else ''}")


async def still_focused(tab: Tab, handle: Handle) -> bool:
    """Whether the element just focused still has focus (a focus handler may pass it on)."""
    return bool(await tab.evaluate(handle.frame, f"__ts.holdsFocus({handle.local})"))


async def stopped_after(action: Awaitable[T], done: list[str], verb: str) -> T:
    """Run a key sequence (its result); when policy stops it part way, say which keys did go
    through."""
    try:
        return await action
    except PolicyError as exc:
        if not done:
            raise
        raise PolicyError(f"{verb} {keystrokes.shown(done)}; the rest was not: {exc.message}",
                          **exc.details) from None
