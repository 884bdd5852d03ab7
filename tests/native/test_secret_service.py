"""The lean Secret Service reader and the agent's credentials: without a usable session bus,
then a real gnome-keyring on a private session bus (dbus-run-session), written with `keyring`
and read back with `read_secret` and `credentials.load` (its D-Bus wire format on its own:
test_dbus_wire.py)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tabsteward.bridge.secrets import credentials, secret_service
from tabsteward.bridge.secrets.secret_service import (
    SecretServiceError,
    read_secret,
)

# -- no usable session bus -----------------------------------------------------------------

@pytest.fixture
def no_bus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No DBUS_SESSION_BUS_ADDRESS and a runtime folder without a bus socket in it."""
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv(credentials.ENV_TOKEN, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.usefixtures("no_bus")
def test_without_a_session_bus_reading_is_a_secret_service_error_saying_so() -> None:
    with pytest.raises(SecretServiceError, match="no D-Bus session bus"):
        read_secret("tabsteward", "agent x")


@pytest.mark.usefixtures("no_bus")
def test_without_a_session_bus_no_token_was_kept_so_the_agent_is_not_paired(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABSTEWARD_TOKEN", raising=False)
    assert credentials.load("agent x") is None  # pairing then says what to do


def test_a_bus_address_pointing_nowhere_is_a_secret_service_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/nothing,guid=0")
    with pytest.raises(SecretServiceError, match="the session bus cannot be used"):
        read_secret("tabsteward", "agent x")


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[socket.socket]:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / "bus"))
    server.listen(1)
    yield server
    server.close()


def hang_up_after_auth(listener: socket.socket) -> None:
    """Take one connection, read its AUTH line, and close it without a word."""
    conn, _ = listener.accept()
    conn.settimeout(5)
    got = b""
    while b"\r\n" not in got:
        chunk = conn.recv(256)
        if not chunk:
            break
        got += chunk
    conn.close()


def test_a_bus_that_hangs_up_after_auth_is_a_secret_service_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, listener: socket.socket) -> None:
    def hang_up() -> None:
        hang_up_after_auth(listener)

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/bus")
    with pytest.raises(SecretServiceError, match="closed the connection"):
        read_secret("tabsteward", "agent x")
    thread.join(5)


def test_a_bus_that_never_answers_is_a_secret_service_error_within_the_timeout(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, listener: socket.socket) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/bus")
    started = time.monotonic()
    with pytest.raises(SecretServiceError, match="the session bus cannot be used"):
        read_secret("tabsteward", "agent x", timeout=0.2)
    assert time.monotonic() - started < 2


def test_the_runtime_folders_bus_is_used_when_no_address_is_set(
        no_bus: Path, listener: socket.socket) -> None:
    accepted: list[bool] = []

    def hang_up() -> None:
        hang_up_after_auth(listener)
        accepted.append(True)

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    with pytest.raises(SecretServiceError, match="closed the connection"):
        read_secret("tabsteward", "agent x")
    thread.join(5)
    assert accepted == [True]


# -- a real Secret Service: gnome-keyring on a private session bus -------------------------

TOOLS = {"dbus-run-session": "dbus-daemon", "gnome-keyring-daemon": "gnome-keyring"}

