"""Profiles: what an agent may do, read from the person's policy.toml or the safe defaults."""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..paths import config_dir, ensure_private_dir
from .categories import Category, Rule
from .sites import SiteList, parse_pattern

FILE_NAME = "policy.toml"
DEFAULT = "default"
ASK_TIMEOUT = 120.0
ASK_TIMEOUT_BOUNDS = (5.0, 3600.0)
DEFAULT_ALLOW = ("*", "localhost")
DEFAULT_DENY = ("file:", "private", "chrome:")

# What one run of Tabsteward's own goal agent may spend, per profile: the defaults and the
# (lowest, highest) a profile may set. Whole numbers; bridge/agent reads them from here.
GOAL_ACTIONS, GOAL_ACTIONS_BOUNDS = 60, (1, 1000)
GOAL_REQUESTS, GOAL_REQUESTS_BOUNDS = 120, (1, 2000)
GOAL_SECONDS, GOAL_SECONDS_BOUNDS = 600, (10, 86400)
GOAL_CANDIDATES, GOAL_CANDIDATES_BOUNDS = 250, (10, 2000)
GOAL_BOUNDS: Mapping[str, tuple[int, int]] = {
    "goal_actions": GOAL_ACTIONS_BOUNDS, "goal_requests": GOAL_REQUESTS_BOUNDS,
    "goal_seconds": GOAL_SECONDS_BOUNDS, "goal_candidates": GOAL_CANDIDATES_BOUNDS,
}
# How many tabs one agent may have open in a browser (those its pages open count too).
MAX_TABS, MAX_TABS_BOUNDS = 50, (1, 1000)
GOAL_FIELDS = tuple(GOAL_BOUNDS)  # a Profile's goal agent budgets, in this order
GOAL_HELP: Mapping[str, str] = {  # what each budget limits, in one line
    "goal_actions": "the most actions one run takes in the browser",
    "goal_requests": "the most requests one run makes to its model",
    "goal_seconds": "the most seconds one run lasts, by the clock",
    "goal_candidates": "the most page elements (candidate refs) the model sees per look",
}

_A, _Q, _B = Rule.ALLOW, Rule.ASK, Rule.BLOCK
DEFAULT_RULES: Mapping[Category, Rule] = {
    Category.NAVIGATE_OFFSITE: _Q, Category.SUBMIT: _A, Category.PURCHASE: _Q,
    Category.SEND: _Q, Category.DELETE: _Q, Category.CREDENTIALS: _Q, Category.UPLOAD: _Q,
    Category.DOWNLOAD: _A, Category.WRITE_FILES: _Q, Category.ACCOUNT_SETTINGS: _Q,
    Category.EVAL: _B,
    Category.READ_STORAGE: _B, Category.PERSON_TABS: _B,
}
TRUSTED_RULES: Mapping[Category, Rule] = {
    **{c: _A for c in Category},
    Category.EVAL: _Q, Category.READ_STORAGE: _Q, Category.PERSON_TABS: _Q,
}
READ_ONLY_RULES: Mapping[Category, Rule] = {c: _B for c in Category}

_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SECRET_KEY = re.compile(r"token|passw(or)?d|pwd|secret|api[_-]?key|private[_-]?key|"
                         r"access[_-]?key|bearer", re.IGNORECASE)
_TOP_KEYS = frozenset({"default_profile", "agents", "profiles"})
_PROFILE_KEYS = frozenset({"inherits", "allow_sites", "deny_sites", "ask_timeout", "rules",
                           "model", "key", "browser", "max_tabs", *GOAL_FIELDS})
TEXT_FIELDS = ("model", "key", "browser")  # a Profile's plain text settings, "" when unset
_TEXT_LIMITS = {"model": 200, "browser": 64}
_KEY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
# how common API keys begin: a value like these is a key itself, never the name of one
_KEY_PREFIXES = ("sk-", "sk_", "ghp_", "gho_", "github_pat_", "glpat-", "xoxb-", "xoxp-",
                 "AKIA", "AIza", "hf_")
NOTHING_LOADED = "Nothing was loaded from this file"


