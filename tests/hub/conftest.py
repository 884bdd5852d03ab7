"""Every hub test runs with its own HOME and XDG folders under a short /tmp path."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from hub_env import private_folders


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    root, env = private_folders()
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    for var in ("TABSTEWARD_SOCKET", "TABSTEWARD_AGENT"):
        monkeypatch.delenv(var, raising=False)
    yield root
    shutil.rmtree(root, ignore_errors=True)
