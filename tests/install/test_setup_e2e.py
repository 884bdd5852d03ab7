"""`tabsteward setup` for real on Linux, from the wheel installed in a venv whose path has a
space: the autostart entry read back by GIO and desktop-file-validate, then started as a
desktop session would start it; the menu entry and icons; re-running; `uninstall`."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import wheel_env
from tabsteward.bridge.browsers import app_entries

pytestmark = [pytest.mark.timeout(180)]
SYSTEM_PYTHON = "/usr/bin/python3"
WAIT = 30.0
# GLib's own reading of a desktop entry: the key file, then Exec split as GIO launches it
GIO_READ = """
import json, sys
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib
info = Gio.DesktopAppInfo.new_from_filename(sys.argv[1])
ok, argv = GLib.shell_parse_argv(info.get_commandline())
print(json.dumps({"argv": argv, "name": info.get_name(), "icon": info.get_string("Icon")}))
"""


def _has_gio() -> bool:
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return False
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gio', '2.0');"
                            " from gi.repository import Gio"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.fixture(scope="module")
def installed() -> Iterator[wheel_env.Installed]:
    made = wheel_env.make("tss", "venv with space")
    (made.home / ".config" / "chromium").mkdir(parents=True)  # a browser has run here
    try:
        yield made
    finally:
        wheel_env.remove(made)


@pytest.fixture
def browser_stand_in(installed: wheel_env.Installed) -> Iterator[Path]:
    """A `chromium` first on PATH that writes down its arguments (the person's browser is
    not started here), and a display for setup to open it on."""
    bin_dir = installed.root / "bin"
    bin_dir.mkdir(exist_ok=True)
    said = installed.root / "browser-args"
    (bin_dir / "chromium").write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{said}"\n')
    (bin_dir / "chromium").chmod(0o755)
    saved = dict(installed.env)
    installed.env.update(PATH=f"{bin_dir}{os.pathsep}{installed.env['PATH']}",
                         DISPLAY=":4242")
    try:
        yield said
    finally:
        installed.env.clear()
        installed.env.update(saved)


def _wait_for(path: Path) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if path.is_file() and path.read_text():
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_setup_writes_an_autostart_entry_that_gio_reads_and_starts_the_tray_app_from(
        installed: wheel_env.Installed, browser_stand_in: Path) -> None:
    out = installed.run("setup").stdout
    autostart = installed.home / ".config/autostart/tabsteward.desktop"
    menu = installed.home / ".local/share/applications/tabsteward.desktop"
    assert f"the tray app now starts at login: {autostart}" in out
    assert f"Tabsteward added to the applications menu: {menu}" in out
    assert "opened chrome://extensions in Chromium" in out
    assert '2. turn on "Developer mode"' in out
    assert _wait_for(browser_stand_in).splitlines() == ["chrome://extensions"]
    command = [installed.python, "-m", "tabsteward.bridge", "desktop"]
    assert " " in installed.python
    if shutil.which("desktop-file-validate"):
        for entry in (autostart, menu):
            check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True,
                                   text=True, check=False)
            assert check.returncode == 0, check.stdout + check.stderr
            assert "error" not in check.stdout
    if _has_gio():
        for entry in (autostart, menu):
            read = json.loads(subprocess.run([SYSTEM_PYTHON, "-c", GIO_READ, str(entry)],
                                             capture_output=True, text=True, check=True,
                                             timeout=30).stdout)
            assert read == {"argv": command, "name": "Tabsteward", "icon": "tabsteward"}
    icons = installed.home / ".local/share/icons/hicolor"
    assert (icons / "scalable/apps/tabsteward.svg").read_text().startswith("<svg")
    for size in app_entries.PNG_SIZES:
        assert (icons / f"{size}x{size}/apps/tabsteward.png").read_bytes()[:4] == b"\x89PNG"
    if not shutil.which("gio"):
        pytest.skip("no `gio` here to start the autostart entry as a session does")
    log = installed.root / "tray.log"
    with open(log, "w") as sink:  # the tray app keeps what it inherits: no pipes
        started = subprocess.run(["gio", "launch", str(autostart)], stdout=sink, stderr=sink,
                                 stdin=subprocess.DEVNULL, check=False, timeout=30,
                                 env=dict(installed.env, QT_QPA_PLATFORM="offscreen",
                                          DISPLAY=""))
    assert started.returncode == 0, log.read_text()
    pid = _hub_pid(installed)
    try:
        doctor = json.loads(installed.run("doctor", "--json", check=False).stdout)
        lines = {c["what"]: c["status"] for c in doctor["checks"]}
        assert lines[f"tray app at login: {autostart} starts this Tabsteward's tray app"] \
            == "ok", doctor
        assert lines[f"applications menu entry {menu}, with its icons"] == "ok", doctor
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            assert f.read().split(b"\0")[:4] == [w.encode() for w in command]
    finally:
        os.kill(pid, signal.SIGTERM)
        _wait_gone(pid)


def _hub_pid(installed: wheel_env.Installed) -> int:
    """The pid of the hub that answers in this HOME, once one does."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        proc = installed.run("doctor", "--json", check=False)
        for check in json.loads(proc.stdout)["checks"]:
            found = re.search(r"hub answers on .* pid (\d+)\)", check["what"])
            if found:
                return int(found[1])
        time.sleep(0.3)
    raise AssertionError("the tray app started from the autostart entry runs no hub")


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
        status = Path(f"/proc/{pid}/stat").read_text().split()[2] \
            if os.path.exists(f"/proc/{pid}/stat") else "X"
        if status == "Z":
            return
        time.sleep(0.1)


def test_setup_again_changes_nothing_and_uninstall_removes_every_part(
        installed: wheel_env.Installed) -> None:
    installed.run("setup", "--no-open")
    home = installed.home
    before = _tree(home / ".local/share") | _tree(home / ".config")
    out = installed.run("setup", "--no-open").stdout
    assert "the tray app already starts at login" in out
    assert "Tabsteward already in the applications menu" in out
    assert _tree(home / ".local/share") | _tree(home / ".config") == before
    out = installed.run("uninstall").stdout
    assert "removed the tray app's autostart and menu entries:" in out
    assert "removed the extension's copy" in out
    left = sorted(_tree(home / ".local/share")) + sorted(
        name for name in _tree(home / ".config")
        if not name.startswith("tabsteward/"))  # the person's settings (the hub's) stay
    assert left == [], left
    doctor = json.loads(installed.run("doctor", "--json", check=False).stdout)
    whats = [c["what"] for c in doctor["checks"] if c["status"] != "ok"]
    assert "tray app at login" in whats
    assert "applications menu" in whats
