"""Extension ids the native host answers besides the pinned one: a Web Store build's id (the
store gives its own), kept in config_dir()/extension-ids, one id a line, by
`tabsteward install --extension-id ID`, and ids in $TABSTEWARD_EXTRA_EXTENSION_IDS."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence

from .. import paths
from ..errors import UsageError

# pinned by the key in extension/manifest.json (the SHA-256 of the key)
EXTENSION_ID = "pmdkjioamememlcdenlknhgmjpdfpajb"
ALLOWED_ORIGINS: frozenset[str] = frozenset({f"chrome-extension://{EXTENSION_ID}/"})
ENV = "TABSTEWARD_EXTRA_EXTENSION_IDS"  # comma-separated, for this process and its children
FILE_NAME = "extension-ids"
OPTION = "--extension-id"
_ID = re.compile(r"[a-p]{32}")
HEADER = ("# Extension ids Tabsteward's native host answers besides its pinned one, one a line\n"
          "# (`tabsteward install --extension-id ID` adds one; run install again after an "
          "edit)\n")


def valid(ext_id: str) -> bool:
    """Whether `ext_id` has the form of a Chrome extension id (32 letters a-p)."""
    return _ID.fullmatch(ext_id) is not None


def parse(text: str) -> list[str]:
    """The ids of the file's text; blank lines, comments and malformed ids are skipped."""
    found: list[str] = []
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip()
        if valid(word) and word not in found:
            found.append(word)
    return found


def stored() -> list[str]:
    """The ids in the settings file (none when it is missing or unreadable)."""
    try:
        text = (paths.config_dir() / FILE_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return parse(text)


def extra() -> set[str]:
    """Every extra id: the settings file's and the environment's."""
    from_env = {i.strip() for i in os.environ.get(ENV, "").split(",") if i.strip()}
    return set(stored()) | from_env


def add(ids: Iterable[str]) -> list[str]:
    """Keep `ids` in the settings file; the ones that were not there yet."""
    have = stored()
    new = [i for i in dict.fromkeys(ids) if i not in have]
    if new:
        folder = paths.config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / FILE_NAME
        tmp = target.with_name(f".{FILE_NAME}.{os.getpid()}.tmp")
        tmp.write_text(HEADER + "".join(f"{i}\n" for i in [*have, *new]), encoding="utf-8")
        os.replace(tmp, target)
    return new


def take(argv: Sequence[str], undone: str) -> tuple[list[str], list[str]]:
    """The --extension-id values in argv, and the other words; UsageError saying `undone`
    for a missing or malformed id."""
    ids: list[str] = []
    rest: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        if word == OPTION or word.startswith(OPTION + "="):
            value = word.partition("=")[2]
            if word == OPTION:
                i += 1
                value = words[i] if i < len(words) else ""
            if not valid(value):
                raise UsageError(f"{OPTION} needs an extension id (32 letters a-p, as "
                                 f"chrome://extensions shows it), not {value!r}; {undone}")
            ids.append(value)
        else:
            rest.append(word)
        i += 1
    return ids, rest


def allowed_origins() -> frozenset[str]:
    """The pinned origin plus the extra ids' (a Web Store build's): the settings file's and
    those in TABSTEWARD_EXTRA_EXTENSION_IDS (comma-separated)."""
    return ALLOWED_ORIGINS | {f"chrome-extension://{i}/" for i in extra()}
