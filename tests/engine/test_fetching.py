"""The data requests a tab's page has in flight, as its events tell them (fetching.py)."""

from __future__ import annotations

from tabsteward.bridge.cdp.connection import DATA_ANSWERED, DATA_BEGUN
from tabsteward.bridge.engine.fetching import KEPT, Fetching


def sent(rid: str, kind: str = "Fetch") -> tuple[str, dict[str, object]]:
    return "Network.requestWillBeSent", {"requestId": rid, "type": kind}


def test_a_fetch_or_xhr_is_in_flight_until_it_finishes_or_fails() -> None:
    f = Fetching()
    for method, params in (sent("1"), sent("2", "XHR"), sent("3")):
        f.hear(method, params)
    f.hear("Network.loadingFinished", {"requestId": "1"})
    f.hear("Network.loadingFailed", {"requestId": "2"})
    assert set(f.requests) == {"3"}


def test_a_page_load_an_image_or_a_script_is_no_data_request() -> None:
    f = Fetching()
    for kind in ("Document", "Image", "Script", "Stylesheet", "Ping"):
        f.hear(*sent(kind, kind))
    f.hear("Network.requestWillBeSent", {"requestId": "x"})  # no type at all
    assert f.requests == {}


def test_the_extensions_told_requests_count_as_the_network_domains_do() -> None:
    f = Fetching()
    f.hear(DATA_BEGUN, {"requestId": "w7"})
    f.hear(DATA_BEGUN, {"requestId": "w8"})
    f.hear(DATA_ANSWERED, {"requestId": "w7"})
    assert set(f.requests) == {"w8"}


def test_a_request_whose_headers_came_is_marked_so_and_one_never_heard_begin_is_ignored() -> None:
    f = Fetching()
    f.hear(*sent("1"))
    f.hear(*sent("2"))
    f.hear("Network.responseReceived", {"requestId": "2"})
    f.hear("Network.responseReceived", {"requestId": "9"})
    f.hear("Network.loadingFinished", {"requestId": "9"})
    assert f.headed() == {"2"}
    assert set(f.requests) == {"1", "2"}


def test_a_new_document_forgets_the_old_ones_requests() -> None:
    f = Fetching()
    f.hear(*sent("1"))
    f.forget()
    assert f.requests == {}
    assert f.headed() == set()


def test_a_page_that_never_answers_is_remembered_only_up_to_a_bound_newest_kept() -> None:
    f = Fetching()
    for n in range(KEPT + 50):
        f.hear(*sent(str(n)))
    assert len(f.requests) == KEPT
    assert str(KEPT + 49) in f.requests
    assert "0" not in f.requests