REAL_KEYRING_SCRIPT = r'''
import json
import os
import subprocess
import sys

unlock = subprocess.run(
    "echo -n pass | gnome-keyring-daemon --unlock --components=secrets", shell=True,
    capture_output=True, text=True, timeout=30)
if unlock.returncode != 0:
    sys.exit(f"gnome-keyring-daemon failed: {unlock.stderr}")

import keyring
import secretstorage
from tabsteward.bridge.secrets import credentials
from tabsteward.bridge.secrets.secret_service import SecretServiceError, read_secret

out = {"backend": f"{type(keyring.get_keyring()).__module__}."
                  f"{type(keyring.get_keyring()).__name__}"}
keyring.set_password("tabsteward", "agent x", "tok-123")
keyring.set_password("tabsteward", "agent ü", "tök ✓ 123")
keyring.set_password("another-app", "agent y", "not-ours")
out["read"] = read_secret("tabsteward", "agent x")
out["read_unicode"] = read_secret("tabsteward", "agent ü")
out["missing"] = read_secret("tabsteward", "agent y")

# the bus socket found through XDG_RUNTIME_DIR/bus when no address is set
address = os.environ.pop("DBUS_SESSION_BUS_ADDRESS")
os.symlink(address.split("path=", 1)[1].split(",")[0],
           os.path.join(os.environ["XDG_RUNTIME_DIR"], "bus"))
out["read_via_runtime_dir"] = read_secret("tabsteward", "agent x")
os.environ["DBUS_SESSION_BUS_ADDRESS"] = address

credentials.save("Codex in ~/shop", "tok-456")
out["loaded"] = credentials.load("Codex in ~/shop")
credentials.save("Codex in ~/shop", "tok-789")
out["loaded_after_saving_again"] = credentials.load("Codex in ~/shop")
credentials.forget("Codex in ~/shop")
out["loaded_after_forget"] = credentials.load("Codex in ~/shop")
credentials.forget("Codex in ~/shop")  # nothing left to forget: no error
out["read_after_forget"] = read_secret("tabsteward", "agent x")

connection = secretstorage.dbus_init()
secretstorage.get_default_collection(connection).lock()
try:
    out["locked"] = read_secret("tabsteward", "agent x")
except SecretServiceError as exc:
    out["locked"] = f"SecretServiceError: {exc}"
print(json.dumps(out))
'''


def require_tools() -> None:
    """The real-keyring tests fail (never skip) when a program they need is missing."""
    missing = {tool: package for tool, package in TOOLS.items() if shutil.which(tool) is None}
    if missing:
        pytest.fail(f"{' and '.join(missing)} not installed: install the Debian package(s) "
                    f"{' '.join(missing.values())} (`apt-get install -y "
                    f"{' '.join(missing.values())}`; `bash packaging/bootstrap.sh test` "
                    "does it)", pytrace=False)


@pytest.fixture(scope="module")
def real_keyring(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the script above saw, run once under dbus-run-session with gnome-keyring; every
    folder the keyring may write to is under the test's temporary folder."""
    require_tools()
    root = tmp_path_factory.mktemp("kr")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DBUS_SESSION_BUS_ADDRESS", credentials.ENV_TOKEN, credentials.ENV_NAME)
           and not k.startswith(("GNOME_KEYRING", "XDG_"))}
    for var, sub in {"HOME": "home", "XDG_RUNTIME_DIR": "run", "XDG_DATA_HOME": "data",
                     "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache"}.items():
        (root / sub).mkdir(mode=0o700)
        env[var] = str(root / sub)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.SecretService.Keyring"
    script = root / "real_keyring.py"
    script.write_text(REAL_KEYRING_SCRIPT, encoding="utf-8")
    done = subprocess.run(["dbus-run-session", "--", sys.executable, str(script)], env=env,
                          capture_output=True, text=True, timeout=90, cwd=root)
    assert done.returncode == 0, f"the real-keyring script failed:\n{done.stdout}\n{done.stderr}"
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    out["files"] = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    return out


def test_the_tools_for_a_real_secret_service_are_installed() -> None:
    require_tools()


