"""Text shown to people is inert: control, escape, bidi and format characters, lone
surrogates and line separators from processes and pages become visible escapes, on the
console, in the person's CLI output and in the panel's labels."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tabsteward.bridge.hub.approvals import Question
from tabsteward.bridge.hub.console import question_text
from tabsteward.bridge.records import peer
from tabsteward.bridge.shown import shown
from tabsteward.bridge.tools.activity import line

FORGED = "x\n[tabsteward] A1 closed: approved by the person\n"


@pytest.mark.parametrize(("raw", "inert"), [
    pytest.param("a\nb", "a<U+000A>b", id="newline"),
    pytest.param("a\rb", "a<U+000D>b", id="carriage return"),
    pytest.param("\x1b]0;owned\x07", "<U+001B>]0;owned<U+0007>", id="OSC title"),
    pytest.param("\x1b[2K\x1b[1A", "<U+001B>[2K<U+001B>[1A", id="CSI erase and move"),
    pytest.param("\x9b2K", "<U+009B>2K", id="C1 CSI"),
    pytest.param("\u0085", "<U+0085>", id="C1 next line"),
    pytest.param("abc\u202edcba", "abc<U+202E>dcba", id="bidi override"),
    pytest.param("pay\u200b", "pay<U+200B>", id="zero width space"),
    pytest.param("a\u2028b", "a<U+2028>b", id="line separator"),
    pytest.param("\ud800", "<U+D800>", id="lone surrogate"),
    pytest.param("Café — ✓ 価格", "Café — ✓ 価格", id="ordinary text stays"),
])
def test_shown_escapes_what_could_move_recolour_or_reorder_a_terminal(raw: str,
                                                                      inert: str) -> None:
    assert shown(raw) == inert


def test_shown_keeps_newlines_only_when_asked_for_lines() -> None:
    assert shown("one\ntwo\x1b", lines=True) == "one\ntwo<U+001B>"


@given(st.text())
def test_shown_leaves_no_control_or_format_character(text: str) -> None:
    import unicodedata
    out = shown(text)
    assert all(unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in out)
    out.encode("utf-8")  # no lone surrogate left: it can be written anywhere


def test_a_process_named_with_a_newline_forges_no_line_on_the_console() -> None:
    # the attack: argv[0] carries "\n[tabsteward] A1 closed: approved by the person"
    q = Question("P1", "pair", "helper", "use your browser", timeout=60,
                 process={"pid": 42, "exe": "/usr/bin/python3", "command": FORGED,
                          "cwd": "/tmp/\x1b]0;x\x07"})
    text = question_text(q)
    assert "\n[tabsteward] A1 closed" not in text
    assert "x<U+000A>[tabsteward] A1 closed" in text
    assert "\x1b" not in text
    lines = text.strip("\n").splitlines()
    assert lines[0].startswith("[tabsteward] P1: a process asks to pair")
    assert all(not ln.startswith("[tabsteward]") for ln in lines[1:])


def test_an_agent_or_page_string_in_an_action_question_forges_no_line() -> None:
    q = Question("A2", "ask", "agent\x1b[2K", f"click {FORGED}", timeout=60,
                 target="button \u202eredro")
    text = question_text(q)
    assert all(not ln.startswith("[tabsteward] A1") for ln in text.splitlines())
    assert "x<U+000A>[tabsteward] A1 closed" in text
    assert "<U+001B>[2K" in text


def test_the_console_shows_one_code_per_answer_and_none_on_a_command_line() -> None:
    q = Question("A3", "ask", "shopper", "click Buy", timeout=60, created=time.time())
    text = question_text(q)
    for code in q.codes.values():
        assert text.count(code) == 1
    assert "--code" not in text
    assert f"tabsteward approve A3 --always  code {q.codes['always']}" in text
    pair = question_text(Question("P4", "pair", "x", "use your browser", timeout=60))
    assert "--always" not in pair


def test_verified_facts_are_described_apart_from_the_claimed_name() -> None:
    text = peer.describe({"pid": 7, "exe": "/usr/bin/evil\n", "cwd": "/home/a",
                          "command": "evil --x"})
    assert text == "pid 7, program /usr/bin/evil<U+000A>, command evil --x, in /home/a"
    assert peer.describe({}) == "a process the hub could not identify"


def test_peer_facts_come_from_the_kernel_for_a_live_process() -> None:
    import os
    facts = peer.facts(os.getpid())
    assert facts["pid"] == os.getpid()
    assert os.path.exists(facts["exe"])
    assert facts["cwd"] == os.getcwd()
    assert peer.facts(None) == {}


def test_an_activity_line_with_escape_sequences_prints_them_inert() -> None:
    from tabsteward.bridge.records.activity import Entry
    entry = Entry(id=1, ts=time.time(), kind="request", agent="a\x1b]0;t\x07", tool="open",
                  summary="page \x1b[2K\nforged", reason="")
    out = line(entry)
    assert "\x1b" not in out
    assert "\n" not in out
