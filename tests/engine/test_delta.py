"""What changed between two snapshots of a page (`--delta`): pure line differences."""

from __future__ import annotations

from tabsteward.bridge.engine.delta import delta, summary, unmarked

BEFORE = [
    '- combobox "City" @4 [collapsed]',
    '- button "Search" @5',
    "> Results appear below",
]


def test_the_same_page_again_has_no_changed_lines() -> None:
    assert delta(BEFORE, list(BEFORE)) == ([], 0, 0)
    assert summary(0, 0, 3, "snapshot -i") == \
        "no change since your last snapshot -i of this page (3 lines)"


def test_lines_that_came_are_shown_under_the_unchanged_line_before_them() -> None:
    after = [BEFORE[0], '- option "Paris" @6 [new]', '- option "Parma" @7 [new]', *BEFORE[1:]]
    lines, gone, came = delta(BEFORE, after)
    assert lines == ['  - combobox "City" @4 [collapsed]', '+ - option "Paris" @6',
                     '+ - option "Parma" @7']
    assert (gone, came) == (0, 2)


def test_a_changed_line_is_shown_as_gone_then_come() -> None:
    after = ['- combobox "City" @4 [expanded focused] value="Pa"', *BEFORE[1:]]
    lines, gone, came = delta(BEFORE, after)
    assert lines == ['- - combobox "City" @4 [collapsed]',
                     '+ - combobox "City" @4 [expanded focused] value="Pa"']
    assert (gone, came) == (1, 1)
    assert summary(gone, came, 3, "snapshot") == (
        "changed since your last snapshot of this page: 1 line came (+), 1 went (-); "
        "unchanged lines are left out (3 lines now)")


def test_lines_that_went_are_shown_where_they_were() -> None:
    lines, gone, came = delta(BEFORE, [BEFORE[0], BEFORE[2]])
    assert lines == ['  - combobox "City" @4 [collapsed]', '- - button "Search" @5']
    assert (gone, came) == (1, 0)


def test_only_a_refs_new_mark_is_ignored_a_pages_words_are_kept_whole() -> None:
    assert unmarked('  - link "Next" @9 [new]') == '  - link "Next" @9'
    assert unmarked("  > Sale starts now [new]") == "  > Sale starts now [new]"
    lines, _, came = delta(["> a"], ["> a", "> b [new]"])
    assert lines == ["  > a", "+ > b [new]"]
    assert came == 1
