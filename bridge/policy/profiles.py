"""Profiles: what an agent may do (the model and the safe defaults built in); read from the
person's policy.toml by profile_reader.py, written as a commented template by
profile_template.py."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..paths import config_dir
from .categories import Category, Rule
from .sites import SiteList

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
TEXT_FIELDS = ("model", "key", "browser")  # a Profile's plain text settings, "" when unset
_TEXT_LIMITS = {"model": 200, "browser": 64}
_KEY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
# how common API keys begin: a value like these is a key itself, never the name of one
_KEY_PREFIXES = ("sk-", "sk_", "ghp_", "gho_", "github_pat_", "glpat-", "xoxb-", "xoxp-",
                 "AKIA", "AIza", "hf_")
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
