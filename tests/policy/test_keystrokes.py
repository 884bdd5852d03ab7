"""Cutting a key sequence where the focused element must be asked again, and what a chord
activates on the element it lands on."""

from __future__ import annotations

import pytest
from tabsteward.bridge.policy.categories import Category
from tabsteward.bridge.policy.classify import classify
from tabsteward.bridge.policy.intent import Element, Form, Intent
from tabsteward.bridge.policy.keystrokes import activates, lines, shown, steps
from tabsteward.bridge.policy.profiles import BUILTIN

C = Category
CHECKOUT = "https://shop.example/checkout"
ORDER = Form(action="https://shop.example/order", method="post",
             submit_name="Place order $49.99")


@pytest.mark.parametrize(("keys", "expected"), [
    ("Tab Tab Tab Enter", [["Tab", "Tab", "Tab"], ["Enter"]]),
    ("Tab Tab Tab Space", [["Tab", "Tab", "Tab"], ["Space"]]),
    ("Tab Enter", [["Tab"], ["Enter"]]),
    ("Enter", [["Enter"]]),
    ("h e l l o", [["h", "e", "l", "l", "o"]]),
    ("a b Enter", [["a", "b"], ["Enter"]]),
    ("Tab a d a Tab Enter", [["Tab"], ["a", "d", "a", "Tab"], ["Enter"]]),
    ("Enter Enter", [["Enter"], ["Enter"]]),
    ("Enter a", [["Enter"], ["a"]]),
    ("Shift+Tab Control+V", [["Shift+Tab"], ["Control+V"]]),
    ("Control+Enter", [["Control+Enter"]]),
    ("ArrowDown ArrowDown Escape", [["ArrowDown", "ArrowDown", "Escape"]]),
    ("Tab ArrowDown", [["Tab", "ArrowDown"]]),
])
def test_a_key_sequence_is_asked_again_before_each_activation_and_after_focus_moves(
        keys: str, expected: list[list[str]]) -> None:
    assert steps(keys.split()) == expected


@pytest.mark.parametrize("chord", ["Enter", "Return", "Space", "Shift+Enter",
                                   "Control+Enter", "Meta+Space"])
def test_enter_and_space_with_any_modifier_can_activate(chord: str) -> None:
    assert activates(chord)


@pytest.mark.parametrize("chord", ["Tab", "a", "Shift+A", "Escape", "ArrowDown", "+"])
def test_other_keys_activate_nothing_by_themselves(chord: str) -> None:
    assert not activates(chord)


def test_typed_line_breaks_are_enters_between_the_pieces() -> None:
    assert lines("x\n") == ["x", ""]
    assert lines("a\r\nb\rc") == ["a", "b", "c"]
    assert lines("plain") == ["plain"]


def _press(keys: str, el: Element) -> set[Category]:
    return {f.category for f in classify(Intent("press", CHECKOUT, el, keys=keys),
                                         BUILTIN["default"].sites)}


def test_enter_on_the_place_order_button_is_a_purchase() -> None:
    button = Element(role="button", name="Place order $49.99", tag="button",
                     form=Form(**{**ORDER.__dict__, "submits": True}))
    assert {C.SUBMIT, C.PURCHASE} <= _press("Enter", button)
    assert {C.SUBMIT, C.PURCHASE} <= _press("Space", button)


def test_enter_on_a_checkbox_in_a_form_submits_it_as_chrome_does() -> None:
    box = Element(role="checkbox", name="Gift wrap", tag="input", type="checkbox", form=ORDER)
    assert {C.SUBMIT, C.PURCHASE} <= _press("Enter", box)


def test_enter_on_a_date_field_in_a_form_submits_it() -> None:
    when = Element(role="textbox", name="Delivery", tag="input", type="date", form=ORDER)
    assert C.PURCHASE in _press("Enter", when)


def test_tab_alone_on_the_place_order_button_does_nothing_risky() -> None:
    button = Element(role="button", name="Place order $49.99", tag="button",
                     form=Form(**{**ORDER.__dict__, "submits": True}))
    assert _press("Tab", button) == set()


@pytest.mark.parametrize(("keys", "expected"), [
    ("K o a l a 9", "6 characters"),
    ("Control+a Shift+K o Enter", "Control+a, 2 characters, Enter"),
    ("Tab a Tab", "Tab, 1 character, Tab"),
    ("Space Backspace", "Space, Backspace"),
    ("Control+v", "Control+v"),
])
def test_a_key_sequence_is_shown_with_its_characters_counted_never_quoted(
        keys: str, expected: str) -> None:
    assert shown(keys.split()) == expected
