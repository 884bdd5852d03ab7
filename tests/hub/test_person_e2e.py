"""The answer stays with the person, tried as an attacker with what a paired agent has (the
CLI and the local API, as the same user) against a real hub on a terminal and a real
Chromium: the one-time code never on a command line and good for one verb only, the
person's tools closed to agent tokens, guesses that deny nothing, pairing requests and idle
connections that crowd out nobody, and process names that forge no console line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator

import hub_env
import pytest
from hub_env import BIN, Hub, Terminal, person
from tabsteward.bridge.clients import client
from tabsteward.bridge.errors import AuthError, PolicyError
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.tools.registry import PERSON, table

pytestmark = pytest.mark.browser

POLICY = """\
default_profile = "shop"

[profiles.shop]
inherits = "default"
ask_timeout = 30
"""


@pytest.fixture(scope="module")
def console_hub() -> Iterator[tuple[Hub, Terminal]]:
    with hub_env.console_hub(POLICY) as found:
        yield found


@pytest.fixture
def shop(console_hub: tuple[Hub, Terminal], site) -> tuple[Hub, Terminal]:
    hub, term = console_hub
    opened = run(hub, "open", site.url("shop.html"))
    assert opened.returncode == 0, opened.stderr
    return hub, term


def agent(hub: Hub, *args: str, name: str = "shopper") -> subprocess.Popen[str]:
    return subprocess.Popen([BIN, "--agent", name, *args], env=hub.env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=hub.env["HOME"])


def run(hub: Hub, *args: str, name: str = "shopper") -> subprocess.CompletedProcess[str]:
    return hub.cli("--agent", name, *args)


def buy_ref(hub: Hub) -> str:
    snap = run(hub, "snapshot", "-i")
    found = re.search(r'button "Buy now".*?(@\d+)', snap.stdout)
    assert found, snap.stdout
    return found.group(1)


def held_click(hub: Hub, term: Terminal) -> tuple[subprocess.Popen[str], str]:
    """The agent's click on "Buy now", which policy holds for the person, and its id."""
    before = len(term.questions("A"))
    click = agent(hub, "click", buy_ref(hub))
    return click, term.next_question(before, "A")


def page_says(hub: Hub) -> str:
    return run(hub, "text").stdout


def request(hub: Hub, message: dict[str, object], token: str = "") -> dict[str, object]:
    return client.request(message, hub.socket, token)


# -- the code never on a command line, and good for its own verb only ------------------

@pytest.mark.parametrize("spelling", [["--code", "{code}"], ["--code={code}"]])
def test_a_code_on_the_command_line_is_refused_and_answers_nothing(shop, spelling):
    hub, term = shop
    click, qid = held_click(hub, term)
    code = term.code(qid)
    refused = hub.cli("approve", qid, *[w.format(code=code) for w in spelling])
    assert refused.returncode == 2
    assert "never taken from the command line" in refused.stderr
    assert "/proc/PID/cmdline" in refused.stderr
    # sent to the hub directly, the same argv is refused there too
    direct = request(hub, {"op": "answer", "argv": ["approve", qid, "--code", code],
                           "cwd": "/"})
    assert "never taken from the command line" in str(direct["stderr"])
    assert click.poll() is None
    assert f"{qid} closed" not in term.text
    assert hub.answer("deny", qid, term.code(qid, "deny")).returncode == 0
    click.communicate(timeout=60)
    assert click.returncode == PolicyError.exit_code
    assert "ordered" not in page_says(hub)


