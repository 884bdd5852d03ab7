"""What the model sees of a page: capped text, the refs it may name, and what was cut."""

from __future__ import annotations

import re

from tabsteward.bridge.agent.observe import Candidate, cut_lines, observe
from tabsteward.bridge.engine.snapshot import REF, TEXT, Line, build

URL = "https://shop.test/"


def snapshot(lines: list[Line]) -> tuple[str, dict[str, object]]:
    built = build(lines, title="Shop", url=URL, new_refs=set(), interactive=False,
                  max_chars=None, notes=[])
    return built.text, dict(built.refs)


def buttons(n: int, *, disabled: set[int] | None = None) -> list[Line]:
    off = disabled or set()
    return [Line(0, REF, "button", f"B{i}", i, states="disabled" if i in off else "")
            for i in range(1, n + 1)]


def shown_refs(text: str) -> list[str]:
    return re.findall(r"(?<= )@\d+(?= |$)", text, re.MULTILINE)


def test_every_ref_of_a_small_page_is_a_candidate_in_page_order() -> None:
    text, refs = snapshot([Line(0, REF, "textbox", "Search", 3, value="socks"),
                           Line(0, REF, "button", "Go", 1),
                           Line(0, REF, "checkbox", "Wool", 2, states="checked")])
    obs = observe(URL, "Shop", text, refs)
    assert list(obs.candidates) == ["@3", "@1", "@2"]
    assert obs.candidates["@3"] == Candidate("@3", "textbox", "Search", (), "socks")
    assert obs.candidates["@2"].states == ("checked",)
    assert obs.text == text
    assert (obs.cut_candidates, obs.cut_chars) == (0, 0)


def test_candidates_are_capped_to_the_first_ones_in_page_order() -> None:
    text, refs = snapshot(buttons(10))
    obs = observe(URL, "Shop", text, refs, max_candidates=4)
    assert list(obs.candidates) == ["@1", "@2", "@3", "@4"]
    assert obs.cut_candidates == 6


def test_enabled_elements_are_preferred_over_disabled_ones_under_the_cap() -> None:
    text, refs = snapshot(buttons(6, disabled={1, 2}))
    obs = observe(URL, "Shop", text, refs, max_candidates=4)
    assert list(obs.candidates) == ["@3", "@4", "@5", "@6"]


def test_disabled_elements_fill_the_cap_when_room_is_left() -> None:
    text, refs = snapshot(buttons(4, disabled={2}))
    obs = observe(URL, "Shop", text, refs, max_candidates=10)
    assert list(obs.candidates) == ["@1", "@2", "@3", "@4"]
    assert obs.candidates["@2"].disabled


def test_refs_not_offered_lose_their_mark_in_the_text() -> None:
    text, refs = snapshot(buttons(5))
    obs = observe(URL, "Shop", text, refs, max_candidates=2)
    assert shown_refs(obs.text) == ["@1", "@2"]
    assert '- button "B5"' in obs.text.split("\n")


def test_text_is_cut_on_a_line_boundary_and_the_cut_is_counted() -> None:
    text, refs = snapshot(buttons(50))
    obs = observe(URL, "Shop", text, refs, max_chars=200)
    assert len(obs.text) <= 200
    assert text.startswith(obs.text + "\n")
    assert obs.cut_chars == len(text) - len(obs.text)


def test_refs_whose_lines_were_cut_are_dropped() -> None:
    text, refs = snapshot(buttons(50))
    obs = observe(URL, "Shop", text, refs, max_chars=200)
    assert obs.candidates
    assert all(f" {ref}" in obs.text for ref in obs.candidates)
    assert "@50" not in obs.candidates
    assert obs.cut_candidates == 50 - len(obs.candidates)


def test_a_first_line_longer_than_the_cap_leaves_no_text() -> None:
    assert cut_lines("x" * 50 + "\nshort", 10) == ""
    assert cut_lines("ab\ncd", 5) == "ab\ncd"
    assert cut_lines("ab\ncd\nef", 5) == "ab\ncd"


def test_malformed_refs_entries_are_skipped() -> None:
    text, refs = snapshot(buttons(6))
    refs["@1"] = "not a dict"
    refs["@2"] = {"name": "no role"}
    refs["@3"] = {"role": "button", "name": 7}
    refs["@4"] = {"role": "button", "name": "B4", "states": "disabled"}
    refs["@5"] = {"role": "button", "name": "B5", "value": 3}
    refs["junk"] = {"role": "button", "name": "x"}
    obs = observe(URL, "Shop", text, refs)
    assert list(obs.candidates) == ["@6"]
    assert shown_refs(obs.text) == ["@6"]


def test_a_ref_table_entry_with_no_line_in_the_text_is_not_offered() -> None:
    text, refs = snapshot(buttons(2))
    refs["@9"] = {"role": "button", "name": "ghost"}
    obs = observe(URL, "Shop", text, refs)
    assert list(obs.candidates) == ["@1", "@2"]
    assert obs.cut_candidates == 1


def test_ref_lookalikes_in_page_text_and_names_are_not_refs() -> None:
    text, refs = snapshot([Line(1, TEXT, name="press @2 now"),
                           Line(0, REF, "link", "mail @2 here", 1),
                           Line(0, REF, "button", 'say "hi" @1', 2)])
    obs = observe(URL, "Shop", text, refs)
    assert list(obs.candidates) == ["@1", "@2"]
    assert obs.candidates["@2"].name == 'say "hi" @1'
    assert "press @2 now" in obs.text


def test_the_digest_changes_with_the_page_and_the_url_only() -> None:
    text, refs = snapshot(buttons(3))
    other, other_refs = snapshot(buttons(4))
    first = observe(URL, "Shop", text, refs)
    assert observe(URL, "Renamed", text, refs).digest == first.digest
    assert observe(URL, "Shop", other, other_refs).digest != first.digest
    assert observe(URL + "next", "Shop", text, refs).digest != first.digest
    assert re.fullmatch(r"[0-9a-f]{64}", first.digest)
