"""The layering of bridge/LAYERS.md holds: imports go down the layers, never in a circle
(read with `ast`, nothing is run); and the check itself fails on planted breaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from layering import check, imports, modules, read_table, unit_of

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bridge", "desktop")


def _table() -> dict[str, int]:
    return read_table((ROOT / "bridge" / "LAYERS.md").read_text("utf-8"))


def test_bridge_and_the_tray_app_import_only_down_the_layers_and_in_no_circle() -> None:
    found = check(imports(ROOT, PACKAGES, "tabsteward."), _table())
    assert not found, "\n".join(map(str, found))


def test_every_unit_of_the_table_is_a_module_or_package_that_exists() -> None:
    known = modules(ROOT, PACKAGES)
    stale = [unit for unit in _table()
             if not any(name == unit or name.startswith(unit + ".") for name in known)]
    assert not stale, f"LAYERS.md names units that do not exist: {stale}"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


TABLE = """
| layer | units | what |
|---|---|---|
| 0 | `app.__init__`, `app.base`, `app.hub.paths` | plumbing |
| 1 | `app.engine`, `app.tools` | the middle |
| 2 | `app.hub`, `app.cli` | the top |
"""
CLEAN = {
    "app/__init__.py": "",
    "app/base.py": "import os\n",
    "app/cli.py": "from . import base\nfrom .hub import core\n",
    "app/engine/__init__.py": "",
    "app/engine/tab.py": "from ..base import x\nfrom ..hub.paths import where\n",
    "app/tools/__init__.py": "",
    "app/tools/click.py": "from app.engine import tab\n",
    "app/hub/__init__.py": "",
    "app/hub/core.py": "from ..tools import click\nfrom . import paths\n",
    "app/hub/paths.py": "import os\n",
}


def _found(tmp_path: Path, changes: dict[str, str]) -> list[str]:
    root = _tree(tmp_path, {**CLEAN, **changes})
    return [str(f) for f in check(imports(root, ("app",)), read_table(TABLE))]


def test_a_clean_synthetic_tree_passes(tmp_path: Path) -> None:
    assert _found(tmp_path, {}) == []


def test_a_planted_circle_within_one_layer_fails_naming_the_imports(tmp_path: Path) -> None:
    # engine and tools share a layer; an import back from engine, inside a function, closes
    # a circle that only the import graph can see
    found = _found(tmp_path, {"app/engine/tab.py": "def later():\n"
                                                   "    from ..tools import click\n"})
    assert found == ["import circle between app.engine, app.tools: "
                     "app.engine.tab -> app.tools.click; app.tools.click -> app.engine.tab"]


def test_an_import_up_a_layer_fails_even_for_type_checking_alone(tmp_path: Path) -> None:
    found = _found(tmp_path, {"app/engine/tab.py": "from typing import TYPE_CHECKING\n"
                                                   "if TYPE_CHECKING:\n"
                                                   "    from app.hub.core import Hub\n"})
    assert "app.engine.tab (layer 1) imports app.hub.core of the layer above, 2" in found
    assert any(f.startswith("import circle between app.engine, app.hub, app.tools")
               for f in found)


def test_a_module_named_on_its_own_is_held_to_its_own_layer_not_its_folders(
        tmp_path: Path) -> None:
    found = _found(tmp_path, {"app/hub/paths.py": "from . import core\n"})
    assert "app.hub.paths (layer 0) imports app.hub.core of the layer above, 2" in found


def test_a_module_in_no_unit_of_the_table_fails(tmp_path: Path) -> None:
    found = _found(tmp_path, {"app/stray.py": "import os\n"})
    assert found == ["app.stray is in no unit of the layer table"]


def test_imports_under_the_installed_name_count_as_the_packages_own(tmp_path: Path) -> None:
    root = _tree(tmp_path, {**CLEAN, "app/base.py": "from tabsteward.app.cli import main\n"})
    found = [str(f) for f in check(imports(root, ("app",), "tabsteward."), read_table(TABLE))]
    assert "app.base (layer 0) imports app.cli of the layer above, 2" in found


def test_the_top_packages_own_module_holds_no_other_module() -> None:
    table = read_table(TABLE)
    assert unit_of("app.__init__", table) == "app.__init__"
    assert unit_of("app.stray", table) is None
    assert unit_of("app.hub.paths", table) == "app.hub.paths"
    assert unit_of("app.hub.core", table) == "app.hub"


def test_a_unit_written_twice_in_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        read_table("| 0 | `a.b` | x |\n| 1 | `a.b` | y |\n")
