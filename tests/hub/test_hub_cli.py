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
from tabsteward.bridge import cli, client
from tabsteward.bridge.hub import locate
from tabsteward.bridge.hub.server import LocalServer

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


def test_refused_token_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    with hub_in_thread(replying({"ok": True})):
        with open(locate.token_path(), "w") as f:
            f.write("stale\n")
        assert cli.main(["tabs"]) == 3
    assert "no valid token" in capsys.readouterr().err


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


def test_version_is_printed_without_a_hub(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("tabsteward ")


@pytest.mark.timeout(90)
def test_hub_that_cannot_start_exits_4_naming_the_log() -> None:
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
    assert "before answering" in done.stderr
    assert "hub.log" in done.stderr
    with open(os.path.join(os.environ["XDG_STATE_HOME"], "tabsteward", "hub.log")) as f:
        assert "already runs" in f.read()


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
        client.request({"op": "shutdown", "id": 1})


def test_no_autostart_setting_keeps_the_cli_from_starting_a_hub(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TABSTEWARD_NO_AUTOSTART", "1")
    assert cli.main(["tabs"]) == 4
    assert "TABSTEWARD_NO_AUTOSTART" in capsys.readouterr().err
    assert not os.path.exists(locate.socket_path())
