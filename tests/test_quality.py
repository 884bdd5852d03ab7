"""ruff over the tree and mypy (strict) over the engine run as part of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_ruff_finds_nothing_to_fix() -> None:
    r = run("ruff", "check", "bridge", "desktop", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_passes_on_the_bridge() -> None:
    r = run("mypy")
    assert r.returncode == 0, r.stdout + r.stderr
