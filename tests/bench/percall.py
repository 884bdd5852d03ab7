#!/usr/bin/env python3
"""Where one CLI command's time goes: a `tabsteward click` / `fill` / `snapshot` process, phase by
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
import benchkit as bench  # noqa: E402
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
    wrapped = getattr(owner, name)
    if inspect.ismodule(owner):  # a function also bound by name where it was imported
        for module in list(sys.modules.values()):
            if module is not None and module.__name__.startswith("tabsteward.bridge.") and \
                    module.__dict__.get(name) is fn:
                setattr(module, name, wrapped)


# (label, where) in the order the table prints them; nested spans are inclusive
HUB_PHASES = [
    ("hub: connection, accept to close", "tabsteward.bridge.hub.server:LocalServer._serve"),
    ("  authenticate the token", "tabsteward.bridge.hub.server:LocalServer._authenticate"),
    ("  request (Hub.execute)", "tabsteward.bridge.hub.core:Hub.execute"),
    ("    parse the command line", "tabsteward.bridge.hub.argv:parse"),
    ("    run the tool (Hub._run)", "tabsteward.bridge.hub.core:Hub._run"),
    ("      activity log", "tabsteward.bridge.records.activity:ActivityLog.append"),
    ("      pick the browser", "tabsteward.bridge.hub.pool:BrowserPool.pick"),
    ("      engine: click", "tabsteward.bridge.engine.actions:click"),
    ("      engine: fill", "tabsteward.bridge.engine.actions:enter_text"),
    ("      engine: snapshot", "tabsteward.bridge.engine.tab:Tab.snapshot"),
    ("      engine: open", "tabsteward.bridge.engine.navigation:navigate"),
    ("        policy permit", "tabsteward.bridge.engine.tab:Tab.permit"),
    ("        act, then what it changed", "tabsteward.bridge.engine.acting:guarded"),
    ("  write the reply", "tabsteward.bridge.hub.server:LocalServer._send"),
]


CALLS: list[tuple[str, float, float]] = []  # (method, start ms, took ms) of this command
LAST_OUT = [""]  # what the last CLI process printed


def _what(method: Any, rest: tuple[Any, ...]) -> str:
    """An evaluation's helper call, as `Runtime.evaluate(__ts.aim)` names it."""
    params = rest[0] if rest and isinstance(rest[0], dict) else {}
    expression = str(params.get("expression") or params.get("functionDeclaration") or "")
    if method not in ("Runtime.evaluate", "Runtime.callFunctionOn") or not expression:
        return ""
    return "(" + expression.split("(", 1)[0].strip()[-40:] + ")"


