"""API keys for LLM providers: secrets only in the OS keyring, an index of names in a file
(the providers themselves, and checking a key with one, are in providers.py)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets as _random
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import paths
from ..errors import TabstewardError, UsageError
from .providers import PROVIDERS, redact, valid_secret

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "tabsteward-llm"
INDEX_VERSION = 1
MAX_MODEL = 200
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_FIELDS = {"name", "provider", "base_url", "model"}
_UNSAFE_WORDS = ("plaintext", "file", "insecure", "unencrypted")
INSTALL_HINT = ("install and unlock one (Debian: apt install gnome-keyring, then log in to a "
                "desktop session, or run inside dbus-run-session with gnome-keyring-daemon "
                "--unlock)")

class KeyStoreError(TabstewardError):
    """The OS keyring is missing, not safe (a file), or refused to read or write a secret."""


@dataclass(frozen=True)
class KeyEntry:
    """What is known of a key besides its secret. An empty base_url means the provider's."""

    name: str
    provider: str
    base_url: str
    model: str = ""

    def __post_init__(self) -> None:
        try:
            _, _, base_url, model = _checked(self.name, self.provider, self.base_url,
                                             self.model)
        except ValueError as exc:
            raise UsageError(f"{exc}; nothing was saved") from None
        object.__setattr__(self, "base_url", base_url)
        object.__setattr__(self, "model", model)

    def row(self) -> dict[str, str]:
        return {"name": self.name, "provider": self.provider, "base_url": self.base_url,
                "model": self.model}


# -- validation (ValueError carries the reason; callers say what did not happen) -------------


