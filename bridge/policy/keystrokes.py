"""Where a key sequence must be judged again: before each chord that can activate what has
focus, and before typing once focus may have moved."""

# A `press` is judged chord by chord against the element focused when the chord lands, but
# asking the page what has focus costs a round trip: so the sequence is cut into steps, each
# judged once, against the element focused when it starts. A step ends before a chord that
# can activate something (Enter, Space, with any modifiers), and before a chord that types
# when an earlier chord of the step may have moved focus (Tab, or an activation).

from __future__ import annotations

from .facts import chords_of, types_text

ACTIVATING = frozenset({"enter", "space"})  # keys that click or submit what has focus
MOVING = frozenset({"tab"})                 # keys whose default action moves focus


def activates(spec: str) -> bool:
    """Whether pressing this chord can activate the focused element (click a button or a
    link, submit a form, toggle a box), whatever modifiers it holds."""
    return any(key in ACTIVATING for _, key in chords_of(spec))


def moves_focus(spec: str) -> bool:
    """Whether this chord may leave focus somewhere else than it found it."""
    return any(key in MOVING or key in ACTIVATING for _, key in chords_of(spec))


def steps(specs: list[str]) -> list[list[str]]:
    """The chord specs of one `press`, cut where the focused element must be asked again:
    ['Tab', 'Tab', 'Enter'] -> [['Tab', 'Tab'], ['Enter']]; ['a', 'b'] -> [['a', 'b']]."""
    out: list[list[str]] = []
    moved = False
    for spec in specs:
        acts = activates(spec)
        if out and (acts or (moved and types_text(chords_of(spec)))):
            out.append([spec])
            moved = moves_focus(spec)
            continue
        if not out:
            out.append([])
        out[-1].append(spec)
        moved = moved or moves_focus(spec)
    return out


def shown(specs: list[str]) -> str:
    """A key sequence as a record shows it: keys by name and shortcuts as given, the
    characters it types counted, never quoted (they may be a password, as typed text is):
    ['Control+a', 'K', 'o', 'Enter'] -> 'Control+a, 2 characters, Enter'."""
    out: list[str] = []
    typed = 0
    for spec in specs:
        if all(len(key) == 1 and mods <= {"shift"} for mods, key in chords_of(spec)):
            typed += 1
            continue
        if typed:
            out.append(_characters(typed))
            typed = 0
        out.append(spec)
    if typed:
        out.append(_characters(typed))
    return ", ".join(out)


def _characters(n: int) -> str:
    return f"{n} character{'s' if n != 1 else ''}"


def lines(text: str) -> list[str]:
    """Typed text as a person types it: the pieces between line breaks, each break an Enter
    ('a\\r\\nb' and 'a\\nb' -> ['a', 'b'])."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
