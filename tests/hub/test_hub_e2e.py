"""The `tabsteward` command end to end: real hub processes, the real engine, real Chromium."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess

import fixture_server
import pytest
from hub_env import (
    BIN,
    Hub,
    chromium_on_port,
    private_env,
    read,
    start_hub,
    stop_hub,
    stop_hub_of,
)
from tabsteward.bridge.clients import client
from tabsteward.bridge.errors import BrowserError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

def test_cli_opens_a_page_and_snapshots_it(hub: Hub, site: fixture_server.Site) -> None:
    tabs = hub.cli("tabs")
    assert tabs.returncode == 0, tabs.stderr
    opened = hub.cli("open", site.url("form.html"))
    assert opened.returncode == 0, opened.stderr
    plain = hub.cli("snapshot")
    assert plain.returncode == 0, plain.stderr
    assert "@1" in plain.stdout
    as_json = hub.cli("snapshot", "--json")
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["text"].rstrip() == plain.stdout.rstrip()
    assert data["refs"]
    assert all("role" in ref for ref in data["refs"].values())
    listed = json.loads(hub.cli("tabs", "--json").stdout)
    assert [t["url"] for t in listed["tabs"]] == [site.url("form.html")]


def test_cli_text_of_a_ref_reads_the_whole_value_a_snapshot_cut_and_marked(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("longtext.html")).returncode == 0
    shot = json.loads(hub.cli("snapshot", "--json").stdout)
    log = next(r for r, i in shot["refs"].items() if i["name"] == "Output")
    line = next(ln for ln in shot["text"].splitlines() if f" {log} " in ln)
    assert line.endswith('" [+1,200 chars]')
    whole = hub.cli("text", log, "--json")
    assert whole.returncode == 0, whole.stderr
    data = json.loads(whole.stdout)
    assert data["format"] == "value"
    assert len(data["text"]) == 1500
    assert data["text"].startswith(shot["refs"][log]["value"])
    assert data["text"].endswith("DONE")
    plain = hub.cli("text", log)
    assert plain.stdout.rstrip().endswith("DONE")
    both = hub.cli("text", log, "--markdown")
    assert both.returncode == 2
    assert "nothing read" in both.stderr


def test_a_reply_larger_than_a_pipe_holds_reaches_the_reader_whole(
        hub: Hub, site: fixture_server.Site) -> None:
    # the console script ends its process without the interpreter's teardown: what it
    # prints must still all arrive, with the hub's exit status
    assert hub.cli("open", site.url("form.html")).returncode == 0
    shot = json.loads(hub.cli("snapshot", "--json").stdout)
    bio = next(r for r, i in shot["refs"].items() if i["role"] == "textbox" and
               i.get("name") == "About you")
    words = "".join(f"word{n:06d} " for n in range(8000))  # 88 kB
    assert hub.cli("fill", bio, words).returncode == 0
    whole = hub.cli("text", bio, "--json")
    assert whole.returncode == 0, whole.stderr
    assert len(whole.stdout) > 65536
    assert json.loads(whole.stdout)["text"] == words
    gone = hub.cli("click", "@9999")
    assert gone.returncode not in (0, 1, 2)
    assert "@9999" in gone.stderr


def test_cli_reports_usage_errors_with_exit_2(hub: Hub) -> None:
    wrong = hub.cli("snapsot")
    assert wrong.returncode == 2
    assert "did you mean snapshot" in wrong.stderr
    assert wrong.stdout == ""


def test_cli_reports_a_missing_element_with_its_exit_code(hub: Hub,
                                                          site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("form.html")).returncode == 0
    missing = hub.cli("click", "#no-such-element", "--json")
    assert missing.returncode not in (0, 1, 2)
    assert json.loads(missing.stdout)["ok"] is False


def test_cli_help_lists_the_real_tools(hub: Hub) -> None:
    shown = hub.cli("--help")
    assert shown.returncode == 0
    for name in ("open", "snapshot", "click", "tabs"):
        assert f"\n  {name} " in shown.stdout


def test_second_serve_is_refused_while_a_hub_runs(hub: Hub) -> None:
    second = subprocess.run([BIN, "serve", "--local-only"], env=hub.env, capture_output=True,
                            text=True, timeout=60)
    assert second.returncode != 0
    assert "already runs" in second.stderr
    assert second.stdout == ""
    assert hub.cli("tabs").returncode == 0  # the first one still serves


def test_a_hub_answers_anyone_a_ping_but_only_a_paired_agent_anything_else() -> None:
    env = private_env()
    token = env["TABSTEWARD_TOKEN"]  # the agent paired as "tests", which the hub is not given
    running = start_hub({k: v for k, v in env.items() if k != "TABSTEWARD_TOKEN"})
    try:
        sock = running.socket
        assert client.ping(sock) is True
        assert client.request({"op": "ping"}, sock)["ok"] is True
        whoami = client.request({"op": "whoami"}, sock, token)
        assert (whoami["ok"], whoami["agent"], whoami["name"]) == (True, "tests", "tests")
        with open(os.path.join(os.path.dirname(sock), "hub.token")) as f:
            host_token = f.read().strip()
        for given in ("", "not-a-token", host_token):
            for op in ({"op": "whoami"}, {"op": "tools"}, {"op": "call", "tool": "tabs"}):
                refused = client.request(op, sock, given)
                error = refused["error"]
                assert isinstance(error, dict)
                assert (refused["ok"], error["code"], error["details"]) == (
                    False, 3, {"unpaired": True}), (given, op)
        running.env["TABSTEWARD_TOKEN"] = token  # the CLI's, not the hub's
        assert running.cli("tabs").returncode == 0  # the paired agent is still served
    finally:
        assert stop_hub(running) == 0
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def test_sigterm_stops_the_hub_and_removes_its_files() -> None:
    running = start_hub(private_env())
    token = os.path.join(os.path.dirname(running.socket), "hub.token")
    assert os.path.exists(running.socket)
    assert os.path.exists(token)
    assert stop_hub(running) == 0
    assert not os.path.exists(running.socket)
    assert not os.path.exists(token)
    shutil.rmtree(os.path.dirname(running.env["HOME"]), ignore_errors=True)


def test_two_clis_finding_no_hub_start_exactly_one() -> None:
    env = private_env()
    folder = os.path.join(env["XDG_RUNTIME_DIR"], "tabsteward")
    sock = os.path.join(folder, "hub.sock")

    def ask(op: str) -> dict[str, object]:
        return client.request({"op": op}, sock, env["TABSTEWARD_TOKEN"])

    both = [subprocess.Popen([BIN, "tabs"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outcomes = [p.communicate(timeout=120) for p in both]
    try:
        assert [p.returncode for p in both] == [0, 0], outcomes
        with open(os.path.join(env["XDG_STATE_HOME"], "tabsteward", "hub.log")) as f:
            assert f.read().count("tabsteward hub starting") == 1
        pid = ask("ping")["pid"]
        assert isinstance(pid, int)
        gone = os.pidfd_open(pid)
        try:
            os.kill(pid, signal.SIGTERM)  # the person stops it (the shutdown op asks them)
            ready, _, _ = select.select([gone], [], [], 60)  # readable once it has exited
            assert ready, "the auto-started hub did not exit after SIGTERM"
        finally:
            os.close(gone)
        assert not os.path.exists(sock)
    finally:
        if os.path.exists(sock):
            stop_hub_of(env)  # never leave a hub behind
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def test_a_command_run_while_serve_gets_ready_waits_for_it_and_starts_no_other_hub() -> None:
    env = private_env()
    serving = subprocess.Popen([BIN, "serve", "--local-only"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        # at once: serve has the hub's lock but does not listen yet
        done = subprocess.run([BIN, "tabs"], env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert serving.poll() is None, "serve gave way to a hub the command started"
        sock = os.path.join(env["XDG_RUNTIME_DIR"], "tabsteward", "hub.sock")
        assert client.request({"op": "ping"}, sock)["pid"] == serving.pid
    finally:
        stop_hub(Hub(env, serving, ""))
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def test_hub_exits_non_zero_when_its_browser_goes_away() -> None:
    env = private_env()
    try:
        with chromium_on_port(f"{env['HOME']}/chromium") as (chromium, port):
            running = start_hub(env, "--cdp", f"http://127.0.0.1:{port}")
            assert running.cli("tabs").returncode == 0
            chromium.kill()
            assert running.proc.wait(60) == BrowserError.exit_code  # on its own, no signal
            stop_hub(running)
            assert not os.path.exists(running.socket)
            assert "lost the browser" in read(env, "serve.log")
    finally:
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def test_a_hub_that_cannot_attach_says_so_to_the_waiting_command_and_exits() -> None:
    env = private_env()
    try:
        running = start_hub(env, "--cdp", "http://127.0.0.1:9")  # listens at once
        running.env["TABSTEWARD_NO_AUTOSTART"] = "1"
        done = running.cli("tabs")  # told why, or (when it came late) that no hub runs
        assert (done.returncode, "127.0.0.1:9" in done.stderr) in (
            (BrowserError.exit_code, True), (4, False))
        assert running.proc.wait(60) == BrowserError.exit_code
        stop_hub(running)
        assert "could not attach" in read(env, "serve.log")
    finally:
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)
