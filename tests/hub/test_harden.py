"""The hub is non-dumpable: another process of the same user cannot read its memory (where
one-time codes and tokens live) or its environment. Tried as that user: the tests run as
root, whom CAP_SYS_PTRACE lets read anything, so the hub and the reader run as `nobody`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
import tabsteward.bridge
from hub_env import private_env

NOBODY = 65534
# nobody cannot enter root's home, where this test's Python may live: the system's Python
# runs the installed package instead
PYTHON = "/usr/bin/python3"
PACKAGES = os.path.dirname(os.path.dirname(os.path.dirname(tabsteward.bridge.__file__)))
pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not sys.platform.startswith("linux") or not os.path.exists(PYTHON),
    reason="needs root and a system Python, to run the hub and the reader as nobody")

READ_MEM = """
import sys
pid = int(sys.argv[1])
try:
    with open(f"/proc/{pid}/maps") as maps:
        start = int(next(l for l in maps if "[heap]" in l or "r" in l.split()[1]).split("-")[0], 16)
    with open(f"/proc/{pid}/mem", "rb") as mem:
        mem.seek(start)
        mem.read(16)
    print("read")
except PermissionError:
    print("refused")
"""


def as_nobody() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def reader(pid: int) -> str:
    """What a process of the same user (nobody) gets when it reads `pid`'s memory."""
    done = subprocess.run([PYTHON, "-c", READ_MEM, str(pid)], preexec_fn=as_nobody,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


SLEEPER = """
import sys, time
from tabsteward.bridge.hub import harden
print(harden.non_dumpable() if sys.argv[1] == "harden" else "plain", flush=True)
time.sleep(30)
"""


@pytest.fixture
def sleeper() -> Iterator[Callable[[str], int]]:
    started: list[subprocess.Popen[str]] = []

    def start(mode: str) -> int:
        proc = subprocess.Popen([PYTHON, "-c", SLEEPER, mode], preexec_fn=as_nobody,
                                stdout=subprocess.PIPE, text=True,
                                env={"PYTHONPATH": PACKAGES, "PATH": "/usr/bin:/bin"})
        started.append(proc)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() in ("True", "plain")
        return proc.pid

    yield start
    for proc in started:
        proc.kill()
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()


def test_a_same_user_process_reads_an_ordinary_processs_memory(sleeper) -> None:
    pid = sleeper("plain")
    assert reader(pid) == "read"  # the attack works on what is not hardened
    assert os.stat(f"/proc/{pid}/environ").st_uid == NOBODY


def test_a_same_user_process_cannot_read_a_non_dumpable_processs_memory(sleeper) -> None:
    pid = sleeper("harden")
    assert reader(pid) == "refused"
    assert os.stat(f"/proc/{pid}/environ").st_uid == 0  # what non-dumpable changes


def test_the_real_hubs_memory_and_environment_are_closed_to_its_users_other_processes(
        ) -> None:
    # the attack: read the one-time code out of /proc/<hub pid>/mem, the way a same-user
    # watcher did, and the TABSTEWARD_TOKEN the hub was started with out of its environ
    env = private_env()
    root = os.path.dirname(env["HOME"])
    for folder, _, files in os.walk(root):
        for name in [folder, *(os.path.join(folder, f) for f in files)]:
            os.chown(name, NOBODY, NOBODY)
    env.update(PYTHONPATH=PACKAGES, PATH="/usr/bin:/bin")
    hub = subprocess.Popen([PYTHON, "-m", "tabsteward.bridge", "serve", "--local-only"],
                           env=env, preexec_fn=as_nobody,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, text=True)
    try:
        assert hub.stdout is not None
        assert hub.stdout.readline().startswith("tabsteward hub ready on ")
        assert reader(hub.pid) == "refused"
        peek = subprocess.run(
            [PYTHON, "-c", f"open('/proc/{hub.pid}/environ', 'rb').read()"],
            preexec_fn=as_nobody, capture_output=True, text=True, timeout=30)
        assert "PermissionError" in peek.stderr
        st = os.stat(f"/proc/{hub.pid}/environ")
        assert st.st_uid == 0  # a non-dumpable process's /proc files belong to root
    finally:
        hub.terminate()
        hub.wait(30)
        assert hub.stdout is not None
        hub.stdout.close()
        shutil.rmtree(root, ignore_errors=True)
