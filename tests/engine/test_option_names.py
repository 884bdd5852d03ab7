"""Which line of an opened list offers the option an agent names: its name, or an option's
name that says its state beside its words, as a screen reader reads both (UI5's)."""

from __future__ import annotations

import pytest
from tabsteward.bridge.engine.options import offering
from tabsteward.bridge.engine.snapshot import Line


def option(ref: int, name: str, role: str = "option") -> Line:
    return Line(depth=1, kind=1, role=role, name=name, ref=ref)


@pytest.mark.parametrize("name", ["Not Selected, Python", "Selected, Python",
                                  "Python, not checked", "python,  CHOSEN"])
def test_an_option_named_with_its_state_offers_its_words(name: str) -> None:
    lines = [option(4, "Not Selected, Java"), option(5, name)]
    found = offering(lines, "Python", set(), set())
    assert found is not None
    assert found.ref == 5


def test_an_option_is_still_found_by_its_whole_name() -> None:
    found = offering([option(6, "Selected, Python")], "Selected, Python", set(), set())
    assert found is not None
    assert found.ref == 6


@pytest.mark.parametrize(("name", "role"), [
    ("Paris, France", "option"),  # words beside it that are no state: another option
    ("Not Selected, Python", "button"),  # a line that is no option keeps its whole name
])
def test_other_words_beside_the_wanted_ones_do_not_offer_them(name: str, role: str) -> None:
    assert offering([option(5, name, role)], "Python" if "Python" in name else "France",
                   set(), set()) is None