def trace_cdp() -> None:
    """Keep each DevTools call's method, start and duration (for one command's listing),
    over a DevTools connection and through the extension (which has a send of its own): the
    calls that reach the browser (over plain CDP, not those the connection answers itself,
    such as a Network.enable it keeps), and each sequence of them as one."""
    from tabsteward.bridge.cdp.connection import CDPConnection
    from tabsteward.bridge.cdp.extension import ExtensionConnection

    def timed(cls: type, name: str, label: Callable[[Any], str]) -> None:
        inner = cls.__dict__[name]

        @functools.wraps(inner)
        async def call(self: Any, first: Any, *a: Any, _inner: Any = inner, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await _inner(self, first, *a, **k)
            finally:
                CALLS.append((label(first) + _what(first, a), t0 * 1000,
                              (time.perf_counter() - t0) * 1000))
        setattr(cls, name, call)

    def steps(given: list[list[tuple[str, Any, Any]]]) -> str:
        return "sequence[" + " | ".join(", ".join(m.split(".")[-1] for m, _, _ in step)
                                        for step in given) + "]"

    plain = "_command" if "_command" in CDPConnection.__dict__ else "send"
    timed(CDPConnection, plain, str)
    timed(ExtensionConnection, "send", str)
    timed(ExtensionConnection, "sequence", steps)  # over plain CDP: its sends are listed
    # what the extension is asked beside DevTools commands (nav.go, reader.run, tabs.get ...)
    from tabsteward.bridge.cdp.extension_link import ExtensionLink
    timed(ExtensionLink, "call", lambda name: f"ext {name}")


def instrument() -> None:
    import importlib
    trace_cdp()
    for label, where in HUB_PHASES:
        module, path = where.split(":")
        owner: Any = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        wrap(owner, name, label)


@contextmanager
def hub_in_thread(env: dict[str, str], cdp_url: str | None) -> Iterator[None]:
    """`tabsteward serve --cdp URL` (or, without a URL, `serve` waiting for the extension),
    built by its own start(), on a loop in a thread."""
    os.environ.update(env)  # its paths, token and policy, read as it starts
    from tabsteward.bridge.hub import main as hub_main
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    opts = hub_main.parser().parse_args(["--cdp", cdp_url] if cdp_url else [])
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


# the CLI as its console script runs it, with its parts timed from outside; the last
# stderr line is their durations as JSON
CLIENT_PROBE = """
import time; t0 = time.perf_counter()
import sys
from tabsteward.bridge import cli
from tabsteward.bridge.clients import client
from tabsteward.bridge.secrets import credentials
took = {"imports": (time.perf_counter() - t0) * 1000}
def timed(owner, name, label):
    fn = getattr(owner, name)
    def run(*a, **k):
        s = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            took[label] = took.get(label, 0) + (time.perf_counter() - s) * 1000
    setattr(owner, name, run)
for owner, name, label in ((credentials, "identity", "who the agent is (process tree)"),
                           (credentials, "load", "its token (environment or keyring)"),
                           (client, "connect", "connect to the socket"),
                           (client, "exchange", "send, wait for the reply, read it"),
                           (cli, "_show", "print the reply")):
    timed(owner, name, label)
code = cli.main(sys.argv[1:])
took["in the process, in all"] = (time.perf_counter() - t0) * 1000
import json; sys.stderr.write("\\n" + json.dumps(took) + "\\n")
sys.exit(code)
"""


def probe_run(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, dict[str, float]]:
    import json
    t0 = time.perf_counter()
    r = subprocess.run([str(bench.PYTHON), "-c", CLIENT_PROBE, *argv], capture_output=True,
                       text=True, env=env, cwd=cwd, timeout=60)
    took = (time.perf_counter() - t0) * 1000
    LAST_OUT[0] = r.stdout
    if r.returncode != 0:
        raise bench.BenchError(f"probe {' '.join(argv)[:60]}: exit {r.returncode}: "
                               f"{r.stderr.strip()[-300:]}")
    return took, json.loads(r.stderr.strip().splitlines()[-1])


def timed_run(argv: list[str], env: dict[str, str] | None, cwd: str) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=60)
    took = (time.perf_counter() - t0) * 1000
    LAST_OUT[0] = r.stdout
    if r.returncode != 0:
        raise bench.BenchError(f"{' '.join(argv)[:80]}: exit {r.returncode}: "
                               f"{(r.stderr or r.stdout).strip()[:200]}")
    return took


