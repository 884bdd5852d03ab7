"""Fixtures for MCP tests: the SDK tests' stand-in hub, in a private folder."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# One stand-in hub serves the SDK and the MCP tests; it lives beside the SDK tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "sdk"))

from standin_hub import Paths, hub_paths


@pytest.fixture
def paths() -> Iterator[Paths]:
    with hub_paths() as found:
        yield found
