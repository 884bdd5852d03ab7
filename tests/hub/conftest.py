"""Every hub test runs with its own HOME and XDG folders under a short /tmp path, as the
paired agent "tests" (its token in TABSTEWARD_TOKEN); `hub` is a real hub process
(module-scoped) for the end-to-end tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from hub_env import Hub, private_env, private_folders, start_hub, stop_hub


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    root, env = private_folders()
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    for var in ("TABSTEWARD_SOCKET", "TABSTEWARD_AGENT", "TABSTEWARD_NAME"):
        monkeypatch.delenv(var, raising=False)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    running = start_hub(private_env())
    yield running
    stop_hub(running)
    shutil.rmtree(os.path.dirname(running.env["HOME"]), ignore_errors=True)