def med(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


CLIENT_PHASES = ["imports", "who the agent is (process tree)",
                 "its token (environment or keyring)", "connect to the socket",
                 "send, wait for the reply, read it", "print the reply",
                 "in the process, in all"]
TS_COMMANDS = {"click": "click", "fill": "fill", "snapshot": "snapshot",
               "tabs": "tab list", "open": "open"}  # -> agent-browser (open: + snapshot -i)


@contextmanager
def extension_browser(env: dict[str, str]) -> Iterator[None]:
    """A headed Chromium with the real extension on a virtual display; its native host
    connects to the hub of `env` (the person's tab in front, the agent's behind)."""
    sys.path.insert(0, str(HERE.parent))
    from extension_env import Profile
    from xdisplay import xvfb
    with xvfb() as display:
        profile = Profile(dict(env, DISPLAY=display), [], headless=False)
        profile.start()
        try:
            ts = str(bench.TS_BIN)
            deadline = time.monotonic() + 60
            while "extension" not in subprocess.run(
                    [ts, "browsers"], capture_output=True, text=True, env=env,
                    cwd=env["HOME"]).stdout.lower():
                if time.monotonic() > deadline:
                    raise bench.BenchError("the extension did not connect to the hub")
                time.sleep(0.3)
            yield
        finally:
            profile.stop()


def measure(rounds: int, peers: bool, keyring: bool, transport: str) -> dict[str, Any]:
    """Every command, rounds times, interleaved; per command and phase, the durations."""
    exe = bench.find_chromium()
    (bench.CACHE / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="c", dir=bench.CACHE / "tmp"))
    hub_env = bench.isolated_env(tmp / "ts")
    hub_env.pop("TABSTEWARD_AGENT", None)
    env = dict(hub_env)
    if keyring:  # as a paired agent runs: its token in the keyring, read on every call
        from tabsteward.bridge.secrets import credentials
        env.pop("TABSTEWARD_TOKEN")
        env["TABSTEWARD_NAME"] = "bench agent"
        credentials.save("bench agent", hub_env["TABSTEWARD_TOKEN"])
    py = str(bench.PYTHON)
    ts = str(bench.TS_BIN)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    last: dict[str, list[tuple[str, float, float]]] = {}
    instrument()
    with RealismServer() as pages, ExitStack() as stack:
        pages.runs.add("percall", {})
        url = pages.url("inbox.html", "percall")
        if transport == "launched":
            chrome = stack.enter_context(bench.Chromium(exe, tmpdir=str(tmp)))
            stack.enter_context(hub_in_thread(hub_env, chrome.http_url))
        else:
            stack.enter_context(hub_in_thread(hub_env, None))
            stack.enter_context(extension_browser(env))
        home = env["HOME"]
        args = {"click": [""], "fill": ["", "quarterly report"], "snapshot": [], "tabs": [],
                "open": [url, "-i"]}

        def opened(took: tuple[float, dict[str, float]]) -> tuple[float, dict[str, float]]:
            """After `open -i`, the agent acts by the refs it printed (a click or fill right
            after an open is its document's first action, as in a task)"""
            for words, name in ((args["click"], '"Open 3"'), (args["fill"], '"Search mail"')):
                words[0] = next(w for ln in LAST_OUT[0].splitlines() if name in ln
                                for w in ln.split() if w.startswith("@"))
            return took
        opened((timed_run([ts, "open", url, "-i"], env, home), {}))
        calls: list[tuple[str, Callable[[], tuple[float, dict[str, float]]]]] = [
            ("python -I -c pass", lambda: (timed_run([py, "-I", "-c", "pass"], None, home), {})),
            ("python -c pass", lambda: (timed_run([py, "-c", "pass"], None, home), {}))]
        for cmd, extra in args.items():
            calls.append((f"tabsteward {cmd}",
                          lambda c=cmd, e=extra: (timed_run([ts, c, *e], env, home), {})))
            calls.append((f"probe {cmd}", lambda c=cmd, e=extra: probe_run([c, *e], env, home)))
        calls[-2:] = [(name, lambda call=call: opened(call())) for name, call in calls[-2:]]
        if peers:
            ab = stack.enter_context(bench.agent_browser(tmp, exe))
            ab_args = {"click": ["click", ""], "fill": ["fill", "", "quarterly report"],
                       "snapshot": ["snapshot"], "tab list": ["tab", "list"]}

            def ab_open() -> tuple[float, dict[str, float]]:
                """open, then snapshot -i (as our `open -i`); its refs are new per document"""
                took, _ = ab.run("open", url)
                more, shot = ab.run("snapshot", "-i")
                for words, name in ((ab_args["click"], '"Open 3"'),
                                    (ab_args["fill"], '"Search mail"')):
                    words[1] = next("@" + ln.split("ref=")[1].split("]")[0].split(",")[0]
                                    for ln in shot.splitlines() if name in ln)
                return took + more, {}
            ab_open()
            for cmd, words in ab_args.items():
                calls.append((f"agent-browser {cmd}", lambda w=words: (ab.run(*w)[0], {})))
            calls.append(("agent-browser open", ab_open))
        for _name, call in calls:  # warm
            call()
        for k in range(rounds):
            j = k % len(calls)
            for name, call in calls[j:] + calls[:j]:
                SPANS.clear()
                CALLS.clear()
                took, client = call()
                rows[name]["process, end to end"].append(took)
                for label, value in client.items():
                    rows[name][label].append(value)
                if name.startswith("probe "):
                    for label, _ in HUB_PHASES:
                        rows[name][label].append(sum(SPANS.get(label, [])))
                    rows[name]["round trips"].append(len(CALLS))
                    rows[name]["round trips, summed ms"].append(sum(c[2] for c in CALLS))
                if name in ("probe click", "probe fill", "probe open"):
                    last[name.split()[1]] = list(CALLS)
    return {"rows": rows, "last": last}


