"""Host registration: manifests, launchers, browser folders, the Windows registry, the CLI."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from memory_registry import MemoryRegistry, MemoryRunKey
from tabsteward.bridge import cli
from tabsteward.bridge.browsers import extension_files, winreg_hosts
from tabsteward.bridge.browsers.extension_ids import ALLOWED_ORIGINS, EXTENSION_ID
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.setup import install, install_cli, setup_args

pytestmark = pytest.mark.timeout(60)

CONFIG = {"chrome": ".config/google-chrome", "chromium": ".config/chromium",
          "edge": ".config/microsoft-edge", "brave": ".config/BraveSoftware/Brave-Browser"}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home with XDG folders inside it, and no browser config folders yet."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for var in ("XDG_CONFIG_HOME", "TABSTEWARD_EXTRA_EXTENSION_IDS", "TABSTEWARD_SOCKET"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / ".local/share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(folder / ".local/state"))
    return folder


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the manifest and launcher ----------------------------------------------------------

def test_install_writes_a_manifest_and_an_executable_launcher_into_the_user_data_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABSTEWARD_EXTRA_EXTENSION_IDS", "e" * 32)
    path = install.write_manifest("chromium", user_data_dir=tmp_path / "profile")
    assert path == tmp_path / "profile" / "NativeMessagingHosts" / "com.tabsteward.host.json"
    data = json.loads(path.read_text())
    assert data["name"] == "com.tabsteward.host"
    assert data["type"] == "stdio"
    assert data["description"]
    assert set(data["allowed_origins"]) == ALLOWED_ORIGINS | {f"chrome-extension://{'e' * 32}/"}
    launcher = Path(data["path"])
    assert launcher.is_absolute()
    assert launcher.parent == path.parent
    assert stat.S_IMODE(launcher.stat().st_mode) == 0o755
    assert launcher.read_text().startswith("#!/bin/sh\nexec ")
    assert "-m tabsteward.bridge.native_host \"$@\"" in launcher.read_text()


def test_the_launcher_starts_the_real_host_which_refuses_a_foreign_origin(
        tmp_path: Path) -> None:
    path = install.write_manifest("chrome", user_data_dir=tmp_path)
    launcher = json.loads(path.read_text())["path"]
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run([launcher, "chrome-extension://nope/"], input=b"",
                          capture_output=True, env=env, timeout=30, check=False)
    assert proc.returncode == 1
    assert proc.stdout == b""


def test_unregister_removes_the_manifest_and_launcher_and_tolerates_a_second_run(
        tmp_path: Path) -> None:
    path = install.write_manifest("brave", user_data_dir=tmp_path)
    where = install.place("brave", tmp_path)
    removed = install.unregister(where)
    assert sorted(removed) == sorted([str(path), str(path.parent / install.LAUNCHER_NAME)])
    assert not path.exists()
    assert install.unregister(where) == []


@pytest.mark.parametrize(("browser", "platform", "expected"), [
    ("chrome", "linux", ".config/google-chrome/NativeMessagingHosts"),
    ("chromium", "linux", ".config/chromium/NativeMessagingHosts"),
    ("edge", "linux", ".config/microsoft-edge/NativeMessagingHosts"),
    ("brave", "linux", ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts"),
    ("chrome", "darwin", "Library/Application Support/Google/Chrome/NativeMessagingHosts"),
    ("chromium", "darwin", "Library/Application Support/Chromium/NativeMessagingHosts"),
    ("edge", "darwin", "Library/Application Support/Microsoft Edge/NativeMessagingHosts"),
    ("brave", "darwin",
     "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts"),
    ("chrome", "win32", "AppData/Local/Tabsteward/NativeMessagingHosts"),
    ("brave", "win32", "AppData/Local/Tabsteward/NativeMessagingHosts"),
])
def test_each_browser_has_its_user_level_manifest_folder(
        browser: str, platform: str, expected: str) -> None:
    home = Path("/home/someone")
    assert install.manifest_dir(browser, platform, home, env={}) == home / expected


def test_xdg_config_home_moves_the_linux_browser_folders() -> None:
    env = {"XDG_CONFIG_HOME": "/elsewhere/config"}
    assert install.manifest_dir("chrome", "linux", Path("/home/x"), env) == Path(
        "/elsewhere/config/google-chrome/NativeMessagingHosts")
    assert install.config_folder("edge", "linux", Path("/home/x"), {"XDG_CONFIG_HOME": "rel"}) \
        == Path("/home/x/.config/microsoft-edge")


def test_unknown_browsers_are_refused_with_nothing_installed() -> None:
    with pytest.raises(UsageError, match=r"unknown browser 'firefox'.*nothing was installed"):
        install.manifest_dir("firefox", "linux")


def test_a_relative_launcher_path_makes_no_manifest() -> None:
    with pytest.raises(UsageError, match="not absolute"):
        install.manifest("host.sh", ALLOWED_ORIGINS)


@pytest.mark.parametrize(("text", "python"), [
    (install.launcher_text("/opt/my python/bin/python3"), "/opt/my python/bin/python3"),
    (install.launcher_text("/usr/bin/python3"), "/usr/bin/python3"),
    (install.launcher_text("C:\\Program Files\\Py\\python.exe", windows=True),
     "C:\\Program Files\\Py\\python.exe"),
    ("#!/bin/sh\nexec node host.js\n", None),
])
def test_the_launchers_python_is_read_back_from_its_text(text: str, python: str | None) -> None:
    assert install.launcher_python(text) == python


# -- install and uninstall from the command line ------------------------------------------

@pytest.mark.parametrize("browser", install.BROWSERS)
def test_install_then_uninstall_round_trips_for_a_browser_found_in_the_home_folder(
        browser: str, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / CONFIG[browser]).mkdir(parents=True)
    code, out, _ = run_cli(capsys, "install")
    assert code == 0
    folder = home / CONFIG[browser] / "NativeMessagingHosts"
    manifest = json.loads((folder / "com.tabsteward.host.json").read_text())
    assert manifest["path"] == str(folder / "tabsteward-native-host")
    assert os.access(manifest["path"], os.X_OK)
    copy = home / ".local/share/tabsteward/extension"
    assert json.loads((copy / "manifest.json").read_text())["key"]
    assert (copy / "background.js").is_file()
    page = extension_files.EXTENSION_PAGES[browser]
    assert f"open {page}" in out
    assert '"Developer mode"' in out
    assert f'"Load unpacked" and choose {copy}' in out
    assert EXTENSION_ID in out
    others = [b for b in install.BROWSERS if b != browser]
    assert not any((home / CONFIG[b]).exists() for b in others)

    assert run_cli(capsys, "install")[0] == 0  # again: harmless, same result
    assert (folder / "com.tabsteward.host.json").is_file()

    code, out, _ = run_cli(capsys, "uninstall")
    assert code == 0
    assert f"removed for {browser}:" in out
    assert str(folder / "com.tabsteward.host.json") in out
    assert "extensions page" in out
    assert tree(folder) == []
    assert (home / CONFIG[browser]).is_dir()
    assert f"removed the extension's copy {copy}" in out  # the whole of setup is undone
    assert not copy.exists()

    code, out, _ = run_cli(capsys, "uninstall")
    assert code == 0
    assert "nothing to remove for chrome, chromium, edge, brave" in out


def test_install_registers_every_browser_found_and_leaves_the_others_alone(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for browser in ("chrome", "edge"):
        (home / CONFIG[browser]).mkdir(parents=True)
    code, out, _ = run_cli(capsys, "install", "--json")
    assert code == 0
    report = json.loads(out)
    assert [b["browser"] for b in report["browsers"]] == ["chrome", "edge"]
    assert report["extension"]["id"] == EXTENSION_ID
    assert report["extension"]["pages"] == {"chrome": "chrome://extensions",
                                            "edge": "edge://extensions"}
    assert not (home / CONFIG["chromium"]).exists()
    assert not (home / CONFIG["brave"]).exists()


def test_install_with_an_explicit_browser_creates_its_folder_even_if_absent(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "install", "--browser", "brave", "--browser", "brave")
    assert code == 0
    assert (home / CONFIG["brave"] / "NativeMessagingHosts/com.tabsteward.host.json").is_file()
    assert "brave://extensions (Brave)" in out


def test_install_with_no_browser_folder_installs_nothing_and_says_to_name_one(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "install")
    assert code == 2
    assert out == ""
    assert "no Chrome, Chromium, Edge or Brave config folder" in err
    assert "nothing was installed" in err
    assert "--browser NAME" in err
    assert tree(home) == []


def test_install_into_a_user_data_dir_writes_only_there(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "portable"
    code, _, _ = run_cli(capsys, "install", "--browser", "chromium",
                         f"--user-data-dir={profile}")
    assert code == 0
    assert tree(profile) == ["NativeMessagingHosts",
                             "NativeMessagingHosts/com.tabsteward.host.json",
                             "NativeMessagingHosts/tabsteward-native-host"]
    assert not (home / ".config").exists()
    code, out, _ = run_cli(capsys, "uninstall", "--browser", "chromium",
                           "--user-data-dir", str(profile))
    assert code == 0
    assert "removed for chromium:" in out
    assert tree(profile) == ["NativeMessagingHosts"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--browser", "firefox"], "unknown browser 'firefox'"),
    (["--browser"], "--browser needs a value"),
    (["--browser="], "--browser needs a value"),
    (["--user-data-dir"], "--user-data-dir needs a value"),
    (["--browser", "--user-data-dir", "/tmp/p"], "--browser needs a value"),
    (["--user-data-dir", "/tmp/p"], "needs exactly one --browser (given 0)"),
    (["--browser", "chrome", "--browser", "edge", "--user-data-dir", "/tmp/p"],
     "needs exactly one --browser (given 2)"),
    (["--user-data-dir", "/a", "--user-data-dir", "/b", "--browser", "chrome"], "given twice"),
    (["--verbose"], "unknown option '--verbose'"),
    (["chrome"], "unexpected argument 'chrome'"),
])
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_malformed_arguments_exit_2_and_change_nothing(
        command: str, argv: list[str], message: str, home: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    (home / CONFIG["chrome"]).mkdir(parents=True)
    before = tree(home)
    code, out, err = run_cli(capsys, command, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert message in err
    assert install_cli.UNDONE[command] in err
    assert tree(home) == before


def test_a_usage_error_with_json_is_a_json_error_object(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "install", "--json", "--browser", "safari")
    assert code == 2
    assert err == ""
    reply = json.loads(out)
    assert reply["ok"] is False
    assert reply["error"]["code"] == 2
    assert "nothing was installed" in reply["error"]["message"]


def test_help_describes_the_options_and_installs_nothing(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "install", "--help")
    assert code == 0
    assert out.startswith("usage: tabsteward install [--browser NAME]...")
    assert tree(home) == []


def test_the_installed_command_runs_install_and_uninstall_in_a_fresh_process(
        home: Path) -> None:
    (home / CONFIG["chromium"]).mkdir(parents=True)
    for command, expected in (("install", "registered the native host"),
                              ("uninstall", "removed for chromium:")):
        proc = subprocess.run([sys.executable, "-m", "tabsteward.bridge", command],
                              capture_output=True, text=True, timeout=30, check=False)
        assert proc.returncode == 0, proc.stderr
        assert expected in proc.stdout


# -- Windows: the registry, through the in-memory stand-in ------------------------------

@pytest.mark.parametrize(("browser", "vendor"), [
    ("chrome", "Software\\Google\\Chrome"),
    ("chromium", "Software\\Chromium"),
    ("edge", "Software\\Microsoft\\Edge"),
    ("brave", "Software\\BraveSoftware\\Brave-Browser"),
])
def test_each_browser_has_its_hkcu_key_on_windows(browser: str, vendor: str) -> None:
    assert winreg_hosts.host_key(browser, "com.tabsteward.host") == \
        f"{vendor}\\NativeMessagingHosts\\com.tabsteward.host"


def test_windows_install_writes_one_manifest_a_bat_launcher_and_a_key_per_browser(
        home: Path, tmp_path: Path) -> None:
    local = tmp_path / "LocalAppData"
    for vendor in ("Google/Chrome/User Data", "Microsoft/Edge/User Data"):
        (local / vendor).mkdir(parents=True)
    env = {"LOCALAPPDATA": str(local)}
    registry = MemoryRegistry()
    report = install_cli.run_install(setup_args.Options(), "win32", home, env, registry)

    folder = local / "Tabsteward" / "NativeMessagingHosts"
    manifest = folder / "com.tabsteward.host.json"
    assert registry.keys == {
        "Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabsteward.host": str(manifest),
        "Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.tabsteward.host": str(manifest),
    }
    assert [b["registry_key"] for b in report["browsers"]] == [
        "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabsteward.host",
        "HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.tabsteward.host"]
    data = json.loads(manifest.read_text())
    assert data["path"] == str(folder / "tabsteward-native-host.bat")
    assert f"chrome-extension://{EXTENSION_ID}/" in data["allowed_origins"]
    assert (folder / "tabsteward-native-host.bat").read_bytes() == (
        f'@echo off\r\n"{sys.executable}" -m tabsteward.bridge.native_host %*\r\n'.encode())
    assert "registry key HKCU\\Software\\Microsoft\\Edge" in install_cli.install_text(report)

    only_chrome = setup_args.Options(browsers=("chrome",))
    first = install_cli.run_uninstall(only_chrome, "win32", home, env, registry)
    assert first["removed"] == [
        "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabsteward.host"]
    assert manifest.is_file()  # Edge still points at it
    rest = install_cli.run_uninstall(setup_args.Options(), "win32", home, env, registry,
                                     MemoryRunKey())
    assert rest["removed"] == [
        "HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.tabsteward.host",
        str(manifest), str(folder / "tabsteward-native-host.bat")]
    assert registry.keys == {}
    again = install_cli.run_uninstall(setup_args.Options(), "win32", home, env, registry,
                                      MemoryRunKey())
    assert again["removed"] == []


def test_windows_refuses_a_user_data_dir_since_only_the_registry_counts(
        tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="registry alone; nothing was done"):
        install.place("chrome", tmp_path, "win32", env={"LOCALAPPDATA": str(tmp_path)})


def test_the_real_registry_says_it_exists_only_on_windows() -> None:
    if sys.platform == "win32":
        pytest.skip("this is the non-Windows behaviour")
    with pytest.raises(OSError, match="only on Windows"):
        winreg_hosts.WinRegistry().get_default("Software\\Tabsteward")


# -- the extension's copy ---------------------------------------------------------------

def test_the_extension_copy_is_refreshed_in_place_and_loses_stale_files(
        tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "icons").mkdir(parents=True)
    (src / "manifest.json").write_text('{"key": "k"}')
    (src / "background.js").write_text("one")
    (src / "icons" / "README.md").write_text("icons")
    (src / "notes.txt").write_text("not shipped")
    dest = tmp_path / "dest"
    assert extension_files.copy(src, dest) == ["background.js", "icons/README.md",
                                               "manifest.json"]
    assert extension_files.copy(src, dest) == []
    (src / "background.js").write_text("two")
    (dest / "old.js").write_text("stale")
    assert extension_files.copy(src, dest) == ["background.js", "old.js"]
    assert tree(dest) == ["background.js", "icons", "icons/README.md", "manifest.json"]
    assert extension_files.differences(src, dest) == []


def test_the_shipped_extension_is_found_with_its_manifest_and_worker() -> None:
    shipped = extension_files.contents(extension_files.source())
    assert {"manifest.json", "background.js"} <= set(shipped)
    assert json.loads(shipped["manifest.json"])["key"]
