"""Files as policy sees them: where a save lands, which files are keys, a path as people read it."""

from __future__ import annotations

import os

from .facts import basename, quote
from .words import SENSITIVE_FILE, SENSITIVE_PATH


def within(path: str, folder: str) -> bool:
    """Whether the absolute path `path` is `folder` or inside it (both normalised)."""
    return bool(folder) and (path == folder or path.startswith(folder.rstrip("/\\") + os.sep))


def sensitive(path: str) -> bool:
    """Whether a file, by its real path, is a key, a credentials or secrets file, a keyring,
    or part of a browser profile or of Tabsteward's own state."""
    return bool(SENSITIVE_FILE.match(basename(path))
                or SENSITIVE_PATH.search(path.replace("\\", "/")))


def shown_path(path: str, limit: int = 80) -> str:
    """A path quoted for people: the home folder as ~, the end kept when it is long."""
    home = os.path.expanduser("~").rstrip("/\\")
    if home and within(path, home):
        path = "~" + path[len(home):]
    if len(path) > limit:
        path = "…" + path[-(limit - 1):]
    return quote(path, limit + 1)