@dataclass(frozen=True)
class Profile:
    """One profile: its sites, a rule for every category, and how long to wait for a person."""

    name: str
    allow_sites: tuple[str, ...] = DEFAULT_ALLOW
    deny_sites: tuple[str, ...] = DEFAULT_DENY
    rules: dict[Category, Rule] = field(default_factory=lambda: dict(DEFAULT_RULES))
    ask_timeout: float = ASK_TIMEOUT
    model: str = ""    # the LLM model Tabsteward's own goal agent uses
    key: str = ""      # the NAME of an API key kept in the OS keyring (tray app, Keys window)
    browser: str = ""  # the browser its agents use unless they name one; "" = any
    goal_actions: int = GOAL_ACTIONS        # what one goal agent run may spend: GOAL_HELP
    goal_requests: int = GOAL_REQUESTS
    goal_seconds: int = GOAL_SECONDS
    goal_candidates: int = GOAL_CANDIDATES
    max_tabs: int = MAX_TABS  # the most tabs one agent may have open in a browser
    sites: SiteList = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        missing = [c.value for c in Category if c not in self.rules]
        if missing:
            raise UsageError(f"profile {self.name!r} has no rule for {', '.join(missing)}")
        low, high = ASK_TIMEOUT_BOUNDS
        if not low <= self.ask_timeout <= high:
            raise UsageError(f"profile {self.name!r}: ask_timeout must be between {low:g} and "
                             f"{high:g} seconds, not {self.ask_timeout:g}")
        for key in TEXT_FIELDS:
            problem = field_problem(key, getattr(self, key))
            if problem:
                raise UsageError(f"profile {self.name!r}: {key} {problem}")
        for key in GOAL_FIELDS:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not in_bounds(key, value):
                raise UsageError(f"profile {self.name!r}: {key} must be {goal_range(key)}, "
                                 f"not {value!r}")
        low_tabs, high_tabs = MAX_TABS_BOUNDS
        if isinstance(self.max_tabs, bool) or not isinstance(self.max_tabs, int) \
                or not low_tabs <= self.max_tabs <= high_tabs:
            raise UsageError(f"profile {self.name!r}: max_tabs must be a whole number from "
                             f"{low_tabs} to {high_tabs}, not {self.max_tabs!r}")
        object.__setattr__(self, "rules", {c: Rule(self.rules[c]) for c in Category})
        object.__setattr__(self, "sites", SiteList.of(self.allow_sites, self.deny_sites))

    def rule(self, category: Category) -> Rule:
        return self.rules[category]


def field_problem(key: str, value: str) -> str | None:
    """What is wrong with a value of the profile setting `key` (model, key or browser);
    None when it is usable. Never repeats the value, which may be a pasted secret."""
    if key == "key":
        if value.startswith(_KEY_PREFIXES):
            return ("looks like an API key itself; write only the name the key is stored "
                    "under in the tray app's Keys window")
        if value and not _KEY_NAME.fullmatch(value):
            return ("is not a key name; use letters, digits, '-', '_' or '.' (at most 64), "
                    "starting with a letter or digit")
        return None
    limit = _TEXT_LIMITS[key]
    if len(value) > limit:
        return f"is longer than {limit} characters"
    if not value.isprintable():
        return "holds a line break, a tab or another character that cannot be shown"
    return None


def goal_range(key: str) -> str:
    """The values the goal agent budget `key` may take, in words."""
    low, high = GOAL_BOUNDS[key]
    return f"a whole number from {low} to {high}"


def in_bounds(key: str, value: int) -> bool:
    """Whether `value` is allowed for the goal agent budget `key`."""
    low, high = GOAL_BOUNDS[key]
    return low <= value <= high


def valid_name(name: str) -> bool:
    """Whether `name` can name a profile: letters, digits, '-', '_' or '.' (at most 64)."""
    return _PROFILE_NAME.fullmatch(name) is not None


BUILTIN: Mapping[str, Profile] = {
    DEFAULT: Profile(DEFAULT),
    "trusted": Profile("trusted", rules=dict(TRUSTED_RULES)),
    "read-only": Profile("read-only", rules=dict(READ_ONLY_RULES)),
}


@dataclass(frozen=True)
class Config:
    """Every profile by name, the one agents get by default, and each named agent's profile."""

    profiles: dict[str, Profile] = field(default_factory=lambda: dict(BUILTIN))
    default_profile: str = DEFAULT
    agents: dict[str, str] = field(default_factory=dict)
    # the file it was read from (None for the built-in defaults); not part of equality
    source: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in (self.default_profile, *self.agents.values()):
            if name not in self.profiles:
                raise UsageError(f"there is no policy profile named {name!r}")

    def profile(self, name: str) -> Profile:
        try:
            return self.profiles[name]
        except KeyError:
            raise UsageError(f"there is no policy profile named {name!r}; profiles: "
                             + ", ".join(sorted(self.profiles))) from None

    def profile_for(self, agent: str) -> Profile:
        """The agent's profile: its own under [agents], else the default profile."""
        return self.profiles[self.agents.get(agent, self.default_profile)]


