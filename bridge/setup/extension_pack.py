"""`tabsteward extension pack [--out FILE]`: the extension as a zip the Chrome Web Store
accepts: its manifest checked, without the `key` that pins the unpacked id (the store gives
the item its own id), with icons drawn from the tray icon's shape."""

from __future__ import annotations

import io
import json
import re
import sys
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..browsers import extension_files
from ..errors import TabstewardError, UsageError

STORE_SUFFIXES = (".js", ".json", ".html", ".css", ".png")  # docs (.md) stay out
ICON_SIZES = (16, 32, 48, 128)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the same bytes for the same files
UNDONE = "nothing was written"
HELP = """usage: tabsteward extension pack [--out FILE] [--json]

Writes the extension as a zip for the Chrome Web Store (default FILE:
tabsteward-extension-VERSION.zip here). Its manifest is checked the way the store checks it
and has no `key`: the store gives the item its own id. Once the store shows that id, run
`tabsteward install --extension-id ID` (or `setup`) on each machine, so the native host
answers the store's build too. Drawing the icons needs the tray app's Qt
(`tabsteward[desktop]`).
"""
_VERSION = re.compile(r"(0|[1-9]\d{0,4})(\.(0|[1-9]\d{0,4})){0,3}")


def store_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest of the store build: no `key`, and the icons named."""
    icons = {str(size): f"icons/{size}.png" for size in ICON_SIZES}
    built = {k: v for k, v in manifest.items() if k != "key"}
    built["icons"] = icons
    action = dict(built.get("action") or {})
    action["default_icon"] = {k: v for k, v in icons.items() if k in ("16", "32")}
    built["action"] = action
    return built


def _referenced(manifest: Mapping[str, Any]) -> list[str]:
    """The files the manifest names."""
    names: list[str] = []
    background = manifest.get("background")
    if isinstance(background, dict) and isinstance(background.get("service_worker"), str):
        names.append(background["service_worker"])
    action = manifest.get("action")
    if isinstance(action, dict):
        if isinstance(action.get("default_popup"), str):
            names.append(action["default_popup"])
        if isinstance(action.get("default_icon"), dict):
            names += [v for v in action["default_icon"].values() if isinstance(v, str)]
    if isinstance(manifest.get("icons"), dict):
        names += [v for v in manifest["icons"].values() if isinstance(v, str)]
    for script in manifest.get("content_scripts") or []:
        if isinstance(script, dict):
            names += [n for n in (script.get("js") or []) + (script.get("css") or [])
                      if isinstance(n, str)]
    return names


def manifest_problems(manifest: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """Why the store would refuse this manifest with these files (nothing: an empty list)."""
    problems: list[str] = []
    if manifest.get("manifest_version") != 3:
        problems.append("manifest_version is not 3")
    name = manifest.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= 75:
        problems.append("name must be 1 to 75 characters")
    description = manifest.get("description", "")
    if not isinstance(description, str) or len(description) > 132:
        problems.append("description must be at most 132 characters")
    version = manifest.get("version")
    if not isinstance(version, str) or not _VERSION.fullmatch(version) \
            or any(int(part) > 65535 for part in version.split(".")):
        problems.append(f"version {version!r} is not 1 to 4 numbers 0-65535 joined by dots")
    if "key" in manifest:
        problems.append("it has a `key`, which the store refuses in an upload")
    icons = manifest.get("icons")
    if not isinstance(icons, dict) or "128" not in icons:
        problems.append("it names no 128 px icon")
    missing = [n for n in _referenced(manifest) if n not in names]
    if missing:
        problems.append(f"it names files the zip lacks: {', '.join(missing)}")
    return problems


def zip_bytes(files: Mapping[str, bytes]) -> bytes:
    """A zip of `files` (manifest.json at its root), the same bytes for the same files."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return out.getvalue()


def _icons() -> dict[str, bytes]:
    try:
        from tabsteward.desktop import icon_files
        return {f"icons/{size}.png": icon_files.png(size) for size in ICON_SIZES}
    except ImportError as exc:
        raise TabstewardError(f"drawing the extension's icons needs the tray app's Qt ({exc}; "
                              f"install `tabsteward[desktop]`); {UNDONE}") from exc


def build(shipped: Mapping[str, bytes],
          icons: Callable[[], dict[str, bytes]] = _icons) -> dict[str, bytes]:
    """The store build's files from the shipped extension's; TabstewardError when its
    manifest would be refused."""
    try:
        manifest = json.loads(shipped["manifest.json"])
    except (KeyError, ValueError) as exc:
        raise TabstewardError(f"the shipped extension has no readable manifest.json ({exc}); "
                              f"{UNDONE}") from exc
    files = {n: b for n, b in shipped.items() if n.endswith(STORE_SUFFIXES)}
    files.update(icons())
    built = store_manifest(manifest)
    files["manifest.json"] = (json.dumps(built, indent=2) + "\n").encode("utf-8")
    problems = manifest_problems(built, list(files))
    if problems:
        raise TabstewardError("the store would refuse this extension: " + "; ".join(problems)
                              + f"; {UNDONE}")
    return files


def _parse(argv: Sequence[str]) -> tuple[Path | None, bool, bool]:
    """--out FILE, --json, --help."""
    out: Path | None = None
    as_json = show_help = False
    words = list(argv)
    if not words or words[0] != "pack":
        if words and words[0] in ("-h", "--help"):
            return None, False, True
        raise UsageError(f"`tabsteward extension` has one command, pack (`tabsteward extension "
                         f"pack [--out FILE]`); {UNDONE}")
    i = 1
    while i < len(words):
        word = words[i]
        if word == "--out" or word.startswith("--out="):
            value = word.partition("=")[2]
            if word == "--out":
                i += 1
                value = words[i] if i < len(words) else ""
            if not value:
                raise UsageError(f"--out needs a file name (--out FILE); {UNDONE}")
            out = Path(value).expanduser()
        elif word == "--json":
            as_json = True
        elif word in ("-h", "--help"):
            show_help = True
        else:
            raise UsageError(f"unknown argument {word!r} for `tabsteward extension pack` "
                             f"(options: --out FILE, --json, --help); {UNDONE}")
        i += 1
    return out, as_json, show_help


def main(argv: Sequence[str]) -> int:
    """`tabsteward extension pack [--out FILE] [--json]`; its exit status."""
    from .setup_args import report_error
    as_json = "--json" in argv
    try:
        out, as_json, show_help = _parse(argv)
        if show_help:
            sys.stdout.write(HELP)
            return 0
        files = build(extension_files.contents(extension_files.source()))
        version = json.loads(files["manifest.json"])["version"]
        target = out or Path.cwd() / f"tabsteward-extension-{version}.zip"
        data = zip_bytes(files)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise TabstewardError(f"could not write {target} ({exc.strerror or exc}); "
                                  f"{UNDONE}") from exc
    except TabstewardError as err:
        return report_error(err, as_json)
    report = {"ok": True, "zip": str(target.absolute()), "bytes": len(data),
              "files": sorted(files), "version": version}
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(
            f"wrote {report['zip']} ({len(files)} files, {len(data):,} bytes), version "
            f"{version}, for the Chrome Web Store (its manifest has no `key`).\n"
            "Once the store shows the item's id, run `tabsteward install --extension-id ID` "
            "on each machine so the native host answers it.\n")
    return 0
