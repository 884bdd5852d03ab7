"""Private HOME and XDG folders for hub tests (short paths: Unix sockets allow 107 bytes)."""

from __future__ import annotations

import os
import tempfile

FOLDERS = {"HOME": "home", "XDG_RUNTIME_DIR": "run", "XDG_STATE_HOME": "state",
           "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data"}


def private_folders() -> tuple[str, dict[str, str]]:
    """A fresh root under /tmp and the environment variables that point into it."""
    root = tempfile.mkdtemp(prefix="tsh", dir="/tmp")
    env = {}
    for var, sub in FOLDERS.items():
        env[var] = os.path.join(root, sub)
        os.makedirs(env[var], mode=0o700)
    return root, env