def test_keyring_wrote_through_the_secret_service_into_the_private_data_folder(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["backend"] == "keyring.backends.SecretService.Keyring"
    assert "data/keyrings/login.keyring" in real_keyring["files"]


def test_read_secret_reads_what_keyring_stored(real_keyring: dict[str, Any]) -> None:
    assert real_keyring["read"] == "tok-123"
    assert real_keyring["read_unicode"] == "tök ✓ 123"


def test_read_secret_finds_nothing_for_a_name_nobody_stored(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["missing"] is None


def test_read_secret_finds_the_bus_in_the_runtime_folder_without_an_address(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["read_via_runtime_dir"] == "tok-123"


def test_a_saved_token_loads_back_and_saving_again_replaces_it(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["loaded"] == "tok-456"
    assert real_keyring["loaded_after_saving_again"] == "tok-789"


def test_a_forgotten_token_no_longer_loads_and_other_tokens_stay(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["loaded_after_forget"] is None
    assert real_keyring["read_after_forget"] == "tok-123"


def test_a_locked_keyring_is_a_secret_service_error_saying_to_unlock_it(
        real_keyring: dict[str, Any]) -> None:
    assert real_keyring["locked"] == (
        "SecretServiceError: the keyring holding the token is locked; unlock it (log in to "
        "the desktop) and retry")


# -- who this agent is, and where its token comes from -------------------------------------

@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """HOME in tmp_path, with no name or Claude Code marker in the environment."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for var in (credentials.ENV_NAME, "CLAUDECODE"):
        monkeypatch.delenv(var, raising=False)
    return folder


def test_the_project_is_the_nearest_folder_holding_git_shown_under_home(home: Path) -> None:
    (home / "src" / "shop" / ".git").mkdir(parents=True)
    deep = home / "src" / "shop" / "web" / "static"
    deep.mkdir(parents=True)
    assert credentials.identity(str(deep), program="Codex") == "Codex in ~/src/shop"


def test_a_nested_repository_wins_over_the_one_holding_it(home: Path) -> None:
    (home / "src" / "mono" / ".git").mkdir(parents=True)
    (home / "src" / "mono" / "vendor" / "lib").mkdir(parents=True)
    (home / "src" / "mono" / "vendor" / "lib" / ".git").write_text("gitdir: ../../.git/x\n")
    cwd = home / "src" / "mono" / "vendor" / "lib"
    assert credentials.identity(str(cwd), program="Aider") == "Aider in ~/src/mono/vendor/lib"


def test_without_a_repository_the_project_is_the_working_folder(home: Path) -> None:
    (home / "notes").mkdir()
    assert credentials.identity(str(home / "notes"), program="Codex") == "Codex in ~/notes"
    assert credentials.identity(str(home), program="Codex") == "Codex in ~"


def test_a_project_outside_home_is_shown_as_its_full_path(home: Path, tmp_path: Path) -> None:
    (tmp_path / "home2" / ".git").mkdir(parents=True)  # a sibling whose name starts like HOME
    assert credentials.identity(str(tmp_path / "home2"), program="Codex") == (
        f"Codex in {tmp_path}/home2")


def test_claudecode_in_the_environment_names_the_program_claude_code(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "shop" / ".git").mkdir(parents=True)
    monkeypatch.setenv("CLAUDECODE", "1")
    assert credentials.identity(str(home / "shop")) == "Claude Code in ~/shop"


def test_tabsteward_name_overrides_the_identity(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.setenv(credentials.ENV_NAME, "  my shopping agent  ")
    assert credentials.identity(str(home), program="Codex") == "my shopping agent"


def test_a_blank_tabsteward_name_is_ignored(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(credentials.ENV_NAME, "   ")
    assert credentials.identity(str(home), program="Codex") == "Codex in ~"


def test_an_identity_is_at_most_80_characters(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deep = home / ("x" * 60) / ("y" * 60)
    deep.mkdir(parents=True)
    assert len(credentials.identity(str(deep), program="Codex")) == 80
    monkeypatch.setenv(credentials.ENV_NAME, "n" * 100)
    assert credentials.identity(str(deep)) == "n" * 80


def test_load_returns_tabsteward_token_without_touching_any_keyring(
        monkeypatch: pytest.MonkeyPatch, no_bus: Path) -> None:
    def untouchable(*args: object) -> None:
        raise AssertionError("a keyring was asked although TABSTEWARD_TOKEN is set")

    monkeypatch.setattr(secret_service, "read_secret", untouchable)
    monkeypatch.setattr(credentials, "_keyring", untouchable)
    monkeypatch.setenv(credentials.ENV_TOKEN, "  tok-from-env \n")
    assert credentials.load("agent x") == "tok-from-env"


def test_a_blank_tabsteward_token_falls_back_to_the_keyring(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, str]] = []

    def fake_read(service: str, username: str) -> str:
        asked.append((service, username))
        return "tok-from-keyring"

    monkeypatch.setattr(secret_service, "read_secret", fake_read)
    monkeypatch.setenv(credentials.ENV_TOKEN, "   ")
    assert credentials.load("agent x") == "tok-from-keyring"
    assert asked == [("tabsteward", "agent x")]
