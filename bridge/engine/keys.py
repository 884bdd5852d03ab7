"""Pure key definitions: a name like "Enter" or "Control+Shift+A" becomes CDP key events."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError

MODIFIERS = {"Alt": 1, "Control": 2, "Ctrl": 2, "Meta": 4, "Command": 4, "Cmd": 4, "Shift": 8}
_MOD_KEYS = {"Alt": ("Alt", "AltLeft", 18), "Control": ("Control", "ControlLeft", 17),
             "Meta": ("Meta", "MetaLeft", 91), "Shift": ("Shift", "ShiftLeft", 16)}

# key -> (code, windowsVirtualKeyCode, text)
_NAMED: dict[str, tuple[str, int, str]] = {
    "Enter": ("Enter", 13, "\r"), "Tab": ("Tab", 9, ""), "Escape": ("Escape", 27, ""),
    "Backspace": ("Backspace", 8, ""), "Delete": ("Delete", 46, ""),
    "Space": ("Space", 32, " "), " ": ("Space", 32, " "),
    "ArrowUp": ("ArrowUp", 38, ""), "ArrowDown": ("ArrowDown", 40, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""), "ArrowRight": ("ArrowRight", 39, ""),
    "Home": ("Home", 36, ""), "End": ("End", 35, ""), "PageUp": ("PageUp", 33, ""),
    "PageDown": ("PageDown", 34, ""), "Insert": ("Insert", 45, ""),
}
_ALIASES = {"Esc": "Escape", "Return": "Enter", "Up": "ArrowUp", "Down": "ArrowDown",
            "Left": "ArrowLeft", "Right": "ArrowRight", "Del": "Delete", "PgUp": "PageUp",
            "PgDn": "PageDown"}
for _i in range(1, 13):
    _NAMED[f"F{_i}"] = (f"F{_i}", 111 + _i, "")
_PUNCT = {"-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219),
          "]": ("BracketRight", 221), ";": ("Semicolon", 186), "'": ("Quote", 222),
          ",": ("Comma", 188), ".": ("Period", 190), "/": ("Slash", 191),
          "\\": ("Backslash", 220), "`": ("Backquote", 192)}


@dataclass(frozen=True)
class Key:
    key: str
    code: str
    vk: int
    text: str


@dataclass(frozen=True)
class Chord:
    modifiers: tuple[str, ...]
    key: Key
    mask: int


def key_for(name: str) -> Key:
    name = _ALIASES.get(name, name)
    if name in _NAMED:
        code, vk, text = _NAMED[name]
        return Key(name if name != "Space" else " ", code, vk, text)
    if len(name) == 1:
        ch = name
        if ch.isalpha() and ch.isascii():
            return Key(ch, f"Key{ch.upper()}", ord(ch.upper()), ch)
        if ch.isdigit():
            return Key(ch, f"Digit{ch}", ord(ch), ch)
        if ch in _PUNCT:
            code, vk = _PUNCT[ch]
            return Key(ch, code, vk, ch)
        return Key(ch, "", 0, ch)
    raise UsageError(f"unknown key {name!r}; use names like Enter, Tab, Escape, ArrowDown, "
                     "F5, a single character, or chords like Control+A")


def parse_chord(spec: str) -> Chord:
    """'Control+Shift+A' -> modifiers and key; a lone '+' is the plus key."""
    if not spec:
        raise UsageError("empty key; nothing was pressed")
    parts = spec.split("+") if spec != "+" else ["+"]
    if spec.endswith("++"):
        parts = [*spec[:-2].split("+"), "+"]
    *mods, last = parts
    mask = 0
    names: list[str] = []
    for m in mods:
        canon = {"Ctrl": "Control", "Cmd": "Meta", "Command": "Meta"}.get(m, m)
        if canon not in MODIFIERS:
            raise UsageError(f"unknown modifier {m!r} in {spec!r}; use Control, Shift, Alt, Meta")
        mask |= MODIFIERS[canon]
        names.append(canon)
    key = key_for(last)
    if mask & 8 and len(key.key) == 1 and key.key.isalpha():
        key = Key(key.key.upper(), key.code, key.vk, key.key.upper())
    if mask & (1 | 2 | 4):
        key = Key(key.key, key.code, key.vk, "")  # a chord types no text
    return Chord(tuple(names), key, mask)


def events(chord: Chord) -> list[dict[str, object]]:
    """The CDP Input.dispatchKeyEvent parameter sets for pressing the chord once."""
    out: list[dict[str, object]] = []
    mask = 0
    for name in chord.modifiers:
        key, code, vk = _MOD_KEYS[name]
        mask |= MODIFIERS[name]
        out.append({"type": "rawKeyDown", "key": key, "code": code,
                    "windowsVirtualKeyCode": vk, "modifiers": mask})
    k = chord.key
    down: dict[str, object] = {"type": "keyDown" if k.text else "rawKeyDown", "key": k.key,
                               "code": k.code, "windowsVirtualKeyCode": k.vk,
                               "modifiers": chord.mask}
    if k.text:
        down["text"] = k.text
        down["unmodifiedText"] = k.text
    out.append(down)
    out.append({"type": "keyUp", "key": k.key, "code": k.code, "windowsVirtualKeyCode": k.vk,
                "modifiers": chord.mask})
    for name in reversed(chord.modifiers):
        key, code, vk = _MOD_KEYS[name]
        mask &= ~MODIFIERS[name]
        out.append({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                    "modifiers": mask})
    return out
