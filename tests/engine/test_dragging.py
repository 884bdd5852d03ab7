"""The pure parts of a drag: the path a hand takes, and the report of where the item landed
and of each list's new order, read back from the page."""

from __future__ import annotations

from tabsteward.bridge.engine.drag_report import ListState, listing, report
from tabsteward.bridge.engine.dragging import START, step, toward


def test_a_hand_takes_hold_past_the_drag_threshold_towards_the_target() -> None:
    assert toward(10, 10, 10, 210) == (10, 10 + START)
    assert toward(0, 0, 3, 4) == (0.6 * START, 0.8 * START)  # past it, when it is nearer
    assert toward(5, 5, 5, 5) == (5, 5 + START)  # onto itself: down


def test_each_step_of_a_glide_covers_an_even_part_of_what_is_left() -> None:
    assert step(0, 0, 100, 40, 4) == (25, 10)
    assert step(0, 0, 100, 40, 1) == (100, 40)  # the last step ends on the target


def _list(items: str, at: int, other: int = -1, list_id: int = 5, axis: str = "y",
          total: int = 0) -> ListState:
    names = items.split()
    return ListState(list_id, at, other, names, total or len(names), axis)


def test_the_report_gives_the_new_order_and_where_the_item_went() -> None:
    said = report("A", "C", _list("A B C", 0), _list("B C A", 2, 1), None)
    assert said.did == "dragged A below C"
    assert said.changes == ["the list now reads: B | C | A (it moved from 1 to 3 of 3)"]
    assert said.data["order"] == ["B", "C", "A"]


def test_the_side_is_read_from_where_the_item_landed_not_from_where_it_was_aimed() -> None:
    # across a row of photos: it landed after the target, whatever the aim was
    said = report("P3", "P4", _list("P1 P2 P3 P4", 2, axis="x"),
                  _list("P1 P2 P4 P3", 3, 2, axis="x"), None)
    assert said.did == "dragged P3 after P4"
    # not next to the target: how far it lies from it
    said = report("A", "D", _list("A B C D", 0), _list("B A C D", 1, 3), None)
    assert said.did == "dragged A onto D; it now lies 1 item above it"


def test_a_cross_list_drag_prints_the_list_it_joined_and_the_one_it_left() -> None:
    said = report("T2", "T4", _list("T1 T2 T3", 1), _list("T2 T4", 0, 1, list_id=9),
                  _list("T1 T3", -1))
    assert said.did == "dragged T2 above T4"
    assert said.changes == ["it moved to another list, which now reads: T2 | T4 (it is 1 of 2)",
                            "the list it left now reads: T1 | T3"]
    assert said.data["order"] == ["T2", "T4"]
    assert said.data["order_left"] == ["T1", "T3"]
    assert said.data["position"] == 1


def test_a_long_list_is_cut_around_the_item_with_marks_and_its_true_count() -> None:
    names = " ".join(f"T{i}" for i in range(1, 41))
    state = _list(names, 34)
    shown = listing(state, 34)
    assert shown.startswith("[+10 before] | T11 | ")
    assert shown.endswith(" | T40")
    assert len(shown.split(" | ")) == 31
    assert listing(state).endswith(" | T30 | [+10 more]")
    moved = " ".join([f"T{i}" for i in range(2, 36)] + ["T1"] + [f"T{i}" for i in range(36, 41)])
    said = report("T1", "T35", _list(names, 0), _list(moved, 34, 33), None)
    assert said.did == "dragged T1 below T35"
    assert said.changes[0].endswith("(it moved from 1 to 35 of 40)")
    # the page read fewer texts than the list has: the count stays true, the cut marked
    assert listing(_list("A B C", 0, total=1200)) == "A | B | C | [+1197 more]"


def test_the_report_says_when_the_order_did_not_change() -> None:
    said = report("A", "B", _list("A B", 0), _list("A B", 0, 1), None)
    assert said.did == "dragged A onto B"
    assert said.changes == ["the list's order did not change"]


def test_no_report_of_an_order_without_a_list_of_two() -> None:
    assert report("A", "B", None, _list("A", 0), None).changes == []
    assert report("A", "B", _list("A", 0), _list("A", 0), None).changes == []
    assert report("A", "B", _list("A B", 0), None, None).changes == []
