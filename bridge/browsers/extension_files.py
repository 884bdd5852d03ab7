"""The shipped extension: where its files are, and the stable copy a person loads unpacked."""

from __future__ import annotations

import os
import shutil
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from .. import paths
from ..errors import TabstewardError

PACKAGE = "tabsteward.extension"
# the kinds of file shipped; keep in step with package-data in pyproject.toml
SUFFIXES = (".js", ".json", ".html", ".css", ".md")
EXTENSION_PAGES = {"chrome": "chrome://extensions", "chromium": "chrome://extensions",
                   "edge": "edge://extensions", "brave": "brave://extensions"}


def source() -> Traversable:
    """The extension shipped with this Tabsteward: the package's data, else the checkout's
    extension/ folder (an editable install maps no tabsteward.extension package)."""
    try:
        shipped: Traversable | None = files(PACKAGE)
    except ModuleNotFoundError:
        shipped = None
    if shipped is not None and shipped.joinpath("manifest.json").is_file():
        return shipped
    checkout = Path(__file__).resolve().parent.parent / "extension"
    if (checkout / "manifest.json").is_file():
        return checkout
    raise TabstewardError(f"this Tabsteward has no extension files (neither the {PACKAGE} "
                          f"package nor {checkout} holds a manifest.json); nothing was "
                          "copied; reinstall Tabsteward")


def copy_dir() -> Path:
    """The stable folder the person loads with "Load unpacked"."""
    return paths.data_dir() / "extension"


def contents(folder: Traversable) -> dict[str, bytes]:
    """The shipped kinds of file under `folder`, by '/'-separated relative name."""
    found: dict[str, bytes] = {}

    def walk(node: Traversable, prefix: str) -> None:
        for item in node.iterdir():
            if item.is_dir():
                if not item.name.startswith((".", "__")):
                    walk(item, f"{prefix}{item.name}/")
            elif item.name.endswith(SUFFIXES) and not item.name.startswith("."):
                found[prefix + item.name] = item.read_bytes()
    walk(folder, "")
    return found


def copy(src: Traversable, dest: Path) -> list[str]:
    """Make `dest` hold exactly the shipped files of `src` (each replaced atomically, in
    place, so a browser that has it loaded keeps working); the names written or removed."""
    wanted = contents(src)
    dest.mkdir(parents=True, exist_ok=True)
    changed: list[str] = []
    for name, body in sorted(wanted.items()):
        target = dest.joinpath(*name.split("/"))
        try:
            if target.read_bytes() == body:
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(body)
        os.replace(tmp, target)
        changed.append(name)
    for name in sorted(set(contents(dest)) - set(wanted)):
        dest.joinpath(*name.split("/")).unlink()
        changed.append(name)
    return changed


def differences(src: Traversable, dest: Path) -> list[str]:
    """Names of shipped files missing from, changed in or extra in the copy at `dest`."""
    want, have = contents(src), contents(dest)
    return sorted(n for n in set(want) | set(have) if want.get(n) != have.get(n))


def remove_copy(dest: Path) -> bool:
    """Delete the copy made by `copy` (only a folder holding its manifest); whether it was
    there."""
    if not (dest / "manifest.json").is_file():
        return False
    shutil.rmtree(dest)
    return True
