"""The session history the hub keeps of an extension tab, so back and forward need no
debugger (bridge/cdp/ext_history.py): trusted only while the page agrees with it."""

from __future__ import annotations

from tabsteward.bridge.cdp.ext_history import History, entry_id, index_of

A, B, C = "https://a.test/", "https://b.test/", "https://c.test/"


def opened(*urls: str) -> History:
    hist = History()
    for url in urls:
        hist.committed(url, "typed", [])
    return hist


def test_each_page_opened_adds_an_entry_after_the_new_tabs_blank_one() -> None:
    hist = History()
    hist.committed("about:blank", "typed", [])  # the new tab's own: no second entry
    hist.committed(A, "typed", [])
    hist.committed(B, "typed", [])
    assert (hist.entries, hist.index) == (["about:blank", A, B], 2)
    assert hist.agrees(3, None, None)
    assert not hist.agrees(2, None, None)


def test_a_step_we_started_moves_the_current_entry_and_a_new_page_drops_the_ones_ahead(
        ) -> None:
    hist = opened(A, B, C)
    hist.going = -1
    assert not hist.agrees(4, None, None)  # the step has not landed yet
    hist.committed(B, "link", ["forward_back"])
    assert (hist.index, hist.going) == (2, 0)
    hist.committed(A, "link", ["forward_back"])  # the page's own history.back()
    assert hist.index == 1
    hist.committed(C, "link", [])
    assert (hist.entries, hist.index) == (["about:blank", A, C], 2)


def test_a_page_step_it_cannot_place_or_a_client_redirect_makes_it_unsure() -> None:
    hist = opened(A, B, A)
    hist.index = 2
    hist.committed(A, "link", ["forward_back"])  # A is behind and ahead: which way?
    assert not hist.known
    hist = opened(A, B)
    hist.committed(C, "link", ["client_redirect"])  # replaced B, or added C?
    assert not hist.agrees(3, None, None)
    assert not hist.agrees(4, None, None)
    hist = opened(A)
    hist.frame_entry()
    assert not hist.known


def test_the_pages_own_same_origin_entries_must_match_around_the_current_one() -> None:
    hist = opened(A, B)
    hist.same_document(B + "#two")
    assert hist.agrees(4, [B, B + "#two"], 1)
    assert not hist.agrees(4, [B, B + "#other"], 1)  # it was a replaceState, say
    assert not hist.agrees(4, [B + "#two"], 0)  # the page has no entry B before it


def test_the_debuggers_answer_sets_the_history_again() -> None:
    hist = opened(A)
    hist.frame_entry()
    hist.synced({"currentIndex": 0, "entries": [{"id": 5, "url": A}, {"id": 6, "url": B}]})
    assert hist.known
    assert hist.agrees(2, [A], 0)


def test_its_entry_ids_are_negative_so_they_are_never_the_debuggers() -> None:
    answer = opened(A, B).answer()
    assert [e["id"] for e in answer["entries"]] == [-1, -2, -3]
    assert answer["currentIndex"] == 2
    assert index_of(entry_id(4)) == 4


def test_a_step_within_one_document_moves_the_current_entry_and_adds_none() -> None:
    hist = opened(A)
    hist.same_document(A + "#two")
    hist.going = -1
    hist.same_document(A, stepped=True)  # our back, told as an in-place change
    assert (hist.entries, hist.index) == (["about:blank", A, A + "#two"], 1)
    hist.same_document(A + "#two", stepped=True)  # the page's own history.forward()
    assert (hist.entries, hist.index) == (["about:blank", A, A + "#two"], 2)
