"""Tabsteward built as a person gets it (sdist, then a wheel from that sdist) and installed
into a fresh venv, used from a fresh HOME outside the checkout.

The venv holds Tabsteward from the wheel alone; its dependencies are this test venv's own,
linked in one by one (everything but Tabsteward), which keeps the build under a minute with
no network while nothing of the checkout is importable from it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
SITE = Path(sysconfig.get_paths()["purelib"])


@dataclass
class Installed:
    """A venv with the built wheel, and an environment whose HOME is a fresh folder."""

    root: Path
    venv: Path
    wheel: Path
    sdist: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def home(self) -> Path:
        return Path(self.env["HOME"])

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def tabsteward(self) -> str:
        return str(self.venv / "bin" / "tabsteward")

    def run(self, *args: str, timeout: float = 120,
            check: bool = True) -> subprocess.CompletedProcess[str]:
        """The installed `tabsteward` with these arguments, from the fresh HOME."""
        proc = subprocess.run([self.tabsteward, *args], env=self.env, cwd=self.home,
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, check=False)
        if check:
            assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
        return proc

    def python_says(self, code: str) -> str:
        proc = subprocess.run([self.python, "-c", code], env=self.env, cwd=self.home,
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()


def _call(args: list[str], cwd: Path) -> str:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def build(out: Path) -> tuple[Path, Path]:
    """The sdist (through setuptools' PEP 517 hook, as `python -m build` calls it), then the
    wheel built from that sdist alone, so whatever the sdist lacks the wheel lacks too."""
    name = _call([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                  f"print(b.build_sdist({str(out)!r}))"], CHECKOUT).strip().splitlines()[-1]
    sdist = out / name
    _call([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
           "--no-index", "-w", str(out), str(sdist)], out)
    wheels = list(out.glob("tabsteward-*.whl"))
    assert len(wheels) == 1, wheels
    return sdist, wheels[0]


def _link_dependencies(venv: Path) -> None:
    """Make this venv's other packages importable there (after its own site-packages)."""
    deps = venv / "deps"
    deps.mkdir()
    for entry in SITE.iterdir():
        if entry.name.startswith(("tabsteward", "__editable__", "_tabsteward")) \
                or entry.suffix == ".pth" or entry.name == "__pycache__":
            continue
        (deps / entry.name).symlink_to(entry)
    target = Path(subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, timeout=60).stdout.strip())
    (target / "tabsteward-test-deps.pth").write_text(f"{deps}\n")


def make(prefix: str = "tsw", venv_name: str = "venv") -> Installed:
    """Build, make the venv (named `venv_name`: spaces welcome), install the wheel with pip,
    and lay out a fresh HOME."""
    root = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    dist = root / "dist"
    dist.mkdir()
    sdist, wheel = build(dist)
    venv = root / venv_name
    base = getattr(sys, "_base_executable", sys.executable)
    _call([base, "-m", "venv", "--without-pip", str(venv)], root)
    _link_dependencies(venv)
    _call([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
           "-q", "--no-deps", "--no-index", str(wheel)], root)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TABSTEWARD_", "XDG_", "PYTHON", "VIRTUAL_ENV"))}
    home = root / "home"
    run_dir = root / "run"
    for folder in (home, run_dir):
        folder.mkdir(mode=0o700)
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(run_dir),
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return Installed(root, venv, wheel, sdist, env)


def remove(installed: Installed) -> None:
    shutil.rmtree(installed.root, ignore_errors=True)
