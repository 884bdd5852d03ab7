"""`tabsteward extension pack`: a zip the Chrome Web Store accepts, and the store's id (not
the pinned one) answered by the host once `install --extension-id` keeps it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hub_env import BIN, Hub, private_env, start_hub, stop_hub
from tabsteward.bridge.browsers import extension_files, extension_ids
from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID
from tabsteward.bridge.cdp.launch import QUIET_FLAGS, find_chromium
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.setup import extension_pack

pytestmark = pytest.mark.timeout(120)
WAIT = 30.0


def _shipped() -> dict[str, bytes]:
    return extension_files.contents(extension_files.source())


def _built() -> dict[str, bytes]:
    return extension_pack.build(_shipped())


def test_the_store_build_drops_the_key_adds_icons_and_keeps_every_named_file() -> None:
    files = _built()
    manifest = json.loads(files["manifest.json"])
    shipped = json.loads(_shipped()["manifest.json"])
    assert "key" in shipped
    assert "key" not in manifest
    assert manifest["version"] == shipped["version"]
    assert manifest["permissions"] == shipped["permissions"]
    assert manifest["icons"]["128"] == "icons/128.png"
    assert files["icons/128.png"][:8] == b"\x89PNG\r\n\x1a\n"
    assert {"background.js", "popup.html", "popup.js", "names.js"} <= set(files)
    assert not any(name.endswith(".md") for name in files)  # docs are not shipped to users
    assert extension_pack.manifest_problems(manifest, list(files)) == []


@pytest.mark.parametrize(("change", "problem"), [
    ({"key": "MIIB"}, "has a `key`"),
    ({"manifest_version": 2}, "manifest_version is not 3"),
    ({"version": "1.02"}, "is not 1 to 4 numbers"),
    ({"version": "1.2.3.4.5"}, "is not 1 to 4 numbers"),
    ({"version": "70000"}, "is not 1 to 4 numbers"),
    ({"name": "T" * 76}, "name must be 1 to 75"),
    ({"description": "d" * 133}, "at most 132"),
    ({"icons": {"16": "icons/16.png"}}, "no 128 px icon"),
    ({"background": {"service_worker": "gone.js"}}, "lacks: gone.js"),
])
def test_a_manifest_the_store_would_refuse_is_named_with_its_reason(
        change: dict[str, Any], problem: str) -> None:
    files = _built()
    manifest = {**json.loads(files["manifest.json"]), **change}
    assert any(problem in p for p in extension_pack.manifest_problems(manifest, list(files)))


def test_a_shipped_manifest_the_store_would_refuse_writes_no_zip(tmp_path: Path) -> None:
    shipped = _shipped()
    broken = {**json.loads(shipped["manifest.json"]), "version": "one"}
    with pytest.raises(TabstewardError, match=r"the store would refuse.*nothing was written"):
        extension_pack.build({**shipped, "manifest.json": json.dumps(broken).encode()})


def test_pack_writes_the_same_zip_twice_with_the_manifest_at_its_root(
        tmp_path: Path) -> None:
    first, second = tmp_path / "a.zip", tmp_path / "b" / "c.zip"
    for out in (first, second):
        proc = subprocess.run([BIN, "extension", "pack", "--out", str(out)],
                              capture_output=True, text=True, check=False, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert f"wrote {out}" in proc.stdout
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.testzip() is None
        assert "manifest.json" in archive.namelist()
        assert "key" not in json.loads(archive.read("manifest.json"))


@pytest.mark.parametrize("argv", [[], ["pack", "--out"], ["pack", "--zip"], ["unpack"]])
def test_malformed_pack_arguments_exit_2_and_write_nothing(
        argv: list[str], tmp_path: Path) -> None:
    proc = subprocess.run([BIN, "extension", *argv], capture_output=True, text=True,
                          check=False, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert "nothing was written" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_extension_ids_are_kept_once_and_malformed_ones_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv(extension_ids.ENV, raising=False)
    store_id = "a" * 32
    assert extension_ids.add([store_id, store_id]) == [store_id]
    assert extension_ids.add([store_id]) == []
    assert extension_ids.stored() == [store_id]
    assert extension_ids.parse("# note\n  " + "b" * 32 + "  # mine\nnot-an-id\n") == ["b" * 32]
    with pytest.raises(TabstewardError, match=r"32 letters a-p.*nothing was installed"):
        extension_ids.take(["--extension-id", "ABC"], "nothing was installed")
    assert extension_ids.take(["--browser", "x", f"--extension-id={store_id}"], "") == (
        [store_id], ["--browser", "x"])


# -- the store's build in a real Chromium ----------------------------------------------------

def unpacked_id(folder: Path) -> str:
    """The id Chromium gives an unpacked extension without a key: from its folder's path."""
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:32]
    return "".join("abcdefghijklmnop"[int(c, 16)] for c in digest)


