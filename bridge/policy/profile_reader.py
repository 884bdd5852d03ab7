"""Reading the person's policy.toml into profiles, strictly: every complaint names the file
and the key path, and a wrong file is used not at all."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .categories import Category, Rule
from .profiles import (
    ASK_TIMEOUT_BOUNDS,
    BUILTIN,
    DEFAULT,
    FILE_NAME,
    GOAL_FIELDS,
    MAX_TABS_BOUNDS,
    Config,
    Profile,
    default_path,
    field_problem,
    goal_range,
    in_bounds,
    valid_name,
)
from .sites import parse_pattern

_SECRET_KEY = re.compile(r"token|passw(or)?d|pwd|secret|api[_-]?key|private[_-]?key|"
                         r"access[_-]?key|bearer", re.IGNORECASE)
_TOP_KEYS = frozenset({"default_profile", "agents", "profiles"})
_PROFILE_KEYS = frozenset({"inherits", "allow_sites", "deny_sites", "ask_timeout", "rules",
                           "model", "key", "browser", "max_tabs", *GOAL_FIELDS})
NOTHING_LOADED = "Nothing was loaded from this file"


def load(path: Path | None = None) -> Config:
    """Read policy.toml (the safe defaults when there is none); UsageError when it is wrong,
    and then nothing of it is used."""
    path = path if path is not None else default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: could not be read ({_why(exc)}). {NOTHING_LOADED}") \
            from None
    return load_text(text, path)


def load_text(text: str, path: Path | None = None, *, nothing: str = NOTHING_LOADED) -> Config:
    """Read the text of a policy.toml as if it came from `path` (which it does not touch);
    UsageError when it is wrong, its message ending with the sentence `nothing`."""
    label = str(path) if path is not None else FILE_NAME
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{label}: is not valid TOML ({exc}). {nothing}", file=label) \
            from None
    return _Reader(path, nothing).config(data)


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or type(exc).__name__


class _Reader:
    """Checks one parsed file strictly; every complaint names the file and the key path."""

    def __init__(self, path: Path | None, nothing: str) -> None:
        self.path = path
        self.label = str(path) if path is not None else FILE_NAME
        self.nothing = nothing

    def fail(self, where: str, what: str) -> UsageError:
        return UsageError(f"{self.label}: {where} {what}. {self.nothing}",
                          file=self.label, key=where)

    def config(self, data: dict[str, Any]) -> Config:
        self.no_secrets(data, ())
        self.only_keys(data, _TOP_KEYS, ())
        default = self.string(data, "default_profile", (), DEFAULT)
        raw_profiles = self.table(data, "profiles", ())
        raw = {name: self.profile_table(name, value) for name, value in raw_profiles.items()}
        profiles = dict(BUILTIN)
        for name in raw:
            profiles[name] = self.resolve(name, raw, ())
        if default not in profiles:
            raise self.fail("default_profile", f"names the profile {default!r}, which is "
                            f"neither built in nor defined here ({_known(profiles)})")
        agents = self.agents(self.table(data, "agents", ()), profiles)
        return Config(profiles, default, agents, self.path)

    def no_secrets(self, value: Any, where: tuple[str, ...]) -> None:
        if isinstance(value, list):
            for item in value:
                self.no_secrets(item, where)
        if not isinstance(value, dict):
            return
        for key, item in value.items():
            if _SECRET_KEY.search(key):
                raise self.fail(_key(*where, key), "looks like a secret; secrets never belong "
                                "in the policy file (Tabsteward keeps its own tokens in its "
                                "private state folder). Remove it")
            self.no_secrets(item, (*where, key))

    def only_keys(self, table: dict[str, Any], allowed: frozenset[str],
                  where: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(_key(*where, key), "is not a setting Tabsteward knows; "
                                f"the settings here are {', '.join(sorted(allowed))}")

    def typed(self, table: dict[str, Any], key: str, where: tuple[str, ...],
              kinds: tuple[type, ...], wanted: str) -> Any:
        value = table[key]
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise self.fail(_key(*where, key), f"must be {wanted}, not {_toml_type(value)}")
        return value

    def string(self, table: dict[str, Any], key: str, where: tuple[str, ...],
               default: str) -> str:
        if key not in table:
            return default
        value: str = self.typed(table, key, where, (str,), "a string")
        return value

    def table(self, table: dict[str, Any], key: str, where: tuple[str, ...]) -> dict[str, Any]:
        if key not in table:
            return {}
        value: dict[str, Any] = self.typed(table, key, where, (dict,), "a table")
        return value

    def profile_table(self, name: str, value: Any) -> dict[str, Any]:
        where = ("profiles", name)
        if not valid_name(name):
            raise self.fail(_key(*where), "is not a usable profile name; use letters, digits, "
                            "'-', '_' or '.' (at most 64)")
        if not isinstance(value, dict):
            raise self.fail(_key(*where), f"must be a table, not {_toml_type(value)}")
        self.only_keys(value, _PROFILE_KEYS, where)
        return value

    def resolve(self, name: str, raw: dict[str, dict[str, Any]],
                stack: tuple[str, ...]) -> Profile:
        """The profile `name` with what it does not say taken from the one it inherits."""
        where = ("profiles", name)
        table = raw[name]
        parent = self.string(table, "inherits", where, DEFAULT)
        if parent in stack or (parent == name and parent not in BUILTIN):
            raise self.fail(_key(*where, "inherits"), "makes profiles inherit from each "
                            f"other in a circle ({' -> '.join((*stack, name, parent))})")
        if parent == name or parent not in raw:
            if parent not in BUILTIN:
                raise self.fail(_key(*where, "inherits"), f"names the profile {parent!r}, "
                                f"which is neither built in nor defined here "
                                f"({_known({**BUILTIN, **raw})})")
            base = BUILTIN[parent]
        else:
            base = self.resolve(parent, raw, (*stack, name))
        return self.build(name, table, base)

    def build(self, name: str, table: dict[str, Any], base: Profile) -> Profile:
        where = ("profiles", name)
        allow = self.sites(table, "allow_sites", where, base.allow_sites)
        deny = self.sites(table, "deny_sites", where, base.deny_sites)
        timeout = base.ask_timeout
        if "ask_timeout" in table:
            timeout = float(self.typed(table, "ask_timeout", where, (int, float),
                                       "a number of seconds"))
            low, high = ASK_TIMEOUT_BOUNDS
            if not low <= timeout <= high:
                raise self.fail(_key(*where, "ask_timeout"), f"is {timeout:g}; it must be "
                                f"between {low:g} and {high:g} seconds")
        rules = {**base.rules, **self.rules(self.table(table, "rules", where),
                                            (*where, "rules"))}
        return Profile(name, allow, deny, rules, timeout,
                       model=self.text(table, "model", where, base.model),
                       key=self.text(table, "key", where, base.key),
                       browser=self.text(table, "browser", where, base.browser),
                       goal_actions=self.budget(table, "goal_actions", where,
                                                base.goal_actions),
                       goal_requests=self.budget(table, "goal_requests", where,
                                                 base.goal_requests),
                       goal_seconds=self.budget(table, "goal_seconds", where,
                                                base.goal_seconds),
                       goal_candidates=self.budget(table, "goal_candidates", where,
                                                   base.goal_candidates),
                       max_tabs=self.whole(table, "max_tabs", where, base.max_tabs,
                                           MAX_TABS_BOUNDS))

    def budget(self, table: dict[str, Any], key: str, where: tuple[str, ...],
               inherited: int) -> int:
        """A goal agent budget: a whole number within its GOAL_BOUNDS (never true/false)."""
        if key not in table:
            return inherited
        value: int = self.typed(table, key, where, (int,), goal_range(key))
        if not in_bounds(key, value):
            raise self.fail(_key(*where, key), f"is {value}; it must be {goal_range(key)}")
        return value

    def whole(self, table: dict[str, Any], key: str, where: tuple[str, ...], inherited: int,
              bounds: tuple[int, int]) -> int:
        """A whole number within bounds (never true/false)."""
        if key not in table:
            return inherited
        low, high = bounds
        wanted = f"a whole number from {low} to {high}"
        value: int = self.typed(table, key, where, (int,), wanted)
        if not low <= value <= high:
            raise self.fail(_key(*where, key), f"is {value}; it must be {wanted}")
        return value

    def text(self, table: dict[str, Any], key: str, where: tuple[str, ...],
             inherited: str) -> str:
        value = self.string(table, key, where, inherited)
        problem = field_problem(key, value)
        if problem:
            raise self.fail(_key(*where, key), problem)
        return value

    def sites(self, table: dict[str, Any], key: str, where: tuple[str, ...],
              inherited: tuple[str, ...]) -> tuple[str, ...]:
        if key not in table:
            return inherited
        value = self.typed(table, key, where, (list,), "an array of site patterns")
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{_key(*where, key)}[{i}]",
                                f"must be a string, not {_toml_type(item)}")
            try:
                parse_pattern(item)
            except UsageError as exc:
                raise self.fail(f"{_key(*where, key)}[{i}]", f"is wrong: {exc.message}") \
                    from None
            out.append(item)
        return tuple(out)

    def rules(self, table: dict[str, Any], where: tuple[str, ...]) -> dict[Category, Rule]:
        out: dict[Category, Rule] = {}
        for key in table:
            if key not in Category._value2member_map_:
                raise self.fail(_key(*where, key), "is not a category; the categories are "
                                + ", ".join(c.value for c in Category))
            text = self.typed(table, key, where, (str,), '"allow", "ask" or "block"')
            if text not in Rule._value2member_map_:
                raise self.fail(_key(*where, key), f"is {text[:40]!r}, which is not a rule; "
                                'use "allow", "ask" or "block"')
            out[Category(key)] = Rule(text)
        return out

    def agents(self, table: dict[str, Any], profiles: Mapping[str, Profile]) -> dict[str, str]:
        out: dict[str, str] = {}
        for agent in table:
            where = _key("agents", agent)
            if not agent.strip():
                raise self.fail(where, "is an empty agent name")
            name = self.typed(table, agent, ("agents",), (str,), "a profile name")
            if name not in profiles:
                raise self.fail(where, f"names the profile {name[:64]!r}, which is neither "
                                f"built in nor defined here ({_known(profiles)})")
            out[agent] = name
        return out


def _key(*parts: str) -> str:
    return ".".join(p if re.fullmatch(r"[A-Za-z0-9_-]+", p) else json.dumps(p) for p in parts)


def _known(profiles: Mapping[str, object]) -> str:
    return "profiles: " + ", ".join(sorted(profiles))


def _toml_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"
