"""Where a running hub listens and where the native host finds its token (imports only os)."""

from __future__ import annotations

import os

APP = "tabsteward"


def runtime_dir() -> str:
    """User-only folder for the hub's socket, token and pid (XDG_RUNTIME_DIR/tabsteward)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base):
        return os.path.join(base, APP)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(os.environ.get("TMPDIR", "/tmp"), f"{APP}-{uid}")


def socket_path() -> str:
    return os.environ.get("TABSTEWARD_SOCKET") or os.path.join(runtime_dir(), "hub.sock")


def token_path() -> str:
    return os.path.join(os.path.dirname(socket_path()), "hub.token")


def read_token() -> str | None:
    try:
        with open(token_path(), encoding="ascii") as f:
            return f.read().strip() or None
    except (OSError, UnicodeDecodeError):
        return None
