"""Real hub processes for tests, in private HOME and XDG folders (short paths: Unix sockets
allow 107 bytes)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tabsteward.bridge.demo import Console
from tabsteward.bridge.hub.agents import Agents

FOLDERS = {"HOME": "home", "XDG_RUNTIME_DIR": "run", "XDG_STATE_HOME": "state",
           "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data"}


# Tests that are not about policy run under a profile that lets everything through; the
# policy tests write their own.
OPEN_POLICY = """\
default_profile = "open"

[profiles.open]
inherits = "trusted"
deny_sites = []

[profiles.open.rules]
eval = "allow"
read_storage = "allow"
person_tabs = "allow"
"""


def write_policy(env: dict[str, str], text: str) -> None:
    folder = os.path.join(env["XDG_CONFIG_HOME"], "tabsteward")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    with open(os.path.join(folder, "policy.toml"), "w") as f:
        f.write(text)


def pair(env: dict[str, str], name: str = "tests") -> str:
    """Pair an agent with the hubs of this environment, as the person would have; its
    token (tests give it to clients in TABSTEWARD_TOKEN)."""
    path = Path(env["XDG_STATE_HOME"]) / "tabsteward" / "agents.json"
    return Agents(path).add(name)[1]


def agent_token() -> str:
    """The paired test agent's token, for in-process clients (the hub tests' autouse
    fixture puts it in this process's TABSTEWARD_TOKEN)."""
    return os.environ["TABSTEWARD_TOKEN"]


def private_folders() -> tuple[str, dict[str, str]]:
    """A fresh root under /tmp and the environment variables that point into it, with the
    open policy and a paired agent whose token is in TABSTEWARD_TOKEN."""
    root = tempfile.mkdtemp(prefix="tsh", dir="/tmp")
    env = {}
    for var, sub in FOLDERS.items():
        env[var] = os.path.join(root, sub)
        os.makedirs(env[var], mode=0o700)
    write_policy(env, OPEN_POLICY)
    env["TABSTEWARD_TOKEN"] = pair(env)
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
    env.pop("TABSTEWARD_NAME", None)
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


class Terminal(Console):
    """The hub's stderr as a terminal the test reads, as the person would (the demo's
    console reader, which plays the person there too)."""

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                found = re.search(pattern, self.text)
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"the console never showed {pattern!r}; it shows:\n{self.text}")

    def close(self) -> None:
        os.close(self.master)

    def code(self, qid: str) -> str:
        return self.wait_for(rf"approve: tabsteward approve {qid} --code (\S+)").group(1)


def start_hub_on_terminal(env: dict[str, str], *options: str) -> tuple[Hub, Terminal]:
    """A hub whose stderr is a terminal (where it shows the person one-time codes)."""
    term = Terminal()
    proc = subprocess.Popen([BIN, "serve", *(options or ["--local-only"])], env=env,
                            stdout=subprocess.PIPE, stderr=term.slave,
                            stdin=subprocess.DEVNULL, text=True)
    os.close(term.slave)
    assert proc.stdout is not None
    ready = proc.stdout.readline()
    assert ready.startswith("tabsteward hub ready on "), term.text
    return Hub(env, proc, ready.removeprefix("tabsteward hub ready on ").strip()), term


@contextlib.contextmanager
def console_hub(policy: str) -> Iterator[tuple[Hub, Terminal]]:
    """A hub on a terminal, in private folders with this policy; removed afterwards."""
    env = private_env()
    write_policy(env, policy)
    hub, term = start_hub_on_terminal(env)
    try:
        yield hub, term
    finally:
        stop_hub(hub)
        term.close()
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)
