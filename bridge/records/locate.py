"""Where a running hub listens and where the native host finds its token (imports only os)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: the lean CLI imports this module
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "tabsteward"


def runtime_dir(env: Mapping[str, str] | None = None) -> str:
    """User-only folder for the hub's socket, token and pid (XDG_RUNTIME_DIR/tabsteward);
    `env`: another process's environment instead of this one's."""
    env = os.environ if env is None else env
    base = env.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base):
        return os.path.join(base, APP)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(env.get("TMPDIR", "/tmp"), f"{APP}-{uid}")


def socket_path(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return env.get("TABSTEWARD_SOCKET") or os.path.join(runtime_dir(env), "hub.sock")


def token_path() -> str:
    return os.path.join(os.path.dirname(socket_path()), "hub.token")


def read_token() -> str | None:
    try:
        with open(token_path(), encoding="ascii") as f:
            return f.read().strip() or None
    except (OSError, UnicodeDecodeError):
        return None
