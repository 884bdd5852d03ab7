"""Writes, reads back and removes what `tabsteward setup` adds for the tray app: the autostart
entry (Linux, macOS, Windows) and, on Linux, the menu entry with its icons."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from ..browsers import app_entries as entries
from ..errors import TabstewardError

NOT_WINDOWS = "the Windows registry exists only on Windows; nothing was changed in it"


class RunKey(Protocol):
    """The values of HKCU\\...\\CurrentVersion\\Run that autostart needs."""

    def get(self, name: str) -> str | None:
        """The value's data, or None when there is no such value."""

    def set(self, name: str, value: str) -> None:
        """Create or replace the value (a REG_SZ)."""

    def delete(self, name: str) -> bool:
        """Delete the value; whether it existed."""


class WinRunKey:
    """The real Run key, through winreg (imported on Windows only)."""

    def get(self, name: str) -> str | None:
        if sys.platform == "win32":
            import winreg
            try:
                with winreg.OpenKey(winreg.HKEY_CURRENT_USER, entries.RUN_KEY) as handle:
                    value, _kind = winreg.QueryValueEx(handle, name)
            except FileNotFoundError:
                return None
            return value if isinstance(value, str) else None
        raise OSError(NOT_WINDOWS)

    def set(self, name: str, value: str) -> None:
        if sys.platform == "win32":
            import winreg
            with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, entries.RUN_KEY, 0,
                                    winreg.KEY_SET_VALUE) as handle:
                winreg.SetValueEx(handle, name, 0, winreg.REG_SZ, value)
            return
        raise OSError(NOT_WINDOWS)

    def delete(self, name: str) -> bool:
        if sys.platform == "win32":
            import winreg
            try:
                with winreg.OpenKey(winreg.HKEY_CURRENT_USER, entries.RUN_KEY, 0,
                                    winreg.KEY_SET_VALUE) as handle:
                    winreg.DeleteValue(handle, name)
            except FileNotFoundError:
                return False
            return True
        raise OSError(NOT_WINDOWS)


def tray_missing() -> str | None:
    """Why this installation has no tray app (PySide6 or qasync missing), or None."""
    lacking = [m for m in ("PySide6", "qasync") if importlib.util.find_spec(m) is None]
    if lacking:
        return (f"the tray app is not installed here ({' and '.join(lacking)} missing; "
                "install `tabsteward[desktop]`)")
    return None


def _home(home: Path | None) -> Path:
    return Path.home() if home is None else home


def env_or_os(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _run_key(run_key: RunKey | None) -> RunKey:
    return WinRunKey() if run_key is None else run_key


def write_file(path: Path, data: bytes, mode: int = 0o644) -> bool:
    """Replace `path` atomically with `data`; whether it changed."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.chmod(mode)
    os.replace(tmp, path)
    return True


def _unlink(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


# -- autostart -------------------------------------------------------------------------------

def autostart_place(platform: str = sys.platform, home: Path | None = None,
                    env: Mapping[str, str] | None = None) -> str:
    """Where the autostart entry lives: a file's path, or the HKCU Run value."""
    if platform == "win32":
        return entries.shown_run_value()
    if platform == "darwin":
        return str(entries.launch_agent_path(_home(home)))
    return str(entries.linux_autostart_path(_home(home), env_or_os(env)))


def autostart_wanted(command: Sequence[str], platform: str = sys.platform) -> str:
    """The autostart entry this installation writes: file text, or the Run value's data."""
    if platform == "win32":
        return entries.run_value(command)
    if platform == "darwin":
        return entries.launch_agent(command)
    return entries.desktop_entry(command, autostart=True)


def read_autostart(platform: str = sys.platform, home: Path | None = None,
                   env: Mapping[str, str] | None = None,
                   run_key: RunKey | None = None) -> str | None:
    """The autostart entry as it is now, or None when there is none."""
    if platform == "win32":
        return _run_key(run_key).get(entries.RUN_VALUE)
    try:
        return Path(autostart_place(platform, home, env)).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def write_autostart(command: Sequence[str], platform: str = sys.platform,
                    home: Path | None = None, env: Mapping[str, str] | None = None,
                    run_key: RunKey | None = None) -> bool:
    """Make the tray app start at login; whether anything changed."""
    wanted = autostart_wanted(command, platform)
    if platform == "win32":
        key = _run_key(run_key)
        if key.get(entries.RUN_VALUE) == wanted:
            return False
        key.set(entries.RUN_VALUE, wanted)
        return True
    return write_file(Path(autostart_place(platform, home, env)), wanted.encode("utf-8"))


def remove_autostart(platform: str = sys.platform, home: Path | None = None,
                     env: Mapping[str, str] | None = None,
                     run_key: RunKey | None = None) -> list[str]:
    """Remove the autostart entry; what was removed."""
    where = autostart_place(platform, home, env)
    if platform == "win32":
        return [where] if _run_key(run_key).delete(entries.RUN_VALUE) else []
    return [where] if _unlink(Path(where)) else []


# -- the Linux menu entry and its icons ------------------------------------------------------

def icon_files(with_png: bool) -> dict[str, bytes]:
    """The icon's files by size ('svg', '16', ...), drawn from the tray icon's shape; PNGs
    only `with_png` (they need Qt)."""
    from tabsteward.desktop import icon_files as drawn
    found = {"svg": drawn.svg()}
    if with_png:
        for size in entries.PNG_SIZES:
            found[str(size)] = drawn.png(size)
    return found


def menu_paths(home: Path | None = None, env: Mapping[str, str] | None = None) -> list[Path]:
    """The menu entry, then its icons."""
    h, e = _home(home), env_or_os(env)
    return [entries.linux_menu_path(h, e), *entries.linux_icon_paths(h, e).values()]


def write_menu(command: Sequence[str], icons: Mapping[str, bytes], home: Path | None = None,
               env: Mapping[str, str] | None = None) -> list[str]:
    """The menu entry and its icons; the files that changed."""
    h, e = _home(home), env_or_os(env)
    changed: list[str] = []
    places = entries.linux_icon_paths(h, e)
    for name, data in icons.items():
        if write_file(places[name], data):
            changed.append(str(places[name]))
    menu = entries.linux_menu_path(h, e)
    if write_file(menu, entries.desktop_entry(command, autostart=False).encode("utf-8")):
        changed.append(str(menu))
    return changed


def remove_menu(home: Path | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """Remove the menu entry and its icons; what was removed."""
    return [str(p) for p in menu_paths(home, env) if _unlink(p)]


def remove_setup(platform: str = sys.platform, home: Path | None = None,
                 env: Mapping[str, str] | None = None,
                 run_key: RunKey | None = None) -> list[str]:
    """Remove the autostart entry and, on Linux, the menu entry and icons; what was removed."""
    removed = remove_autostart(platform, home, env, run_key)
    if platform.startswith("linux"):
        removed += remove_menu(home, env)
    return removed


def failed(doing: str, exc: OSError) -> TabstewardError:
    where = f" ({exc.filename})" if exc.filename else ""
    return TabstewardError(f"{doing} failed{where}: {exc.strerror or exc}")
