"""What setup writes for the tray app on each system, as files and values: places, contents,
and paths with spaces and other characters quoted so each system splits them back."""

from __future__ import annotations

import plistlib
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from memory_registry import MemoryRegistry, MemoryRunKey
from tabsteward.bridge.browsers import app_entries, browser_apps
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.setup import install_cli, login_items, setup_args, setup_cli, setup_doctor
from tabsteward.desktop import icon_files, shape

pytestmark = pytest.mark.timeout(60)

SPACED = "/home/ada lovelace/my tools/venv/bin/python"


@pytest.mark.parametrize(("word", "written"), [
    ("/usr/bin/python3", "/usr/bin/python3"),
    ("-m", "-m"),
    ("/home/ada lovelace/py", '"/home/ada lovelace/py"'),
    ("/o'brien/py", '"/o\'brien/py"'),
    ('/a"b/py', '"/a\\\\"b/py"'),          # \" in the quoted argument, its \ escaped again
    ("/a$HOME/py", '"/a\\\\$HOME/py"'),
    ("/a\\b/py", '"/a\\\\\\\\b/py"'),      # a literal backslash is four in the file
    ("/50%/py", "/50%%/py"),
    ("", '""'),
])
def test_exec_arguments_are_quoted_and_escaped_as_the_desktop_entry_spec_says(
        word: str, written: str) -> None:
    assert app_entries.exec_argument(word) == written


def test_a_path_with_a_line_break_is_refused_since_no_desktop_entry_can_hold_it() -> None:
    with pytest.raises(UsageError, match="nothing was written"):
        app_entries.exec_argument("/a\nb/python")


def test_the_tray_command_runs_this_python_or_the_frozen_binary() -> None:
    assert app_entries.tray_command("/v/bin/python", frozen=False) == [
        "/v/bin/python", "-m", "tabsteward.bridge", "desktop"]
    assert app_entries.tray_command("/opt/tabsteward/tabsteward", frozen=True) == [
        "/opt/tabsteward/tabsteward", "desktop"]
    assert app_entries.tray_command("C:\\Py 3\\python.exe", frozen=False, windows=True)[0] == \
        "C:\\Py 3\\pythonw.exe"  # no console window at login
    assert app_entries.tray_command("C:\\Tabsteward\\tabsteward.exe", frozen=True,
                                    windows=True) == [
        "C:\\Tabsteward\\tabstewardw.exe", "desktop"]  # the frozen build's windowless one


def test_linux_entries_go_to_xdg_folders_and_name_the_icon() -> None:
    home = Path("/home/ada")
    assert app_entries.linux_autostart_path(home, {}) == Path(
        "/home/ada/.config/autostart/tabsteward.desktop")
    assert app_entries.linux_autostart_path(home, {"XDG_CONFIG_HOME": "/cfg"}) == Path(
        "/cfg/autostart/tabsteward.desktop")
    assert app_entries.linux_autostart_path(home, {"XDG_CONFIG_HOME": "rel"}) == Path(
        "/home/ada/.config/autostart/tabsteward.desktop")  # a relative XDG value is ignored
    assert app_entries.linux_menu_path(home, {"XDG_DATA_HOME": "/d"}) == Path(
        "/d/applications/tabsteward.desktop")
    icons = app_entries.linux_icon_paths(home, {})
    assert icons["svg"] == Path(
        "/home/ada/.local/share/icons/hicolor/scalable/apps/tabsteward.svg")
    assert icons["48"] == Path("/home/ada/.local/share/icons/hicolor/48x48/apps/tabsteward.png")
    command = [SPACED, "-m", "tabsteward.bridge", "desktop"]
    text = app_entries.desktop_entry(command, autostart=True)
    lines = text.splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert f'Exec="{SPACED}" -m tabsteward.bridge desktop' in lines
    assert "Icon=tabsteward" in lines
    assert "X-GNOME-Autostart-enabled=true" in lines
    assert "X-GNOME-Autostart-enabled=true" not in app_entries.desktop_entry(command, False)


def test_the_macos_launch_agent_runs_the_tray_app_at_login_with_its_words_intact() -> None:
    home = Path("/Users/ada")
    assert app_entries.launch_agent_path(home) == Path(
        "/Users/ada/Library/LaunchAgents/com.tabsteward.tray.plist")
    command = [SPACED, "-m", "tabsteward.bridge", "desktop & <x>"]
    data = plistlib.loads(app_entries.launch_agent(command).encode())
    assert data["Label"] == "com.tabsteward.tray"
    assert data["ProgramArguments"] == command
    assert data["RunAtLoad"] is True
    assert data["LimitLoadToSessionType"] == "Aqua"


