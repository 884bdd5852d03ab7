"""LLM API keys: secrets only in the real OS keyring (gnome-keyring on a private D-Bus session,
packaging/with-keyring.sh), a strict index file that never holds a secret, and nothing half
done when a step fails (checking a key with its provider: test_provider_check.py)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar, TypeVar

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail
from keyring.errors import KeyringError, PasswordDeleteError
from provider_server import GOOD, WRONG
from tabsteward.bridge.errors import TabstewardError, UsageError
from tabsteward.bridge.secrets import apikeys
from tabsteward.bridge.secrets.apikeys import (
    SERVICE,
    ApiKeys,
    KeyEntry,
    KeyStoreError,
    backend_problem,
)

# -- the keyring ----------------------------------------------------------------------------


@pytest.fixture
def os_keyring() -> Iterator[KeyringBackend]:
    """The real OS keyring (the test fails without one); put back after the test."""
    real = keyring.get_keyring()
    problem = backend_problem()
    if problem is not None:
        pytest.fail(f"{problem}. Run the tests through packaging/with-keyring.sh")
    yield real
    keyring.set_keyring(real)


@pytest.fixture
def names(os_keyring: KeyringBackend) -> Iterator[Callable[[], str]]:
    """Fresh key names (the keyring is shared by the session); their secrets go at the end."""
    made: list[str] = []

    def new() -> str:
        made.append(f"k-{uuid.uuid4().hex[:10]}")
        return made[-1]

    yield new
    for name in made:
        with contextlib.suppress(PasswordDeleteError):
            os_keyring.delete_password(SERVICE, name)


@pytest.fixture
def keys(private_home: dict[str, str], os_keyring: KeyringBackend) -> ApiKeys:
    return ApiKeys()


def index_path(private_home: dict[str, str]) -> Path:
    return Path(private_home["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json"


def stored(backend: KeyringBackend, name: str) -> str | None:
    found = backend.get_password(SERVICE, name)
    return found if isinstance(found, str) else None


def registry() -> set[type[KeyringBackend]]:
    """Every backend class keyring knows of (it adds each one as it is defined)."""
    classes: set[type[KeyringBackend]] = KeyringBackend._classes  # type: ignore[attr-defined]
    return classes


B = TypeVar("B", bound=type[KeyringBackend])


def unregistered(cls: B) -> B:
    """A test backend, kept out of keyring's registry but while a test uses it."""
    registry().discard(cls)
    return cls


def custom_backend(cls: type[KeyringBackend]) -> Iterator[KeyringBackend]:
    """Use an instance of `cls` as the keyring, one of the installed backends for the test."""
    registry().add(cls)
    instance = cls()
    keyring.set_keyring(instance)
    try:
        yield instance
    finally:
        registry().discard(cls)


# -- round trips ----------------------------------------------------------------------------


def test_a_key_added_is_listed_and_its_secret_read_back_from_the_os_keyring(
        keys: ApiKeys, names: Callable[[], str], os_keyring: KeyringBackend) -> None:
    name = names()
    entry = keys.add(KeyEntry(name, "openai", "", "gpt-4o-mini"), f"  {GOOD}\n")
    assert entry == KeyEntry(name, "openai", "https://api.openai.com/v1", "gpt-4o-mini")
    assert keys.list() == [entry]
    assert keys.get(name) == entry
    assert keys.secret(name) == GOOD
    assert stored(os_keyring, name) == GOOD


def test_replacing_a_key_changes_its_secret_and_details_and_keeps_one_entry(
        keys: ApiKeys, names: Callable[[], str]) -> None:
    first, second = names(), names()
    keys.add(KeyEntry(first, "openai", ""), GOOD)
    keys.add(KeyEntry(second, "anthropic", ""), GOOD)
    keys.add(KeyEntry(first, "other", "http://localhost:11434/v1/", "llama3"), WRONG,
             replace=True)
    assert [e.name for e in keys.list()] == [first, second]
    assert keys.get(first) == KeyEntry(first, "other", "http://localhost:11434/v1", "llama3")
    assert keys.secret(first) == WRONG
    assert keys.secret(second) == GOOD


def test_adding_a_name_twice_without_replace_is_refused_and_keeps_the_first_secret(
        keys: ApiKeys, names: Callable[[], str]) -> None:
    name = names()
    keys.add(KeyEntry(name, "openai", ""), GOOD)
    with pytest.raises(UsageError, match="already exists; nothing was saved"):
        keys.add(KeyEntry(name, "openrouter", ""), WRONG)
    assert keys.list() == [KeyEntry(name, "openai", "")]
    assert keys.secret(name) == GOOD


