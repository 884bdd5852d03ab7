"""Start a hub in the background when a client (the CLI, the SDK, the native host) finds
none, one at a time under a lock: the tray app where there is a display, else a headless
hub."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

from .. import paths
from ..errors import HubUnavailable
from ..records import locate
from ..records.lock import is_claimed
from . import client

WAIT = 30.0
POLL = 0.05
SERVE_GRACE = 5.0  # how long a `serve` that has not claimed the hub lock yet is waited for
IDLE_TIMEOUT = 600


def command(desktop: bool = False) -> list[str]:
    """The tray app (the person's way to answer questions), or a headless hub that stops
    once idle."""
    if desktop:
        return [sys.executable, "-m", "tabsteward.bridge", "desktop"]
    return [sys.executable, "-m", "tabsteward.bridge", "serve",
            "--idle-timeout", str(IDLE_TIMEOUT)]


def wants_desktop() -> bool:
    """A display to show the tray app on, and the tray app installed (TABSTEWARD_HEADLESS=1
    always starts the headless hub)."""
    if os.environ.get("TABSTEWARD_HEADLESS") == "1":
        return False
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        return False
    from importlib.util import find_spec
    return find_spec("PySide6") is not None and find_spec("qasync") is not None


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
        _await_serve(deadline)  # `serve &` just before this command: it claims the lock
        if is_claimed(locate.socket_path()):  # a hub is getting ready: wait for it
            while time.monotonic() < deadline:
                if client.ping():
                    return
                time.sleep(POLL)
            raise HubUnavailable(f"a hub is starting but did not answer within {wait:g} s; "
                                 f"nothing was run; see {log_path}")
        if wants_desktop():
            try:
                _start(command(desktop=True), deadline, log_path, wait)
                return
            except HubUnavailable as exc:  # say, Qt cannot open the display
                with open(log_path, "a", encoding="utf-8") as log:
                    log.write(f"the tray app did not start ({exc.message}); starting the "
                              "headless hub instead\n")
        _start(command(), deadline, log_path, wait)
    finally:
        os.close(lock)  # drops the lock


def _await_serve(deadline: float) -> None:
    """Give a `serve` for this socket that is starting (alive for less than SERVE_GRACE, the
    lock not claimed yet) the time to claim the hub lock, so this command does not start a
    hub of its own beside it."""
    mine = locate.socket_path()
    starting = serves(mine)
    if not starting:
        return
    until = min(deadline, time.monotonic() + SERVE_GRACE - min(starting.values()))
    while time.monotonic() < until and not is_claimed(mine):
        if not any(os.path.exists(f"/proc/{pid}") for pid in starting):
            return
        time.sleep(POLL)


def serves(socket_path: str) -> dict[int, float]:
    """This user's other `tabsteward serve` processes for this socket that started less than
    SERVE_GRACE seconds ago, with their age in seconds (read from Linux's /proc; none where
    there is none)."""
    try:
        names = os.listdir("/proc")
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    found = {}
    for name in names:
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid != os.getuid():
                continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if not is_serve(f.read().split(b"\0")):
                    continue
            age = uptime - _started(name)
            with open(f"/proc/{name}/environ", "rb") as f:
                env = _environ(f.read())
        except (OSError, ValueError, IndexError):
            continue
        if age < SERVE_GRACE and locate.socket_path(env) == socket_path:
            found[int(name)] = age
    return found


def _started(pid: str) -> float:
    """When the process started, in seconds since boot (field 22 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # the name, in parentheses, may hold spaces
    return int(fields[19]) / os.sysconf("SC_CLK_TCK")


def _environ(raw: bytes) -> dict[str, str]:
    pairs = (item.decode("utf-8", "replace").partition("=") for item in raw.split(b"\0"))
    return {key: value for key, _, value in pairs if key}


def is_serve(argv: list[bytes]) -> bool:
    """Whether a process's argv runs `tabsteward serve` (the script, the frozen build, or
    `python -m tabsteward.bridge`)."""
    for i, word in enumerate(argv[:-1]):
        if word == b"tabsteward.bridge" or os.path.basename(word) == b"tabsteward":
            return argv[i + 1] == b"serve"
    return False


def _start(argv: list[str], deadline: float, log_path: Path, wait: float) -> None:
    """Start one hub process and wait until it answers."""
    try:
        with open(log_path, "ab") as log:
            os.chmod(log_path, 0o600)
            # cwd "/": the hub resolves paths against each request's cwd, and must not
            # keep the caller's folder busy
            # an agent's TABSTEWARD_TOKEN must not become the new hub's own (see
            # `serve`): an agent that starts the hub gets no pairing for free
            env = {k: v for k, v in os.environ.items() if k != "TABSTEWARD_TOKEN"}
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
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
