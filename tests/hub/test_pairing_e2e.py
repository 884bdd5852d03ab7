"""Pairing end to end: an unknown agent's CLI waits until the person pairs it at the hub's
console; its token then lives in the real OS keyring (gnome-keyring on this D-Bus session,
see packaging/with-keyring.sh), and unpairing takes it away."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator

import pytest
from hub_env import BIN, Hub, Terminal, private_env, start_hub_on_terminal, stop_hub
from hub_env import person as as_person
from tabsteward.bridge.errors import AuthError
from tabsteward.bridge.secrets import credentials

pytestmark = pytest.mark.browser


def _keyring_ready() -> None:
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        pytest.fail("no D-Bus session: run the suite through packaging/with-keyring.sh "
                    "(bash packaging/bootstrap.sh test does)")


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Hub, Terminal]]:
    """A hub on a terminal, and an agent name of its own (nothing paired yet)."""
    _keyring_ready()
    monkeypatch.delenv("TABSTEWARD_TOKEN")  # this test process reads the keyring too
    env = private_env()
    env.pop("TABSTEWARD_TOKEN")
    env["TABSTEWARD_NAME"] = f"pairing test {uuid.uuid4().hex[:8]}"
    hub, term = start_hub_on_terminal(env)
    yield hub, term
    credentials.forget(env["TABSTEWARD_NAME"])
    stop_hub(hub)
    term.close()
    shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def pairing(hub: Hub, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([BIN, *args], env=hub.env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=hub.env["HOME"])


def question(term: Terminal) -> str:
    return term.wait_for(r"\[tabsteward\] (P\d+): a process asks to pair").group(1)


def test_an_unknown_agent_waits_until_the_person_pairs_it_then_uses_its_keyring_token(person):
    hub, term = person
    name = hub.env["TABSTEWARD_NAME"]
    first = pairing(hub, "tabs")
    qid = question(term)
    assert name in term.text
    # what the agent says it is, apart from what the hub verified of its process
    assert re.search(rf"{qid}: a process asks to pair with the hub to use your browser; "
                     rf"it says it is '{name}'\n +verified: pid {first.pid}, program "
                     rf"\S*python\S*, command .*tabsteward tabs, in {hub.env['HOME']}\n",
                     term.text), term.text
    # the person's own terminal needs no pairing to see and answer the question
    listed = json.loads(as_person(hub, term, "approvals", "--json").stdout)["approvals"]
    assert [(q["id"], q["kind"]) for q in listed] == [(qid, "pair")]
    assert listed[0]["process"]["pid"] == first.pid
    assert hub.answer("approve", qid, term.code(qid)).returncode == 0
    _, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert "not paired; asking the person to pair" in err
    token = credentials.load(name)
    assert token
    agents = json.loads(as_person(hub, term, "agents", "--json").stdout)["agents"]
    assert name in [a["name"] for a in agents]
    # the next command reads the token from the keyring and asks nobody
    again = hub.cli("tabs")
    assert again.returncode == 0, again.stderr
    assert "pair" not in again.stderr


def test_an_unpaired_agent_must_pair_again_and_a_denial_leaves_it_out(person):
    hub, term = person
    name = hub.env["TABSTEWARD_NAME"]
    first = pairing(hub, "tabs")
    qid = question(term)
    hub.answer("approve", qid, term.code(qid))
    first.communicate(timeout=60)
    listed = json.loads(as_person(hub, term, "agents", "--json").stdout)["agents"]
    agent_id = next(a["id"] for a in listed if a["name"] == name)
    assert as_person(hub, term, "unpair", agent_id).returncode == 0
    second = pairing(hub, "tabs")
    again = term.next_question(1, "P")
    assert again != qid
    assert hub.answer("deny", again, term.code(again, "deny")).returncode == 0
    _, err = second.communicate(timeout=60)
    assert second.returncode == AuthError.exit_code
    assert f"{name!r} was not paired: denied by the person" in err
    assert credentials.load(name) is None  # the revoked token was forgotten


def test_a_token_the_hub_does_not_know_is_refused_without_asking_anyone(person):
    hub, term = person
    env = dict(hub.env, TABSTEWARD_TOKEN="not-a-token")
    done = subprocess.run([BIN, "tabs"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == AuthError.exit_code
    assert "does not accept the token in TABSTEWARD_TOKEN" in done.stderr
    assert "asks to pair" not in term.text


def test_the_native_hosts_token_is_no_agent_token(person):
    hub, _ = person
    with open(os.path.join(os.path.dirname(hub.socket), "hub.token")) as f:
        host_token = f.read().strip()
    env = dict(hub.env, TABSTEWARD_TOKEN=host_token)
    done = subprocess.run([BIN, "tabs"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == AuthError.exit_code
    assert "does not accept the token" in done.stderr
