"""`doctor`'s checks of what `tabsteward setup` adds for the tray app: the autostart entry and,
on Linux, the menu entry with its icons."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from ..browsers import app_entries
from . import login_items
from .verdict import Check

SETUP = "run `tabsteward setup`"


def autostart_check(now: str | None, wanted: str, place: str, missing_tray: str | None) -> Check:
    """Whether the tray app starts at login with this Tabsteward (`now`: the entry as it is,
    None when there is none)."""
    what = "tray app at login"
    if now is None:
        if missing_tray:
            return Check("ok", f"{what}: not set up, as {missing_tray}")
        return Check("warn", what, f"no autostart entry ({place}), so the tray app starts "
                     "only when a `tabsteward` command or the browser's extension needs a hub",
                     f"{SETUP} (or leave it so: `setup --no-autostart` chose this)")
    if now != wanted:
        return Check("warn", f"{what}: {place}", "it is not the entry this Tabsteward writes "
                     "(another installation's, or edited)", f"{SETUP} again to rewrite it")
    if missing_tray:
        return Check("fail", f"{what}: {place}", f"it starts the tray app, but {missing_tray}",
                     "install it, or run `tabsteward uninstall` to remove the entry")
    return Check("ok", f"{what}: {place} starts this Tabsteward's tray app")


def menu_check(files: Mapping[Path, bytes | None], wanted: Mapping[Path, bytes]) -> Check:
    """Whether the menu entry and its icons are there as setup writes them (`files`: each
    place's bytes, None when missing)."""
    entry = next(iter(wanted))
    missing = [p for p in wanted if files.get(p) is None]
    if len(missing) == len(wanted):
        return Check("warn", "applications menu", f"Tabsteward is not in it ({entry})", SETUP)
    if missing:
        return Check("warn", f"applications menu entry {entry}", "its icon lacks "
                     + ", ".join(str(p) for p in missing[:3]), f"{SETUP} again")
    stale = [p for p in wanted if files[p] != wanted[p]]
    if stale:
        return Check("warn", f"applications menu entry {entry}", "not as this Tabsteward "
                     f"writes it ({', '.join(str(p) for p in stale[:3])})", f"{SETUP} again")
    return Check("ok", f"applications menu entry {entry}, with its icons")


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def checks(platform: str = sys.platform, home: Path | None = None,
           env: Mapping[str, str] | None = None, run_key: login_items.RunKey | None = None,
           missing: Callable[[], str | None] = login_items.tray_missing) -> list[Check]:
    """The autostart check, and on Linux the menu's."""
    command = app_entries.tray_command(windows=platform == "win32")
    place = login_items.autostart_place(platform, home, env)
    missing_tray = missing()
    try:
        now = login_items.read_autostart(platform, home, env, run_key)
    except OSError as exc:
        return [Check("warn", "tray app at login", f"{place} cannot be read ({exc})")]
    found = [autostart_check(now, login_items.autostart_wanted(command, platform), place,
                             missing_tray)]
    if platform.startswith("linux") and not missing_tray:
        paths = login_items.menu_paths(home, env)
        icons = login_items.icon_files(with_png=True)
        wanted = {paths[0]: app_entries.desktop_entry(command, autostart=False).encode()}
        icon_places = app_entries.linux_icon_paths(
            Path.home() if home is None else home, login_items.env_or_os(env))
        wanted.update({icon_places[name]: data for name, data in icons.items()})
        found.append(menu_check({p: _read(p) for p in wanted}, wanted))
    return found
