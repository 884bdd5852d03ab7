"""The hub's lock beside its socket: held by a hub for its life, taken by `serve` before its
slow imports, so a command that finds no hub meanwhile waits instead of starting another."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..errors import TabstewardError
from ..paths import ensure_private_dir


class HubRunning(TabstewardError):
    """Another hub already answers on the socket; this one did not start."""


def take(socket_path: str) -> int:
    """The hub lock beside the socket, held (as an open fd) for the hub's life; a live hub
    holds it, so a socket file without a lock holder is stale."""
    folder = os.path.dirname(socket_path)
    ensure_private_dir(Path(folder))
    fd = os.open(os.path.join(folder, "hub.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        who = f"another hub (pid {pid})" if pid.isdigit() else "another hub"
        raise HubRunning(f"{who} already runs on {socket_path}; this one did not start "
                         "(use it, or stop it first)") from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def claim(socket_path: str) -> int:
    """The hub lock, held from now on (give it to the server's `start`): a hub that takes a
    while to get ready keeps others from starting meanwhile. HubRunning when a hub holds it."""
    return take(socket_path)


def is_claimed(socket_path: str) -> bool:
    """Whether a hub holds the lock (it runs, or it is getting ready to listen)."""
    try:
        os.close(take(socket_path))  # closing drops the lock
    except HubRunning:
        return True
    return False