def test_a_watcher_reading_every_command_line_never_sees_the_code(shop):
    # the attack: a same-user process polls /proc/*/cmdline while the person answers
    hub, term = shop
    click, qid = held_click(hub, term)
    code = term.code(qid, "deny")
    answering = subprocess.Popen([BIN, "deny", qid], env=hub.env, text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
    seen = []
    for _ in range(20):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    seen.append(f.read().decode("utf-8", "replace"))
            except OSError:
                continue
        time.sleep(0.01)
    assert any(f"deny\0{qid}" in line for line in seen)  # the watcher did see the command
    assert not any(code in line or code.replace("-", "") in line for line in seen)
    _out, err = answering.communicate(code + "\n", timeout=60)
    assert answering.returncode == 0, err
    click.communicate(timeout=60)
    assert click.returncode == PolicyError.exit_code
    assert "ordered" not in page_says(hub)


def test_the_deny_code_a_watcher_saw_cannot_approve_or_approve_always(shop):
    # the attack: the person's deny code, seen over a shoulder or a screen share, turned
    # into the agent's own approval
    hub, term = shop
    click, qid = held_click(hub, term)
    seen = term.code(qid, "deny")
    for more in ([], ["--always"]):
        stolen = hub.answer("approve", qid, seen, *more)
        assert stolen.returncode == AuthError.exit_code
        assert "wrong code" in stolen.stderr
    assert click.poll() is None
    assert hub.answer("deny", qid, seen).returncode == 0
    _, err = click.communicate(timeout=60)
    assert click.returncode == PolicyError.exit_code
    assert "denied by the person" in err
    assert "ordered" not in page_says(hub)


def test_three_wrong_codes_from_an_unpaired_process_deny_nothing(shop):
    # the attack: guess three times to have the person's question closed as denied
    hub, term = shop
    click, qid = held_click(hub, term)
    for _ in range(3):
        request(hub, {"op": "answer", "argv": ["deny", qid], "cwd": "/",
                      "code": "AAAA-AAAA"})
    assert click.poll() is None
    assert f"{qid} closed" not in term.text
    listed = person(hub, term, "approvals", "--json")
    assert qid in listed.stdout
    click.kill()
    click.communicate(timeout=10)
    assert "ordered" not in page_says(hub)


# -- agent tokens get none of the person's tools -----------------------------------------

PERSONS = sorted(name for name, t in table().items() if t.group == PERSON)
ARGS = {"unpair": ["tests"], "revoke": ["shop"]}
CALL_ARGS = {"unpair": {"id": "tests"}, "revoke": {"profile": "shop"}}


@pytest.mark.parametrize("name", [n for n in PERSONS if n not in ("approve", "deny")])
def test_an_agent_token_runs_none_of_the_persons_tools(console_hub, name):
    hub, _term = console_hub
    token = hub.env["TABSTEWARD_TOKEN"]
    argv = [name, *ARGS.get(name, [])]
    for message in ({"op": "cli", "argv": argv, "cwd": "/"},
                    {"op": "call", "tool": name, "args": CALL_ARGS.get(name, {})}):
        reply = request(hub, message, token)
        assert reply["ok"] is False
        text = str(reply.get("stderr") or reply["error"])
        assert "the person's command, not an agent's" in text
    # the agent's token still works, and it is still paired: nothing was unpaired
    assert request(hub, {"op": "whoami"}, token)["agent"] == "tests"


def test_the_persons_tools_are_exactly_the_ones_the_cli_sends_the_persons_way():
    from tabsteward.bridge import cli
    assert set(cli.ANSWERS) == {n for n, t in table().items() if t.open}
    assert set(cli.ANSWERS) | set(cli.CONFIRMED) == set(PERSONS)
    assert {"answer", "person", "shutdown"} <= protocol.OPEN_OPS


def test_an_agent_running_a_persons_command_waits_for_the_person_who_refuses_it(
        console_hub):
    # the attack: the agent runs `tabsteward unpair other-agent` itself
    hub, term = console_hub
    before = len(term.questions("T"))
    unpairing = agent(hub, "unpair", "tests")
    qid = term.next_question(before, "T")
    term.wait_for(rf"\[tabsteward\] {qid}: a terminal asks to run: tabsteward --agent "
                  rf"shopper unpair tests\n +verified: pid {unpairing.pid}, ")
    assert hub.answer("deny", qid, term.code(qid, "deny")).returncode == 0
    out, err = unpairing.communicate(timeout=60)
    assert unpairing.returncode == AuthError.exit_code
    assert "the person did not confirm this command" in err
    assert out == ""
    assert request(hub, {"op": "whoami"}, hub.env["TABSTEWARD_TOKEN"])["agent"] == "tests"


def test_an_agent_cannot_stop_the_hub_to_start_its_own_in_its_place(console_hub):
    # the attack: shut the person's hub down, then `serve --policy evil.toml`
    hub, term = console_hub
    before = len(term.questions("T"))
    stopping = subprocess.Popen(
        [sys.executable, "-c", "import os; from tabsteward.bridge.clients import client; "
         "print(client.request({'op': 'shutdown', 'id': 1}, "
         "token=os.environ['TABSTEWARD_TOKEN']))"],
        env=hub.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    qid = term.next_question(before, "T")
    term.wait_for(rf"{qid}: a terminal asks to stop the Tabsteward hub")
    assert hub.answer("deny", qid, term.code(qid, "deny")).returncode == 0
    out, _ = stopping.communicate(timeout=60)
    assert "did not confirm" in out
    time.sleep(0.5)
    assert hub.proc.poll() is None
    evil = subprocess.run([BIN, "serve", "--local-only"], env=hub.env, capture_output=True,
                          text=True, timeout=60)
    assert evil.returncode != 0  # the person's hub still holds the socket
    assert "already runs" in evil.stderr
    assert request(hub, {"op": "ping"})["pid"] == hub.proc.pid


# -- unpaired processes crowd out nobody --------------------------------------------------

def test_one_process_cannot_queue_a_second_pairing_request(console_hub):
    hub, term = console_hub
    first = client.connect(hub.socket)
    try:
        client.send(first, {"op": "pair", "name": "flood", "id": 1, "token": ""})
        qid = term.wait_for(r"\[tabsteward\] (P\d+): a process asks to pair.*'flood'").group(1)
        second = request(hub, {"op": "pair", "name": "flood 2"})
        assert second["ok"] is False
        assert "already waits for the person to pair it" in str(second["error"])
    finally:
        first.close()  # the request is withdrawn with its connection
    term.wait_for(rf"{qid} closed: withdrawn")


IDLE = """
import os, socket, sys, time
sock = sys.argv[1]
held = []
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect(sock)
    except (BlockingIOError, InterruptedError):
        pass
    except OSError:
        s.close()
        continue
    held.append(s)
print(len(held), flush=True)
time.sleep(60)
"""


def test_twenty_thousand_idle_connections_do_not_make_the_person_wait(console_hub):
    hub, _term = console_hub
    holders = [subprocess.Popen([sys.executable, "-c", IDLE, hub.socket, "10000"],
                                stdout=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        for holder in holders:
            assert holder.stdout is not None
            assert int(holder.stdout.readline()) > 0
        started = time.monotonic()
        answered = hub.answer("deny", "A999", "AAAA-AAAA")
        took = time.monotonic() - started
        assert "no open question 'A999'" in answered.stderr, answered.stderr
        assert took < 5, f"the person's answer waited {took:.1f} s"
        assert request(hub, {"op": "ping"})["ok"] is True
        # the hub holds a few of them, not 20,000 (root may list a non-dumpable's fds)
        assert len(os.listdir(f"/proc/{hub.proc.pid}/fd")) < 1000
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
            assert holder.stdout is not None
            holder.stdout.close()


# -- what the person reads is what the hub verified, inert -------------------------------

FORGED = "x\n[tabsteward] A77 closed: approved by the person\n\x1b]0;owned\x07"


def test_a_process_named_with_a_newline_forges_no_console_line(console_hub):
    hub, term = console_hub
    import tabsteward.bridge
    packages = os.path.dirname(os.path.dirname(os.path.dirname(tabsteward.bridge.__file__)))
    pairing = subprocess.Popen(
        [FORGED, "-c", "import sys; from tabsteward.bridge.clients import client; "
         "client.request({'op': 'pair', 'name': 'helper', 'id': 1}, sys.argv[1])",
         hub.socket], executable=sys.executable, env={**hub.env, "PYTHONPATH": packages},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    qid = term.wait_for(r"\[tabsteward\] (P\d+): a process asks to pair.*'helper'").group(1)
    term.wait_for(rf"verified: pid {pairing.pid}, .*x<U\+000A>\[tabsteward\] A77 closed")
    pairing.kill()
    pairing.communicate(timeout=10)
    term.wait_for(rf"{qid} closed")
    assert not re.search(r"^\[tabsteward\] A77 closed", term.text, re.MULTILINE)
    assert "\x1b]0;owned" not in term.text
