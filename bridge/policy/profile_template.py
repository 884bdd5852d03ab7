"""The commented policy.toml that spells out the safe defaults, written for the person to
read and edit when there is none."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..paths import config_dir, ensure_private_dir
from .categories import Category
from .profiles import (
    BUILTIN,
    DEFAULT,
    FILE_NAME,
    GOAL_BOUNDS,
    GOAL_FIELDS,
    GOAL_HELP,
    MAX_TABS_BOUNDS,
)


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