def test_the_windows_run_value_quotes_a_path_with_spaces() -> None:
    command = app_entries.tray_command("C:\\Program Files\\Python 3\\python.exe", frozen=False,
                                       windows=True)
    assert app_entries.run_value(command) == (
        '"C:\\Program Files\\Python 3\\pythonw.exe" -m tabsteward.bridge desktop')
    assert app_entries.shown_run_value() == (
        "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\Tabsteward")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home of ada"
    (folder / "AppData/Local/Google/Chrome/User Data").mkdir(parents=True)
    (folder / "Library/Application Support/Google/Chrome").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "TABSTEWARD_EXTRA_EXTENSION_IDS"):
        monkeypatch.delenv(var, raising=False)
    return folder


def test_setup_on_macos_writes_the_launch_agent_and_uninstall_removes_it(home: Path) -> None:
    report = setup_cli.run(setup_args.Options(), open_page=False, platform="darwin",
                           home=home, env={})
    plist = home / "Library/LaunchAgents/com.tabsteward.tray.plist"
    assert report["tray"]["autostart"] == {"place": str(plist), "changed": True}
    assert report["tray"]["menu"] is None  # a menu entry is Linux's
    assert plistlib.loads(plist.read_bytes())["ProgramArguments"] == [
        sys.executable, "-m", "tabsteward.bridge", "desktop"]
    again = setup_cli.run(setup_args.Options(), open_page=False, platform="darwin", home=home,
                          env={})
    assert again["tray"]["autostart"]["changed"] is False
    assert [c.status for c in setup_doctor.checks("darwin", home, {})] == ["ok"]
    removed = install_cli.run_uninstall(setup_args.Options(), "darwin", home, {})
    assert str(plist) in removed["tray"]
    assert not plist.exists()
    assert [c.status for c in setup_doctor.checks("darwin", home, {})] == ["warn"]


def test_setup_on_windows_sets_the_run_value_and_uninstall_deletes_it(home: Path) -> None:
    env = {"LOCALAPPDATA": str(home / "AppData/Local")}
    run_key, registry = MemoryRunKey(), MemoryRegistry()
    report = setup_cli.run(setup_args.Options(), open_page=False, platform="win32", home=home,
                           env=env, registry=registry, run_key=run_key)
    assert report["tray"]["autostart"]["place"] == app_entries.shown_run_value()
    assert run_key.values == {"Tabsteward": app_entries.run_value(
        app_entries.tray_command(windows=True))}
    assert setup_doctor.checks("win32", home, env, run_key)[0].status == "ok"
    install_cli.run_uninstall(setup_args.Options(), "win32", home, env, registry, run_key)
    assert run_key.values == {}
    assert registry.keys == {}


def test_setup_with_no_autostart_writes_none_and_doctor_only_warns(home: Path) -> None:
    report = setup_cli.run(setup_args.Options(), autostart=False, open_page=False,
                           platform="darwin", home=home, env={})
    assert report["tray"]["autostart"] is None
    assert not (home / "Library/LaunchAgents").exists()
    assert "does not start at login (--no-autostart)" in setup_cli.text(report)
    [check] = setup_doctor.checks("darwin", home, {})
    assert check.status == "warn"
    assert "--no-autostart" in check.fix


def test_an_autostart_entry_of_another_installation_is_told_apart() -> None:
    assert setup_doctor.autostart_check("other", "mine", "/p", None).status == "warn"
    assert setup_doctor.autostart_check("mine", "mine", "/p", None).status == "ok"
    missing = "the tray app is not installed here"
    assert setup_doctor.autostart_check("mine", "mine", "/p", missing).status == "fail"
    assert setup_doctor.autostart_check(None, "mine", "/p", missing).status == "ok"


# -- the icon: one drawing, as the tray's painter and as SVG ---------------------------------

