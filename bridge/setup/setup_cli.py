"""`tabsteward setup`: the host for every browser found, the extension's stable copy, the tray
app at login and (Linux) in the menu, then the browser's extensions page opened for the
person's three clicks. Safe to run again; `tabsteward uninstall` undoes it."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..browsers import app_entries, browser_apps, extension_files, extension_ids, winreg_hosts
from ..errors import TabstewardError, UsageError
from . import install, install_cli, login_items, setup_args

UNDONE = "nothing was set up"
FLAGS = ("--no-autostart", "--no-open")
KNOWN = ("--browser", "--user-data-dir", "--json", "--help", "-h")
OPTIONS = ("--browser NAME (repeatable), --extension-id ID (repeatable), --no-autostart, "
           "--no-open, --user-data-dir DIR, --json, --help")
HELP = """usage: tabsteward setup [--browser NAME]... [--extension-id ID]... [--no-autostart]
                        [--no-open] [--json]

Sets Tabsteward up for this person, saying what it did at each step:
  - registers the native host for every browser whose config folder exists here (or each
    NAME: chrome, chromium, edge, brave);
  - copies the extension to its stable folder (--extension-id ID: the host answers that
    extension too, as `tabsteward install --extension-id` says);
  - starts the tray app at login (Linux: an XDG autostart entry; macOS: a LaunchAgent;
    Windows: a value under HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run), unless
    --no-autostart;
  - on Linux, adds Tabsteward to the applications menu, with its icon;
  - opens the browser's extensions page (unless --no-open) and prints the three clicks
    that load the extension.
Running it again is harmless. `tabsteward uninstall` undoes all of it, and
`tabsteward doctor` checks each part.
"""


def main(argv: Sequence[str], *, platform: str = sys.platform, home: Path | None = None,
         env: Mapping[str, str] | None = None, registry: winreg_hosts.Registry | None = None,
         run_key: login_items.RunKey | None = None) -> int:
    """`tabsteward setup ...`; its exit status."""
    as_json = setup_args.wants_json(argv)
    flags = {w for w in argv if w in FLAGS}
    try:
        ids, rest = extension_ids.take([w for w in argv if w not in FLAGS], UNDONE)
        for word in rest:
            if word.startswith("-") and word.partition("=")[0] not in KNOWN:
                raise UsageError(f"unknown option {word!r} for `tabsteward setup` (options: "
                                 f"{OPTIONS}); {UNDONE}")
        opts = setup_args.parse(rest, "setup", UNDONE)
        if opts.help:
            sys.stdout.write(HELP)
            return 0
        report = run(opts, autostart="--no-autostart" not in flags,
                     open_page="--no-open" not in flags, platform=platform, home=home,
                     env=env, registry=registry, run_key=run_key, ids=ids)
    except TabstewardError as err:
        return setup_args.report_error(err, as_json)
    sys.stdout.write(json.dumps(report, indent=2) + "\n" if as_json else text(report))
    return 0


def _tray(autostart: bool, platform: str, home: Path | None, env: Mapping[str, str] | None,
          run_key: login_items.RunKey | None) -> dict[str, Any]:
    """The tray app's autostart and menu entry: what was done, or why not."""
    command = app_entries.tray_command(windows=platform == "win32")
    done: dict[str, Any] = {"command": command, "autostart": None, "menu": None,
                            "skipped": login_items.tray_missing()}
    if done["skipped"]:
        return done
    if autostart:
        try:
            changed = login_items.write_autostart(command, platform, home, env, run_key)
        except OSError as exc:
            raise login_items.failed("making the tray app start at login", exc) from exc
        done["autostart"] = {"place": login_items.autostart_place(platform, home, env),
                             "changed": changed}
    if platform.startswith("linux"):
        try:
            changed_files = login_items.write_menu(command, login_items.icon_files(True),
                                                   home, env)
        except OSError as exc:
            raise login_items.failed("adding Tabsteward to the applications menu",
                                     exc) from exc
        done["menu"] = {"entry": str(login_items.menu_paths(home, env)[0]),
                        "changed": changed_files}
    return done


def _opened(browsers: Sequence[str], platform: str, home: Path | None,
            env: Mapping[str, str] | None) -> dict[str, str] | None:
    """Open the first found browser's extensions page; which browser and page, or None."""
    if not browser_apps.can_show_windows(platform, env):
        return None
    for browser in browsers:
        program = browser_apps.find(browser, platform, home, env)
        if program is None:
            continue
        page = extension_files.EXTENSION_PAGES[browser]
        try:
            browser_apps.open_page(program, page)
        except OSError:
            continue
        return {"browser": browser, "program": program, "page": page}
    return None


def run(opts: setup_args.Options, *, autostart: bool = True, open_page: bool = True,
        platform: str = sys.platform, home: Path | None = None,
        env: Mapping[str, str] | None = None, registry: winreg_hosts.Registry | None = None,
        run_key: login_items.RunKey | None = None, ids: Sequence[str] = ()) -> dict[str, Any]:
    """Every step of setup, in order; the report."""
    report = install_cli.run_install(opts, platform, home, env, registry, ids)
    report["command"] = "setup"
    report["tray"] = _tray(autostart, platform, home, env, run_key)
    browsers = [entry["browser"] for entry in report["browsers"]]
    report["opened"] = _opened(browsers, platform, home, env) if open_page else None
    return report


def text(report: Mapping[str, Any]) -> str:
    """What setup did, then what the person does, as plain lines."""
    tray = report["tray"]
    lines: list[str] = []
    if tray["skipped"]:
        lines.append(f"no autostart or menu entry: {tray['skipped']}")
    else:
        start = tray["autostart"]
        if start is None:
            lines.append("the tray app does not start at login (--no-autostart)")
        else:
            state = "now starts" if start["changed"] else "already starts"
            lines.append(f"the tray app {state} at login: {start['place']}")
        menu = tray["menu"]
        if menu is not None:
            state = "added to" if menu["changed"] else "already in"
            lines.append(f"Tabsteward {state} the applications menu: {menu['entry']}")
    opened = report["opened"]
    if opened is not None:
        label = install.LABELS[opened["browser"]]
        lines.append(f"opened {opened['page']} in {label}: do steps 2 and 3 there")
    done, steps, load = install_cli.install_text(report).partition(
        "\nLoad it into each browser once:")
    return done + "".join(f"{line}\n" for line in lines) + steps + load