def default_path() -> Path:
    return config_dir() / FILE_NAME


# -- reading policy.toml --

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
        if not _PROFILE_NAME.fullmatch(name):
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


# -- the template the person edits --

def write_default(path: Path | None = None) -> bool:
    """Write the commented template of the defaults (mode 0600) unless the file exists;
    True when it was written."""
    if path is None:
        path = ensure_private_dir(config_dir()) / FILE_NAME
    else:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(template())
    return True


_HEADER = """\
# Tabsteward policy: what the local AI agents you paired may do in your browser.
# Tabsteward reads this file again whenever it changes, and the tray app's Profiles window
# writes it too (without these comments). Secrets (tokens, passwords, keys) never
# belong here, and a file that seems to hold one is refused: `key` below is only the name
# of an API key kept in your OS keyring (the tray app's Keys window).
#
# Rules:  "allow" lets an action run, "ask" holds it until you answer, "block" refuses it.
#         (You can still allow a blocked action once, or always for one site, when shown it.)
# Sites:  "*" every http/https site; "example.com" that host and its subdomains;
#         "*.example.com" only its subdomains; "https://mail.google.com/u/*" adds a scheme,
#         a port or a path. Words: "localhost", "private" (home and office networks, *.local,
#         *.internal), "file:", "data:", "blob:", "about:", "chrome:" (the browser's own
#         pages). A site in deny_sites is refused even when allow_sites names it too.
# Built-in profiles: "default" (spelled out below), "trusted" (allows everything but eval,
#         reading storage and your own tabs, which ask) and "read-only" (blocks every risk).

# The profile of every agent not listed under [agents].
default_profile = "default"

# The profile each agent gets, by the name it paired with.
[agents]
# "claude-code" = "trusted"

[profiles.default]
"""

_FOOTER = """
# Your own profile: anything it does not say comes from the one it inherits.
# [profiles.work]
# inherits = "default"
# allow_sites = ["*.mycompany.com", "localhost"]
# deny_sites = ["file:", "private"]
# [profiles.work.rules]
# purchase = "block"
"""


def template() -> str:
    """The commented policy.toml that spells out the safe defaults."""
    profile = BUILTIN[DEFAULT]
    lines = [
        f"allow_sites = {_array(profile.allow_sites)}",
        f"deny_sites = {_array(profile.deny_sites)}",
        "# seconds to wait for your answer (5 to 3600); unanswered actions are refused",
        f"ask_timeout = {profile.ask_timeout:g}",
        '# the LLM model Tabsteward\'s own goal agent uses with this profile ("" = none chosen)',
        f"model = {json.dumps(profile.model)}",
        "# the NAME of the API key it uses, as stored in the tray app's Keys window, never",
        "# the key itself",
        f"key = {json.dumps(profile.key)}",
        '# the browser this profile\'s agents use unless they name one ("" = any)',
        f"browser = {json.dumps(profile.browser)}",
        f"# the most tabs one agent may have open in a browser, counting those its pages open "
        f"({MAX_TABS_BOUNDS[0]} to {MAX_TABS_BOUNDS[1]})",
        f"max_tabs = {profile.max_tabs}",
        "# what one run of Tabsteward's own goal agent may spend (remove the # to change one):",
        *(line for key in GOAL_FIELDS for line in (
            f"# {GOAL_HELP[key]} ({_bounds_words(key)})",
            f"# {key} = {getattr(profile, key)}")),
        "",
        "[profiles.default.rules]",
    ]
    width = max(len(c.value) for c in Category) + len(' = "block"')
    for category in Category:
        setting = f'{category.value} = "{profile.rules[category].value}"'
        lines.append(f"{setting:<{width}}  # {category.label}")
    return _HEADER + "\n".join(lines) + "\n" + _FOOTER


def _bounds_words(key: str) -> str:
    low, high = GOAL_BOUNDS[key]
    return f"{low} to {high}"


def _array(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(json.dumps(item) for item in items) + "]"
