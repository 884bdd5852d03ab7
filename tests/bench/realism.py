#!/usr/bin/env python3
"""The interaction realism set: scripted agents do everyday tasks on pages of our own,
through tabsteward's CLI on both transports and through agent-browser, in one run.

    .venv/bin/python tests/bench/realism.py [--tasks NAMES] [--transport NAMES] [--rounds N]

From the repository root. Each task (realism/tasks.py) is an agent's steps: it finds its
target in the snapshot text its tool prints, acts through the tool's CLI (one process per
command), and is checked by what the page reported to the bench server or by the page's
own value, never by the tool's word. The tools take turns task by task, so they run under
the same load. Transports: `launched` (a `tabsteward serve --cdp` hub on its own
Chromium), `extension` (a `tabsteward serve` hub that the real extension connects to, in a
headed Chromium on a virtual display, the agent's tab behind the person's), and
`agent-browser` (its daemon on its own Chromium). Results go to
.bench-cache/results/realism-*.{json,md}.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime as dt
import fnmatch
import json
import os
import platform
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "realism"), str(HERE.parent), str(HERE)]
import benchkit as bench  # noqa: E402
from agents import Agent, AgentBrowserAgent, StepFailed, TabstewardAgent  # noqa: E402
from debugger_share import DebuggerPoll  # noqa: E402
from server import RealismServer  # noqa: E402
from tasks import TASKS, NotFound, Task  # noqa: E402

TRANSPORTS = ("launched", "extension", "agent-browser")
PEER = "agent-browser"
HOST_RULES = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
RECORD_WAIT = 3.0  # seconds the check waits for the page's report to reach the server


@contextmanager
def launched(tmp: Path, exe: str) -> Iterator[Agent]:
    with bench.tabsteward_hub(tmp, exe) as cli:
        assert cli.env is not None
        yield TabstewardAgent("tabsteward/launched", cli.argv0, cli.env, cli.cwd)


@contextmanager
def extension(tmp: Path) -> Iterator[Agent]:
    """A `tabsteward serve` hub (no browser of its own) and a headed Chromium on Xvfb whose
    extension connects to it; the Chromium's first tab is the person's, in front."""
    from extension_env import Profile, devtools, in_worker
    from xdisplay import xvfb

    root = Path(tempfile.mkdtemp(prefix="tx", dir=tmp))
    env = bench.isolated_env(root)
    agent = TabstewardAgent("tabsteward/extension", str(bench.TS_BIN), env, env["HOME"])
    with xvfb() as display, ExitStack() as stack:
        env["DISPLAY"] = display
        log = stack.enter_context(open(root / "serve.log", "wb"))
        hub = subprocess.Popen([str(bench.TS_BIN), "serve"], stdin=subprocess.DEVNULL,
                               stdout=log, stderr=log, env=env, cwd=env["HOME"],
                               start_new_session=True)
        stack.callback(_stop, hub)
        profile = Profile(env, [HOST_RULES, "--remote-debugging-port=0"], headless=False)
        profile.start()
        stack.callback(profile.stop)
        deadline = time.monotonic() + 60
        while True:
            try:
                if "extension" in agent.run("browsers", timeout=10).lower():
                    break
            except (StepFailed, subprocess.TimeoutExpired):
                pass
            if hub.poll() is not None or time.monotonic() > deadline:
                raise bench.BenchError(f"the extension did not connect; see {root}/serve.log")
            time.sleep(0.3)
        person = active_tabs(profile, devtools, in_worker)
        poll = DebuggerPoll(profile, devtools, in_worker)
        poll.start()
        stack.callback(poll.stop)
        agent.debugger = poll

        def person_in_front() -> bool:
            return active_tabs(profile, devtools, in_worker) == person

        agent.person_in_front = person_in_front
        agent.calls.clear()
        yield agent


ACTIVE = "chrome.tabs.query({active: true}).then(ts => ts.map(t => t.id).sort())"


def active_tabs(profile: Any, devtools: Any, in_worker: Any) -> list[int]:
    """The ids of the active tabs, as the extension's service worker sees them (the
    person's, in front; asked over the browser's DevTools port, outside the hub)."""
    async def ask() -> list[int]:
        dt = await devtools(profile)
        try:
            return list(await in_worker(dt, ACTIVE))
        finally:
            await dt.close()
    return asyncio.run(ask())


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@contextmanager
def agent_browser(tmp: Path, exe: str) -> Iterator[Agent]:
    with bench.agent_browser(tmp, exe) as cli:
        assert cli.env is not None
        yield AgentBrowserAgent(PEER, cli.argv0, cli.env, cli.cwd)


def attempt(agent: Agent, task: Task, server: RealismServer, shared: dict[str, str],
            seed: int) -> dict[str, Any]:
    """One task by one agent on a fresh run of its page; its outcome and time."""
    run = secrets.token_hex(6)
    values, goal = task.make(random.Random(seed), shared)
    server.runs.add(run, values)
    first = len(agent.calls)
    began = time.monotonic()
    t0 = time.perf_counter()
    answer, error = None, ""
    try:
        answer = task.solve(agent, server.url(task.page, run), goal)
    except (StepFailed, NotFound, subprocess.TimeoutExpired) as e:
        error = str(e)
    took = (time.perf_counter() - t0) * 1000
    solved = False
    deadline = time.monotonic() + (RECORD_WAIT if not error else 0)
    while True:
        solved = not error and task.check(values, goal, server.runs.seen(run), answer)
        if solved or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    if not solved and not error:
        seen = server.runs.seen(run)
        error = (f"check failed: answer {answer!r:.120}" if answer is not None else
                 f"check failed: no answer; the page reported {json.dumps(seen)[:160]}")
        error += f"; the last command, {agent.said[:400]!r}"
    calls = agent.calls[first:]
    front = agent.person_in_front() if agent.person_in_front else None
    attached = list(agent.debugger.share(began, began + took / 1000)) if agent.debugger \
        else None
    return {"task": task.name, "case": task.case, "tool": agent.label, "solved": solved,
            "ms": took, "calls": len(calls), "call_ms": [c[1] for c in calls],
            "commands": [[c[0], c[1]] for c in calls],
            "error": error, "person_in_front": front, "debugger_polls": attached}


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def report(results: list[dict[str, Any]], labels: list[str], tasks: list[Task]) -> list[str]:
    # a run is paired with the peer's run of the same task in the same round
    peer = {(r["task"], r.get("round", 0)): r for r in results if r["tool"] == PEER}
    out = ["| tool / transport | solved | median ms per solved task | p95 | median ms per call"
           " | ratio vs agent-browser (median, p95) | paired ratio, tasks both solved |",
           "|---|---|---|---|---|---|---|"]
    peer_ms = [r["ms"] for r in peer.values() if r["solved"]]
    for label in labels:
        mine = [r for r in results if r["tool"] == label]
        ok = [r["ms"] for r in mine if r["solved"]]
        per_call = [c for r in mine for c in r["call_ms"]]
        med, p95 = pct(ok, .5), pct(ok, .95)
        ratio = "-"
        if label != PEER and med and pct(peer_ms, .5):
            ratio = f"{med / pct(peer_ms, .5):.2f}x, {p95 / pct(peer_ms, .95):.2f}x"  # type: ignore[operator]
        paired = [r["ms"] / mate["ms"] for r in mine
                  if r["solved"] and (mate := peer.get((r["task"], r.get("round", 0))))
                  and mate["solved"]]
        pr = f"{pct(paired, .5):.2f}x ({len(paired)} tasks)" if paired and label != PEER else "-"
        out.append(f"| {label} | {len(ok)}/{len(mine)} | {_ms(med)} | {_ms(p95)} | "
                   f"{_ms(pct(per_call, .5))} | {ratio} | {pr} |")
    out += ["", "Per command, median / p95 ms (count), over all tasks:", ""]
    names = sorted({c[0] for r in results for c in r["commands"]},
                   key=lambda n: -sum(1 for r in results for c in r["commands"] if c[0] == n))
    out.append("| command | " + " | ".join(labels) + " |")
    out.append("|---|" + "---|" * len(labels))
    for name in names:
        cells = []
        for label in labels:
            took = [c[1] for r in results if r["tool"] == label for c in r["commands"]
                    if c[0] == name]
            cells.append(f"{pct(took, .5):.0f} / {pct(took, .95):.0f} ({len(took)})"
                         if took else "-")
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += ["", "Per case (solved/total):", ""]
    cases = list(dict.fromkeys(t.case for t in tasks))
    out.append("| case | " + " | ".join(labels) + " |")
    out.append("|---|" + "---|" * len(labels))
    for case in cases:
        cells = []
        for label in labels:
            rs = [r for r in results if r["tool"] == label and r["case"] == case]
            cells.append(f"{sum(r['solved'] for r in rs)}/{len(rs)}")
        out.append(f"| {case} | " + " | ".join(cells) + " |")
    for label in labels:
        checked = [r for r in results if r["tool"] == label and r["person_in_front"] is not None]
        if checked:
            kept = sum(r["person_in_front"] for r in checked)
            out.append(f"\n{label}: the person's tab was still the active one after "
                       f"{kept} of {len(checked)} tasks (asked of the browser's own tabs API)")
    for label in labels:
        polled = [r["debugger_polls"] for r in results
                  if r["tool"] == label and r.get("debugger_polls")]
        if polled:
            seen, total = sum(p[0] for p in polled), sum(p[1] for p in polled)
            out.append(f"\n{label}: a debugger was attached {100 * seen / max(1, total):.0f}% "
                       f"of the agent's task time ({total} polls of Chrome's own "
                       "chrome.debugger.getTargets, every 100 ms, outside the hub)")
    out += tails(results, labels)
    failed = [r for r in results if not r["solved"]]
    if failed:
        out += ["", "Failures:", ""]
        out += [f"- {r['tool']} {r['task']}: {r['error']}" for r in failed]
    return out


def tails(results: list[dict[str, Any]], labels: list[str]) -> list[str]:
    """Where each tool's p95 comes from: its solved runs at or above it, slowest first, with
    each command's time (the first task of a run also pays for the agent's new tab)."""
    out = ["", "The tail: solved runs at or above each tool's p95, slowest first:", ""]
    for label in labels:
        ok = sorted((r for r in results if r["tool"] == label and r["solved"]),
                    key=lambda r: -r["ms"])
        p95 = pct([r["ms"] for r in ok], .95)
        for r in (r for r in ok if p95 is not None and r["ms"] >= p95):
            steps = ", ".join(f"{c} {ms:.0f}" for c, ms in r["commands"])
            out.append(f"- {label} {r['task']} (round {r.get('round', 0)}): {r['ms']:.0f} ms "
                       f"= {steps}")
    return out


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


def select(patterns: str) -> list[Task]:
    if patterns == "all":
        return list(TASKS)
    pats = patterns.split(",")
    chosen = [t for t in TASKS if any(fnmatch.fnmatch(t.name, p) or t.case == p or
                                      t.name.startswith(p) for p in pats)]
    if not chosen:
        raise SystemExit(f"no task matches {patterns!r}; tasks: "
                         + ", ".join(t.name for t in TASKS))
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default="all",
                    help="comma list of task names, name prefixes, globs or cases (scroll, "
                         "tables, icons, cards, long, drag, login); default all")
    ap.add_argument("--transport", default=",".join(TRANSPORTS),
                    help=f"comma list of {', '.join(TRANSPORTS)}; default all three")
    ap.add_argument("--rounds", type=int, default=1, help="times each task runs per tool")
    ap.add_argument("--seed", type=int, default=None, help="the values' seed (default: new)")
    ap.add_argument("--open-alone", action="store_true",
                    help="also run each tabsteward transport as an agent that opens, then "
                         "snapshots (two commands, not `open URL -i`): a before/after")
    args = ap.parse_args(argv)
    os.chdir(bench.REPO)
    wanted = [t.strip() for t in args.transport.split(",") if t.strip()]
    unknown = set(wanted) - set(TRANSPORTS)
    if unknown:
        raise SystemExit(f"unknown transport {', '.join(sorted(unknown))}; "
                         f"choose from {', '.join(TRANSPORTS)}")
    tasks = select(args.tasks)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    bench.fresh_bytecode()
    exe = bench.find_chromium()
    (bench.CACHE / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="r", dir=bench.CACHE / "tmp"))
    load = os.getloadavg()
    results: list[dict[str, Any]] = []
    shared = {"password": random.Random(seed).choice(["tiger", "otter", "maple", "cedar"])}
    t0 = time.perf_counter()
    with RealismServer() as server, ExitStack() as stack:
        agents = []
        for name in TRANSPORTS:
            if name not in wanted:
                continue
            print(f"[realism] starting {name}", file=sys.stderr, flush=True)
            agents.append(stack.enter_context(
                launched(tmp, exe) if name == "launched" else extension(tmp)
                if name == "extension" else agent_browser(tmp, exe)))
        if args.open_alone:  # the same hub and tab, another agent's habits
            agents += [dataclasses.replace(a, label=f"{a.label} (open, snapshot)",
                                           open_and_look=False, calls=[])
                       for a in agents if isinstance(a, TabstewardAgent)]
        for k in range(args.rounds):
            for i, task in enumerate(tasks):
                turn = (i + k) % len(agents)
                for agent in agents[turn:] + agents[:turn]:
                    res = attempt(agent, task, server, shared, seed + 1000 * k + i)
                    res["round"] = k
                    results.append(res)
                    print(f"[realism] {task.name:<40} {agent.label:<22} "
                          f"{'ok ' if res['solved'] else 'NO '} {res['ms']:6.0f} ms "
                          f"{res['error'][:100]}", file=sys.stderr, flush=True)
    labels = [a.label for a in agents]
    stamp = dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    head = (f"{len(tasks)} tasks x {args.rounds} rounds, seed {seed}, {os.cpu_count()} CPUs, "
            f"{platform.platform()}, load {'/'.join(f'{x:.2f}' for x in load)} at start, "
            f"{time.perf_counter() - t0:.0f} s")
    lines = [f"# Interaction realism — {stamp}", "", head, "", *report(results, labels, tasks)]
    bench.RESULTS.mkdir(parents=True, exist_ok=True)
    (bench.RESULTS / f"realism-{stamp}.json").write_text(json.dumps(
        {"head": head, "results": results}, indent=1))
    (bench.RESULTS / f"realism-{stamp}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
