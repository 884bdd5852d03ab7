"""The tray app as a person sees it: on an X display (Xvfb) with a tray host (trayer), its
icon in the tray and its panel, menu and windows saved as PNGs in the test artifacts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hub_env import pair, write_policy
from xdisplay import tray_host, xvfb

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("screens.py")
SHOTS = ("screen.png", "panel.png", "tray-menu.png", "keys.png", "profiles.png",
         "activity.png")
POLICY = """\
default_profile = "shop"

[profiles.shop]
inherits = "default"
model = "gpt-4.1-mini"
key = "work-openai"
"""


def artifacts() -> Path:
    return Path(os.environ.get("TABSTEWARD_ARTIFACTS", ROOT / "test-artifacts")) / "desktop"


def test_the_tray_icon_panel_menu_and_windows_show_on_a_desktop(private_home, site):
    out = artifacts()
    for name in SHOTS:
        (out / name).unlink(missing_ok=True)
    env = {**os.environ, **private_home}
    write_policy(env, POLICY)
    env["TABSTEWARD_TOKEN"] = pair(env, "shopper")
    with xvfb() as display, tray_host(display):
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb")
        done = subprocess.run([sys.executable, str(SCRIPT), str(out), site.url("shop.html")],
                              env=env, cwd=env["HOME"], capture_output=True, text=True,
                              timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["tray_available"], found
    assert found["icon_visible"], found
    assert found["icon_pixels"] > 20, found  # the waiting icon is drawn in the tray
    assert found["picture"], found  # the question shows its target in the page
    assert found["focus_kept"], found  # the panel came without taking the keyboard
    assert found["denied"], found
    assert found["exit"] == 0, found
    for name in SHOTS:
        assert (out / name).stat().st_size > 2000, name