def _checked(name: object, provider: object, base_url: object,
             model: object) -> tuple[str, str, str, str]:
    """The fields of a key entry, normalised; ValueError saying what is wrong."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"the name {name!r} is not valid (1 to 64 letters, digits, '_', '.' "
                         "or '-', starting with a letter or digit)")
    if not isinstance(provider, str) or provider not in PROVIDERS:
        raise ValueError(f"the provider {provider!r} is unknown (known: "
                         f"{', '.join(PROVIDERS)})")
    if not isinstance(base_url, str) or not isinstance(model, str):
        raise ValueError("the base URL and the model must be text")
    url = base_url.strip() or PROVIDERS[provider].default_base_url
    if not url:
        raise ValueError(f"a key for {PROVIDERS[provider].label} needs a base URL "
                         "(such as https://host/v1)")
    return name, provider, normal_url(url), _model(model)


def normal_url(url: str) -> str:
    """An http(s) base URL with a host, no credentials, query or fragment; no trailing /."""
    if any(c.isspace() or not c.isprintable() for c in url):
        raise ValueError(f"the base URL {url!r} has a space or control character")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError(f"the base URL {url!r} is not http or https")
    if "@" in parts.netloc:
        raise ValueError(f"the base URL {url!r} has a user or password in it; give the key "
                         "as the secret instead")
    if not parts.hostname:
        raise ValueError(f"the base URL {url!r} has no host")
    try:
        parts.port  # noqa: B018  (raises for a port that is not a number in range)
    except ValueError:
        raise ValueError(f"the base URL {url!r} has a port that is not valid") from None
    if "?" in url or "#" in url:
        raise ValueError(f"the base URL {url!r} has a query or fragment; give the URL the "
                         "API's paths start from, such as https://host/v1")
    return url.rstrip("/")


def _model(model: str) -> str:
    model = model.strip()
    if len(model) > MAX_MODEL or any(not c.isprintable() for c in model):
        raise ValueError(f"the model name is longer than {MAX_MODEL} characters or has a "
                         "control character")
    return model


# -- the OS keyring -------------------------------------------------------------------------


def _describe(backend: object) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_file_backend(backend: object) -> bool:
    """A backend that keeps secrets in a file (keyrings.alt and its kind): never used."""
    where = _describe(backend).lower()
    words = set(re.split(r"[^a-z]+", where))
    return where.startswith("keyrings.alt") or "alt" in words or any(
        w in where for w in _UNSAFE_WORDS)


def _unusable(backend: KeyringBackend) -> str | None:
    """Why this one backend must not hold a key, or None."""
    from keyring.backends import fail

    if isinstance(backend, fail.Keyring):
        return "keyring found only its fail backend"
    if _is_file_backend(backend):
        return f"keyring found only {_describe(backend)}, which keeps secrets in a file"
    try:
        priority = float(backend.priority)
    except Exception as exc:  # noqa: BLE001  (a backend says it is not viable by raising)
        return f"{_describe(backend)} is not available: {redact(str(exc), '')}"
    if priority <= 0:
        return f"keyring found only {_describe(backend)}, which is not a real keyring"
    return None


def _store() -> tuple[KeyringBackend | None, str]:
    """The keyring backend to keep keys in, or None and why there is none."""
    import keyring
    from keyring.backends import chainer

    backend = keyring.get_keyring()
    candidates = backend.backends if isinstance(backend, chainer.ChainerBackend) else [backend]
    reasons = []
    for candidate in candidates:
        reason = _unusable(candidate)
        if reason is None:
            return candidate, ""
        reasons.append(reason)
    return None, "; ".join(reasons) or "keyring found no backend at all"


def backend_problem() -> str | None:
    """None when a real OS keyring is usable; otherwise what is wrong and how to fix it."""
    backend, reason = _store()
    if backend is not None:
        return None
    return f"no OS keyring is available ({reason}): {INSTALL_HINT}; no key was saved"


def backend_name() -> str:
    """The keyring that keeps the keys, as a person would name it ("" when none is usable)."""
    backend, _ = _store()
    return "" if backend is None else str(backend.name)


def _keyring(outcome: str) -> KeyringBackend:
    backend, reason = _store()
    if backend is None:
        raise KeyStoreError(f"no OS keyring is available ({reason}): {INSTALL_HINT}; {outcome}")
    return backend


def _refused(action: str, name: str, exc: Exception, secret: str, outcome: str) -> KeyStoreError:
    detail = redact(str(exc), secret) or type(exc).__name__
    return KeyStoreError(f"the keyring refused to {action} the key {name!r} ({detail}); "
                         f"{outcome}")


# -- the index file -------------------------------------------------------------------------


def _broken(path: Path, what: str) -> UsageError:
    return UsageError(f"{path} is not a valid keys index ({what}); no key from it was used. "
                      "Fix it, or move it away and add the keys again")


def read_index(path: Path) -> list[KeyEntry]:
    """The entries of the index at `path` ([] when there is none); strict about its form."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise UsageError(f"{path} could not be read ({exc.strerror or exc}); no key from it "
                         "was used") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _broken(path, f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or set(doc) != {"version", "keys"}:
        raise _broken(path, 'not an object with exactly "version" and "keys"')
    if type(doc["version"]) is not int or doc["version"] != INDEX_VERSION:
        raise _broken(path, f"version {doc['version']!r}, where {INDEX_VERSION} is known")
    if not isinstance(doc["keys"], list):
        raise _broken(path, '"keys" is not a list')
    entries = [_entry(path, i, row) for i, row in enumerate(doc["keys"], 1)]
    names = [e.name for e in entries]
    for name in names:
        if names.count(name) > 1:
            raise _broken(path, f"the name {name!r} appears twice")
    return entries


def _entry(path: Path, i: int, row: object) -> KeyEntry:
    if not isinstance(row, dict):
        raise _broken(path, f"key {i} is not an object")
    unknown = sorted(set(row) - _FIELDS)
    missing = sorted({"name", "provider", "base_url"} - set(row))
    if unknown or missing:
        raise _broken(path, f"key {i} has unknown fields {unknown} or lacks {missing}")
    try:
        fields = _checked(row["name"], row["provider"], row["base_url"], row.get("model", ""))
    except ValueError as exc:
        raise _broken(path, f"key {i}: {exc}") from None
    return KeyEntry(*fields)


def write_index(path: Path, entries: list[KeyEntry]) -> None:
    """Replace the index atomically with a 0600 file in a private folder."""
    paths.ensure_private_dir(path.parent)
    body = json.dumps({"version": INDEX_VERSION, "keys": [e.row() for e in entries]},
                      indent=1) + "\n"
    tmp = path.with_name(f".{path.name}.{_random.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                 0o600)
    try:
        try:
            os.write(fd, body.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -- the keys -------------------------------------------------------------------------------


class ApiKeys:
    """The person's LLM keys: the index in `config_dir()/keys.json`, secrets in the keyring."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.config_dir() / "keys.json"

    def __repr__(self) -> str:
        return f"ApiKeys({str(self.path)!r})"

    def list(self) -> list[KeyEntry]:
        return read_index(self.path)

    def get(self, name: str) -> KeyEntry:
        entries = self.list()
        for entry in entries:
            if entry.name == name:
                return entry
        known = ", ".join(e.name for e in entries) or "none yet"
        raise UsageError(f"no key named {name!r} (known: {known})")

    def secret(self, name: str) -> str:
        """The key's secret, read from the keyring."""
        entry = self.get(name)
        outcome = "the key was not read"
        backend = _keyring(outcome)
        try:
            found = backend.get_password(SERVICE, entry.name)
        except Exception as exc:  # noqa: BLE001  (any backend failure is reported the same)
            raise _refused("read", entry.name, exc, "", outcome) from None
        if not isinstance(found, str) or not found:
            raise UsageError(f"the keyring holds no secret for the key {entry.name!r} (service "
                             f"{SERVICE!r}); add it again")
        return found

    def add(self, entry: KeyEntry, secret: str, *, replace: bool = False) -> KeyEntry:
        """Keep `secret` in the keyring and `entry` in the index, both or neither."""
        secret = valid_secret(secret)
        outcome = "nothing was saved"
        backend = _keyring(outcome)
        entries = self.list()
        exists = any(e.name == entry.name for e in entries)
        if exists and not replace:
            raise UsageError(f"a key named {entry.name!r} already exists; nothing was saved "
                             "(replace it, or choose another name)")
        try:
            previous = backend.get_password(SERVICE, entry.name)
            backend.set_password(SERVICE, entry.name, secret)
        except Exception as exc:  # noqa: BLE001
            raise _refused("store", entry.name, exc, secret, outcome) from None
        updated = [entry if e.name == entry.name else e for e in entries]
        if not exists:
            updated.append(entry)
        _write_or_restore(self.path, updated, backend, entry.name, previous, outcome)
        return entry

    def remove(self, name: str) -> KeyEntry:
        """Forget the key: its secret, then its index entry (a missing secret is fine)."""
        entry = self.get(name)
        outcome = "nothing was removed"
        backend = _keyring(outcome)
        from keyring.errors import PasswordDeleteError

        try:
            previous = backend.get_password(SERVICE, entry.name)
            if previous is not None:
                backend.delete_password(SERVICE, entry.name)
        except PasswordDeleteError:
            previous = None  # gone between the two calls: as good as deleted
        except Exception as exc:  # noqa: BLE001
            raise _refused("remove", entry.name, exc, "", outcome) from None
        rest = [e for e in self.list() if e.name != entry.name]
        _write_or_restore(self.path, rest, backend, entry.name, previous, outcome)
        return entry


def _write_or_restore(path: Path, entries: list[KeyEntry], backend: KeyringBackend, name: str,
                      previous: str | None, outcome: str) -> None:
    """Write the index; when that fails, put the keyring back as it was and say so."""
    try:
        write_index(path, entries)
    except OSError as exc:
        left = _restore(backend, name, previous)
        raise TabstewardError(f"{path} could not be written ({exc.strerror or exc}); "
                              f"{outcome}{left}") from None


def _restore(backend: KeyringBackend, name: str, previous: str | None) -> str:
    """Put the keyring entry back; "" when done, else a warning to add to the message."""
    from keyring.errors import PasswordDeleteError

    try:
        if previous is None:
            with contextlib.suppress(PasswordDeleteError):
                backend.delete_password(SERVICE, name)
        else:
            backend.set_password(SERVICE, name, previous)
    except Exception:  # noqa: BLE001
        return (f", but the keyring could not be put back as it was: check the entry "
                f"{name!r} of service {SERVICE!r} in it")
    return ""


