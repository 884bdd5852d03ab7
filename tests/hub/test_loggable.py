"""What the activity log keeps of a request: addresses by scheme, host and path, whatever the
string; and an entry is stored whatever text it holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge.hub.loggable import loggable, url_for_log
from tabsteward.bridge.records.activity import ActivityLog


@pytest.mark.parametrize(("url", "logged"), [
    ("https://shop.example/cart", "https://shop.example/cart"),
    ("https://user:pw@shop.example/a?card=4111#x", "https://shop.example/a?…"),
    ("https://" + "A" * 9000 + "@evil.example/p", "https://evil.example/p"),
    ("http://127.0.0.1:8080/x?\ud800", "http://127.0.0.1:8080/x?…"),
    ("https://shop.example/\ud800", "https://shop.example/\ufffd"),
    ("shop.example/a", "https://shop.example/a"),
    ("localhost:3000", "http://localhost:3000/"),
    ("HTTPS://Shop.Example:443/A", "https://shop.example/A"),
    ("javascript:alert(1)", "javascript:alert(1)"),
    ("file:///home/ada/.ssh/id_rsa", "file:/home/ada/.ssh/id_rsa"),
])
def test_an_address_is_logged_by_scheme_host_and_path(url: str, logged: str) -> None:
    assert url_for_log(url) == logged


def test_a_long_path_or_a_data_url_is_cut() -> None:
    assert len(url_for_log("https://a.example/" + "p" * 5000)) < 260
    assert len(url_for_log("data:text/html," + "x" * 5000)) <= 120


def test_typed_text_by_length_and_addresses_by_host() -> None:
    assert loggable({"text": "hunter2", "url": "https://u:p@a.example/?q", "target": "@3"}) \
        == {"text": "<7 characters>", "url": "https://a.example/?…", "target": "@3"}


def test_keys_pressed_are_logged_by_name_with_their_characters_counted() -> None:
    assert loggable({"keys": "h u n t e r 2 Enter"}) == {"keys": "7 characters, Enter"}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_string_gives_a_short_line_and_never_raises(url: str) -> None:
    logged = url_for_log(url)
    assert len(logged) < 400
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for ch in logged)


def test_an_entry_with_lone_surrogates_is_stored_not_refused(tmp_path: Path) -> None:
    with ActivityLog(tmp_path / "log.sqlite3") as log:
        log.append("request", agent="a\ud800", tool="open", summary="x\udfff",
                   data={"url": "https://a.example/\ud800", "k\ud801": ["\udc00"]})
        [entry] = log.query()
    assert entry.agent == "a\ufffd"
    assert entry.summary == "x\ufffd"
    assert entry.data == {"url": "https://a.example/\ufffd", "k\ufffd": ["\ufffd"]}
