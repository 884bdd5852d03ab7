"""Fixtures for SDK tests: a private folder where `locate` finds the stand-in hub, and the
paired agent's token in TABSTEWARD_TOKEN."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from standin_hub import Paths, hub_paths


@pytest.fixture
def paths(monkeypatch: pytest.MonkeyPatch) -> Iterator[Paths]:
    with hub_paths() as found:
        for name, value in found.env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("TABSTEWARD_AGENT", raising=False)
        yield found
