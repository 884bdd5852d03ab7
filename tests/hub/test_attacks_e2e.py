"""What a web page could try against the hub: nothing listens where a page can reach."""

from __future__ import annotations

import os
import shutil

import pytest
from hub_env import private_env, start_hub, stop_hub

pytestmark = pytest.mark.browser

LISTEN = {"tcp": "0A", "tcp6": "0A", "udp": "07", "udp6": "07"}  # TCP LISTEN, UDP bound


def socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            found.add(target[8:-1])
    return found


def network_listeners(pid: int) -> set[str]:
    """Inodes of the sockets on which this process's network namespace listens."""
    found = set()
    for table, state in LISTEN.items():
        with open(f"/proc/{pid}/net/{table}") as f:
            for row in f.readlines()[1:]:
                cols = row.split()
                if cols[3] == state:
                    found.add(cols[9])
    return found


def family(pid: int) -> list[int]:
    """The process and all its descendants (the hub's Chromium and its helpers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            parent = int(stat[stat.rfind(")") + 2:].split()[1])
            children.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def test_neither_the_hub_nor_its_browser_listens_on_a_network_port(site) -> None:
    env = private_env()
    hub = start_hub(env)
    try:
        opened = hub.cli("open", site.url("form.html"))  # the hub's Chromium runs now
        assert opened.returncode == 0, opened.stderr
        processes = family(hub.proc.pid)
        assert len(processes) > 1  # the browser is among them
        listening = network_listeners(hub.proc.pid)
        for pid in processes:
            try:
                exposed = socket_inodes(pid) & listening
            except (FileNotFoundError, PermissionError):  # a helper that just exited
                continue
            assert not exposed, f"process {pid} listens on the network"
    finally:
        stop_hub(hub)
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)
