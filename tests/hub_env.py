"""Real hub processes for tests, in private HOME and XDG folders (short paths: Unix sockets
allow 107 bytes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass

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


BIN = os.path.join(os.path.dirname(sys.executable), "tabsteward")


@dataclass
class Hub:
    env: dict[str, str]
    proc: subprocess.Popen[str]
    socket: str

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([BIN, *args], env=self.env, capture_output=True, text=True,
                              timeout=120, cwd=self.env["HOME"])


def private_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TABSTEWARD_SOCKET", None)
    env.pop("TABSTEWARD_AGENT", None)
    env.update(private_folders()[1])
    return env


def start_hub(env: dict[str, str], *options: str) -> Hub:
    log = open(os.path.join(env["HOME"], "serve.log"), "w")  # noqa: SIM115
    proc = subprocess.Popen([BIN, "serve", *(options or ["--local-only"])], env=env,
                            stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                            text=True)
    log.close()
    assert proc.stdout is not None
    ready = proc.stdout.readline()  # the one line serve prints, once it listens
    assert ready.startswith("tabsteward hub ready on "), (
        f"serve printed {ready!r}; its log: {read(env, 'serve.log')}")
    return Hub(env, proc, ready.removeprefix("tabsteward hub ready on ").strip())


def stop_hub(hub: Hub) -> int:
    if hub.proc.poll() is None:
        hub.proc.send_signal(signal.SIGTERM)
    code = hub.proc.wait(60)
    assert hub.proc.stdout is not None
    hub.proc.stdout.close()
    return code


def read(env: dict[str, str], name: str) -> str:
    with open(os.path.join(env["HOME"], name)) as f:
        return f.read()
