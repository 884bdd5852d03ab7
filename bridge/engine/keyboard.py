"""Keys sent step by step, each step judged against the element focused when it starts."""

# `press` and `type` (entry.py) run these inside `guarded`. Where a key sequence is cut into
# steps is pure policy (policy/keystrokes.py); here each step's focused element is asked for,
# in whichever frame holds focus, and handed to policy before the step's keys are sent.

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
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


async def type_lines(tab: Tab, text: str, typed: list[str], field: Handle,
                     room: int | None = None) -> Overflow:
    """Type text as a person would: each line break is an Enter, judged like a `press` of
    Enter against the element focused when it lands (it may submit a form or send). What
    went in is counted into `typed`, never quoted (it may be a password). `room`: how many
    characters `field` takes (its maxlength), None for any number."""
    over = Overflow()
    for n, piece in enumerate(keystrokes.lines(text)):
        if n > 0:
            await tab.permit("press", await tab.focused_info(), keys="Enter")
            await press_chord(tab, keys.parse_chord("Enter"))
            typed.append("Enter")
            room = None
        if piece:
            got = await insert(tab, piece, typed, field, room)
            over = Overflow(over.fields + got.fields, over.dropped + got.dropped)
    return over


@dataclass(frozen=True)
class Overflow:
    """What became of text longer than its field takes: how many more fields the page
    moved focus on to took some, and how many characters none took."""

    fields: int = 0
    dropped: int = 0


def _counted(n: int) -> str:
    return f"{n} character{'s' if n != 1 else ''}"


def _count_into(typed: list[str], n: int) -> None:
    """Count `n` characters typed into `typed`, with those just before them."""
    last = typed[-1].split(" ")[0] if typed and typed[-1].endswith(("character",
                                                                    "characters")) else ""
    if last.isdigit():
        typed[-1] = _counted(int(last) + n)
    else:
        typed.append(_counted(n))


async def insert(tab: Tab, text: str, typed: list[str], field: Handle,
                 room: int | None = None) -> Overflow:
    """Text into `field`, which has focus: at once where it takes it all (`room`: how many
    more characters it takes, None for any number). Where it takes fewer (one box of a
    code's six), a key at a time, as a person's keys go, into what has focus at each: a page
    that moves focus on to the next box gets them there, and policy judges each field
    focus moves to before a key goes in. Keys stop where the field that has focus is full
    (they would go nowhere) or focus left the field's document."""
    if room is None or len(text) <= room:
        await tab.send(TEXT, {"text": text})
        _count_into(typed, len(text))
        return Overflow()
    frame, current, fields = field.frame, field.local, 0
    for i, ch in enumerate(text):
        at = await tab.evaluate(frame, "__ts.typingAt()")
        now, left = (at[0], at[1]) if isinstance(at, list) and len(at) == 2 else (0, 0)
        if not isinstance(now, int) or now == 0 or left == 0:
            return Overflow(fields, len(text) - i)
        if now != current:
            info = await tab.evaluate(frame, f"__ts.info({now})")
            await tab.permit("type", info if isinstance(info, dict) else None, text=text[i:])
            current, fields = now, fields + 1
        for ev in keys.events(keys.Chord((), keys.key_for(ch), 0)):
            await tab.send(KEY, ev)
        _count_into(typed, 1)
    return Overflow(fields, 0)


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
