"""The markup a long multi-line fill goes in as, and which fills go in as one edit."""

from __future__ import annotations

from tabsteward.bridge.engine.pasting import RICH_LINES, markup, wanted


def test_a_textarea_gets_its_lines_between_breaks_with_markup_characters_escaped() -> None:
    assert markup("a <b>&amp;\r\n\n  c\t", rich=False) == "a &lt;b&gt;&amp;amp;<br><br>  c\t"


def test_an_editable_element_gets_a_block_per_line_keeping_spaces_and_tabs_visible() -> None:
    assert markup(" a  b\t\n\nc ", rich=True) == (
        '<div>&nbsp;a &nbsp;b<span style="white-space:pre">\t</span></div>'
        "<div><br></div><div>c&nbsp;</div>")


def test_only_multi_line_textareas_and_long_editable_texts_go_in_as_one_edit() -> None:
    assert wanted("textarea", "one line") is None
    assert wanted("textarea", "two\rlines") is False
    assert wanted("input", "a\n" * 100) is None
    assert wanted("div", "a\n" * (RICH_LINES - 1)) is None
    assert wanted("div", "a\r\n" * RICH_LINES) is True