def test_removing_a_key_deletes_its_secret_then_its_entry(
        keys: ApiKeys, names: Callable[[], str], os_keyring: KeyringBackend) -> None:
    kept, gone = names(), names()
    keys.add(KeyEntry(kept, "openai", ""), GOOD)
    keys.add(KeyEntry(gone, "openai", ""), WRONG)
    assert keys.remove(gone).name == gone
    assert [e.name for e in keys.list()] == [kept]
    assert stored(os_keyring, gone) is None
    assert stored(os_keyring, kept) == GOOD
    with pytest.raises(UsageError, match=rf"no key named '{gone}' \(known: {kept}\)"):
        keys.remove(gone)


def test_a_key_whose_secret_is_already_gone_from_the_keyring_can_still_be_removed(
        keys: ApiKeys, names: Callable[[], str], os_keyring: KeyringBackend) -> None:
    name = names()
    keys.add(KeyEntry(name, "openai", ""), GOOD)
    os_keyring.delete_password(SERVICE, name)
    with pytest.raises(UsageError, match=f"holds no secret for the key '{name}'.*add it again"):
        keys.secret(name)
    keys.remove(name)
    assert keys.list() == []


def test_an_unknown_key_is_refused_naming_the_known_ones(
        keys: ApiKeys, names: Callable[[], str]) -> None:
    with pytest.raises(UsageError, match=r"no key named 'nope' \(known: none yet\)"):
        keys.secret("nope")
    name = names()
    keys.add(KeyEntry(name, "openai", ""), GOOD)
    with pytest.raises(UsageError, match=rf"known: {name}\)"):
        keys.get("nope")


# -- the index file -------------------------------------------------------------------------


def test_the_index_is_private_and_never_holds_the_secret(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str]) -> None:
    first, second = names(), names()
    keys.add(KeyEntry(first, "anthropic", "", "claude-x"), GOOD)
    keys.add(KeyEntry(second, "openai", ""), WRONG)
    keys.add(KeyEntry(second, "openai", ""), GOOD, replace=True)
    path = index_path(private_home)
    raw = path.read_bytes()
    assert GOOD.encode() not in raw
    assert WRONG.encode() not in raw
    assert b"sk-" not in raw
    assert json.loads(raw) == {"version": 1, "keys": [
        {"name": first, "provider": "anthropic", "base_url": "https://api.anthropic.com/v1",
         "model": "claude-x"},
        {"name": second, "provider": "openai", "base_url": "https://api.openai.com/v1",
         "model": ""}]}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert sorted(os.listdir(path.parent)) == ["keys.json"]  # no temporary file left


def test_no_index_file_means_no_keys(tmp_path: Path) -> None:
    assert ApiKeys(tmp_path / "absent" / "keys.json").list() == []


ENTRY = {"name": "work", "provider": "openai", "base_url": "https://api.openai.com/v1",
         "model": ""}