@pytest.fixture
def hub() -> Iterator[Hub]:
    env = private_env()
    started = start_hub(env)
    try:
        yield started
    finally:
        stop_hub(started)
        shutil.rmtree(Path(env["HOME"]).parent, ignore_errors=True)


def _chromium(profile: Path, extension: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    args = [find_chromium(), f"--user-data-dir={profile}", f"--load-extension={extension}",
            *QUIET_FLAGS, "--headless=new", "about:blank"]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")
    return subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _stop(browser: subprocess.Popen[bytes]) -> None:
    os.killpg(browser.pid, signal.SIGKILL)
    browser.wait(30)


def _wait(predicate: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError(f"waited {WAIT:.0f} s for {what}")


@pytest.mark.browser
def test_the_store_build_connects_only_once_install_keeps_its_id(
        hub: Hub, tmp_path: Path) -> None:
    env = hub.env
    folder = tmp_path / "store build"
    with zipfile.ZipFile(_zip(tmp_path)) as archive:
        archive.extractall(folder)
    store_id = unpacked_id(folder)
    assert store_id != EXTENSION_ID
    log = Path(env["XDG_STATE_HOME"]) / "tabsteward" / "native-host.log"

    def extension_browsers() -> list[dict[str, Any]]:
        listed = json.loads(hub.cli("--json", "browsers").stdout)
        return [b for b in listed["browsers"] if b.get("kind") == "extension"]

    profile = tmp_path / "profile"
    assert hub.cli("install", "--browser", "chromium", "--user-data-dir",
                   str(profile)).returncode == 0
    hosts = profile / "NativeMessagingHosts"
    before = json.loads((hosts / "com.tabsteward.host.json").read_text())["allowed_origins"]
    assert before == [f"chrome-extension://{EXTENSION_ID}/"]  # Chrome would not start it
    refused = subprocess.run([str(hosts / "tabsteward-native-host"),
                              f"chrome-extension://{store_id}/"], env=env, capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=30, check=False)
    assert refused.returncode == 1  # nor would the host itself answer it
    assert "is not an allowed extension; nothing was relayed" in log.read_text()
    assert extension_browsers() == []
    done = hub.cli("install", "--browser", "chromium", "--user-data-dir", str(profile),
                   "--extension-id", store_id)
    assert done.returncode == 0, done.stderr
    assert f"also answers extension id(s) {store_id}" in done.stdout
    manifest = json.loads((profile / "NativeMessagingHosts/com.tabsteward.host.json")
                          .read_text())
    assert f"chrome-extension://{store_id}/" in manifest["allowed_origins"]
    browser = _chromium(profile, folder, env)
    try:
        _wait(lambda: bool(extension_browsers()), "the store build to connect")
    finally:
        _stop(browser)


def _zip(tmp_path: Path) -> Path:
    out = tmp_path / "store.zip"
    proc = subprocess.run([BIN, "extension", "pack", "--out", str(out)], capture_output=True,
                          text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return out
