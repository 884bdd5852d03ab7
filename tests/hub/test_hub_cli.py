"""The `tabsteward` entry point: what it prints and which exit status it returns."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from hub_env import stop_hub_of
from tabsteward.bridge import cli
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.records import locate
from tabsteward.bridge.records.agents import Agents
from tabsteward.bridge.secrets import credentials

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


@contextlib.contextmanager
def hub_in_thread(handler: Handler) -> Iterator[LocalServer]:
    """A real server on the test's socket, its loop in a thread (the CLI blocks)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = LocalServer(handler)
    try:
        asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
        yield server
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(10)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def replying(reply: dict[str, Any], seen: list[dict[str, Any]] | None = None) -> Handler:
    async def handler(request: dict[str, Any]) -> dict[str, Any]:
        if seen is not None:
            seen.append(request)
        return dict(reply)
    return handler


def test_command_goes_to_the_hub_with_cwd_and_agent(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TABSTEWARD_AGENT", "ci-bot")
    seen: list[dict[str, Any]] = []
    with hub_in_thread(replying({"ok": True, "exit": 0, "stdout": "t1 ok\n", "stderr": ""},
                                seen)):
        assert cli.main(["tabs", "--json"]) == 0
    assert capsys.readouterr().out == "t1 ok\n"
    assert seen == [{"op": "cli", "argv": ["tabs", "--json"], "cwd": os.getcwd(),
                     "agent": "ci-bot"}]


def test_exit_status_and_stderr_come_from_the_hub(capsys: pytest.CaptureFixture[str]) -> None:
    reply = {"ok": False, "exit": 6, "stdout": "", "stderr": "error: no element @9\n"}
    with hub_in_thread(replying(reply)):
        assert cli.main(["click", "@9"]) == 6
    assert capsys.readouterr().err == "error: no element @9\n"


@pytest.mark.parametrize("given", ["stale", "the hub's token file"])
def test_a_token_in_the_environment_that_the_hub_refuses_exits_3_without_asking_to_pair(
        given: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[dict[str, Any]] = []
    with hub_in_thread(replying({"ok": True}, seen)) as server:
        monkeypatch.setenv("TABSTEWARD_TOKEN", server.token if given != "stale" else given)
        assert cli.main(["tabs"]) == 3
    assert "does not accept the token in TABSTEWARD_TOKEN" in capsys.readouterr().err
    assert seen == []  # refused before the hub ran anything, and no pairing was asked


@pytest.mark.parametrize("kept", [None, "revoked-token"])
def test_an_unpaired_cli_asks_the_hub_to_pair_then_runs_the_command_with_its_new_token(
        kept: str | None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TABSTEWARD_TOKEN")
    monkeypatch.setenv("TABSTEWARD_NAME", "Claude Code in ~/shop")
    keyring: dict[str, str] = {} if kept is None else {"Claude Code in ~/shop": kept}
    forgotten: list[str] = []
    monkeypatch.setattr(credentials, "load", keyring.get)
    monkeypatch.setattr(credentials, "save", keyring.__setitem__)
    monkeypatch.setattr(credentials, "forget", forgotten.append)
    seen: list[dict[str, Any]] = []

    async def person_approves(request: dict[str, Any]) -> dict[str, Any]:
        seen.append(request)
        if request["op"] == "pair":  # what the hub does once the person approved
            agent, token = Agents().add(request["name"])
            return {"ok": True, "token": token, "agent": agent.id, "name": agent.name}
        return {"ok": True, "exit": 0, "stdout": "t1 ok\n", "stderr": ""}

    with hub_in_thread(person_approves):
        assert cli.main(["tabs"]) == 0
    out, err = capsys.readouterr()
    assert out == "t1 ok\n"
    assert "asking the person to pair 'Claude Code in ~/shop'" in err
    assert [r["op"] for r in seen] == ["pair", "cli"]  # the first cli was refused unread
    assert seen[0]["name"] == "Claude Code in ~/shop"
    assert keyring["Claude Code in ~/shop"] != kept
    assert forgotten == ([] if kept is None else ["Claude Code in ~/shop"])


def test_no_arguments_prints_usage_and_exits_2_without_a_hub(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: tabsteward")
    assert "no tool given" in err
    assert not os.path.exists(locate.socket_path())


def test_help_without_a_hub_lists_the_tools_and_starts_no_hub(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "\n  snapshot " in out
    assert not os.path.exists(locate.socket_path())
    assert cli.main(["snapshot", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: tabsteward snapshot")


def test_help_from_an_unpaired_agent_needs_no_pairing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TABSTEWARD_TOKEN")
    monkeypatch.setattr(credentials, "load", lambda name: None)
    seen: list[dict[str, Any]] = []
    with hub_in_thread(replying({"ok": True}, seen)):
        assert cli.main(["click", "--help"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: tabsteward click")
    assert "pair" not in err
    assert seen == []


def test_version_is_printed_without_a_hub(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("tabsteward ")


@pytest.mark.timeout(90)
def test_a_hub_that_holds_the_lock_but_never_answers_is_waited_for_then_exits_4() -> None:
    folder = os.path.dirname(locate.socket_path())
    os.makedirs(folder, mode=0o700, exist_ok=True)
    wedged = os.open(os.path.join(folder, "hub.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(wedged, fcntl.LOCK_EX)  # a hub that holds the lock but never answers
        done = subprocess.run([sys.executable, "-m", "tabsteward.bridge", "tabs"],
                              capture_output=True, text=True, timeout=80)
    finally:
        os.close(wedged)
    assert done.returncode == 4
    assert "a hub is starting but did not answer" in done.stderr
    assert "hub.log" in done.stderr
    assert not os.path.exists(locate.socket_path())  # no second hub was started meanwhile


@pytest.mark.timeout(90)
def test_a_browser_that_cannot_be_launched_fails_the_command_not_the_hub() -> None:
    env = dict(os.environ, TABSTEWARD_CHROMIUM="/nonexistent/chromium")
    try:
        done = subprocess.run([sys.executable, "-m", "tabsteward.bridge", "tabs"], env=env,
                              capture_output=True, text=True, timeout=80)
        assert done.returncode == 5
        assert "TABSTEWARD_CHROMIUM=/nonexistent/chromium" in done.stderr
        listed = subprocess.run([sys.executable, "-m", "tabsteward.bridge", "browsers"],
                                env=env, capture_output=True, text=True, timeout=80)
        assert listed.returncode == 0  # the hub still serves
        assert "launched" in listed.stdout
    finally:
        stop_hub_of(dict(os.environ))


def test_no_autostart_setting_keeps_the_cli_from_starting_a_hub(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TABSTEWARD_NO_AUTOSTART", "1")
    assert cli.main(["tabs"]) == 4
    assert "TABSTEWARD_NO_AUTOSTART" in capsys.readouterr().err
    assert not os.path.exists(locate.socket_path())


@pytest.mark.parametrize(("argv", "closest"), [
    (["clik", "e3"], "click"),
    (["--json", "snapshto"], "snapshot"),
    (["doctr"], "doctor"),  # a command the CLI runs itself
    (["frobnicate", "--help"], None),
])
def test_an_unknown_command_is_refused_locally_with_the_closest_names(
        argv: list[str], closest: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[dict[str, Any]] = []
    with hub_in_thread(replying({"ok": True, "exit": 0, "stdout": "", "stderr": ""}, seen)):
        assert cli.main(argv) == 2
    err = capsys.readouterr().err
    word = next(w for w in argv if not w.startswith("-"))
    assert f"unknown command {word!r}" in err
    assert "nothing was run" in err
    if closest:
        assert closest in err.split("did you mean")[1]
    else:
        assert "did you mean" not in err
    assert seen == []  # the hub was never asked, so never made to pair or refuse a token


def test_an_unknown_command_with_no_hub_running_starts_none(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TABSTEWARD_TOKEN", "not-a-token-any-hub-knows")
    assert cli.main(["setp"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'setp' (did you mean" in err
    assert "setup" in err
    assert "token" not in err
    assert not os.path.exists(locate.socket_path())


def test_the_cli_knows_exactly_the_tool_tables_names_and_its_own_commands_apart() -> None:
    from tabsteward.bridge.tools.names import NAMES
    from tabsteward.bridge.tools.registry import table
    assert set(NAMES) == set(table())
    assert not set(NAMES) & set(cli.LOCAL)


@pytest.mark.timeout(240)
def test_a_command_right_after_serve_in_the_background_waits_for_that_serve() -> None:
    # a script's `tabsteward serve & tabsteward browsers`: the command must not start a hub
    # of its own while serve is still importing, which then made serve exit
    env = dict(os.environ)
    for _ in range(3):
        serve = subprocess.Popen([sys.executable, "-m", "tabsteward.bridge", "serve"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            done = subprocess.run([sys.executable, "-m", "tabsteward.bridge", "browsers"],
                                  env=env, capture_output=True, text=True, timeout=80)
            assert done.returncode == 0, done.stderr
            assert serve.poll() is None, serve.communicate()[1]
            lock = os.path.join(os.path.dirname(locate.socket_path()), "hub.lock")
            with open(lock, encoding="ascii") as held:
                assert held.read().strip() == str(serve.pid)  # serve's hub answered
        finally:
            stop_hub_of(env)  # the hub that answers: serve's, or one the command started
            serve.terminate()
            _, err = serve.communicate(timeout=60)
        assert "another hub" not in err


def test_a_serve_process_is_known_by_its_command_line() -> None:
    from tabsteward.bridge.clients.autostart import is_serve
    assert is_serve([b"/usr/bin/python3", b"/home/a/.venv/bin/tabsteward", b"serve", b""])
    assert is_serve([b"python", b"-m", b"tabsteward.bridge", b"serve", b"--idle-timeout",
                     b"600", b""])
    assert is_serve([b"/opt/tabsteward/tabsteward", b"serve", b""])
    assert not is_serve([b"python", b"-m", b"tabsteward.bridge", b"desktop", b""])
    assert not is_serve([b"/home/a/.venv/bin/tabsteward", b"open", b"serve", b""])
    assert not is_serve([b"vim", b"tabsteward", b""])


def test_a_starting_serve_is_waited_for_only_when_it_is_young_and_for_this_socket(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabsteward.bridge.clients import autostart
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "tabsteward.bridge",
               "serve"]  # looks like `serve` to /proc, does nothing
    ours = subprocess.Popen(sleeper, env=dict(os.environ))
    other = subprocess.Popen(sleeper, env={**os.environ,
                                           "TABSTEWARD_SOCKET": str(tmp_path / "x.sock")})
    try:
        found = autostart.serves(locate.socket_path())
        assert ours.pid in found  # another hub folder's serve is no reason to wait
        assert other.pid not in found
        assert 0 <= found[ours.pid] < autostart.SERVE_GRACE
        monkeypatch.setattr(autostart, "SERVE_GRACE", 0.0)  # as if it ran for long
        assert autostart.serves(locate.socket_path()) == {}
    finally:
        for proc in (ours, other):
            proc.kill()
            proc.wait(30)
