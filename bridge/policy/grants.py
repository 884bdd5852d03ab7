"""Remembered grants ("always for this site") in a private JSON file, and one-shot grants."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..paths import ensure_private_dir, state_dir
from .categories import Category

FILE_NAME = "grants.json"
VERSION = 1

Key = tuple[str, str, Category]


@dataclass(frozen=True)
class Grant:
    """The person allowed `category` on `site` for every agent with `profile`."""

    profile: str
    site: str
    category: Category
    created: datetime

    @property
    def key(self) -> Key:
        return (self.profile, self.site, self.category)

    def to_json(self) -> dict[str, str]:
        return {"profile": self.profile, "site": self.site, "category": self.category.value,
                "created": self.created.isoformat(timespec="seconds")}


class Grants:
    """The remembered grants of every profile; the file is re-read when it changes on disk
    (the CLI may revoke while the hub runs) and rewritten whole, atomically."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else state_dir() / FILE_NAME
        self._grants: dict[Key, Grant] = {}
        self._seen: tuple[int, int] | None = None  # (mtime_ns, size) of what _grants holds
        self._once: set[tuple[str, str, Category, str]] = set()

    # -- remembered --
    def add(self, profile: str, site: str, category: Category) -> Grant:
        """Remember that `profile` may do `category` on `site`; the grant already kept when
        there is one."""
        if not profile or not site:
            raise UsageError("a grant needs a profile and a site; nothing was remembered")
        grants = self._load()
        key = (profile, site, Category(category))
        if key in grants:
            return grants[key]
        grant = Grant(profile, site, key[2], datetime.now(UTC).replace(microsecond=0))
        self._save({**grants, key: grant})
        return grant

    def allows(self, profile: str, site: str, category: Category) -> bool:
        return bool(site) and (profile, site, category) in self._load()

    def list(self) -> list[Grant]:
        """Every remembered grant, oldest first."""
        return sorted(self._load().values(), key=lambda g: (g.created, g.key))

    def revoke(self, profile: str, site: str | None = None,
               category: Category | None = None) -> int:
        """Forget the profile's grants (those for `site` and/or `category` when given);
        how many were forgotten."""
        grants = self._load()
        keep = {k: g for k, g in grants.items()
                if not (g.profile == profile and site in (None, g.site)
                        and category in (None, g.category))}
        removed = len(grants) - len(keep)
        if removed:
            self._save(keep)
        return removed

    # -- one-shot, in memory only --
    def add_once(self, profile: str, site: str, category: Category, subject: str = "") -> None:
        """Let the next matching action through once (an answer of "allow once"); with a
        `subject` (a script's SHA-256), only an action about that same subject."""
        self._once.add((profile, site, Category(category), subject))

    def take_once(self, profile: str, site: str, category: Category,
                  subject: str = "") -> bool:
        """Use up a one-shot grant; whether there was one."""
        key = (profile, site, category, subject)
        if key in self._once:
            self._once.discard(key)
            return True
        return False

    # -- the file --
    def _load(self) -> dict[Key, Grant]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._grants, self._seen = {}, None
            return self._grants
        except OSError as exc:
            raise self._unusable(exc.strerror or type(exc).__name__) from None
        seen = (st.st_mtime_ns, st.st_size)
        if seen != self._seen:
            self._grants, self._seen = self._read(), seen
        return self._grants

    def _read(self) -> dict[Key, Grant]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._unusable(f"it is not readable JSON: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("grants"), list):
            raise self._unusable('it has no "grants" list')
        grants: dict[Key, Grant] = {}
        for i, item in enumerate(data["grants"]):
            grant = _grant_from(item)
            if grant is None:
                raise self._unusable(f"grant {i} is not a profile, site, category and time")
            grants[grant.key] = grant
        return grants

    def _save(self, grants: dict[Key, Grant]) -> None:
        try:
            folder = ensure_private_dir(self.path.parent)
        except OSError as exc:
            raise self._unusable(str(exc)) from None
        body = {"version": VERSION,
                "grants": [g.to_json() for g in sorted(grants.values(),
                                                       key=lambda g: (g.created, g.key))]}
        fd, tmp = tempfile.mkstemp(prefix=".grants-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(body, out, indent=2)
                out.write("\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        st = self.path.stat()
        self._grants, self._seen = grants, (st.st_mtime_ns, st.st_size)

    def _unusable(self, why: str) -> UsageError:
        return UsageError(f"the grants file {self.path} cannot be used: {why}. Nothing was "
                          "changed; fix or remove the file", file=str(self.path))


def _grant_from(item: Any) -> Grant | None:
    if not isinstance(item, dict):
        return None
    profile, site = item.get("profile"), item.get("site")
    category, created = item.get("category"), item.get("created")
    if not (isinstance(profile, str) and profile and isinstance(site, str) and site
            and isinstance(category, str) and category in Category._value2member_map_
            and isinstance(created, str)):
        return None
    try:
        when = datetime.fromisoformat(created)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return Grant(profile, site, Category(category), when)
