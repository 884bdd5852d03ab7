"""Native-host registration: manifest JSON, per-browser manifest folders, launcher, uninstall.

Windows registers hosts under HKCU\\Software\\<vendor>\\NativeMessagingHosts\\<name> in the
registry; that is a TODO here and raises UsageError.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import UsageError
from .native_host import allowed_origins

HOST_NAME = "com.tabsteward.host"
LAUNCHER_NAME = "tabsteward-native-host"
DESCRIPTION = "Tabsteward: relays the extension's messages to the local Tabsteward hub"

_LINUX: dict[str, str] = {
    "chrome": ".config/google-chrome",
    "chromium": ".config/chromium",
    "edge": ".config/microsoft-edge",
    "brave": ".config/BraveSoftware/Brave-Browser",
}
_MACOS: dict[str, str] = {
    "chrome": "Library/Application Support/Google/Chrome",
    "chromium": "Library/Application Support/Chromium",
    "edge": "Library/Application Support/Microsoft Edge",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser",
}
BROWSERS: tuple[str, ...] = tuple(_LINUX)


def manifest(launcher: str, origins: Iterable[str]) -> dict[str, Any]:
    """The host manifest Chrome reads; `launcher` must be an absolute path."""
    if not os.path.isabs(launcher):
        raise UsageError(f"the launcher path {launcher!r} is not absolute; Chrome would not "
                         "start it, so no manifest was made")
    return {"name": HOST_NAME, "description": DESCRIPTION, "path": launcher,
            "type": "stdio", "allowed_origins": sorted(origins)}


def launcher_text(python: str = sys.executable) -> str:
    """A /bin/sh script that runs the host with this interpreter, passing Chrome's args."""
    return f'#!/bin/sh\nexec {shlex.quote(python)} -m tabsteward.bridge.native_host "$@"\n'


def manifest_dir(browser: str, platform: str = sys.platform,
                 home: Path | None = None) -> Path:
    """The user-level NativeMessagingHosts folder of `browser` on `platform`."""
    if browser not in BROWSERS:
        raise UsageError(f"unknown browser {browser!r}; nothing was installed "
                         f"(known: {', '.join(BROWSERS)})")
    base = home or Path.home()
    if platform == "win32":
        raise UsageError("Windows registers native hosts in the HKCU registry, which is not "
                         "implemented yet; nothing was installed")
    table = _MACOS if platform == "darwin" else _LINUX
    return base / table[browser] / "NativeMessagingHosts"


def _target_dir(browser: str, user_data_dir: str | os.PathLike[str] | None) -> Path:
    if user_data_dir is not None:
        if browser not in BROWSERS:
            raise UsageError(f"unknown browser {browser!r}; nothing was installed "
                             f"(known: {', '.join(BROWSERS)})")
        return Path(user_data_dir).expanduser().absolute() / "NativeMessagingHosts"
    return manifest_dir(browser)


def write_manifest(browser: str,
                   user_data_dir: str | os.PathLike[str] | None = None) -> Path:
    """Write the launcher (0755) and the host manifest; the manifest's path is returned."""
    folder = _target_dir(browser, user_data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    launcher = folder / LAUNCHER_NAME
    tmp = folder / f".{LAUNCHER_NAME}.{os.getpid()}.tmp"
    tmp.write_text(launcher_text(), encoding="utf-8")
    tmp.chmod(0o755)
    os.replace(tmp, launcher)
    path = folder / f"{HOST_NAME}.json"
    body = json.dumps(manifest(str(launcher), allowed_origins()), indent=2) + "\n"
    tmp = folder / f".{HOST_NAME}.{os.getpid()}.tmp"
    tmp.write_text(body, encoding="utf-8")
    tmp.chmod(0o644)
    os.replace(tmp, path)
    return path


def uninstall(browser: str, user_data_dir: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the manifest and launcher; the paths actually removed are returned."""
    folder = _target_dir(browser, user_data_dir)
    removed: list[Path] = []
    for path in (folder / f"{HOST_NAME}.json", folder / LAUNCHER_NAME):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    return removed
