"""Native-host registration per browser: the manifest, its launcher and, on Windows, the key.

Linux and macOS: the manifest and a /bin/sh launcher go into the browser's user-level
NativeMessagingHosts folder (or <user-data-dir>/NativeMessagingHosts). Windows: one manifest
and a .bat launcher in %LOCALAPPDATA%\\Tabsteward\\NativeMessagingHosts, found by each
browser through HKCU\\Software\\<vendor>\\NativeMessagingHosts\\com.tabsteward.host.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..browsers import winreg_hosts
from ..browsers.extension_ids import allowed_origins
from ..errors import TabstewardError, UsageError

HOST_NAME = "com.tabsteward.host"
LAUNCHER_NAME = "tabsteward-native-host"
HOST_MODULE = "tabsteward.bridge.native_host"
DESCRIPTION = "Tabsteward: relays the extension's messages to the local Tabsteward hub"
LABELS: dict[str, str] = {"chrome": "Chrome", "chromium": "Chromium", "edge": "Edge",
                          "brave": "Brave"}
BROWSERS: tuple[str, ...] = tuple(LABELS)

# each browser's user data folder: Linux under $XDG_CONFIG_HOME (else ~/.config), macOS
# under the home folder, Windows under %LOCALAPPDATA%
_LINUX: dict[str, str] = {
    "chrome": "google-chrome",
    "chromium": "chromium",
    "edge": "microsoft-edge",
    "brave": "BraveSoftware/Brave-Browser",
}
_MACOS: dict[str, str] = {
    "chrome": "Library/Application Support/Google/Chrome",
    "chromium": "Library/Application Support/Chromium",
    "edge": "Library/Application Support/Microsoft Edge",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser",
}
_WINDOWS: dict[str, str] = {
    "chrome": "Google/Chrome/User Data",
    "chromium": "Chromium/User Data",
    "edge": "Microsoft/Edge/User Data",
    "brave": "BraveSoftware/Brave-Browser/User Data",
}


@dataclass(frozen=True)
class Place:
    """Where one browser's registration lives."""

    browser: str
    folder: Path  # holds the manifest and the launcher
    windows: bool = False  # a .bat launcher, and a registry key unless `custom`
    custom: bool = False  # a --user-data-dir, not the browser's user-level folder

    @property
    def manifest(self) -> Path:
        return self.folder / f"{HOST_NAME}.json"

    @property
    def launcher(self) -> Path:
        return self.folder / (f"{LAUNCHER_NAME}.bat" if self.windows else LAUNCHER_NAME)

    @property
    def registry_key(self) -> str | None:
        """The HKCU-relative key that points the browser at the manifest (Windows only)."""
        if not self.windows or self.custom:
            return None
        return winreg_hosts.host_key(self.browser, HOST_NAME)


def check_browser(browser: str) -> str:
    if browser not in BROWSERS:
        raise UsageError(f"unknown browser {browser!r}; nothing was installed "
                         f"(known: {', '.join(BROWSERS)})")
    return browser


def _home(home: Path | None) -> Path:
    return Path.home() if home is None else home


def _local_appdata(home: Path | None, env: Mapping[str, str]) -> Path:
    value = env.get("LOCALAPPDATA")
    return Path(value) if value else _home(home) / "AppData" / "Local"


