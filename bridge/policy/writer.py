"""Writing policy.toml: a Config as TOML text, checked with the real reader, saved atomically."""

from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import TabstewardError, UsageError
from ..paths import ensure_private_dir
from .categories import Category
from .profile_reader import load_text
from .profiles import BUILTIN, GOAL_FIELDS, Config, Profile, default_path

NOTHING_SAVED = "Nothing was saved; policy.toml is unchanged"

HEADER = """\
# Tabsteward policy: what the local AI agents you paired may do in your browser.
# This file is also written by the Tabsteward tray app (Profiles window), which keeps your
# settings but not your comments. Every profile that differs from its built-in self is
# spelled out in full. Secrets never belong here: `key` is only the name of a stored key.
"""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


# -- a Config as tables --

def profile_table(profile: Profile) -> dict[str, Any]:
    """Every setting of `profile` as its [profiles.NAME] table (no `inherits`: none needed)."""
    return {
        "allow_sites": list(profile.allow_sites),
        "deny_sites": list(profile.deny_sites),
        "ask_timeout": profile.ask_timeout,
        "model": profile.model,
        "key": profile.key,
        "browser": profile.browser,
        "max_tabs": profile.max_tabs,
        **{key: getattr(profile, key) for key in GOAL_FIELDS},
        "rules": {c.value: profile.rules[c].value for c in Category},
    }


def to_tables(config: Config) -> dict[str, Any]:
    """The TOML data of `config`: profiles identical to their built-in selves are left out."""
    return {
        "default_profile": config.default_profile,
        "agents": dict(config.agents),
        "profiles": {name: profile_table(profile) for name, profile in config.profiles.items()
                     if profile != BUILTIN.get(name)},
    }


def from_tables(tables: Mapping[str, Any], path: Path | None = None) -> Config:
    """The Config that TOML data makes, checked by the real reader as if read from `path`;
    UsageError naming the key that is wrong (and saying nothing was saved)."""
    return load_text(render(tables), path, nothing=NOTHING_SAVED)


# -- tables as TOML text --

def dump(config: Config) -> str:
    """policy.toml text that reads back as `config`."""
    return render(to_tables(config))


def render(tables: Mapping[str, Any]) -> str:
    """TOML text of `tables` (strings, numbers, booleans, arrays of those, and tables), after
    the header; scalars come before subtables, at every level."""
    return HEADER + "\n" + "\n".join(_table((), tables)) + "\n"


def _table(where: tuple[str, ...], table: Mapping[str, Any]) -> list[str]:
    """The lines of `table` under its [header] (left out when it holds only tables)."""
    scalars = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in table.items() if isinstance(v, Mapping)}
    lines: list[str] = []
    if where and (scalars or not tables):
        lines += ["", "[" + ".".join(_key(part) for part in where) + "]"]
    lines += [f"{_key(k)} = {_value(where, k, v)}" for k, v in scalars.items()]
    for key, value in tables.items():
        lines += _table((*where, key), value)
    return lines


def _value(where: tuple[str, ...], key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(where, key, item) for item in value) + "]"
    raise UsageError(f"{'.'.join((*where, key))} holds a {type(value).__name__}, which "
                     f"policy.toml cannot say. {NOTHING_SAVED}")


def _float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# -- saving --

def save(config: Config, path: Path | None = None) -> Config:
    """Write `config` to policy.toml (the person's, unless `path`) atomically, mode 0600, once
    its text reads back as `config` with the real reader; the config as read back. On any
    failure the old file stays as it was."""
    target = path if path is not None else default_path()
    text = dump(config)
    saved = load_text(text, target, nothing=NOTHING_SAVED)
    if saved != config:
        raise UsageError(f"{target}: {_difference(config, saved)}. {NOTHING_SAVED}",
                         file=str(target))
    _write(_real(target, private=path is None), text)
    return saved


def _difference(wanted: Config, read: Config) -> str:
    lost = sorted(set(wanted.profiles) ^ set(read.profiles))
    if lost:
        return ("the profiles " + ", ".join(lost) + " would not read back as given "
                "(built-in profiles cannot be removed)")
    changed = sorted(n for n in wanted.profiles if wanted.profiles[n] != read.profiles[n])
    if changed:
        return "the profiles " + ", ".join(changed) + " would not read back as given"
    return "the default profile or the agents would not read back as given"


def _real(target: Path, *, private: bool) -> Path:
    """The file to replace: the target of a symlink (so a linked dotfile stays linked), in a
    folder that exists (private when it is Tabsteward's own)."""
    try:
        if private:
            ensure_private_dir(target.parent)
        else:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise _unwritable(target, exc) from None
    return target.resolve() if target.is_symlink() else target


def _write(target: Path, text: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=".policy-", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _unwritable(target, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _unwritable(target, exc) from None
        raise


def _unwritable(target: Path, exc: OSError) -> TabstewardError:
    why = exc.strerror or type(exc).__name__
    return TabstewardError(f"{target}: could not be written ({why}). {NOTHING_SAVED}",
                           file=str(target))
