"""ruff over the tree and mypy (strict) over the bridge and the tray app run as part of the
suite."""

from __future__ import annotations

import os
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


def test_mypy_strict_passes_on_the_bridge_and_the_tray_app(tmp_path: Path) -> None:
    # the packages as installed (tabsteward.bridge, tabsteward.desktop), so the tray app's
    # imports of the bridge are checked against its real types
    (tmp_path / "tabsteward").mkdir()
    for part in ("bridge", "desktop"):
        (tmp_path / "tabsteward" / part).symlink_to(ROOT / part)
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                        str(ROOT / "pyproject.toml"), "-p", "tabsteward.bridge",
                        "-p", "tabsteward.desktop"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, env={**os.environ, "MYPYPATH": str(tmp_path)})
    assert r.returncode == 0, r.stdout + r.stderr