def table(rows: dict[str, dict[str, list[float]]]) -> list[str]:
    cmds = list(TS_COMMANDS)
    out = [f"{'phase (median ms)':<44}" + "".join(f"{c:>10}" for c in cmds)]

    def line(label: str, values: list[float]) -> None:
        out.append(f"{label:<44}" + "".join(f"{v:10.1f}" for v in values))

    bare = med(rows["python -c pass"]["process, end to end"])
    line("the command, end to end (console script)",
         [med(rows[f"tabsteward {c}"]["process, end to end"]) for c in cmds])
    line("the same, probed", [med(rows[f"probe {c}"]["process, end to end"]) for c in cmds])
    line("  interpreter start and exit (python -c pass)", [bare] * len(cmds))
    line("  the rest of start and exit", [
        med([t - i for t, i in zip(rows[f"probe {c}"]["process, end to end"],
                                   rows[f"probe {c}"]["in the process, in all"], strict=True)])
        - bare for c in cmds])
    for label in CLIENT_PHASES:
        line(f"  client: {label}", [med(rows[f"probe {c}"][label]) for c in cmds])
    for label, _ in HUB_PHASES:
        line("    " + label, [med(rows[f"probe {c}"][label]) for c in cmds])
    line("          DevTools calls, summed ms", [med(rows[f"probe {c}"]["round trips, summed ms"])
                                                for c in cmds])
    line("          DevTools calls, count", [med(rows[f"probe {c}"]["round trips"])
                                            for c in cmds])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--skip-peers", action="store_true", help="no agent-browser beside it")
    ap.add_argument("--transport", choices=("launched", "extension"), default="launched",
                    help="the hub attached to its own Chromium (default), or the real "
                         "extension in a headed Chromium under Xvfb")
    ap.add_argument("--keyring", action="store_true",
                    help="the agent's token in the OS keyring, as a paired agent runs (run "
                         "under packaging/with-keyring.sh); default: in TABSTEWARD_TOKEN")
    args = ap.parse_args(argv)
    os.chdir(bench.REPO)
    bench.fresh_bytecode()
    load = os.getloadavg()
    got = measure(args.rounds, not args.skip_peers, args.keyring, args.transport)
    rows = got["rows"]
    out = [f"== where a CLI command's time goes ({args.transport}): {args.rounds} rounds, "
           f"interleaved; token in "
           f"{'the keyring' if args.keyring else 'TABSTEWARD_TOKEN'}; load "
           f"{'/'.join(f'{x:.2f}' for x in load)} at start",
           f"python -I -c pass {med(rows['python -I -c pass']['process, end to end']):.1f} ms, "
           f"python -c pass {med(rows['python -c pass']['process, end to end']):.1f} ms", ""]
    out += table(rows)
    for cmd, calls in got["last"].items():
        if calls:
            t0 = calls[0][1]
            out += ["", f"the DevTools calls of the last probed {cmd} (start +ms, took ms):",
                    "  " + ", ".join(f"{m} +{s - t0:.1f} {d:.1f}" for m, s, d in calls)]
    if not args.skip_peers:
        out.append("")
        for mine, theirs in TS_COMMANDS.items():
            a = rows[f"tabsteward {mine}"]["process, end to end"]
            b = rows[f"agent-browser {theirs}"]["process, end to end"]
            ratio = med([x / y for x, y in zip(a, b, strict=True)])
            out.append(f"tabsteward {mine:<9} {med(a):6.1f} ms   agent-browser {theirs:<9} "
                       f"{med(b):6.1f} ms   ratio {ratio:.2f}x (median of per-round ratios)")
    print("\n".join(out))
    bench.RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    (bench.RESULTS / f"percall-{stamp}.txt").write_text("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
