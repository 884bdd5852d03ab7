"""The README's main command: the demo runs from start to end on a launched Chromium."""

from __future__ import annotations

import os
import subprocess

import pytest
from hub_env import BIN

pytestmark = pytest.mark.browser


def test_the_demo_pairs_shops_and_is_held_at_the_checkout_until_approved() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABSTEWARD_")}
    done = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "hub console │ [tabsteward] P1: agent 'demo agent' asks to pair" in out
    assert "person $ tabsteward approve P1 --code" in out
    assert "(a purchase: policy asks the person)" in out
    assert 'wants to click button "Place order"' in out
    assert "clicked @6 (button \"Place order\")" in out
    assert "Order placed. Thank you!" in out
    assert "denied" not in out
