"""Attacks through the keyboard, page-sent forms, eval grants and redirects, tried as an agent
would (the CLI, as the paired agent) against a real hub on a terminal and its Chromium with
the default profile. The person denies each question; the fixture servers record every
request, so each test proves the page sent nothing."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import quote

import hub_env
import pytest
from fixture_server import Site
from hub_env import BIN, Hub, Terminal
from tabsteward.bridge.errors import PolicyError

pytestmark = pytest.mark.browser

POLICY = """\
default_profile = "shop"

[profiles.shop]
inherits = "default"
ask_timeout = 5
"""
QUESTION = r"\[tabsteward\] ([ABP]\d+): agent"


@pytest.fixture(scope="module")
def console_hub() -> Iterator[tuple[Hub, Terminal]]:
    with hub_env.console_hub(POLICY) as found:
        yield found


def run(hub: Hub, *args: str) -> subprocess.CompletedProcess[str]:
    return hub.cli("--agent", "attacker", *args)


def start(hub: Hub, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([BIN, "--agent", "attacker", *args], env=hub.env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=hub.env["HOME"])


def opened(hub: Hub, url: str) -> None:
    done = run(hub, "open", url)
    assert done.returncode == 0, done.stderr


def ref(hub: Hub, role: str, label: str) -> str:
    snap = run(hub, "snapshot", "-i")
    assert snap.returncode == 0, snap.stderr
    found = re.search(rf'{role} "{re.escape(label)}".*?(@\d+)', snap.stdout)
    assert found, snap.stdout
    return found.group(1)


def asked(term: Terminal) -> int:
    return len(re.findall(QUESTION, term.text))


def wait_question(term: Terminal, before: int) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ids = re.findall(QUESTION, term.text)
        if len(ids) > before:
            return ids[-1]
        time.sleep(0.05)
    raise AssertionError(f"no new question on the console:\n{term.text}")


def denied(hub: Hub, term: Terminal, *command: str) -> tuple[str, str]:
    """Run an agent's command that policy must hold for the person; the person denies it.
    Returns what the question said and the agent's error."""
    before = asked(term)
    proc = start(hub, *command)
    qid = wait_question(term, before)
    said = term.wait_for(rf"{qid}: agent '[^']*' wants to (.*)").group(1)
    answer = hub.answer("deny", qid, term.code(qid, "deny"))
    assert answer.returncode == 0, answer.stderr
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == PolicyError.exit_code, err
    assert "denied by the person" in err
    return said, err


def test_tab_tab_tab_enter_onto_place_order_is_asked_and_nothing_is_posted(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("checkout.html"))
    before = len(site.posts())
    said, err = denied(hub, term, "press", "Tab Tab Tab Enter")
    assert 'button "Place order $49.99"' in said
    assert "purchase" in said
    assert "pressed Tab, Tab, Tab; the rest was not" in err
    assert site.posts()[before:] == []


def test_tab_tab_tab_space_onto_place_order_is_asked_and_nothing_is_posted(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("checkout.html"))
    before = len(site.posts())
    said, _ = denied(hub, term, "press", "Tab Tab Tab Space")
    assert 'press "Space" in button "Place order $49.99"' in said
    assert site.posts()[before:] == []


def test_shift_tab_then_tab_enter_in_a_chat_is_asked_and_nothing_is_sent(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("chat.html"))
    typed = run(hub, "type", ref(hub, "textbox", "Message #general"), "hello")
    assert typed.returncode == 0, typed.stderr
    moved = run(hub, "press", "Shift+Tab")  # onto "Attach file", a harmless button
    assert moved.returncode == 0, moved.stderr
    before = len(site.posts())
    said, _ = denied(hub, term, "press", "Tab Enter")
    assert 'textbox "Message #general"' in said
    assert "sending" in said or "send" in said
    assert site.posts()[before:] == []


def test_enter_with_no_target_in_a_cross_origin_frames_form_is_asked_and_nothing_is_posted(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("paypage.html"))
    clicked = run(hub, "click", ref(hub, "textbox", "Coupon"))
    assert clicked.returncode == 0, clicked.stderr
    before = len(site.posts())
    said, _ = denied(hub, term, "press", "Enter")
    assert 'textbox "Coupon"' in said
    assert "in a frame from 127.0.0.2" in said
    assert site.posts()[before:] == []


def test_typing_a_line_break_into_a_checkout_field_is_asked_and_nothing_is_posted(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("checkout.html"))
    before = len(site.posts())
    said, err = denied(hub, term, "type", ref(hub, "textbox", "Coupon"), "x\n")
    assert 'press "Enter" in textbox "Coupon"' in said
    assert "typed 1 character; the rest was not" in err
    assert site.posts()[before:] == []


def test_a_page_that_submits_its_form_on_select_is_reported_in_the_result_and_the_log(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("autosubmit.html"))
    done = run(hub, "select", ref(hub, "combobox", "Newsletter"), "Daily")
    assert done.returncode == 0, done.stderr
    note = f"the page sent a form to {site.origin}/prefs right after this action"
    assert note in done.stdout
    log = hub_env.person(hub, term, "activity", "--kind", "outcome", "--json")
    entries = json.loads(log.stdout)["entries"]
    assert note in [e for e in entries if e["tool"] == "select"][-1]["outcome"]


def test_allowing_one_blocked_script_once_does_not_allow_another(
        console_hub: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = console_hub
    opened(hub, site.url("checkout.html"))
    before = asked(term)
    first = run(hub, "eval", "6*7")
    assert first.returncode == PolicyError.exit_code
    qid = wait_question(term, before)
    assert hub.answer("approve", qid, term.code(qid)).returncode == 0
    other = run(hub, "eval", "document.forms[0].submit(), 1")
    assert other.returncode == PolicyError.exit_code
    assert f"shown it as {qid}" not in other.stderr  # a question of its own
    same = run(hub, "eval", "6*7")
    assert same.returncode == 0, same.stderr
    assert same.stdout.strip() == "42"
    assert not [p for p in site.posts() if p.path == "/order"]


DENY_OTHER = """\
default_profile = "strict"

[profiles.strict]
inherits = "default"
ask_timeout = 5
deny_sites = ["file:", "private", "chrome:", "127.0.0.2"]
"""


def test_a_redirect_to_a_denied_host_never_reaches_its_server(site: Site) -> None:
    land = site.other("land.html?secret=1")
    bounce = site.url(f"redirect?to={quote(land, safe='')}")
    with hub_env.console_hub(DENY_OTHER) as (hub, term):
        opened(hub, site.url("checkout.html"))
        done = run(hub, "open", bounce)
        assert done.returncode == PolicyError.exit_code, done.stderr
        assert f"stopped a redirect to {land} before it was sent" in done.stderr
        log = hub_env.person(hub, term, "activity", "--kind", "decision", "--json")
        entries = json.loads(log.stdout)["entries"]
        stop = [e for e in entries if "stopped before the request was sent" in
                (e["reason"] or "")]
        assert stop
        assert stop[-1]["decision"] == "block"
    assert site.received("127.0.0.2", "/land.html") == []
    assert site.received("127.0.0.1", "/redirect") != []
