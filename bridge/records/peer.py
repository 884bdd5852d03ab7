"""What the hub itself knows of a client process: its pid from the socket (SO_PEERCRED),
then its program, command line and folder from /proc. Never the client's own words."""

from __future__ import annotations

import contextlib
import os
from typing import Any

from ..shown import shown

MAX_LINE = 200


def facts(pid: int | None) -> dict[str, Any]:
    """The process's pid, executable, folder and command line, as far as the OS tells."""
    if not pid:
        return {}
    out: dict[str, Any] = {"pid": pid}
    for key, name in (("exe", "exe"), ("cwd", "cwd")):
        with contextlib.suppress(OSError):  # gone, or not ours to read
            out[key] = os.readlink(f"/proc/{pid}/{name}")
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read(4096).split(b"\0")
        line = " ".join(w.decode("utf-8", "replace") for w in words if w)
        if line:
            out["command"] = line[:MAX_LINE]
    except OSError:
        pass
    return out


def describe(process: dict[str, Any]) -> str:
    """One line for the person: what the hub verified of the process, escaped for display."""
    if not process:
        return "a process the hub could not identify"
    parts = [f"pid {process.get('pid', '?')}"]
    if process.get("exe"):
        parts.append(f"program {shown(str(process['exe']))}")
    if process.get("command"):
        parts.append(f"command {shown(str(process['command']))}")
    if process.get("cwd"):
        parts.append(f"in {shown(str(process['cwd']))}")
    return ", ".join(parts)