def config_folder(browser: str, platform: str = sys.platform, home: Path | None = None,
                  env: Mapping[str, str] | None = None) -> Path:
    """The browser's user data folder, which exists once the browser has run."""
    check_browser(browser)
    env = os.environ if env is None else env
    if platform == "win32":
        base, table = _local_appdata(home, env), _WINDOWS
    elif platform == "darwin":
        base, table = _home(home), _MACOS
    else:
        xdg = env.get("XDG_CONFIG_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else _home(home) / ".config"
        table = _LINUX
    return base.joinpath(*table[browser].split("/"))


def manifest_dir(browser: str, platform: str = sys.platform, home: Path | None = None,
                 env: Mapping[str, str] | None = None) -> Path:
    """The user-level folder that holds `browser`'s host manifest on `platform`."""
    check_browser(browser)
    env = os.environ if env is None else env
    if platform == "win32":
        return _local_appdata(home, env) / "Tabsteward" / "NativeMessagingHosts"
    return config_folder(browser, platform, home, env) / "NativeMessagingHosts"


def place(browser: str, user_data_dir: str | os.PathLike[str] | None = None,
          platform: str = sys.platform, home: Path | None = None,
          env: Mapping[str, str] | None = None) -> Place:
    """Where `browser`'s registration goes: its user-level place, or the user data dir."""
    check_browser(browser)
    windows = platform == "win32"
    if user_data_dir is None:
        return Place(browser, manifest_dir(browser, platform, home, env), windows=windows)
    if windows:
        raise UsageError("--user-data-dir works on Linux and macOS only: Chrome on Windows "
                         "finds native hosts through the registry alone; nothing was done "
                         "(leave the option out to register for your Windows user)")
    folder = Path(user_data_dir).expanduser().absolute() / "NativeMessagingHosts"
    return Place(browser, folder, custom=True)


def detect(platform: str = sys.platform, home: Path | None = None,
           env: Mapping[str, str] | None = None) -> list[str]:
    """The known browsers whose user data folder exists here."""
    return [b for b in BROWSERS if config_folder(b, platform, home, env).is_dir()]


def manifest(launcher: str, origins: Iterable[str]) -> dict[str, Any]:
    """The host manifest Chrome reads; `launcher` must be an absolute path."""
    if not os.path.isabs(launcher):
        raise UsageError(f"the launcher path {launcher!r} is not absolute; Chrome would not "
                         "start it, so no manifest was made")
    return {"name": HOST_NAME, "description": DESCRIPTION, "path": launcher,
            "type": "stdio", "allowed_origins": sorted(origins)}


def launcher_text(python: str = sys.executable, windows: bool = False) -> str:
    """A script that runs the host with this interpreter, passing the browser's arguments:
    /bin/sh, or a .bat file on Windows."""
    if windows:
        return f'@echo off\r\n"{python}" -m {HOST_MODULE} %*\r\n'
    return f'#!/bin/sh\nexec {shlex.quote(python)} -m {HOST_MODULE} "$@"\n'


def launcher_python(text: str) -> str | None:
    """The interpreter a launcher made by launcher_text runs, or None if it runs no host."""
    for raw in text.splitlines():
        head, found, _ = raw.strip().partition(f" -m {HOST_MODULE}")
        if not found:
            continue
        if head.startswith("exec "):
            try:
                words = shlex.split(head[5:])
            except ValueError:
                return None
            return words[0] if len(words) == 1 else None
        if len(head) >= 2 and head[0] == head[-1] == '"':
            return head[1:-1]
        return head or None
    return None


def _write(path: Path, text: str, mode: int) -> None:
    """Replace `path` atomically with `text` (exact newlines) and give it `mode`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    tmp.chmod(mode)
    os.replace(tmp, path)


def _registry(registry: winreg_hosts.Registry | None) -> winreg_hosts.Registry:
    return winreg_hosts.WinRegistry() if registry is None else registry


def register(where: Place, registry: winreg_hosts.Registry | None = None,
             python: str = sys.executable) -> list[str]:
    """Write the launcher (0755), the manifest and, on Windows, the registry key; what was
    written, as paths and HKCU\\ keys."""
    where.folder.mkdir(parents=True, exist_ok=True)
    _write(where.launcher, launcher_text(python, where.windows), 0o755)
    body = json.dumps(manifest(str(where.launcher), allowed_origins()), indent=2) + "\n"
    _write(where.manifest, body, 0o644)
    written = [str(where.launcher), str(where.manifest)]
    if where.registry_key is not None:
        key = winreg_hosts.register(_registry(registry), where.browser, HOST_NAME,
                                    str(where.manifest))
        written.append(winreg_hosts.shown(key))
    return written


def unregister(where: Place, registry: winreg_hosts.Registry | None = None) -> list[str]:
    """Remove what register made; what was actually removed. On Windows the manifest and
    launcher are shared by the browsers, so they stay while another browser's key uses them."""
    removed: list[str] = []
    if where.registry_key is not None:
        reg = _registry(registry)
        key = winreg_hosts.unregister(reg, where.browser, HOST_NAME)
        if key is not None:
            removed.append(winreg_hosts.shown(key))
        if any(winreg_hosts.registered(reg, b, HOST_NAME) == str(where.manifest)
               for b in BROWSERS if b != where.browser):
            return removed
    for path in (where.manifest, where.launcher):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(str(path))
    return removed


def registered_manifest(where: Place,
                        registry: winreg_hosts.Registry | None = None) -> Path | None:
    """The manifest the browser would read: the registry's on Windows, else the file's place;
    None when the registry has no key for it."""
    if where.registry_key is None:
        return where.manifest
    value = winreg_hosts.registered(_registry(registry), where.browser, HOST_NAME)
    return Path(value) if value else None


def write_manifest(browser: str,
                   user_data_dir: str | os.PathLike[str] | None = None) -> Path:
    """Register the host for `browser` on this machine; the manifest's path is returned."""
    where = place(browser, user_data_dir)
    try:
        register(where)
    except OSError as exc:
        raise TabstewardError(f"could not write {exc.filename or where.folder} "
                              f"({exc.strerror or exc}); the host is not registered for "
                              f"{browser}") from exc
    return where.manifest
