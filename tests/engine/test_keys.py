"""Key names and chords become CDP key events; unknown ones are refused."""

from __future__ import annotations

import pytest
from tabsteward.bridge.engine.keys import events, key_for, parse_chord
from tabsteward.bridge.errors import UsageError


def test_enter_types_a_carriage_return() -> None:
    down, up = events(parse_chord("Enter"))
    assert down == {"type": "keyDown", "key": "Enter", "code": "Enter",
                    "windowsVirtualKeyCode": 13, "modifiers": 0, "text": "\r",
                    "unmodifiedText": "\r"}
    assert up["type"] == "keyUp"
    assert up["key"] == "Enter"


def test_a_key_without_text_is_a_raw_key_down() -> None:
    down, _ = events(parse_chord("ArrowDown"))
    assert down["type"] == "rawKeyDown"
    assert "text" not in down
    assert down["windowsVirtualKeyCode"] == 40


def test_chord_presses_modifiers_first_and_releases_them_last() -> None:
    evs = events(parse_chord("Control+Shift+a"))
    assert [(e["type"], e["key"], e["modifiers"]) for e in evs] == [
        ("rawKeyDown", "Control", 2),
        ("rawKeyDown", "Shift", 10),
        ("rawKeyDown", "A", 10),
        ("keyUp", "A", 10),
        ("keyUp", "Shift", 2),
        ("keyUp", "Control", 0),
    ]


def test_shift_letter_types_the_capital() -> None:
    chord = parse_chord("Shift+b")
    assert chord.key.key == "B"
    assert chord.key.text == "B"
    assert chord.mask == 8


def test_a_chord_with_control_types_no_text() -> None:
    chord = parse_chord("Ctrl+a")
    assert chord.modifiers == ("Control",)
    assert chord.key.text == ""
    assert all("text" not in e for e in events(chord))


@pytest.mark.parametrize(("alias", "key"), [("Esc", "Escape"), ("Return", "Enter"),
                                            ("Up", "ArrowUp"), ("PgDn", "PageDown"),
                                            ("Del", "Delete")])
def test_aliases_name_the_standard_keys(alias: str, key: str) -> None:
    assert key_for(alias).key == key


def test_plus_alone_and_as_the_last_key_of_a_chord() -> None:
    assert parse_chord("+").key.key == "+"
    chord = parse_chord("Control++")
    assert chord.modifiers == ("Control",)
    assert chord.key.key == "+"


@pytest.mark.parametrize(("ch", "code", "vk"), [("a", "KeyA", 65), ("7", "Digit7", 55),
                                                ("-", "Minus", 189), ("/", "Slash", 191)])
def test_characters_get_their_codes(ch: str, code: str, vk: int) -> None:
    key = key_for(ch)
    assert (key.code, key.vk, key.text) == (code, vk, ch)


def test_function_keys() -> None:
    assert key_for("F5").vk == 116
    assert key_for("F12").code == "F12"


def test_a_character_outside_the_keyboard_still_types_itself() -> None:
    key = key_for("é")
    assert key.text == "é"


@pytest.mark.parametrize("spec", ["", "NoSuchKey", "Hyper+a", "Control+", "F13", "Shift+Foo"])
def test_unknown_keys_and_modifiers_are_refused(spec: str) -> None:
    with pytest.raises(UsageError):
        parse_chord(spec)
