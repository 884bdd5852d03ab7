"""Keys sent step by step, each step judged against the element focused when it starts."""

# `press` and `type` (entry.py) run these inside `guarded`. Where a key sequence is cut into
# steps is pure policy (policy/keystrokes.py); here each step's focused element is asked for,
# in whichever frame holds focus, and handed to policy before the step's keys are sent.

from __future__ import annotations

import functools
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..cdp.connection import Command
from ..errors import PolicyError
from ..policy import keystrokes
from . import drawing, keys, replies
from .model import Handle
from .tab import Tab

T = TypeVar("T")
KEY, TEXT = "Input.dispatchKeyEvent", "Input.insertText"  # the debugger's keyboard input
# seconds the page may take to answer the keys before a line break (what its timers armed in
# reply draw, the data they fetch) before the Enter goes: a person sees the list a search
# filters 300 ms after the last key (Tom Select's) before pressing Enter on it
ENTER_WAIT = 1.0


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
                     room: int | None = None, each: bool = False) -> Overflow:
    """Type text as a person would: each line break is an Enter, judged like a `press` of
    Enter against the element focused when it lands (it may submit a form or send). What
    went in is counted into `typed`, never quoted (it may be a password). `room`: how many
    characters `field` takes (its maxlength), None for any number; `each`: every character
    as its keys (`insert`)."""
    over = Overflow()
    pieces = list(keystrokes.lines(text))
    for n, piece in enumerate(pieces):
        if n > 0:
            await replies.came(tab, field.frame.id, cap=ENTER_WAIT)
            await tab.permit("press", await tab.focused_info(), keys="Enter")
            enter = keys.parse_chord("Enter")
            if piece:  # an editor that puts the new line in on its next frame (Trix) has
                # drawn it before the next keys come, as between a person's keys
                await drawing.around(tab, functools.partial(press_chord, tab, enter),
                                     lambda _: True)
            else:
                await press_chord(tab, enter)
            typed.append("Enter")
            room = None
        if piece:
            got = await insert(tab, piece, typed, field, room, each)
            over = Overflow(over.fields + got.fields, over.dropped + got.dropped,
                            over.lost or got.lost)
            if got.lost:  # no field has focus: the lines after it go nowhere either
                left = sum(len(p) for p in pieces[n + 1:])
                return Overflow(over.fields, over.dropped + left, True)
    return over


@dataclass(frozen=True)
class Overflow:
    """What became of text that did not all go into its field at once: how many more
    fields the page moved focus on to took some, how many characters none took, and
    whether they were left because no field had focus any more (else: the one that had
    it was full)."""

    fields: int = 0
    dropped: int = 0
    lost: bool = False


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
                 room: int | None = None, each: bool = False) -> Overflow:
    """Text into `field`, which has focus: at once where it takes it all (`room`: how many
    more characters it takes, None for any number) and not `each`. Else a key at a time, as
    a person's keys go (a page listening for keys hears each: a filter on keyup, a code's
    six boxes moving focus on), into what has focus at each: policy judges each field focus
    moves to before a key goes in. Keys stop where the field that has focus is full (they
    would go nowhere) or no field has focus any more (the page took it away, or went)."""
    if not each and (room is None or len(text) <= room):
        await tab.send(TEXT, {"text": text})
        _count_into(typed, len(text))
        return Overflow()
    frame, current, fields = field.frame, field.local, 0
    world = await tab.world_of(frame)

    def where(answer: Any) -> tuple[int, int] | None:
        """typingAt's [id, room] from an evaluate's answer (None: no answer, the document
        went)."""
        if isinstance(answer, Exception) or "exceptionDetails" in answer:
            return None
        at = answer.get("result", {}).get("value")
        ok = isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at)
        return (at[0], at[1]) if ok else None

    def asked() -> Command:
        return ("Runtime.evaluate", {"expression": f"__ts.typingAt({current})",
                                     "contextId": world, "returnByValue": True}, frame.session)

    at = where((await tab.conn.sequence([[asked()]]))[0][0])
    for i, ch in enumerate(text):
        if at is None or at[0] == 0:
            return Overflow(fields, len(text) - i, lost=True)
        if at[1] == 0:
            return Overflow(fields, len(text) - i)
        if at[0] != current:
            await tab.permit("type", await tab.focused_info(), text=text[i:])
            current, fields = at[0], fields + 1
        # a control character has no key of its own that types it: it goes in as text
        down: list[Command] = [(TEXT, {"text": ch}, tab.session_id)] if ord(ch) < 32 else [
            (KEY, ev, tab.session_id)
            for ev in keys.events(keys.Chord((), keys.key_for(ch), 0))]
        sent, (read,) = await tab.conn.sequence([down, [asked()]])
        for answer in sent:
            if isinstance(answer, Exception):
                raise answer
        _count_into(typed, 1)
        at = where(read)
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
