"""The frozen program's entry (packaging/frozen_main.py): a tool command starts without the
runtime hooks the spec set aside; every other command runs them first, in their order."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ENTRY = Path(__file__).resolve().parents[2] / "packaging" / "frozen_main.py"


def entry() -> ModuleType:
    spec = importlib.util.spec_from_file_location("frozen_main", ENTRY)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bundle folder (sys._MEIPASS) whose set-aside hooks each log their name as they run,
    as __main__; the log is returned."""
    log = tmp_path / "ran.txt"
    hooks = tmp_path / "rthooks"
    hooks.mkdir()
    for name in ("04_pyi_rth_pyside6", "00_pyi_rth_inspect", "02_pyi_rth_multiprocessing"):
        (hooks / f"{name}.py").write_text(
            f"with open({str(log)!r}, 'a') as f:\n"
            f"    f.write({name!r} + ' ' + __name__ + '\\n')\n", encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    return log


def ran(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_a_tool_command_starts_without_the_set_aside_hooks(
        bundle: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["tabsteward", "--version"])
    assert entry().main() == 0
    assert capsys.readouterr().out.startswith("tabsteward ")
    assert ran(bundle) == []


@pytest.mark.parametrize("argv", [["skill"], ["-c", "import tabsteward.bridge.cli"]])
def test_any_other_command_runs_the_hooks_first_in_their_order_as_main(
        bundle: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["tabsteward", *argv])
    assert entry().main() == 0
    assert ran(bundle) == ["00_pyi_rth_inspect __main__", "02_pyi_rth_multiprocessing __main__",
                           "04_pyi_rth_pyside6 __main__"]


def test_a_python_command_line_it_cannot_run_is_refused_saying_nothing_ran(
        bundle: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["tabsteward", "-c", "print(1)"])
    assert entry().main() == 2
    assert "nothing was run" in capsys.readouterr().err
