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
from tabsteward.bridge.records.agents import Agents

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

    def cli(self, *args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
        """The CLI; `typed` is its stdin (where approve and deny read the code)."""
        return subprocess.run([BIN, *args], env=self.env, capture_output=True, text=True,
                              timeout=120, cwd=self.env["HOME"], input=typed)

    def answer(self, verb: str, qid: str, code: str,
               *more: str) -> subprocess.CompletedProcess[str]:
        """The person answers: `approve ID` or `deny ID`, typing the code when asked."""
        return self.cli(verb, qid, *more, typed=code + "\n")


@contextlib.contextmanager
def chromium_on_port(user_data_dir: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A headless Chromium listening for DevTools on a port of its choosing: (process, port).
    Killed on the way out, whatever happened to it inside."""
    from tabsteward.bridge.cdp.launch import find_chromium
    chromium = subprocess.Popen(
        [find_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={user_data_dir}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert chromium.stderr is not None
        for line in chromium.stderr:  # Chromium names its DevTools URL once it listens
            if line.startswith("DevTools listening on ws://"):
                port = line.split("ws://127.0.0.1:", 1)[1].split("/", 1)[0]
                break
        else:
            raise AssertionError("Chromium exited without opening its DevTools port")
        yield chromium, port
    finally:
        chromium.kill()
        chromium.wait(30)
        if chromium.stderr is not None:
            chromium.stderr.close()


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


# Stops the hub of the environment it runs in, as the person would (a signal to its pid):
# the shutdown op is the person's, and asks them first. Prints {'ok': True} once signalled.
STOP_HUB = ("import os, signal; from tabsteward.bridge.clients import client; "
            "os.kill(client.request({'op': 'ping', 'id': 1})['pid'], signal.SIGTERM); "
            "print({'ok': True})")


def stop_hub_of(env: dict[str, str]) -> None:
    """Stop the hub that answers in this environment (if one does), and wait until it is
    gone."""
    found = subprocess.run([sys.executable, "-c", "from tabsteward.bridge.clients import client; "
                            "print(client.request({'op': 'ping', 'id': 1})['pid'])"],
                           env=env, capture_output=True, text=True, timeout=30)
    if found.returncode != 0:
        return
    pid = int(found.stdout)
    with contextlib.suppress(ProcessLookupError):
        gone = os.pidfd_open(pid)
        try:
            os.kill(pid, signal.SIGTERM)
            import select
            select.select([gone], [], [], 60)
        finally:
            os.close(gone)


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

    def questions(self, prefix: str = "[ABPT]") -> list[str]:
        """The ids of the questions the console showed, oldest first."""
        with self._lock:
            return re.findall(rf"\[tabsteward\] ({prefix}\d+): ", self.text)

    def next_question(self, before: int, prefix: str = "[ABPT]", timeout: float = 30) -> str:
        """The id of the first question shown after the first `before` of this prefix."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ids = self.questions(prefix)
            if len(ids) > before:
                return ids[before]
            time.sleep(0.05)
        raise AssertionError(f"no new question on the console:\n{self.text}")

    def code(self, qid: str, verb: str = "approve") -> str:
        """The code the console shows for this answer to the question: approve, always or
        deny (each answer has its own)."""
        label, command = {"approve": ("approve", f"approve {qid}"),
                          "always": ("approve always", f"approve {qid} --always"),
                          "deny": ("deny", f"deny {qid}")}[verb]
        return self.wait_for(rf"{label}: +tabsteward {command} +code (\S+)").group(1)


def person(hub: Hub, term: Terminal, *args: str,
           confirm: bool = True) -> subprocess.CompletedProcess[str]:
    """The person runs one of their commands (agents, unpair, activity, approvals, grants,
    revoke) in a terminal, and confirms it with the code the console shows for it (or, with
    `confirm` False, types nothing and lets it be refused)."""
    before = len(term.questions("T"))
    proc = subprocess.Popen([BIN, *args], env={**hub.env, "TABSTEWARD_TOKEN": ""},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=hub.env["HOME"])
    qid = term.next_question(before, "T")
    typed = term.code(qid) + "\n" if confirm else ""
    out, err = proc.communicate(typed, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


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
