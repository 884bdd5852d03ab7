"""The lean Secret Service reader and the agent's credentials: the D-Bus marshalling on its own,
then a real gnome-keyring on a private session bus (dbus-run-session), written with `keyring`
and read back with `read_secret` and `credentials.load`."""

from __future__ import annotations

import json
import os
import shutil
import socket
import string
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge.secrets import credentials, secret_service
from tabsteward.bridge.secrets.secret_service import (
    SecretServiceError,
    decode,
    encode,
    method_call,
    read_secret,
    split_type,
    types,
)

# -- the D-Bus wire format -----------------------------------------------------------------


def encoded(t: str, value: Any, offset: int = 0) -> bytes:
    buf = bytearray(b"\xaa" * offset)
    encode(buf, t, value)
    return bytes(buf)


@pytest.mark.parametrize(("t", "value"), [
    ("s", "tabsteward"),
    ("s", ""),
    ("s", "agent ü ✓ \U0001f511"),
    ("o", "/org/freedesktop/secrets/session/s1"),
    ("g", "a{o(oayays)}"),
    ("g", ""),
    ("u", 0),
    ("u", 2**32 - 1),
    ("b", True),
    ("b", False),
    ("y", 0),
    ("y", 255),
    ("v", ("s", "plain")),
    ("v", ("ao", ["/a", "/b"])),
    ("v", ("v", ("u", 7))),
    ("a{ss}", {"service": "tabsteward", "username": "agent x"}),
    ("a{ss}", {}),
    ("ao", ["/org/freedesktop/secrets/collection/login/1"]),
    ("ao", []),
    ("a(yv)", [(1, ("o", "/org/freedesktop/DBus")), (8, ("g", "sv")), (5, ("u", 3))]),
    ("a(yv)", []),
    ("(oayays)", ("/s/1", b"", b"tok-123", "text/plain; charset=utf8")),
    ("a{o(oayays)}", {"/i/1": ("/s/1", b"\x00\x01", b"tok", "text/plain"),
                      "/i/2": ("/s/1", b"", b"", "")}),
    ("ay", b"\x00\xff tok-123"),
    ("ay", b""),
])
@pytest.mark.parametrize("offset", [0, 1, 3, 5])
def test_each_type_the_reader_uses_survives_encode_then_decode(
        t: str, value: Any, offset: int) -> None:
    raw = encoded(t, value, offset)
    assert decode(raw, offset, t) == (value, len(raw))


def test_the_two_arguments_of_get_secrets_aoo_round_trip_in_sequence() -> None:
    buf = bytearray()
    args = (["/org/freedesktop/secrets/collection/login/1"], "/org/freedesktop/secrets/s/2")
    for t, value in zip(types("aoo"), args, strict=True):
        encode(buf, t, value)
    items, pos = decode(bytes(buf), 0, "ao")
    session, end = decode(bytes(buf), pos, "o")
    assert (items, session, end) == (*args, len(buf))


@pytest.mark.parametrize(("t", "value", "raw"), [
    pytest.param("s", "hi", b"\x02\0\0\0hi\0", id="a string: length, bytes, NUL"),
    pytest.param("g", "sv", b"\x02sv\0", id="a signature: one length byte"),
    pytest.param("y", 7, b"\x07", id="a byte"),
    pytest.param("b", True, b"\x01\0\0\0", id="a boolean is four bytes"),
    pytest.param("v", ("s", "x"), b"\x01s\0\0\x01\0\0\0x\0", id="a variant pads its value"),
    pytest.param("a{ss}", {"a": "b"},
                 b"\x0e\0\0\0" b"\0\0\0\0" b"\x01\0\0\0a\0" b"\0\0" b"\x01\0\0\0b\0",
                 id="an array's length leaves out the padding to its first entry"),
    pytest.param("a(yv)", [], b"\0" * 8, id="an empty array of structs still pads to 8"),
    pytest.param("ay", b"ab", b"\x02\0\0\0ab", id="a byte array"),
])
def test_values_are_laid_out_as_the_d_bus_specification_says(
        t: str, value: Any, raw: bytes) -> None:
    assert encoded(t, value) == raw


def test_a_value_after_a_byte_is_aligned_to_its_own_size() -> None:
    buf = bytearray(b"\x01")
    encode(buf, "u", 5)
    encode(buf, "y", 2)
    encode(buf, "(s)", ("x",))
    assert bytes(buf) == b"\x01\0\0\0\x05\0\0\0\x02" + b"\0" * 7 + b"\x01\0\0\0x\0"


# Signatures built from the types the reader knows, nested a few levels deep.
_BASIC = st.sampled_from(list("souybg"))


def _containers(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        inner.map(lambda t: "a" + t),
        st.lists(inner, min_size=1, max_size=3).map(lambda ts: "(" + "".join(ts) + ")"),
        st.tuples(st.sampled_from("su"), inner).map(lambda kv: "a{" + kv[0] + kv[1] + "}"),
    )


SIGNATURES = st.recursive(_BASIC | st.just("v"), _containers, max_leaves=6)
VARIANT_SIGNATURES = st.recursive(_BASIC, _containers, max_leaves=3)
TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


