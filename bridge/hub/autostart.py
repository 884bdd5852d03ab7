"""Start a hub in the background when a CLI finds none (one at a time, under a lock)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

from .. import client, paths
from ..errors import HubUnavailable
from . import locate
from .server import is_claimed

WAIT = 30.0
POLL = 0.05
IDLE_TIMEOUT = 600


def command() -> list[str]:
    return [sys.executable, "-m", "tabsteward.bridge", "serve",
            "--idle-timeout", str(IDLE_TIMEOUT)]


def ensure_hub(wait: float = WAIT) -> None:
    """Return once a hub answers on the socket, starting one if none does.

    Several CLIs may find no hub at once: the first to take the lock starts the hub and
    the others, once they have the lock, find it answering. HubUnavailable names the log.
    """
    deadline = time.monotonic() + wait
    folder = os.path.dirname(locate.socket_path())
    paths.ensure_private_dir(Path(folder))
    log_path = paths.ensure_private_dir(paths.state_dir()) / "hub.log"
    lock = os.open(os.path.join(folder, "autostart.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(lock, deadline, log_path)
        if client.ping():
            return
        if is_claimed(locate.socket_path()):  # a hub is getting ready: wait for it
            while time.monotonic() < deadline:
                if client.ping():
                    return
                time.sleep(POLL)
            raise HubUnavailable(f"a hub is starting but did not answer within {wait:g} s; "
                                 f"nothing was run; see {log_path}")
        try:
            with open(log_path, "ab") as log:
                os.chmod(log_path, 0o600)
                # cwd "/": the hub resolves paths against each request's cwd, and must not
                # keep the caller's folder busy
                # an agent's TABSTEWARD_TOKEN must not become the new hub's own (see
                # `serve`): an agent that starts the hub gets no pairing for free
                env = {k: v for k, v in os.environ.items() if k != "TABSTEWARD_TOKEN"}
                proc = subprocess.Popen(command(), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=log, env=env,
                                        start_new_session=True, close_fds=True, cwd="/")
        except OSError as exc:
            raise HubUnavailable(f"could not start a hub ({exc}); nothing was run") from exc
        while time.monotonic() < deadline:
            if client.ping():
                return
            if proc.poll() is not None:
                # it may have lost a race to another hub (say `serve`), which then answers
                if client.ping():
                    return
                raise HubUnavailable(f"the hub exited with status {proc.returncode} before "
                                     f"answering; nothing was run; see {log_path}")
            time.sleep(POLL)
        raise HubUnavailable(f"the hub started (pid {proc.pid}) but did not answer within "
                             f"{wait:g} s; nothing was run; see {log_path}")
    finally:
        os.close(lock)  # drops the lock


def _lock(fd: int, deadline: float, log_path: Path) -> None:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise HubUnavailable("another tabsteward command has been starting the hub "
                                     "for too long; nothing was run; see "
                                     f"{log_path}") from None
            time.sleep(POLL)