@pytest.mark.parametrize(("content", "why"), [
    (b"{not json", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[]", 'exactly "version" and "keys"'),
    (json.dumps({"keys": []}).encode(), 'exactly "version" and "keys"'),
    (json.dumps({"version": 1, "keys": [], "extra": 1}).encode(), 'exactly "version"'),
    (json.dumps({"version": 2, "keys": []}).encode(), "version 2"),
    (json.dumps({"version": True, "keys": []}).encode(), "version True"),
    (json.dumps({"version": 1, "keys": {}}).encode(), '"keys" is not a list'),
    (json.dumps({"version": 1, "keys": ["work"]}).encode(), "key 1 is not an object"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "secret": "x"}]}).encode(),
     "unknown fields \\['secret'\\]"),
    (json.dumps({"version": 1, "keys": [{"name": "work"}]}).encode(), "lacks"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "provider": "mistral"}]}).encode(),
     "provider 'mistral' is unknown"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "name": "../etc"}]}).encode(),
     "name '../etc' is not valid"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "name": 7}]}).encode(), "name 7"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "base_url": "ftp://x"}]}).encode(),
     "not http or https"),
    (json.dumps({"version": 1, "keys": [{**ENTRY, "model": 3}]}).encode(), "must be text"),
    (json.dumps({"version": 1, "keys": [ENTRY, {**ENTRY, "model": "b"}]}).encode(),
     "'work' appears twice"),
])
def test_a_malformed_index_is_refused_whole_naming_the_file_and_the_fault(
        tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / "keys.json"
    path.write_bytes(content)
    with pytest.raises(UsageError, match=why) as caught:
        ApiKeys(path).list()
    assert str(path) in caught.value.message
    assert "no key from it was used" in caught.value.message


def test_a_malformed_index_refuses_adding_and_is_left_as_it_was(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        os_keyring: KeyringBackend) -> None:
    path = index_path(private_home)
    path.parent.mkdir(mode=0o700)
    path.write_bytes(b'{"version": 1, "keys": [1]}')
    name = names()
    with pytest.raises(UsageError, match="not a valid keys index"):
        keys.add(KeyEntry(name, "openai", ""), GOOD)
    assert path.read_bytes() == b'{"version": 1, "keys": [1]}'
    assert stored(os_keyring, name) is None


# -- what is refused before anything is written --------------------------------------------


@pytest.mark.parametrize("name", ["", "-lead", ".hidden", "has space", "a/b", "ü", "x" * 65,
                                  "line\nbreak"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(UsageError, match=r"is not valid.*; nothing was saved"):
        KeyEntry(name, "openai", "")


def test_good_names_and_urls_are_taken_and_urls_normalised() -> None:
    assert KeyEntry("a", "openai", "").base_url == "https://api.openai.com/v1"
    assert KeyEntry("x" * 64, "openrouter", "").base_url == "https://openrouter.ai/api/v1"
    assert KeyEntry("Work_2.b-c", "other", " http://LOCALHOST:8080/v1// ").base_url == \
        "http://LOCALHOST:8080/v1"
    assert KeyEntry("a", "anthropic", "https://proxy.example/anthropic/", " m ").model == "m"


@pytest.mark.parametrize(("provider", "url", "why"), [
    ("other", "", "needs a base URL"),
    ("other", "   ", "needs a base URL"),
    ("openai", "ftp://host/v1", "not http or https"),
    ("openai", "file:///etc/passwd", "not http or https"),
    ("openai", "api.openai.com/v1", "not http or https"),
    ("openai", "https://user:pw@host/v1", "user or password"),
    ("openai", "https://@host/v1", "user or password"),
    ("openai", "https:///v1", "no host"),
    ("openai", "https://host:99999/v1", "port"),
    ("openai", "https://host/v1?key=1", "query or fragment"),
    ("openai", "https://host/v1#x", "query or fragment"),
    ("openai", "https://host/v 1", "space or control"),
    ("nope", "https://host/v1", "provider 'nope' is unknown"),
])
def test_bad_base_urls_and_providers_are_refused(provider: str, url: str, why: str) -> None:
    with pytest.raises(UsageError, match=why):
        KeyEntry("work", provider, url)


@pytest.mark.parametrize(("secret", "why"), [
    ("", "is empty"),
    (" \n\t", "is empty"),
    ("sk-abc def", "space or line break inside"),
    ("sk-abc\ndef", "space or line break inside"),
    ("sk-abc\x00def", "control or non-ASCII"),
    ("sk-abc\u200bdef", "control or non-ASCII"),
    ("sk-é", "control or non-ASCII"),
    ("s" * 4097, "longer than 4096"),
])
def test_bad_secrets_are_refused_unquoted_with_nothing_written(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        os_keyring: KeyringBackend, secret: str, why: str) -> None:
    name = names()
    with pytest.raises(UsageError, match=f"{why}.*nothing was saved") as caught:
        keys.add(KeyEntry(name, "openai", ""), secret)
    if secret.strip():
        assert secret.strip() not in caught.value.message
    assert not index_path(private_home).exists()
    assert stored(os_keyring, name) is None


def test_the_longest_secret_allowed_is_kept_whole(
        keys: ApiKeys, names: Callable[[], str]) -> None:
    name = names()
    keys.add(KeyEntry(name, "openai", ""), "s" * 4096)
    assert keys.secret(name) == "s" * 4096


# -- keyrings that must not be used ---------------------------------------------------------


def test_without_an_os_keyring_adding_is_refused_with_the_fix_and_nothing_is_written(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        os_keyring: KeyringBackend) -> None:
    keyring.set_keyring(fail.Keyring())
    problem = backend_problem()
    assert problem is not None
    assert problem.startswith("no OS keyring is available (keyring found only its fail")
    assert "apt install gnome-keyring" in problem
    assert "dbus-run-session" in problem
    assert problem.endswith("no key was saved")
    assert apikeys.backend_name() == ""
    name = names()
    with pytest.raises(KeyStoreError, match=r"no OS keyring is available.*nothing was saved"):
        keys.add(KeyEntry(name, "openai", ""), GOOD)
    assert not index_path(private_home).exists()
    assert stored(os_keyring, name) is None


@unregistered
class PlaintextKeyring(KeyringBackend):
    """Stands for keyrings.alt's file backends: viable, and never to be used."""

    priority: ClassVar[float] = 10

    def get_password(self, service: str, username: str) -> str | None:
        raise AssertionError("a plaintext backend was read")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise AssertionError("a plaintext backend was written")

    def delete_password(self, service: str, username: str) -> None:
        raise AssertionError("a plaintext backend was asked to delete")


@pytest.fixture
def plaintext(os_keyring: KeyringBackend) -> Iterator[KeyringBackend]:
    yield from custom_backend(PlaintextKeyring)


def test_a_plaintext_backend_is_never_used_even_when_it_is_the_only_one(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        plaintext: KeyringBackend) -> None:
    problem = backend_problem()
    assert problem is not None
    assert "PlaintextKeyring, which keeps secrets in a file" in problem
    with pytest.raises(KeyStoreError, match="nothing was saved"):
        keys.add(KeyEntry(names(), "openai", ""), GOOD)
    assert not index_path(private_home).exists()


def test_a_chain_that_ranks_a_plaintext_backend_first_still_keeps_keys_in_the_os_keyring(
        keys: ApiKeys, names: Callable[[], str], plaintext: KeyringBackend,
        os_keyring: KeyringBackend) -> None:
    chain = chainer.ChainerBackend()
    assert isinstance(chain.backends[0], PlaintextKeyring)
    keyring.set_keyring(chain)
    assert backend_problem() is None
    name = names()
    keys.add(KeyEntry(name, "openai", ""), GOOD)
    assert stored(os_keyring, name) == GOOD


@unregistered
class RefusingKeyring(KeyringBackend):
    """A keyring that fails to store, quoting what it was given (as a careless one might)."""

    priority: ClassVar[float] = 5

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringError(f"the collection is locked; could not store {password}")

    def delete_password(self, service: str, username: str) -> None:
        raise PasswordDeleteError("no such password")


@pytest.fixture
def refusing(os_keyring: KeyringBackend) -> Iterator[KeyringBackend]:
    yield from custom_backend(RefusingKeyring)


def test_a_keyring_that_refuses_a_key_is_reported_without_quoting_the_secret(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        refusing: KeyringBackend) -> None:
    name = names()
    with pytest.raises(KeyStoreError) as caught:
        keys.add(KeyEntry(name, "openai", ""), GOOD)
    message = caught.value.message
    assert message == (f"the keyring refused to store the key '{name}' (the collection is "
                       "locked; could not store [key]); nothing was saved")
    assert not index_path(private_home).exists()


# -- nothing half done ----------------------------------------------------------------------


def refuse_replace(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: object, dst: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(os, "replace", refuse)


def make_unwritable(folder: Path) -> None:
    """A config folder the index cannot be written to: read-only, or (as root, who writes
    anywhere) another user's, which Tabsteward refuses to use."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chown(folder, 65534, 65534)
    else:
        folder.chmod(0o500)


@pytest.mark.parametrize("fault", ["replace fails", "folder unwritable"])
def test_a_key_whose_index_cannot_be_written_leaves_no_secret_behind(
        keys: ApiKeys, names: Callable[[], str], private_home: dict[str, str],
        os_keyring: KeyringBackend, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    path = index_path(private_home)
    if fault == "replace fails":
        refuse_replace(monkeypatch)
    else:
        make_unwritable(path.parent)
    name = names()
    with pytest.raises(TabstewardError, match=r"keys.json could not be written .*; nothing "
                       "was saved$") as caught:
        keys.add(KeyEntry(name, "openai", ""), GOOD)
    assert GOOD not in caught.value.message
    assert stored(os_keyring, name) is None
    assert not path.exists()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_replacement_whose_index_cannot_be_written_puts_the_old_secret_back(
        keys: ApiKeys, names: Callable[[], str], os_keyring: KeyringBackend,
        monkeypatch: pytest.MonkeyPatch) -> None:
    name = names()
    keys.add(KeyEntry(name, "openai", "", "m1"), GOOD)
    refuse_replace(monkeypatch)
    with pytest.raises(TabstewardError, match="nothing was saved"):
        keys.add(KeyEntry(name, "anthropic", ""), WRONG, replace=True)
    monkeypatch.undo()
    assert keys.list() == [KeyEntry(name, "openai", "", "m1")]
    assert stored(os_keyring, name) == GOOD


def test_a_removal_whose_index_cannot_be_written_puts_the_secret_back(
        keys: ApiKeys, names: Callable[[], str], os_keyring: KeyringBackend,
        monkeypatch: pytest.MonkeyPatch) -> None:
    name = names()
    keys.add(KeyEntry(name, "openai", ""), GOOD)
    refuse_replace(monkeypatch)
    with pytest.raises(TabstewardError, match="nothing was removed"):
        keys.remove(name)
    monkeypatch.undo()
    assert [e.name for e in keys.list()] == [name]
    assert stored(os_keyring, name) == GOOD


def test_no_repr_or_message_shows_a_secret(keys: ApiKeys, names: Callable[[], str]) -> None:
    name = names()
    entry = keys.add(KeyEntry(name, "openai", ""), GOOD)
    assert GOOD not in repr(entry) + repr(keys) + str(entry)
