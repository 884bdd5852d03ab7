"""The README's main command: the demo runs from start to end on a launched Chromium, with
the tray app as its hub where there is a display."""

from __future__ import annotations

import os
import subprocess

import pytest
from hub_env import BIN
from xdisplay import tray_host, xvfb

pytestmark = pytest.mark.browser


def test_the_demo_pairs_shops_and_is_held_at_the_checkout_until_approved() -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TABSTEWARD_") and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert ("hub console │ [tabsteward] P1: a process asks to pair with the hub to use "
            "your browser; it says it is 'demo agent'") in out
    assert "person $ tabsteward approve P1   (types the code when asked)" in out
    assert "--code" not in out
    assert "(a purchase: policy asks the person)" in out
    assert 'wants to click button "Place order"' in out
    assert "clicked @6 (button \"Place order\")" in out
    assert "Order placed. Thank you!" in out
    assert "denied" not in out


def test_on_a_display_the_demo_runs_on_the_tray_app() -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TABSTEWARD_") and k != "QT_QPA_PLATFORM"}
    env["TABSTEWARD_DEMO_PANEL_WAIT"] = "1"  # then the demo answers as the person would
    with xvfb() as display, tray_host(display):
        env["DISPLAY"] = display
        done = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True,
                              timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "the demo's hub is the tray app" in out
    assert "waits in the Tabsteward panel too" in out
    assert "Order placed. Thank you!" in out
