"""Host registration: the manifest, the launcher beside it, the browser folders, uninstall."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from tabsteward.bridge import install
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.native_host import ALLOWED_ORIGINS


@pytest.mark.timeout(30)
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


@pytest.mark.timeout(60)
def test_the_launcher_starts_the_real_host_which_refuses_a_foreign_origin(
        tmp_path: Path) -> None:
    path = install.write_manifest("chrome", user_data_dir=tmp_path)
    launcher = json.loads(path.read_text())["path"]
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run([launcher, "chrome-extension://nope/"], input=b"",
                          capture_output=True, env=env, timeout=30, check=False)
    assert proc.returncode == 1
    assert proc.stdout == b""


@pytest.mark.timeout(30)
def test_uninstall_removes_the_manifest_and_launcher_and_tolerates_a_second_run(
        tmp_path: Path) -> None:
    path = install.write_manifest("brave", user_data_dir=tmp_path)
    removed = install.uninstall("brave", user_data_dir=tmp_path)
    assert sorted(removed) == sorted([path, path.parent / install.LAUNCHER_NAME])
    assert not path.exists()
    assert install.uninstall("brave", user_data_dir=tmp_path) == []


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
])
@pytest.mark.timeout(30)
def test_each_browser_has_its_user_level_manifest_folder(
        browser: str, platform: str, expected: str) -> None:
    home = Path("/home/someone")
    assert install.manifest_dir(browser, platform, home) == home / expected


@pytest.mark.timeout(30)
def test_windows_and_unknown_browsers_are_refused_with_nothing_installed() -> None:
    with pytest.raises(UsageError, match="HKCU registry"):
        install.manifest_dir("chrome", "win32")
    with pytest.raises(UsageError, match="unknown browser"):
        install.manifest_dir("firefox", "linux")


@pytest.mark.timeout(30)
def test_a_relative_launcher_path_makes_no_manifest() -> None:
    with pytest.raises(UsageError, match="not absolute"):
        install.manifest("host.sh", ALLOWED_ORIGINS)
