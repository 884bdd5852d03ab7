#!/usr/bin/env python3
"""The tray app at rest: its memory and CPU while idle, beside the bare hub's, in one run.

    .venv/bin/python tests/bench/desktop.py [--idle SECONDS]

Starts `tabsteward desktop` on a virtual display with a tray host (Xvfb + trayer), and
`tabsteward serve` for comparison, each in private folders, with no agent and no browser
(both launch Chromium only on an agent's first need). After a short settling time it reads
each process's resident memory and the CPU time it used over the idle window from /proc.
Targets (issue 5): under 150 MB RSS, and near-zero CPU when idle (here: under 0.5%).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hub_env import FOLDERS  # noqa: E402
from xdisplay import tray_host, xvfb  # noqa: E402

BIN = Path(sys.executable).with_name("tabsteward")
RSS_TARGET_MB = 150.0
CPU_TARGET = 0.5  # percent of one core
SETTLE = 3.0
TICKS = os.sysconf("SC_CLK_TCK")


def private_env(display: str) -> tuple[str, dict[str, str]]:
    root = tempfile.mkdtemp(prefix="tsb", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if k != "TABSTEWARD_TOKEN"}
    for var, sub in FOLDERS.items():
        env[var] = os.path.join(root, sub)
        os.makedirs(env[var], mode=0o700)
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb")
    return root, env


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def measure(command: list[str], env: dict[str, str], idle: float) -> tuple[float, float]:
    """(RSS in MB at the end, CPU % of one core over the idle window) of one process."""
    proc = subprocess.Popen([str(BIN), *command], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=env["HOME"])
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "ready" not in line:
            raise RuntimeError(f"{command[0]} did not start: {line!r}")
        time.sleep(SETTLE)
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(idle)
        cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0) * 100
        return rss_mb(proc.pid), cpu
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--idle", type=float, default=20.0, help="idle window in seconds")
    opts = ap.parse_args()
    with xvfb() as display, tray_host(display):
        root, env = private_env(display)
        try:
            tray_rss, tray_cpu = measure(["desktop", "--local-only"], env, opts.idle)
            hub_rss, hub_cpu = measure(["serve", "--local-only"], env, opts.idle)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    rows = [
        ("idle RSS (MB)", tray_rss, hub_rss, tray_rss <= RSS_TARGET_MB,
         f"< {RSS_TARGET_MB:g} MB"),
        ("idle CPU (% of a core)", tray_cpu, hub_cpu, tray_cpu <= CPU_TARGET,
         f"< {CPU_TARGET:g}%"),
    ]
    print(f"tray app at rest, {opts.idle:g} s idle window (bare hub for comparison)\n")
    print("| figure | tray app | bare hub | ratio | target | met |\n|---|---|---|---|---|---|")
    for name, tray, hub, met, target in rows:
        ratio = f"{tray / hub:.2f}x" if hub > 0 else "—"
        print(f"| {name} | {tray:.2f} | {hub:.2f} | {ratio} | {target} | "
              f"{'yes' if met else 'NO'} |")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