def values_for(t: str) -> st.SearchStrategy[Any]:
    """Values of D-Bus type t, as `decode` gives them back."""
    if t in ("s", "o"):
        return TEXT
    if t == "g":
        return st.text(string.ascii_letters + "(){}", max_size=12)
    if t == "u":
        return st.integers(0, 2**32 - 1)
    if t == "y":
        return st.integers(0, 255)
    if t == "b":
        return st.booleans()
    if t == "v":
        return VARIANT_SIGNATURES.flatmap(lambda s: values_for(s).map(lambda v: (s, v)))
    if t == "ay":
        return st.binary(max_size=12)
    if t.startswith("a{"):
        key, value = types(t[2:-1])
        return st.dictionaries(values_for(key), values_for(value), max_size=3)
    if t.startswith("a"):
        return st.lists(values_for(t[1:]), max_size=3)
    return st.tuples(*(values_for(sub) for sub in types(t[1:-1])))


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data(), t=SIGNATURES, offset=st.integers(0, 7))
def test_any_nested_value_of_strings_dicts_and_lists_round_trips(
        data: st.DataObject, t: str, offset: int) -> None:
    value = data.draw(values_for(t), label="value")
    raw = encoded(t, value, offset)
    assert decode(raw, offset, t) == (value, len(raw))


@settings(max_examples=200, deadline=None, database=None)
@given(attributes=st.dictionaries(TEXT, TEXT, max_size=6))
def test_any_search_attributes_round_trip_as_a_string_dict(attributes: dict[str, str]) -> None:
    raw = encoded("a{ss}", attributes)
    assert decode(raw, 0, "a{ss}") == (attributes, len(raw))


@settings(max_examples=200, deadline=None, database=None)
@given(parts=st.lists(SIGNATURES, max_size=4))
def test_types_splits_any_run_of_complete_types_back_into_them(parts: list[str]) -> None:
    assert types("".join(parts)) == parts


@pytest.mark.parametrize(("sig", "first", "rest"), [
    ("s", "s", ""),
    ("sv", "s", "v"),
    ("a{ss}", "a{ss}", ""),
    ("aoo", "ao", "o"),
    ("a(yv)u", "a(yv)", "u"),
    ("(oayays)", "(oayays)", ""),
    ("a{o(oayays)}s", "a{o(oayays)}", "s"),
    ("aa{sa(ov)}y", "aa{sa(ov)}", "y"),
    ("((s)(ay))o", "((s)(ay))", "o"),
])
def test_split_type_takes_the_first_complete_type(sig: str, first: str, rest: str) -> None:
    assert split_type(sig) == (first, rest)


def test_types_lists_each_complete_type_of_a_signature() -> None:
    assert types("") == []
    assert types("oa{o(oayays)}sv") == ["o", "a{o(oayays)}", "s", "v"]
    assert types("aoo") == ["ao", "o"]
    assert types("(ays)a(yv)") == ["(ays)", "a(yv)"]


@pytest.mark.parametrize("sig", [
    "(ss",
    "a{ss",
    "a(y(v)",
    "s(o",
    "a",
    ")s",
    "(s}",
])
def test_an_unbalanced_signature_is_a_value_error(sig: str) -> None:
    with pytest.raises(ValueError, match="signature"):
        types(sig)


def test_an_unsupported_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not supported"):
        encode(bytearray(), "d", 1.5)
    with pytest.raises(ValueError, match="not supported"):
        decode(b"\0" * 8, 0, "d")


def test_a_method_call_has_a_header_whose_fields_decode_back() -> None:
    path, iface = "/org/freedesktop/secrets", "org.freedesktop.Secret.Service"
    attributes = {"service": "tabsteward", "username": "agent x"}
    msg = method_call(7, path, iface, "SearchItems", "org.freedesktop.secrets", "a{ss}",
                      (attributes,))
    assert msg[:4] == b"l\x01\x00\x01"  # little-endian, method call, no flags, version 1
    body_len, serial, fields_len = struct.unpack_from("<III", msg, 4)
    assert serial == 7
    fields, end = decode(msg, 12, "a(yv)")
    assert end == 16 + fields_len
    assert dict(fields) == {1: ("o", path), 2: ("s", iface), 3: ("s", "SearchItems"),
                            6: ("s", "org.freedesktop.secrets"), 8: ("g", "a{ss}")}
    body_at = end + (-end) % 8
    assert len(msg) == body_at + body_len
    assert decode(msg, body_at, "a{ss}") == (attributes, len(msg))


def test_a_method_call_without_arguments_has_no_signature_and_no_body() -> None:
    msg = method_call(1, "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello",
                      "org.freedesktop.DBus", "", ())
    body_len, serial, _ = struct.unpack_from("<III", msg, 4)
    fields, end = decode(msg, 12, "a(yv)")
    assert (body_len, serial) == (0, 1)
    assert 8 not in dict(fields)
    assert len(msg) == end + (-end) % 8
    assert len(msg) % 8 == 0


def test_a_method_call_with_more_arguments_than_its_signature_is_refused() -> None:
    with pytest.raises(ValueError, match="longer"):
        method_call(1, "/p", "i.f", "M", "d.e", "s", ("one", "two"))


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
