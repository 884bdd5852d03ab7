"""The pure parts of a drag: the path a hand takes, and the report of the list's new order."""

from __future__ import annotations

from tabsteward.bridge.engine.dragging import START, glide, order_change


def test_a_glide_starts_past_the_drag_threshold_and_ends_on_the_target() -> None:
    path = glide(10, 10, 10, 210, steps=4)
    assert path[0] == (10, 10 + START)
    assert path[-1] == (10, 210)
    ys = [y for _, y in path]
    assert ys == sorted(ys)  # forward,
    assert len(set(ys)) == len(ys)  # never in place


def test_a_glide_to_a_point_nearby_stays_between_the_two() -> None:
    path = glide(0, 0, 4, 0, steps=2)
    assert all(0 < x <= 4 for x, _ in path)


def test_the_report_gives_the_new_order_and_where_the_item_went() -> None:
    said = order_change([5, 0, ["A", "B", "C"]], [5, 2, ["B", "C", "A"]])
    assert said == "the list now reads: B | C | A (it moved from 1 to 3 of 3)"


def test_the_report_says_when_the_order_did_not_change() -> None:
    assert order_change([5, 1, ["A", "B"]], [5, 1, ["A", "B"]]) == \
        "the list's order did not change"


def test_no_report_without_a_list_of_two() -> None:
    assert order_change(None, [5, 0, ["A"]]) is None
    assert order_change([5, 0, ["A"]], [5, 0, ["A"]]) is None
    assert order_change([5, 0, ["A", "B"]], None) is None
