"""`tabsteward desktop` as a process: one per person (a second start hands over to the
first), the hub inside it, and a clean stop on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from hub_env import BIN, chromium_on_port
from xdisplay import tray_host, xvfb, xvfb_server


def test_a_second_start_hands_over_to_the_running_app_which_stops_cleanly_on_sigterm(
        private_home: dict[str, str]) -> None:
    env = {**os.environ, **private_home, "QT_QPA_PLATFORM": "offscreen"}
    first = subprocess.Popen([BIN, "desktop", "--local-only"], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().startswith("tabsteward hub ready on ")
        second = subprocess.run([BIN, "desktop"], env=env, capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 0, second.stderr
        assert "already running; it was asked to show itself" in second.stderr
        first.send_signal(signal.SIGTERM)
        assert first.wait(30) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(30)
        assert first.stdout is not None
        first.stdout.close()
    log = (Path(private_home["XDG_STATE_HOME"]) / "tabsteward" / "hub.log").read_text()
    assert "another start of the tray app asked this one to show itself" in log
    assert "stopping: got SIGTERM" in log
    assert "tray app exits with status 0" in log


def test_a_tray_app_does_not_start_beside_a_running_hub(private_home: dict[str, str]) -> None:
    env = {**os.environ, **private_home, "QT_QPA_PLATFORM": "offscreen"}
    hub = subprocess.Popen([BIN, "serve", "--local-only"], env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert hub.stdout is not None
        assert hub.stdout.readline().startswith("tabsteward hub ready")
        tray = subprocess.run([BIN, "desktop"], env=env, capture_output=True, text=True,
                              timeout=60)
        assert tray.returncode != 0
        assert "another hub (pid" in tray.stderr
        assert "this one did not start" in tray.stderr
    finally:
        hub.terminate()
        hub.wait(30)
        assert hub.stdout is not None
        hub.stdout.close()


def test_desktop_help_needs_no_display(private_home: dict[str, str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([BIN, "desktop", "--help"], env={**env, **private_home},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage: tabsteward desktop" in done.stdout
    assert "--cdp URL" in done.stdout


def test_on_a_display_a_command_that_finds_no_hub_starts_the_tray_app(
        private_home: dict[str, str]) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "TABSTEWARD_HEADLESS")}
    env.update(private_home)
    log = Path(private_home["XDG_STATE_HOME"]) / "tabsteward" / "hub.log"
    with xvfb() as display, tray_host(display):
        env["DISPLAY"] = display
        # a command that needs no pairing: it starts the hub, which answers it
        done = subprocess.run([BIN, "deny", "A99"], env=env, capture_output=True, text=True,
                              timeout=60, input="AAAA-AAAA\n")
        assert "no open question 'A99'" in done.stderr, done.stderr
        started = re.search(r"tray app starting \(pid (\d+)\)", log.read_text())
        assert started, log.read_text()
        os.kill(int(started.group(1)), signal.SIGTERM)
        deadline = time.monotonic() + 30
        while "tray app exits with status 0" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


def test_without_a_display_a_command_starts_the_headless_hub(
        private_home: dict[str, str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(private_home)
    done = subprocess.run([BIN, "deny", "A99"], env=env, capture_output=True, text=True,
                          timeout=60, input="AAAA-AAAA\n")
    assert "no open question 'A99'" in done.stderr, done.stderr
    log = (Path(private_home["XDG_STATE_HOME"]) / "tabsteward" / "hub.log").read_text()
    assert "tabsteward hub starting" in log
    assert "tray app" not in log
    pid = re.search(r"tabsteward hub starting \(pid (\d+)\)", log)
    assert pid, log
    os.kill(int(pid.group(1)), signal.SIGTERM)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sigterm", [False, True], ids=["display-gone", "display-gone-sigterm"])
def test_a_tray_app_attached_by_cdp_whose_display_goes_away_stops_quietly(
        private_home: dict[str, str], sigterm: bool) -> None:
    # the person's session ends: its X server goes, and the tray app gets SIGTERM with it
    with chromium_on_port(f"{private_home['HOME']}/chromium") as (_, port), \
            xvfb_server() as (display, server):
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update(private_home, DISPLAY=display, TABSTEWARD_TOKEN="tray-test-token")
        tray = subprocess.Popen([BIN, "desktop", "--cdp", f"http://127.0.0.1:{port}"],
                                env=env, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            assert tray.stdout is not None
            assert tray.stdout.readline().startswith("tabsteward hub ready on ")
            done = subprocess.run([BIN, "tabs"], env=env, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 0, done.stderr  # the CDP connection is in use
            server.kill()
            if sigterm:
                tray.send_signal(signal.SIGTERM)
            _, err = tray.communicate(timeout=60)
        finally:
            if tray.poll() is None:
                tray.kill()
                tray.communicate(timeout=30)
    assert tray.returncode == 0, err
    assert "Traceback" not in err
    assert "already deleted" not in err
    assert "Task was destroyed" not in err
    assert "tray app exits with status 0" in err

