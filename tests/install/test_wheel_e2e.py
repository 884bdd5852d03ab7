"""Tabsteward from its wheel, with no checkout: the installed command, install and doctor, the
demo page read through the installed hub, and a real Chromium starting the installed host."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import zipfile
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest
import wheel_env
from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID
from tabsteward.bridge.cdp.launch import QUIET_FLAGS, find_chromium
from tabsteward.bridge.setup import install

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
WAIT = 30.0
TOKEN = "wheel-test-token-0123456789abcdef"  # the hub accepts it as its started-with agent


@pytest.fixture(scope="module")
def installed() -> Iterator[wheel_env.Installed]:
    made = wheel_env.make()
    try:
        yield made
    finally:
        wheel_env.remove(made)


def _shipped(folder: Path, suffixes: tuple[str, ...]) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and p.suffix in suffixes}


def test_the_wheel_holds_the_extension_the_demo_page_and_the_page_scripts(
        installed: wheel_env.Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    checkout = wheel_env.CHECKOUT
    extension = _shipped(checkout / "extension", (".js", ".json", ".html", ".css", ".md",
                                                   ".png"))
    assert "manifest.json" in extension
    for name in extension:
        assert f"tabsteward/extension/{name}" in names, name
    scripts = [f"bridge/engine/{p.name}" for p in (checkout / "bridge/engine").glob("*.js")]
    assert "bridge/engine/page.js" in scripts
    for data in ("bridge/demo/shop.html", *scripts, "bridge/SKILL.md", "desktop/shape.py",
                 "bridge/native_host.py"):
        assert f"tabsteward/{data}" in names, data
    assert not any(n.startswith(("bridge/", "desktop/", "tests/")) for n in names), \
        "plain top-level packages would land in site-packages"


def test_the_installed_command_and_every_module_come_from_the_venv_alone(
        installed: wheel_env.Installed) -> None:
    version = installed.python_says("from tabsteward.bridge import version; print(version())")
    assert installed.run("--version").stdout == f"tabsteward {version}\n"
    where = json.loads(installed.python_says(
        "import json, tabsteward.bridge.native_host as h, tabsteward.desktop.app as d; "
        "from tabsteward.bridge.browsers import extension_files as e; "
        "print(json.dumps([h.__file__, d.__file__, "
        "str(e.source().joinpath('manifest.json'))]))"))
    for path in where:
        assert path.startswith(str(installed.venv)), where
    assert installed.run("skill").stdout.startswith("#")  # the installed guide
    # the wheel's requirements are met by what the venv holds (its metadata is right)
    check = subprocess.run([installed.python, "-m", "pip", "check"], env=installed.env,
                           capture_output=True, text=True, check=False, timeout=120)
    assert check.returncode == 0, check.stdout


def test_install_and_doctor_from_the_wheel_set_up_a_browser_profile(
        installed: wheel_env.Installed, tmp_path: Path) -> None:
    profile = tmp_path / "profile with space"
    out = json.loads(installed.run("install", "--browser", "chromium", "--user-data-dir",
                                   str(profile), "--json").stdout)
    launcher = Path(out["browsers"][0]["launcher"])
    assert launcher.parent == profile / "NativeMessagingHosts"
    assert install.launcher_python(launcher.read_text()) == installed.python
    copy = Path(out["extension"]["folder"])
    assert copy == installed.home / ".local" / "share" / "tabsteward" / "extension"
    assert json.loads((copy / "manifest.json").read_text())["key"]
    doctor = installed.run("doctor", "--browser", "chromium", "--user-data-dir", str(profile),
                           "--json")
    checks = json.loads(doctor.stdout)["checks"]
    assert json.loads(doctor.stdout)["ok"] is True, checks
    assert any(c["status"] == "ok" and "imports Tabsteward's host" in c["what"]
               and installed.python in c["what"] for c in checks), checks


@pytest.fixture
def demo_pages(installed: wheel_env.Installed) -> Iterator[str]:
    """The installed package's demo folder served on 127.0.0.1, as `tabsteward demo` does."""
    folder = installed.python_says(
        "from importlib.resources import files; print(files('tabsteward.bridge.demo'))")
    assert folder.startswith(str(installed.venv))
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 partial(_Quiet, directory=folder))
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/shop.html"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def hub(installed: wheel_env.Installed) -> Iterator[subprocess.Popen[str]]:
    """The installed `tabsteward serve`, accepting TOKEN's agent; clients get TOKEN."""
    env = dict(installed.env, TABSTEWARD_TOKEN=TOKEN)
    proc = subprocess.Popen([installed.tabsteward, "serve"], env=env, cwd=installed.home,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("tabsteward hub ready on ")
    installed.env["TABSTEWARD_TOKEN"] = TOKEN
    try:
        yield proc
    finally:
        del installed.env["TABSTEWARD_TOKEN"]
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        proc.stdout.close()


def _host_processes(home: Path) -> list[list[str]]:
    """The command lines of the native hosts running with this HOME (other tests' and
    other people's hosts may run too)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"HOME={home}".encode() not in environ:
            continue
        args = [w.decode("utf-8", "replace") for w in words if w]
        if install.HOST_MODULE in args:
            found.append(args)
    return found


def test_the_installed_hub_reads_the_demo_page_and_chromium_starts_the_installed_host(
        installed: wheel_env.Installed, hub: subprocess.Popen[str], demo_pages: str,
        tmp_path: Path) -> None:
    installed.run("open", demo_pages)
    snapshot = installed.run("snapshot", "-i").stdout
    assert 'heading "Green tea, 100 g"' in installed.run("snapshot").stdout
    assert 'button "Add to cart"' in snapshot
    profile = tmp_path / "chromium profile"
    out = json.loads(installed.run("install", "--browser", "chromium", "--user-data-dir",
                                   str(profile), "--json").stdout)
    copy = out["extension"]["folder"]  # the folder a person loads with "Load unpacked"
    args = [find_chromium(), f"--user-data-dir={profile}", f"--load-extension={copy}",
            *QUIET_FLAGS, "--headless=new", "about:blank"]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")
    browser = subprocess.Popen(args, env=installed.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + WAIT
        listed: dict[str, object] = {}
        while time.monotonic() < deadline:
            listed = json.loads(installed.run("--json", "browsers").stdout)
            if any(b.get("kind") == "extension" for b in _browsers(listed)):
                break
            time.sleep(0.3)
        assert any(b.get("kind") == "extension" for b in _browsers(listed)), listed
        origin = f"chrome-extension://{EXTENSION_ID}/"
        hosts = [a for a in _host_processes(installed.home) if origin in a]
        assert hosts, "no native host runs for the extension"
        assert all(a[0] == installed.python for a in hosts), hosts
        log = installed.home / ".local" / "state" / "tabsteward" / "native-host.log"
        assert "connected to the hub" in log.read_text()
        doctor = json.loads(installed.run("doctor", "--browser", "chromium", "--user-data-dir",
                                          str(profile), "--json").stdout)
        assert any(c["status"] == "ok" and c["what"].startswith(
            "browser extension connected to the hub") for c in doctor["checks"]), doctor
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait(30)


def _browsers(reply: dict[str, object]) -> list[dict[str, object]]:
    found = reply.get("browsers")
    if found is None and isinstance(reply.get("result"), dict):
        found = reply["result"].get("browsers")  # type: ignore[union-attr]
    return [b for b in found if isinstance(b, dict)] if isinstance(found, list) else []
