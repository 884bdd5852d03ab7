"""`tabsteward doctor`: each broken link of the chain is named, with how to fix it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from looprunner import loop_thread
from memory_registry import MemoryRegistry
from tabsteward.bridge import cli
from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.records.agents import Agents
from tabsteward.bridge.setup import doctor, install, setup_args

pytestmark = pytest.mark.timeout(60)

ORIGIN = f"chrome-extension://{EXTENSION_ID}/"
HOSTS = ".config/chromium/NativeMessagingHosts"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fake home (XDG folders inside it) with a Chromium config folder; the hub folder is
    short (sockets) and empty. This terminal is a paired agent (its token in
    TABSTEWARD_TOKEN), as it is once the person has approved it."""
    folder = tmp_path / "home"
    (folder / ".config/chromium").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    for var in ("XDG_CONFIG_HOME", "TABSTEWARD_EXTRA_EXTENSION_IDS", "TABSTEWARD_SOCKET"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / ".local/share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(folder / ".local/state"))
    agents = Agents(folder / ".local/state/tabsteward/agents.json")
    monkeypatch.setenv("TABSTEWARD_TOKEN", agents.add("doctor tests")[1])
    runtime = tempfile.mkdtemp(prefix="tsd", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    try:
        yield folder
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture
def installed(home: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Tabsteward installed for Chromium; the manifest's path."""
    assert cli.main(["install"]) == 0
    capsys.readouterr()
    return home / HOSTS / "com.tabsteward.host.json"


def run_doctor(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = cli.main(["doctor", *argv])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.splitlines()


def line_of(lines: list[str], start: str) -> str:
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, f"no single line starting {start!r} in:\n" + "\n".join(lines)
    return found[0]


# -- the browser side ---------------------------------------------------------------------

def test_a_fresh_install_passes_and_only_warns_that_no_hub_runs(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_doctor(capsys)
    assert code == 0
    assert line_of(lines, "ok   chromium: host manifest").startswith(
        f"ok   chromium: host manifest {installed}")
    line_of(lines, "ok   chromium: launcher ")
    line_of(lines, "ok   chromium: launcher's Python ")
    line_of(lines, "ok   extension copy ")
    assert "has not started the host yet" in line_of(lines, "warn native host log")
    hub = line_of(lines, "warn hub: not running")
    assert "it starts on first use or when the browser's extension connects" in hub
    # `install` alone sets up no autostart or menu entry: `setup` does
    assert "run `tabsteward setup`" in line_of(lines, "warn tray app at login: no autostart")
    assert "Tabsteward is not in it" in line_of(lines, "warn applications menu")
    assert lines[-1] == "0 failed, 4 warning(s)"
    assert not any(line.startswith("FAIL") for line in lines)


def test_a_missing_manifest_fails_and_says_to_install(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_doctor(capsys)
    assert code == 1
    line = line_of(lines, "FAIL chromium: host manifest")
    assert f"none at {home / HOSTS / 'com.tabsteward.host.json'}" in line
    assert line.endswith("fix: run `tabsteward install --browser chromium`")


def test_a_manifest_without_the_extensions_origin_fails(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(installed.read_text())
    data["allowed_origins"] = ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]
    installed.write_text(json.dumps(data))
    code, lines = run_doctor(capsys)
    assert code == 1
    line = line_of(lines, "FAIL chromium: host manifest")
    assert f"its allowed_origins lack {ORIGIN}" in line
    assert "fix: run `tabsteward install --browser chromium`" in line


def test_a_manifest_that_is_not_json_fails(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    installed.write_text("{not json")
    code, lines = run_doctor(capsys)
    assert code == 1
    assert "is not valid JSON" in line_of(lines, "FAIL chromium: host manifest")


def test_a_launcher_that_is_not_executable_fails_with_a_chmod_fix(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    launcher = installed.parent / install.LAUNCHER_NAME
    launcher.chmod(0o644)
    code, lines = run_doctor(capsys)
    assert code == 1
    line = line_of(lines, "FAIL chromium: launcher")
    assert "it is not executable" in line
    assert f"fix: run `chmod 755 {launcher}`" in line


def test_a_missing_launcher_fails(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (installed.parent / install.LAUNCHER_NAME).unlink()
    code, lines = run_doctor(capsys)
    assert code == 1
    assert "does not exist" in line_of(lines, "FAIL chromium: launcher")


def test_a_launcher_pointing_to_a_missing_python_fails(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    launcher = installed.parent / install.LAUNCHER_NAME
    launcher.write_text(install.launcher_text("/nonexistent/bin/python3"))
    code, lines = run_doctor(capsys)
    assert code == 1
    line = line_of(lines, "FAIL chromium: launcher's Python")
    assert "its Python /nonexistent/bin/python3 does not exist" in line
    assert "fix: run `tabsteward install --browser chromium`" in line


def test_a_python_that_cannot_import_the_host_is_reported() -> None:
    assert doctor.python_problem("/bin/false") == (
        "its Python /bin/false cannot import tabsteward.bridge.native_host (exit status 1)")
    assert doctor.python_problem("python3") is not None


def test_a_browser_found_but_not_set_up_is_a_warning_when_another_is(
        installed: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / ".config/google-chrome").mkdir()
    code, lines = run_doctor(capsys)
    assert code == 0
    line = line_of(lines, "warn chrome: host manifest")
    assert "Tabsteward is not set up for this browser" in line
    assert "`tabsteward install --browser chrome` to use it too" in line
    code, lines = run_doctor(capsys, "--browser", "chrome")
    assert code == 1
    line_of(lines, "FAIL chrome: host manifest")


def test_no_browser_at_all_fails(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(home / ".config")
    code, lines = run_doctor(capsys)
    assert code == 1
    assert "no Chrome, Chromium, Edge or Brave config folder" in line_of(lines, "FAIL browsers")


def test_a_user_data_dir_is_checked_instead_of_the_home_folders(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "portable"
    assert cli.main(["install", "--browser", "brave", "--user-data-dir", str(profile)]) == 0
    capsys.readouterr()
    code, lines = run_doctor(capsys, "--browser", "brave", "--user-data-dir", str(profile))
    assert code == 0
    line_of(lines, f"ok   brave: host manifest {profile / 'NativeMessagingHosts'}")
    assert not any(line.startswith(("ok   chromium", "FAIL chromium")) for line in lines)
    (profile / "NativeMessagingHosts/com.tabsteward.host.json").unlink()
    code, lines = run_doctor(capsys, "--browser", "brave", "--user-data-dir", str(profile))
    assert code == 1
    assert f"--user-data-dir {profile}`" in line_of(lines, "FAIL brave: host manifest")


def test_on_windows_the_manifest_is_found_through_the_registry(
        home: Path, tmp_path: Path) -> None:
    local = tmp_path / "LocalAppData"
    (local / "Google/Chrome/User Data").mkdir(parents=True)
    env = {"LOCALAPPDATA": str(local)}
    registry = MemoryRegistry()
    opts = setup_args.Options()
    checks = doctor.run(opts, platform="win32", home=home, env=env, registry=registry)
    assert checks[0].status == "fail"
    assert checks[0].why == ("no registry key HKCU\\Software\\Google\\Chrome\\"
                             "NativeMessagingHosts\\com.tabsteward.host")
    where = install.place("chrome", None, "win32", home, env)
    install.register(where, registry)
    checks = doctor.run(opts, platform="win32", home=home, env=env, registry=registry)
    assert [c.status for c in checks[:3]] == ["ok", "ok", "ok"], checks[:3]
    assert checks[1].what.endswith("tabsteward-native-host.bat is executable")


# -- the extension copy and the host's log --------------------------------------------------

def test_a_missing_extension_copy_fails_and_says_how_to_load_it(
        installed: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = home / ".local/share/tabsteward/extension"
    shutil.rmtree(copy)
    code, lines = run_doctor(capsys)
    assert code == 1
    line = line_of(lines, "FAIL extension copy")
    assert f"no unpacked extension in {copy}" in line
    assert '"Load unpacked"' in line
    assert "fix: run `tabsteward install`" in line


def test_an_outdated_extension_copy_is_a_warning(
        installed: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / ".local/share/tabsteward/extension/background.js").write_text("// old")
    code, lines = run_doctor(capsys)
    assert code == 0
    line = line_of(lines, "warn extension copy")
    assert "differs from this Tabsteward's extension (background.js)" in line
    assert "reload icon" in line


def write_log(home: Path, *lines: str) -> Path:
    path = home / ".local/state/tabsteward/native-host.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_the_last_error_in_the_native_host_log_is_reported_with_a_fix(
        installed: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(
        home,
        "2026-11-30 10:00:00,001 native-host[7] INFO connected to the hub at /run/hub.sock",
        "2026-11-30 10:05:00,002 native-host[8] ERROR no hub answers at /run/hub.sock "
        "(refused); not connected",
        "2026-11-30 10:06:00,003 native-host[9] ERROR caller origin 'chrome-extension://"
        "zzz/' is not an allowed extension; nothing was relayed",
        "2026-11-30 10:06:00,004 native-host[9] INFO a peer went away (EOF); exiting")
    code, lines = run_doctor(capsys)
    assert code == 0
    line = line_of(lines, f"warn native host log {log}")
    assert "last error (2026-11-30 10:06:00): caller origin 'chrome-extension://zzz/' is not " \
           "an allowed extension" in line
    assert f"its id is {EXTENSION_ID}" in line


def test_an_error_followed_by_a_connection_is_history() -> None:
    summary = doctor.scan_log(
        "2026-11-30 10:05:00,002 native-host[8] ERROR no hub token at /x; not connected\n"
        "Traceback (most recent call last):\n"
        "2026-11-30 10:07:00,002 native-host[9] INFO connected to the hub at /x\n")
    assert summary.last_error == ("2026-11-30 10:05:00", "no hub token at /x; not connected")
    assert not summary.error_is_latest
    assert summary.last_connected == "2026-11-30 10:07:00"
    check = doctor.log_check(Path("/l"), "", Path("/c"))
    assert check.status == "ok"


# -- the hub ----------------------------------------------------------------------------------

class ScriptedHub:
    """A real LocalServer on the hub socket, answering as the test says."""

    def __init__(self, browsers: Any) -> None:
        self.browsers = browsers
        self.seen: list[dict[str, Any]] = []
        self.server = LocalServer(self.handle)

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(request)
        if request["op"] == "ping":
            return protocol.ok_reply(version="9.9.9", pid=4242)
        if request["op"] == "call" and request["tool"] == "browsers":
            if isinstance(self.browsers, UsageError):
                raise self.browsers
            return protocol.ok_reply(result={"browsers": self.browsers}, text="")
        raise UsageError("not served here")


@pytest.fixture
def hub_with(home: Path) -> Iterator[Any]:
    started: list[ScriptedHub] = []

    def start(browsers: Any) -> ScriptedHub:
        hub = ScriptedHub(browsers)
        loop_thread().run(hub.server.start(), timeout=10)
        started.append(hub)
        return hub
    yield start
    for hub in started:
        loop_thread().run(hub.server.close(), timeout=10)


def test_a_connected_extension_is_reported_by_the_hub(
        installed: Path, hub_with: Any, capsys: pytest.CaptureFixture[str]) -> None:
    hub = hub_with([{"name": "chromium", "kind": "launched"},
                    {"name": "Chrome (Work)", "kind": "extension", "profile": "Work"}])
    code, lines = run_doctor(capsys)
    assert code == 0
    assert "(version 9.9.9, pid 4242)" in line_of(lines, "ok   hub answers on ")
    assert line_of(lines, "ok   browser extension") == \
        "ok   browser extension connected to the hub: Chrome (Work)"
    assert [r["op"] for r in hub.seen] == ["ping", "call"]
    assert hub.seen[1]["args"] == {}


def test_a_hub_without_an_extension_is_a_warning_naming_what_it_drives(
        installed: Path, hub_with: Any, capsys: pytest.CaptureFixture[str]) -> None:
    hub_with([{"name": "chromium", "kind": "launched"}])
    code, lines = run_doctor(capsys)
    assert code == 0
    line = line_of(lines, "warn browser extension")
    assert "none is connected to the hub (it drives chromium (launched))" in line
    assert "reload icon" in line


def test_a_hub_that_predates_browser_listing_is_said_so(
        installed: Path, hub_with: Any, capsys: pytest.CaptureFixture[str]) -> None:
    hub_with(protocol.unknown_tool("browsers", ["open", "tabs"]))
    code, lines = run_doctor(capsys)
    assert code == 0
    assert "this hub predates browser listing" in line_of(lines, "warn browser extension")


@pytest.mark.parametrize("token", ["unpaired-token", "the hub's token file", None])
def test_a_terminal_that_is_not_a_paired_agent_is_a_warning_after_a_good_ping(
        installed: Path, hub_with: Any, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, token: str | None) -> None:
    hub = hub_with([{"name": "chromium", "kind": "launched"}])
    if token is None:  # no token anywhere: none in the environment, no keyring to ask
        monkeypatch.delenv("TABSTEWARD_TOKEN")
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS",
                           f"unix:path={os.environ['XDG_RUNTIME_DIR']}/no-bus")
    else:
        host = token == "the hub's token file"  # the native host's, no agent's
        monkeypatch.setenv("TABSTEWARD_TOKEN", hub.server.token if host else token)
    code, lines = run_doctor(capsys)
    assert code == 0
    assert "(version 9.9.9, pid 4242)" in line_of(lines, "ok   hub answers on ")
    line = line_of(lines, "warn browser extension")
    assert "this terminal is not a paired agent" in line
    assert "approve its pairing" in line
    assert [r["op"] for r in hub.seen] == ["ping"]  # the browser list was refused unread


def test_a_ping_answered_with_an_error_fails_naming_the_socket() -> None:
    check = doctor.ping_check({"ok": False, "error": {"code": 1, "message": "broken"}},
                              "/run/hub.sock")
    assert check.status == "fail"
    assert "hub on /run/hub.sock" in check.line()
    assert "it answered a ping with an error (broken)" in check.line()


def test_a_refusal_of_the_browser_list_says_this_terminal_is_not_paired() -> None:
    check = doctor.browsers_check({"ok": False, "error": {
        "code": 3, "type": "AuthError", "message": "not paired", "details": {"unpaired": True}}})
    assert check.status == "warn"
    assert "this terminal is not a paired agent" in check.line()


def test_a_stale_socket_is_a_hub_that_does_not_run(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "tabsteward"
    folder.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(folder / "hub.sock"))
    stale.close()
    code, lines = run_doctor(capsys)
    assert code == 0
    assert "a stale socket at" in line_of(lines, "warn hub: not running")


@pytest.mark.parametrize("reply", [
    {"ok": True, "result": {"browsers": "nope"}},
    {"ok": True, "result": None},
    {"ok": True, "result": {"browsers": [1, None, {"kind": "extension"}]}},
    {"ok": False},
    {"ok": False, "error": {"code": 50, "message": "policy says no"}},
])
def test_odd_browser_replies_give_a_verdict_not_a_crash(reply: dict[str, Any]) -> None:
    check = doctor.browsers_check(reply)
    assert check.status in ("ok", "warn")
    assert check.line()


# -- the output -----------------------------------------------------------------------------

def test_json_output_lists_every_check_with_status_what_why_and_fix(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (installed.parent / install.LAUNCHER_NAME).chmod(0o600)
    code = cli.main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert set(report) == {"ok", "failed", "warnings", "checks"}
    assert report["ok"] is False
    assert report["failed"] == 1
    assert report["warnings"] == 4  # no hub, no host log, no autostart, no menu entry
    for check in report["checks"]:
        assert set(check) == {"status", "what", "why", "fix"}
        assert check["status"] in ("ok", "warn", "fail")
    failed = [c for c in report["checks"] if c["status"] == "fail"]
    assert failed[0]["why"] == "it is not executable"
    assert failed[0]["fix"].startswith("run `chmod 755 ")


def test_doctor_rejects_bad_arguments_and_checks_nothing(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["doctor", "--browser", "netscape"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert "unknown browser 'netscape'" in err
    assert "nothing was checked" in err
