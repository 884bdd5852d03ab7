"""`tabsteward install` and `uninstall`: the native host per browser, and the extension copy."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..browsers import extension_files, extension_ids, winreg_hosts
from ..browsers.extension_ids import EXTENSION_ID
from ..errors import TabstewardError, UsageError
from . import install, login_items, sandboxed, setup_args

HELP = {
    "install": """usage: tabsteward install [--browser NAME]... [--user-data-dir DIR]
                          [--extension-id ID]... [--json]

Registers Tabsteward's native-messaging host for each browser (NAME: chrome, chromium,
edge, brave; default: every one whose config folder exists here), copies the extension to
a stable folder, and says how to load it. Browsers from Snap or Flatpak are skipped, with
why and what to use instead: their sandbox cannot start the native host. --user-data-dir
DIR (with exactly one --browser) registers the host in DIR/NativeMessagingHosts, for a
browser started with that --user-data-dir. --extension-id ID lets the host answer that
extension too (a Web Store build, whose id the store gives): it is kept in the settings
file `extension-ids` beside policy.toml, so later installs and the host keep it. Running it
again is harmless.
""",
    "uninstall": """usage: tabsteward uninstall [--browser NAME]... [--user-data-dir DIR] [--json]

Removes the native-host manifests, launchers and registry keys that `tabsteward install`
made (default: for every known browser). Without --browser it undoes all of `tabsteward
setup` too: the tray app's autostart entry, its menu entry and icons, and the extension's
copy (remove Tabsteward on the browser's extensions page yourself). Running it again is
harmless.
""",
}
UNDONE = {"install": "nothing was installed", "uninstall": "nothing was removed"}


def main(command: str, argv: Sequence[str], *, platform: str = sys.platform,
         home: Path | None = None, env: Mapping[str, str] | None = None,
         registry: winreg_hosts.Registry | None = None,
         run_key: login_items.RunKey | None = None) -> int:
    """Run `install` or `uninstall` with argv (the words after the command); exit status."""
    as_json = setup_args.wants_json(argv)
    try:
        ids: list[str] = []
        if command == "install":
            ids, argv = extension_ids.take(argv, UNDONE[command])
        opts = setup_args.parse(argv, command, UNDONE[command])
        if opts.help:
            sys.stdout.write(HELP[command])
            return 0
        if command == "install":
            report = run_install(opts, platform, home, env, registry, ids)
        else:
            report = run_uninstall(opts, platform, home, env, registry, run_key)
    except TabstewardError as err:
        return setup_args.report_error(err, as_json)
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(install_text(report) if command == "install"
                         else uninstall_text(report))
    return 0


def _places(opts: setup_args.Options, browsers: Sequence[str], platform: str,
            home: Path | None, env: Mapping[str, str] | None) -> list[install.Place]:
    return [install.place(b, opts.user_data_dir, platform, home, env) for b in browsers]


def _failed(doing: str, exc: OSError, done: Sequence[str]) -> TabstewardError:
    where = f" ({exc.filename})" if exc.filename else ""
    before = f"; done before it: {', '.join(done)}" if done else ""
    return TabstewardError(f"{doing} failed{where}: {exc.strerror or exc}; nothing more was "
                           f"done{before}")


def run_install(opts: setup_args.Options, platform: str = sys.platform,
                home: Path | None = None, env: Mapping[str, str] | None = None,
                registry: winreg_hosts.Registry | None = None,
                ids: Sequence[str] = ()) -> dict[str, Any]:
    """Keep the extra extension ids, register the host for the chosen browsers and copy the
    extension; the report."""
    browsers = list(opts.browsers) or install.detect(platform, home, env)
    confined = sandboxed.find(platform, home, env)
    if not browsers and confined:
        raise UsageError("nothing was installed: the only browsers here cannot start a native "
                         "host. " + " ".join(f"{s.line()}." for s in confined))
    if not browsers:
        looked = ", ".join(str(install.config_folder(b, platform, home, env))
                           for b in install.BROWSERS)
        raise UsageError(f"no Chrome, Chromium, Edge or Brave config folder exists here "
                         f"(looked for {looked}); nothing was installed; name the browser "
                         "with --browser NAME (chrome, chromium, edge, brave), and add "
                         "--user-data-dir DIR for one started with its own --user-data-dir")
    places = _places(opts, browsers, platform, home, env)
    try:
        added = extension_ids.add(ids)
    except OSError as exc:
        raise _failed("keeping the extension ids", exc, []) from exc
    src = extension_files.source()
    done: list[str] = []
    entries: list[dict[str, Any]] = []
    for where in places:
        try:
            install.register(where, registry)
        except OSError as exc:
            raise _failed(f"registering the host for {where.browser}", exc, done) from exc
        done.append(where.browser)
        key = where.registry_key
        entries.append({"browser": where.browser, "manifest": str(where.manifest),
                        "launcher": str(where.launcher),
                        "registry_key": winreg_hosts.shown(key) if key else None})
    dest = extension_files.copy_dir()
    try:
        changed = extension_files.copy(src, dest)
    except OSError as exc:
        raise _failed(f"copying the extension to {dest}", exc, done) from exc
    pages = {b: extension_files.EXTENSION_PAGES[b] for b in browsers}
    return {"ok": True, "command": "install", "browsers": entries,
            "skipped": [s.as_dict() for s in confined],
            "extension": {"folder": str(dest), "id": EXTENSION_ID, "changed": changed,
                          "pages": pages, "extra_ids": sorted(extension_ids.extra()),
                          "added_ids": added}}


def run_uninstall(opts: setup_args.Options, platform: str = sys.platform,
                  home: Path | None = None, env: Mapping[str, str] | None = None,
                  registry: winreg_hosts.Registry | None = None,
                  run_key: login_items.RunKey | None = None) -> dict[str, Any]:
    """Remove what install made for the chosen browsers (default: all known, and then what
    setup made besides: autostart, menu entry, icons, the extension's copy); the report."""
    places = _places(opts, list(opts.browsers) or install.BROWSERS, platform, home, env)
    entries: list[dict[str, Any]] = []
    done: list[str] = []
    for where in places:
        try:
            removed = install.unregister(where, registry)
        except OSError as exc:
            raise _failed(f"removing the host for {where.browser}", exc, done) from exc
        done.extend(removed)
        entries.append({"browser": where.browser, "removed": removed})
    whole = not opts.browsers and opts.user_data_dir is None
    tray: list[str] = []
    folder = extension_files.copy_dir()
    gone = False
    if whole:
        try:
            tray = login_items.remove_setup(platform, home, env, run_key)
            gone = extension_files.remove_copy(folder)
        except OSError as exc:
            raise _failed("removing what setup made", exc, done) from exc
        done.extend(tray)
    return {"ok": True, "command": "uninstall", "browsers": entries, "removed": done,
            "tray": tray, "extension": {"folder": str(folder), "left": folder.is_dir(),
                                        "removed": whole and gone}}


def _pages(pages: Mapping[str, str]) -> str:
    """'chrome://extensions (Chrome, Chromium), edge://extensions (Edge)'."""
    by_page: dict[str, list[str]] = {}
    for browser, page in pages.items():
        by_page.setdefault(page, []).append(install.LABELS[browser])
    return ", ".join(f"{page} ({', '.join(labels)})" for page, labels in by_page.items())


def install_text(report: Mapping[str, Any]) -> str:
    """What install did and what the person does next, as plain lines."""
    lines = [f"registered the native host {install.HOST_NAME}:"]
    for entry in report["browsers"]:
        lines.append(f"  {entry['browser']:<9} {entry['manifest']}")
        if entry["registry_key"]:
            lines.append(f"  {'':<9} registry key {entry['registry_key']}")
    for skipped in report.get("skipped", []):
        lines.append(f"skipped {skipped['name']}: {skipped['why']}; fix: {skipped['fix']}")
    ext = report["extension"]
    state = "copied the extension to" if ext["changed"] else "the extension is up to date in"
    lines += [
        f"{state} {ext['folder']}",
        "",
        "Load it into each browser once:",
        f"  1. open {_pages(ext['pages'])}",
        '  2. turn on "Developer mode"',
        f'  3. click "Load unpacked" and choose {ext["folder"]}',
        f"Its id is {ext['id']} (pinned by its manifest's key); the native host answers that "
        "id only.",
        "Loaded before? Click the reload icon on Tabsteward's card there instead.",
        *([f"The host also answers extension id(s) {', '.join(ext['extra_ids'])} "
           "(a Web Store build's)."] if ext.get("extra_ids") else []),
        "Then `tabsteward doctor` checks every link from the browser to the hub.",
    ]
    return "\n".join(lines) + "\n"


def uninstall_text(report: Mapping[str, Any]) -> str:
    """What uninstall removed and what the person removes by hand."""
    lines: list[str] = []
    untouched: list[str] = []
    for entry in report["browsers"]:
        if entry["removed"]:
            lines.append(f"removed for {entry['browser']}:")
            lines += [f"  {item}" for item in entry["removed"]]
        else:
            untouched.append(entry["browser"])
    if untouched:
        lines.append(f"nothing to remove for {', '.join(untouched)} (no Tabsteward host was "
                     "registered)")
    if report.get("tray"):
        lines.append("removed the tray app's autostart and menu entries:")
        lines += [f"  {item}" for item in report["tray"]]
    folder = report["extension"]["folder"]
    if report["extension"].get("removed"):
        lines.append(f"removed the extension's copy {folder}")
    there = (f"the unpacked extension stays in {folder}" if os.path.isdir(folder)
             else "the unpacked extension, if loaded")
    lines.append(f"Not removed: {there}. Remove Tabsteward on each browser's extensions page "
                 "(chrome://extensions, edge://extensions, brave://extensions) yourself"
                 + (", then delete the folder if you like." if os.path.isdir(folder) else "."))
    return "\n".join(lines) + "\n"
