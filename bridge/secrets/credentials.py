"""Who this agent is (the name it pairs under) and where its token lives: the OS keyring,
or TABSTEWARD_TOKEN when the person put it there. Never in a file."""

# Imported by every CLI call: keep it to os and sys; anything heavier loads on first need.

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: importing typing costs the CLI milliseconds
if TYPE_CHECKING:
    from typing import Any

SERVICE = "tabsteward"
_LINUX = sys.platform.startswith("linux")  # elsewhere the keyring package reads it
ENV_TOKEN = "TABSTEWARD_TOKEN"
ENV_NAME = "TABSTEWARD_NAME"
# processes between an agent and this one that say nothing about who the agent is
_PLUMBING = {"bash", "sh", "dash", "zsh", "fish", "ksh", "env", "timeout", "sudo", "xargs",
             "nohup", "python", "python3", "uv", "uvx", "pipx", "tabsteward", "script",
             "stdbuf", "time", "nice", "make", "npx", "npm", "node", "bun"}
_KNOWN = {"claude": "Claude Code", "codex": "Codex", "cursor": "Cursor", "aider": "Aider",
          "gemini": "Gemini CLI", "goose": "Goose", "opencode": "opencode"}


class TokenStoreError(Exception):
    """The keyring could not be read or written; says what to do instead."""


def identity(cwd: str, program: str | None = None) -> str:
    """The name this agent pairs under, e.g. "Claude Code in ~/src/shop": the program that
    runs it (from the process tree, never from what the agent says) and its project."""
    given = os.environ.get(ENV_NAME, "").strip()
    if given:
        return given[:80]
    return f"{program or _program()} in {_project(cwd)}"[:80]


def _program() -> str:
    if os.environ.get("CLAUDECODE"):
        return "Claude Code"
    pid = os.getppid()
    fallback = ""
    for _ in range(8):
        comm, parent = _proc(pid)
        if not comm:
            break
        base = comm.lower()
        for key, label in _KNOWN.items():
            if base.startswith(key):
                return label
        if base not in _PLUMBING and not fallback:
            fallback = comm
        if parent <= 1:
            break
        pid = parent
    return fallback or "a terminal"


def _proc(pid: int) -> tuple[str, int]:
    """(name, parent pid) of a process, from /proc; ("", 0) where there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("utf-8", "replace")
    except OSError:
        return "", 0
    name = stat[stat.find("(") + 1:stat.rfind(")")]
    rest = stat[stat.rfind(")") + 2:].split()
    return name, int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else 0


def _project(cwd: str) -> str:
    """The folder a person would name: the repository holding cwd, else cwd; ~ for home."""
    here = cwd
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            break
        up = os.path.dirname(here)
        if up == here:
            here = cwd
            break
        here = up
    home = os.path.expanduser("~")
    if here == home:
        return "~"
    if here.startswith(home + os.sep):
        return "~" + here[len(home):]
    return here


def load(name: str) -> str | None:
    """This agent's token: TABSTEWARD_TOKEN, else the keyring's, else None (not paired)."""
    token = os.environ.get(ENV_TOKEN, "").strip()
    if token:
        return token
    if _LINUX:
        from .secret_service import NoSecretService, SecretServiceError, read_secret
        try:
            return read_secret(SERVICE, name)
        except NoSecretService:
            return None  # no keyring here: nothing was kept (pairing says what to do)
        except SecretServiceError as exc:
            raise TokenStoreError(f"the agent's token could not be read from the keyring: "
                                  f"{exc}") from None
    keyring = _keyring()
    try:
        found = keyring.get_password(SERVICE, name)
        return found if isinstance(found, str) else None
    except (keyring.errors.KeyringError, OSError) as exc:
        raise TokenStoreError(f"the agent's token could not be read from the keyring: "
                              f"{exc}") from None


def save(name: str, token: str) -> None:
    """Keep the token in the OS keyring (the slow, once-per-pairing path)."""
    keyring = _keyring()
    try:
        keyring.set_password(SERVICE, name, token)
    except (keyring.errors.KeyringError, OSError) as exc:
        raise TokenStoreError(f"the OS keyring did not keep the token ({exc})") from None


def forget(name: str) -> None:
    """Drop a token the hub no longer accepts (revoked, or paired with another hub)."""
    keyring = _keyring()
    try:
        keyring.delete_password(SERVICE, name)
    except (keyring.errors.KeyringError, OSError):
        return  # nothing to forget, or no keyring: either way it is not used again


def _keyring() -> Any:
    try:
        import keyring
        import keyring.errors
    except ImportError as exc:
        raise TokenStoreError(f"the keyring package is not installed ({exc})") from None
    return keyring
