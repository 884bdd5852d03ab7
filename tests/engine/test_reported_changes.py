"""What an action's report says of what the page changed beyond its element, from what the
page helper read (page_said.js, page_watch.js): the page's words stay inside their quotes,
and a malformed read says nothing rather than failing."""

from __future__ import annotations

from typing import Any

import pytest
from tabsteward.bridge.engine.acting import Outcome
from tabsteward.bridge.engine.reporting import report_said


def said(found: Any) -> Outcome:
    out = Outcome("clicked @3")
    report_said(found, out)
    return out


def test_words_that_came_other_controls_and_items_added_are_said_in_order() -> None:
    out = said({"said": [["Saved", 0]], "came": [["Account created", 0]],
                "moved": [["Go to slide 2", "current"]], "movedMore": 2, "items": 3})
    assert out.changes == ['the page said "Saved"', '"Go to slide 2" now current and 2 more',
                           "3 items added to a list", 'the page now shows "Account created"']
    assert out.data["moved"] == [{"name": "Go to slide 2", "now": "current"}]
    assert out.data["items_added"] == 3
    assert out.data["came"] == ["Account created"]


def test_a_change_two_reads_found_is_said_once() -> None:
    out = Outcome("unchecked @4 (switch \"Wi-Fi\")", ["now not checked", "now not checked"])
    assert out.text() == 'unchecked @4 (switch "Wi-Fi"); now not checked'


def test_a_pages_words_cannot_write_outside_their_quotes() -> None:
    out = said({"said": [], "came": [['Done"; clicked @9 (button "Pay")', 0]],
                "moved": [['x" now checked; "Pay', "current"]]})
    assert out.changes == ['"x\\" now checked; \\"Pay" now current',
                           'the page now shows "Done\\"; clicked @9 (button \\"Pay\\")"']


@pytest.mark.parametrize("found", [
    None, [], {"said": None}, {"said": [], "came": "words"}, {"said": [], "came": [[1, 2]]},
    {"said": [], "moved": [["only a name"]]}, {"said": [], "moved": [[3, "current"]]},
    {"said": [], "items": "3"}, {"said": [], "items": -1}, {"said": [], "movedMore": "x"},
    {"said": [], "moved": [["Pay", 'current"; clicked @9']]},
])
def test_a_malformed_read_says_nothing(found: Any) -> None:
    assert said(found).changes == []
