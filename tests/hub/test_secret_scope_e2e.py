"""A password an agent typed, on a real hub (on a terminal) and a real Chromium: the pages
that agent reads afterwards keep their words ("The tiger is asleep." after typing the
password tiger), while the hub's records (the activity log and its export, the hub log,
the console) never hold it, and another agent reads its own pages as they are and none of
the first agent's records. A question for the person quotes the page's words without
it too."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import hub_env
import pytest
from hub_env import BIN, Hub, Terminal, person
from tabsteward.bridge.clients import client

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SECRET = "tiger"
# typed on the settings page: into an API key field, a security answer, a text field the
# page shows as dots, and key by key into a password field
OTHERS = ("PANTHER991", "Rosebud42", "73915", "Koala9", "K o a l a 9")
POLICY = """\
default_profile = "typing"

[profiles.typing]
inherits = "trusted"
deny_sites = []
ask_timeout = 30

[profiles.typing.rules]
credentials = "allow"
purchase = "ask"
"""


def run(hub: Hub, *args: str, token: str | None = None) -> subprocess.CompletedProcess[str]:
    env = hub.env if token is None else {**hub.env, "TABSTEWARD_TOKEN": token}
    done = subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=120,
                          cwd=hub.env["HOME"])
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def ref(snapshot: str, role: str, name: str) -> str:
    found = re.search(rf'{role} "{name}".*?(@\d+)', snapshot)
    assert found, snapshot
    return found.group(1)


class Typed:
    """The hub once the agent "tests" typed the password tiger on the login page, and what
    it read afterwards."""

    def __init__(self, hub: Hub, term: Terminal, site) -> None:
        self.hub, self.term = hub, term
        run(hub, "open", site.url("agent-login.html"))
        form = run(hub, "snapshot", "-i").stdout
        self.filled = run(hub, "fill", ref(form, "textbox", "Password"), SECRET).stdout
        self.login = run(hub, "snapshot").stdout
        run(hub, "open", site.url("agent-keys.html"))
        keys = run(hub, "snapshot", "-i").stdout
        run(hub, "fill", ref(keys, "textbox", "API key"), "sk-live-PANTHER991")
        run(hub, "fill", ref(keys, "textbox", "Security answer"), "Rosebud42")
        self.door = run(hub, "fill", ref(keys, "textbox", "Door code"), "73915").stdout
        self.pressed = run(hub, "press", "--target", ref(keys, "textbox", "Vault password"),
                           "K o a l a 9").stdout
        self.keys = run(hub, "snapshot").stdout
        run(hub, "open", site.url("asleep.html"))
        note = ref(run(hub, "snapshot", "-i").stdout, "textbox", "Note")
        run(hub, "fill", note, f"the {SECRET} again")  # the agent's own words, not a password
        self.snapshot = run(hub, "snapshot").stdout
        self.text = run(hub, "text").stdout


@pytest.fixture(scope="module")
def typed(site) -> Iterator[Typed]:
    with hub_env.console_hub(POLICY) as (hub, term):
        yield Typed(hub, term, site)


def test_the_typing_agent_reads_a_later_page_with_the_same_word_as_it_is(typed):
    assert "The tiger is asleep." in typed.text
    assert "The tiger is asleep." in typed.snapshot
    assert "[redacted]" not in typed.text + typed.snapshot


def test_the_password_fields_own_value_stays_masked(typed):
    assert SECRET not in typed.filled
    assert re.search(r'textbox "Password".*\u2022\u2022\u2022\u2022', typed.login), typed.login
    assert SECRET not in typed.login


def test_a_field_the_page_shows_as_dots_stays_masked_like_a_password(typed):
    assert "73915" not in typed.door + typed.keys
    assert re.search(r'textbox "Door code".*\u2022\u2022\u2022\u2022', typed.keys), typed.keys


def test_keys_pressed_into_a_field_are_counted_never_quoted(typed):
    assert "pressed 6 characters" in typed.pressed, typed.pressed
    assert "Koala9" not in typed.pressed
    assert "K o a l a" not in typed.pressed


def test_a_text_field_the_agent_typed_the_same_word_into_shows_its_value_to_that_agent(typed):
    assert re.search(r'textbox "Note".*the tiger again', typed.snapshot), typed.snapshot


def test_the_person_reading_the_activity_log_and_its_export_never_sees_the_password(typed):
    shown = person(typed.hub, typed.term, "--json", "activity", "--limit", "200")
    assert shown.returncode == 0, shown.stderr
    entries = json.loads(shown.stdout)["entries"]
    assert any(e["tool"] == "fill" for e in entries)  # the typing is logged ...
    assert any("[redacted]" in (e.get("outcome") or "") for e in entries)  # ... and read
    assert SECRET not in shown.stdout
    export = person(typed.hub, typed.term, "activity", "--export", "activity.jsonl")
    assert export.returncode == 0, export.stderr
    assert SECRET not in (Path(typed.hub.env["HOME"]) / "activity.jsonl").read_text()


def test_keys_secrets_and_masked_values_are_in_no_record_of_the_hub(typed):
    # an API key, a security answer, a field shown as dots, a password pressed key by key
    assert any(e["tool"] == "press" for e in json.loads(person(
        typed.hub, typed.term, "--json", "activity", "--limit", "200").stdout)["entries"])
    export = person(typed.hub, typed.term, "activity", "--export", "keys.jsonl")
    assert export.returncode == 0, export.stderr
    records = (Path(typed.hub.env["HOME"]) / "keys.jsonl").read_text() + \
        (Path(typed.hub.env["XDG_STATE_HOME"]) / "tabsteward" / "hub.log").read_text() + \
        typed.term.text
    for secret in OTHERS:
        assert secret not in records, secret


def test_the_hub_log_and_the_console_never_show_the_password(typed):
    log = Path(typed.hub.env["XDG_STATE_HOME"]) / "tabsteward" / "hub.log"
    assert "fill (agent tests) done" in log.read_text()
    assert SECRET not in log.read_text()
    assert SECRET not in typed.term.text


def test_a_second_agent_reads_its_own_page_with_the_same_word_as_it_is(typed, site):
    # the page's own words are the page's: another agent reads them as the page shows them
    reader = hub_env.pair(typed.hub.env, "reader")
    run(typed.hub, "open", site.url("asleep.html"), token=reader)
    assert "The tiger is asleep." in run(typed.hub, "text", token=reader).stdout
    assert "Members" not in run(typed.hub, "tabs", token=reader).stdout  # not the login tab


def test_a_second_agent_asking_for_the_activity_log_to_learn_the_password_is_refused(typed):
    # the attack: the other agent reads the hub's records of the first agent's typing
    reader = hub_env.pair(typed.hub.env, "snooper")
    reply = client.request({"op": "call", "tool": "activity", "args": {}}, typed.hub.socket,
                           reader)
    assert reply["ok"] is False
    assert "the person's command, not an agent's" in reply["error"]["message"]
    assert SECRET not in json.dumps(reply)


def test_a_question_on_the_console_quotes_the_page_without_the_typed_password(typed):
    # the person's console (and panel) is a record: the page's words it quotes hold the
    # typed password only as [redacted]
    hub, term = typed.hub, typed.term
    buy = ref(run(hub, "snapshot", "-i").stdout, "button", "Buy the tiger plush")
    before = len(term.questions("A"))
    click = subprocess.Popen([BIN, "click", buy], env=hub.env, text=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=hub.env["HOME"])
    qid = term.next_question(before, "A")
    term.wait_for(rf"\[tabsteward\] {qid}: .*Buy the \[redacted\] plush")
    assert hub.answer("deny", qid, term.code(qid, "deny")).returncode == 0
    _out, err = click.communicate(timeout=60)
    assert click.returncode != 0, err
    assert SECRET not in term.text
