"""A policy profile that names a browser: its agents use that one unless they pick another."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from hub_env import Hub, private_env, start_hub, stop_hub, write_policy

pytestmark = pytest.mark.browser

POLICY = """\
default_profile = "work"

[profiles.work]
inherits = "trusted"
browser = "work-chrome"
"""


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    env = private_env()
    write_policy(env, POLICY)
    hub = start_hub(env)
    yield hub
    stop_hub(hub)
    shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)


def test_an_agent_uses_the_browser_its_profile_names(hub: Hub) -> None:
    done = hub.cli("tabs")
    assert done.returncode == 2
    assert "no browser named 'work-chrome' is connected; nothing was run" in done.stderr


def test_an_agent_may_still_pick_another_browser_by_name(hub: Hub) -> None:
    done = hub.cli("--browser", "launched", "tabs")
    assert done.returncode == 0, done.stderr
