#!/usr/bin/env python3
"""Where one CLI command's time goes: a `tabsteward click` / `snapshot` process, phase by
phase, beside agent-browser's same command on the same page, interleaved.

    .venv/bin/python tests/bench/percall.py [--rounds N] [--skip-peers]

From the repository root. The hub is the real one (`tabsteward serve --cdp`'s start, with
its policy gate, activity log and agents), run in this process on a thread so that its
parts can be timed from outside without a line of timing code in them: the methods below
are wrapped here, never in the package. The CLI runs as an agent runs it, one process per
command. Phases, medians over rounds:

- the interpreter's start and exit (`python -c pass` with the venv's site, as the console
  script starts), and the CLI's imports (`python -c "import tabsteward.bridge.cli"`, less
  the bare start);
- the hub, from accepting the connection to closing it, and inside it: authentication,
  the command line's parsing, picking the browser, the policy's permit, the activity log,
  the engine's action, and the DevTools round trips it made (count and summed time);
- the client: what is left of the process (token lookup, connect, send, read, print).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "realism"), str(HERE)]
import run as bench  # noqa: E402
from server import RealismServer  # noqa: E402

SPANS: dict[str, list[float]] = defaultdict(list)  # label -> durations (ms) of this command
COUNTS: dict[str, int] = defaultdict(int)


def wrap(owner: Any, name: str, label: str) -> None:
    """Time every call of owner.name (a coroutine function or a plain one) under label."""
    fn = getattr(owner, name)
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def timed_async(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await fn(*a, **k)
            finally:
                SPANS[label].append((time.perf_counter() - t0) * 1000)
                COUNTS[label] += 1
        setattr(owner, name, timed_async)
    else:
        @functools.wraps(fn)
        def timed(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                SPANS[label].append((time.perf_counter() - t0) * 1000)
                COUNTS[label] += 1
        setattr(owner, name, timed)


# (label, where) in the order the table prints them; nested spans are inclusive
HUB_PHASES = [
    ("hub: connection, accept to close", "tabsteward.bridge.hub.server:LocalServer._serve"),
    ("  authenticate the token", "tabsteward.bridge.hub.server:LocalServer._authenticate"),
    ("  request (Hub.execute)", "tabsteward.bridge.hub.core:Hub.execute"),
    ("    parse the command line", "tabsteward.bridge.hub.argv:parse"),
    ("    run the tool (Hub._run)", "tabsteward.bridge.hub.core:Hub._run"),
    ("      activity log", "tabsteward.bridge.hub.activity:ActivityLog.append"),
    ("      pick the browser", "tabsteward.bridge.hub.pool:BrowserPool.pick"),
    ("      engine: click", "tabsteward.bridge.engine.actions:click"),
    ("      engine: snapshot", "tabsteward.bridge.engine.tab:Tab.snapshot"),
    ("        policy permit", "tabsteward.bridge.engine.tab:Tab.permit"),
    ("        act, then what it changed", "tabsteward.bridge.engine.actions:guarded"),
    ("        DevTools round trips", "tabsteward.bridge.cdp.connection:CDPConnection.send"),
    ("  write the reply", "tabsteward.bridge.hub.server:LocalServer._send"),
]


def instrument() -> None:
    import importlib
    for label, where in HUB_PHASES:
        module, path = where.split(":")
        owner: Any = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        wrap(owner, name, label)


@contextmanager
def hub_in_thread(env: dict[str, str], cdp_url: str) -> Iterator[None]:
    """`tabsteward serve --cdp URL`, built by its own start(), on a loop in a thread."""
    os.environ.update(env)  # its paths, token and policy, read as it starts
    from tabsteward.bridge.hub import main as hub_main
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    opts = hub_main.parser().parse_args(["--cdp", cdp_url])
    log_path = str(Path(env["XDG_STATE_HOME"]) / "hub.log")
    running = asyncio.run_coroutine_threadsafe(
        hub_main.start(opts, log_path, console=False), loop).result(30)
    served = asyncio.run_coroutine_threadsafe(running.run(), loop)
    try:
        yield
    finally:
        loop.call_soon_threadsafe(running.hub.stop, "the bench is done")
        served.result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def timed_run(argv: list[str], env: dict[str, str] | None, cwd: str) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=60)
    took = (time.perf_counter() - t0) * 1000
    if r.returncode != 0:
        raise bench.BenchError(f"{' '.join(argv)[:80]}: exit {r.returncode}: "
                               f"{(r.stderr or r.stdout).strip()[:200]}")
    return took


def med(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--skip-peers", action="store_true", help="no agent-browser beside it")
    args = ap.parse_args(argv)
    os.chdir(bench.REPO)
    bench.fresh_bytecode()
    exe = bench.find_chromium()
    (bench.CACHE / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="c", dir=bench.CACHE / "tmp"))
    env = bench.isolated_env(tmp / "ts")
    env.pop("TABSTEWARD_AGENT", None)
    py = str(bench.PYTHON)
    floors = {"python -c pass": [py, "-c", "pass"],
              "python -I -c pass": [py, "-I", "-c", "pass"],
              "python -c 'import tabsteward.bridge.cli'": [py, "-c",
                                                          "import tabsteward.bridge.cli"]}
    load = os.getloadavg()
    instrument()
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    counts: dict[str, list[int]] = defaultdict(list)
    with RealismServer() as pages, ExitStack() as stack:
        pages.runs.add("percall", {})
        url = pages.url("inbox.html", "percall")
        chrome = stack.enter_context(bench.Chromium(exe, tmpdir=str(tmp)))
        stack.enter_context(hub_in_thread(env, chrome.http_url))
        ts = [str(bench.TS_BIN)]
        timed_run([*ts, "open", url], env, env["HOME"])
        timed_run([*ts, "snapshot", "-i"], env, env["HOME"])  # refs for the click
        ab = None
        if not args.skip_peers:
            ab = stack.enter_context(bench.agent_browser(tmp, exe))
            ab.run("open", url)
            shot = ab.run("snapshot", "-i")[1]
            ab_ref = next(ln.split("ref=")[1].split("]")[0] for ln in shot.splitlines()
                          if '"Open 3"' in ln)
        ts_ref = "@3"  # "Open 3": visible, no navigation
        out = subprocess.run([*ts, "snapshot", "-i"], capture_output=True, text=True, env=env,
                             cwd=env["HOME"]).stdout
        ts_ref = next(w for ln in out.splitlines() if '"Open 3"' in ln
                      for w in ln.split() if w.startswith("@"))
        commands: list[tuple[str, Callable[[], float]]] = [
            (name, lambda a=cmd: timed_run(a, None, str(bench.REPO)))
            for name, cmd in floors.items()]
        for what, extra in (("click", [ts_ref]), ("snapshot", []), ("tabs", [])):
            commands.append((f"tabsteward {what}",
                             lambda w=what, e=extra: timed_run([*ts, w, *e], env, env["HOME"])))
        if ab is not None:
            commands += [("agent-browser click", lambda: ab.run("click", f"@{ab_ref}")[0]),
                         ("agent-browser snapshot", lambda: ab.run("snapshot")[0]),
                         ("agent-browser tab list", lambda: ab.run("tab", "list")[0])]
        for _name, call in commands:  # warm
            call()
        for k in range(args.rounds):
            j = k % len(commands)
            for name, call in commands[j:] + commands[:j]:
                SPANS.clear()
                COUNTS.clear()
                rows[name]["process, end to end"].append(call())
                for label, _ in HUB_PHASES:
                    rows[name][label].append(sum(SPANS.get(label, [])))
                counts[name].append(COUNTS.get("        DevTools round trips", 0))
    floor = med(rows["python -c pass"]["process, end to end"])
    imports = med(rows["python -c 'import tabsteward.bridge.cli'"]["process, end to end"]) - floor
    print(f"== where a CLI command's time goes ({args.rounds} rounds, interleaved; load "
          f"{'/'.join(f'{x:.2f}' for x in load)} at start; medians in ms)")
    print(f"python -I -c pass {med(rows['python -I -c pass']['process, end to end']):.1f}; "
          f"python -c pass (the venv's site, as the console script) {floor:.1f}; "
          f"the CLI's imports +{imports:.1f}")
    cmds = [c for c in rows if c.startswith("tabsteward ")]
    print(f"{'phase':<40}" + "".join(f"{c.split()[1]:>12}" for c in cmds))
    lines = [("process, end to end", None), ("  interpreter start and exit", floor),
             ("  the CLI's imports", imports)]
    for label, value in lines:
        cells = "".join(f"{(value if value is not None else med(rows[c][label])):12.1f}"
                        for c in cmds)
        print(f"{label:<40}{cells}")
    for label, _ in HUB_PHASES:
        print(f"{label:<40}" + "".join(f"{med(rows[c][label]):12.1f}" for c in cmds))
    print(f"{'        (round trips, count)':<40}" + "".join(
        f"{med([float(x) for x in counts[c]]):12.0f}" for c in cmds))
    rest = {c: med([t - h for t, h in zip(rows[c]["process, end to end"],
                                          rows[c][HUB_PHASES[0][0]], strict=True)])
            - floor - imports for c in cmds}
    print(f"{'  client: token, connect, send, print':<40}" + "".join(
        f"{rest[c]:12.1f}" for c in cmds))
    if ab is not None:
        print()
        for mine, theirs in (("click", "click"), ("snapshot", "snapshot"), ("tabs", "tab list")):
            a = rows[f"tabsteward {mine}"]["process, end to end"]
            b = rows[f"agent-browser {theirs}"]["process, end to end"]
            ratio = med([x / y for x, y in zip(a, b, strict=True)])
            print(f"tabsteward {mine:<9} {med(a):6.1f} ms   agent-browser {theirs:<9} "
                  f"{med(b):6.1f} ms   ratio {ratio:.2f}x (median of per-round ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