def _png_size_and_pixel(data: bytes, x: int, y: int) -> tuple[int, int, tuple[int, ...]]:
    """Width, height and the RGBA of one pixel of an 8-bit RGBA PNG (read by hand)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert (depth, colour) == (8, 6)
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for r in range(height):
        kind, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) *
                                                          (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            p = a + b - c
            pred = (a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c)
            line[i] = (line[i] + (0, a, b, (a + b) // 2, pred)[kind]) & 0xFF
        rows.append(line)
        prev = line
    return width, height, tuple(rows[y][x * 4:x * 4 + 4])


def test_the_menu_icon_pngs_and_svg_are_drawn_from_the_tray_icons_shape() -> None:
    colour = shape.COLOURS[shape.APP_STATE].lstrip("#")
    rgb = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
    for size in app_entries.PNG_SIZES:
        width, height, pixel = _png_size_and_pixel(icon_files.png(size), size // 2,
                                                   size * 7 // 32)
        assert (width, height) == (size, size)
        assert pixel == (*rgb, 255), size  # inside the shield, above its mark
        assert _png_size_and_pixel(icon_files.png(size), 0, 0)[2][3] == 0  # corners clear
    root = ET.fromstring(icon_files.svg())
    assert root.get("viewBox") == "0 0 32 32"
    ns = "{http://www.w3.org/2000/svg}"
    shield = root.find(f"{ns}path")
    assert shield is not None
    assert shield.get("fill") == shape.COLOURS[shape.APP_STATE]
    assert shield.get("d") == "M 16 2 L 28 6 C 28 18 23 26 16 30 C 9 26 4 18 4 6 Z"
    assert len(root.findall(f"{ns}ellipse")) == len(shape.marks(shape.APP_STATE))


def test_without_the_tray_app_setup_writes_no_autostart_and_says_why(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(login_items, "tray_missing",
                        lambda: "the tray app is not installed here (PySide6 missing)")
    report = setup_cli.run(setup_args.Options(), open_page=False, platform="darwin",
                           home=home, env={})
    assert report["tray"]["autostart"] is None
    assert not (home / "Library/LaunchAgents").exists()
    assert "no autostart or menu entry: the tray app is not installed" in setup_cli.text(report)


@pytest.mark.parametrize(("argv", "message"), [
    (["--bogus"], "'--bogus' for `tabsteward setup` (options: --browser NAME (repeatable), "
                  "--extension-id ID (repeatable), --no-autostart, --no-open"),
    (["--extension-id", "XYZ"], "--extension-id needs an extension id"),
    (["--browser", "firefox"], "unknown browser 'firefox'"),
])
def test_setup_with_malformed_arguments_exits_2_and_sets_up_nothing(
        home: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert setup_cli.main(argv, platform="darwin", home=home, env={}) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "nothing was set up" in err
    assert not (home / "Library/LaunchAgents").exists()
    assert not (home / ".local").exists()


def test_setup_says_what_it_did_before_the_three_clicks(home: Path) -> None:
    report = setup_cli.run(setup_args.Options(), open_page=False, platform="darwin",
                           home=home, env={})
    lines = setup_cli.text(report).splitlines()
    at_login = next(i for i, line in enumerate(lines) if "now starts at login" in line)
    clicks = lines.index("Load it into each browser once:")
    assert at_login < clicks
    assert lines[clicks + 2] == '  2. turn on "Developer mode"'


def test_the_browser_to_open_is_looked_for_where_each_system_installs_it(
        tmp_path: Path) -> None:
    assert browser_apps.candidates("chrome", "darwin", Path("/Users/ada"))[0] == (
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
    assert browser_apps.candidates("edge", "win32", env={
        "PROGRAMFILES": "C:\\Program Files", "LOCALAPPDATA": "C:\\Users\\ada\\AppData\\Local"}
    ) == ["C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe",
          "C:\\Users\\ada\\AppData\\Local\\Microsoft\\Edge\\Application\\msedge.exe"]
    assert browser_apps.candidates("brave", "linux") == ["brave-browser", "brave"]
    (tmp_path / "chromium-browser").write_text("#!/bin/sh\n")
    (tmp_path / "chromium-browser").chmod(0o755)
    assert browser_apps.find("chromium", "linux", env={"PATH": str(tmp_path)}) == str(
        tmp_path / "chromium-browser")
    assert browser_apps.find("chrome", "linux", env={"PATH": str(tmp_path)}) is None
    assert not browser_apps.can_show_windows("linux", {})
    assert browser_apps.can_show_windows("linux", {"WAYLAND_DISPLAY": "wayland-0"})


def test_the_main_help_names_setup_install_doctor_and_extension_pack() -> None:
    from tabsteward.bridge.hub import argv
    from tabsteward.bridge.tools.registry import table
    text = argv.main_help(table())
    for command in ("tabsteward setup", "tabsteward install | uninstall | doctor",
                    "tabsteward extension pack", "tabsteward desktop"):
        assert command in text
