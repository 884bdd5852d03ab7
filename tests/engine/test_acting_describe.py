"""How an action's report names the element it acted on: as its snapshot line does."""

from __future__ import annotations

from typing import Any

import pytest
from tabsteward.bridge.engine.acting import describe
from tabsteward.bridge.engine.model import Frame, Handle

AT = Handle(Frame("top", "s1", None), 5, 17)


@pytest.mark.parametrize(("info", "said"), [
    ({"role": "button", "name": "Save", "hint": "disk", "text": "Save"}, '@17 (button "Save")'),
    # no name: its words, then its hint (a swiped item's, a like button showing its count)
    ({"tag": "div", "hint": "face", "text": " Mail  from Ada "},
     '@17 (div "Mail from Ada" hint="face")'),
    ({"tag": "span", "hint": "like", "text": "3"}, '@17 (span "3" hint="like")'),
    ({"role": "button", "hint": "trash"}, '@17 (button hint="trash")'),
    ({"tag": "b", "text": "Alice"}, '@17 (b "Alice")'),
    ({"role": "button"}, "@17 (button)"),
])
def test_an_element_is_named_by_its_name_else_its_words_and_its_hint(
        info: dict[str, Any], said: str) -> None:
    assert describe(AT, info) == said
