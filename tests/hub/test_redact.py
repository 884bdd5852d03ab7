"""The redactor: known secret values and obvious secret patterns never survive, page text does."""

from __future__ import annotations

import time

import pytest
from tabsteward.bridge.hub.redact import MARK, REDACTOR, Redactor


def test_a_known_secret_is_replaced_wherever_it_occurs() -> None:
    r = Redactor()
    r.add("hunter2-pass")
    assert r.text("typed hunter2-pass, then hunter2-pass again") == (
        f"typed {MARK}, then {MARK} again")


def test_values_shorter_than_four_characters_are_not_remembered() -> None:
    r = Redactor()
    r.add("abc")
    r.add("")
    assert len(r) == 0
    assert r.text("abc abcdef") == "abc abcdef"


def test_the_longest_secret_wins_when_one_contains_another() -> None:
    r = Redactor()
    r.add("secret")
    r.add("secret-and-more")
    assert r.text("x secret-and-more y") == f"x {MARK} y"


def test_a_secret_is_redacted_in_its_url_and_json_escaped_forms() -> None:
    r = Redactor()
    r.add('p@ss w"rd!')
    assert "p%40ss" not in r.text("https://x.test/?pw=p%40ss%20w%22rd%21")
    assert r.text("https://x.test/?pw=p%40ss+w%22rd%21") == f"https://x.test/?pw={MARK}"
    assert r.text('{"pw": "p@ss w\\"rd!"}') == f'{{"pw": "{MARK}"}}'


def test_regex_characters_in_a_secret_are_taken_literally() -> None:
    r = Redactor()
    r.add("a.b*c")
    assert r.text("a.b*c axbbc") == f"{MARK} axbbc"


def test_past_its_capacity_the_redactor_forgets_the_oldest_value() -> None:
    r = Redactor(max_values=3)
    for value in ("first1", "second", "third3", "fourth"):
        r.add(value)
    assert len(r) == 3
    assert r.text("first1 fourth") == f"first1 {MARK}"


def test_a_forgotten_value_is_shown_again() -> None:
    r = Redactor()
    r.add("temporary")
    r.forget("temporary")
    assert r.text("temporary") == "temporary"


def test_data_is_redacted_in_nested_values_and_keys_without_changing_the_original() -> None:
    r = Redactor()
    r.add("topsecret")
    original = {"a": ["x topsecret", {"topsecret": ("topsecret", 3)}], "n": 1.5, "b": None}
    out = r.data(original)
    assert out == {"a": [f"x {MARK}", {MARK: (MARK, 3)}], "n": 1.5, "b": None}
    assert original["a"][0] == "x topsecret"


@pytest.mark.parametrize("key", ["password", "Password", "api-key", "token", "Authorization"])
def test_the_value_of_a_secret_named_key_is_redacted_whole(key: str) -> None:
    assert Redactor().data({key: "whatever it is", "other": "kept"}) == {
        key: MARK, "other": "kept"}


def test_data_nested_beyond_a_hundred_levels_is_cut_off() -> None:
    deep: list[object] = ["bottom"]
    for _ in range(500):
        deep = [deep]
    out = Redactor().data(deep)
    for _ in range(100):
        out = out[0]
    assert out == MARK


@pytest.mark.parametrize(("text", "expected"), [
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc",
     f"Authorization: Bearer {MARK}"),
    ('{"authorization": "Bearer abcdefgh12345678"}', f'{{"authorization": "Bearer {MARK}"}}'),
    ("key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t here", f"key {MARK} here"),
    ("OPENAI_API_KEY=sk-A1b2C3d4E5f6G7h8I9j0K1l2", f"OPENAI_API_KEY={MARK}"),
    ("token ghp_" + "A1b2C3d4E5" * 3 + "abcdef", f"token {MARK}"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", MARK),
])
def test_obvious_secrets_in_free_text_are_redacted(text: str, expected: str) -> None:
    assert Redactor().text(text) == expected


@pytest.mark.parametrize("text", [
    "Read https://blog.example/sk-the-best-hiking-trails-of-2024 today",
    "task-1234567890abcdefghijklmnop",
    "The authorization form asks for a bearer bond",
    "ghp_short",
    "Sign in with your password",
    "Total: 1234 items, skip-to-main-content-link-button",
])
def test_ordinary_page_text_is_left_alone(text: str) -> None:
    assert Redactor().text(text) == text


def test_redacting_with_a_thousand_known_values_stays_fast() -> None:
    r = Redactor()
    for i in range(1000):
        r.add(f"secret-value-{i:04d}-x")
    r.text("warm up")
    page = "ordinary words on a page " * 400  # 10 KB
    started = time.perf_counter()
    for _ in range(10):
        r.text(page)
    assert (time.perf_counter() - started) / 10 < 0.05


def test_the_process_wide_redactor_is_a_redactor() -> None:
    assert isinstance(REDACTOR, Redactor)
