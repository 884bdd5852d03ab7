#!/usr/bin/env python3
"""Tabsteward's benchmark: every figure of the issue's "Benchmarks" list in one run.

    .venv/bin/python tests/bench/run.py [--pages N] [--skip-peers]

From the repository root. Two parts, then one table:

1. The shared peers runner (../shared/bench/run) measures tabsteward beside
   agent-browser, its MCP server, Playwright MCP, chrome-devtools-mcp and the raw
   CDP floor on the same saved pages, interleaved page by page. Its results JSON
   gives the CLI and MCP snapshot times, sizes, interactive refs and
   navigate+snapshot, as ratios computed the way its summary does: the median
   over pages of the per-page ratio.
2. Our own measurements on the same pages (served on 127.0.0.1 by the shared
   StaticServer), each against its floor or peer under the same load:
   (a) the snapshot's own work inside the engine vs the raw
       `Accessibility.getFullAXTree` call, in-process, same page and browser;
   (b) `tabsteward tabs` end to end vs a bare `python -I -c pass` on the same
       interpreter, with agent-browser's `tab list` beside it;
   (c) click by ref through the CLI vs agent-browser's click by ref, same element;
   (d) navigate + snapshot through the CLI vs agent-browser.

The table is printed and written to .bench-cache/results/summary-tabsteward.md.
Only ratios from one run mean anything: milliseconds move with the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHARED = (REPO.parent / "shared" / "bench").resolve()
CACHE = REPO / ".bench-cache"  # short on purpose: the hub's Unix socket lives under it
RESULTS = CACHE / "results"
PYCACHE = CACHE / "pycache"  # tabsteward's bytecode, fresh, outside the repository
PYTHON = REPO / ".venv" / "bin" / "python"
TS_BIN = REPO / ".venv" / "bin" / "tabsteward"
AB_BIN = CACHE / "peers" / "node_modules" / "agent-browser" / "bin" / "agent-browser-linux-x64"
RUNNER_TOOLS = ("tabsteward,agent-browser,agent-browser-mcp,playwright-mcp,chrome-devtools-mcp,"
                "cdp-floor")
BENCH_TOKEN = secrets.token_urlsafe(32)  # this run's agent token (hubs accept it: see run_shared)
MCP_PEERS = ("agent-browser-mcp", "playwright-mcp", "chrome-devtools-mcp")

INPROCESS_REPS = 3  # (a) timed snapshot / getFullAXTree pairs per page
TRIVIAL_ROUNDS = 30  # (b) rounds of python / tabs / tab list
CLICKS = 5  # (c) timed clicks per page and tool
NA = "-"  # a figure that was not measured
INPUT_ROLES = ("textbox", "searchbox", "combobox", "checkbox", "radio", "switch")

sys.path.insert(0, str(SHARED))
sys.dont_write_bytecode = True  # nothing written into the shared folder
from bench import pair_ratios, pct, select_pages  # noqa: E402
from browser import Chromium, find_chromium  # noqa: E402
from serve import StaticServer  # noqa: E402


class BenchError(RuntimeError):
    pass


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# -- the table ---------------------------------------------------------------------------

@dataclass
class Row:
    figure: str
    mine: str
    peer: str
    ratio: float | None
    target: float | None  # an upper bound on the ratio; None: reported, no target
    note: str = ""
    invalid: bool = False

    @property
    def ok(self) -> str:
        if self.invalid:
            return "INVALID"
        if self.target is None:
            return "—"
        if self.ratio is None:
            return "?"
        if self.ratio <= self.target:
            return "yes"
        return f"NO (+{(self.ratio / self.target - 1) * 100:.0f}%)"

    def cells(self) -> list[str]:
        ratio = NA if self.ratio is None else f"{self.ratio:.2f}x"
        target = "report" if self.target is None else f"≤ {self.target:.1f}x"
        return [self.figure, self.mine, self.peer, ratio, target, self.ok]


HEAD = ["figure", "tabsteward", "peer", "ratio", "target", "ok?"]


def text_table(rows: list[Row]) -> str:
    cells = [HEAD] + [r.cells() for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEAD))]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(len(HEAD))).rstrip()
             for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def md_table(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r.cells()) + " |" for r in rows]
    return "\n".join(lines)


def ms(v: float | None) -> str:
    return NA if v is None else f"{v:.1f} ms"


def count(v: float | None, unit: str = "") -> str:
    return NA if v is None else f"{v:.0f}{unit}"


# -- part 1: the shared runner -----------------------------------------------------------

def fresh_bytecode() -> None:
    """Every tabsteward process of this run reads bytecode compiled now, under PYCACHE.

    An installed package has its .pyc files; a checkout being edited may not, and with
    PYTHONDONTWRITEBYTECODE=1 (set on this machine, and by the shared runner) each CLI
    call would compile its modules again: about 7 ms of a 60 ms command."""
    os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    # our own tabsteward processes refresh it if the code changes during the run; the
    # shared runner sets PYTHONDONTWRITEBYTECODE again and reads what is compiled here
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([str(PYTHON), "-c", "import tabsteward.bridge.cli, tabsteward.bridge.hub.main, "
                    "tabsteward.bridge.mcp.server"], check=True)


def run_shared(pages: str, stamp: str) -> Path:
    runner = str(SHARED / "run")
    if not (CACHE / "venv").is_dir():
        subprocess.run([runner, "--cache", str(CACHE), "setup"], check=True)
    out = RESULTS / f"bench-{stamp}.json"
    # the runner starts `tabsteward serve` itself, where nobody can pair an agent: the hub
    # accepts the token it is started with, and the runner's CLI calls carry it
    env = dict(os.environ, TABSTEWARD_BIN=str(TS_BIN), TABSTEWARD_TOKEN=BENCH_TOKEN)
    cmd = [runner, "--cache", str(CACHE), "run", "--tools", RUNNER_TOOLS, "--pages", pages,
           "--out", str(out)]
    print(f"[run] {' '.join(cmd)}  (its summary: {out.with_suffix('.md')})", file=sys.stderr)
    # its own summary goes to the .md next to the JSON; progress lines stay on stderr
    subprocess.run(cmd, check=True, env=env, cwd=REPO, stdout=subprocess.DEVNULL)
    return out


def shared_rows(data: dict[str, Any]) -> tuple[list[Row], list[str]]:
    recs: list[dict[str, Any]] = data["records"]

    def by_page(tool: str, variant: str) -> dict[str, dict[str, Any]]:
        return {r["page"]: r for r in recs
                if r["tool"] == tool and r["variant"] == variant and r.get("ok")}

    def field_median(d: dict[str, dict[str, Any]], field: str) -> float | None:
        vals = [r[field] for r in d.values() if r.get(field) is not None]
        return pct(vals, .5) if vals else None

    def row(figure: str, mine: tuple[str, str], peer: tuple[str, str], field: str,
            target: float | None, fmt: Callable[[float | None], str]) -> Row:
        a, b = by_page(*mine), by_page(*peer)
        # an MCP text that is not the CLI's text read something else (another agent's
        # tab): those pages are left out, and most pages like that void the row
        bad = [p for p, r in a.items() if r.get("json_error") or r.get("json_text_same") is False]
        invalid = mine[1].startswith("mcp-") and len(bad) > len(a) / 2
        if mine[1].startswith("mcp-"):
            a = {p: r for p, r in a.items() if p not in bad}
        ratios = pair_ratios(a, b, field)
        note = f"{peer[0]} / {peer[1]}, {len(ratios)} pages"
        if bad:
            note += (f"; the text differs from `snapshot --json` on {len(bad)} pages "
                     f"({', '.join(bad[:5])})")
        return Row(figure, fmt(field_median(a, field)), f"{fmt(field_median(b, field))} "
                   f"({peer[0]}{'' if peer[1] == 'full' else ' ' + peer[1]})",
                   pct(ratios, .5) if ratios else None, target, note, invalid)

    # the fastest MCP peer: lowest median snapshot time over its variants
    mcp_medians = {}
    for r in recs:
        key = (r["tool"], r["variant"])
        if r["tool"] in MCP_PEERS and key not in mcp_medians:
            m = field_median(by_page(*key), "snap_ms")
            if m is not None:
                mcp_medians[key] = m
    ts, ab = "tabsteward", "agent-browser"
    rows = [
        row("snapshot, CLI, full", (ts, "full"), (ab, "full"), "snap_ms", 1.0, ms),
        row("snapshot, CLI, -i", (ts, "interactive"), (ab, "interactive"), "snap_ms", 1.0, ms),
    ]
    notes = []
    if mcp_medians:
        fast = min(mcp_medians, key=lambda k: mcp_medians[k])
        notes.append(f"fastest MCP peer: {fast[0]} / {fast[1]} "
                     f"({mcp_medians[fast]:.1f} ms median snapshot)")
        rows += [row("snapshot, MCP, full", (ts, "mcp-full"), fast, "snap_ms", 0.8, ms),
                 row("snapshot, MCP, -i", (ts, "mcp-interactive"), fast, "snap_ms", 0.8, ms)]
    rows += [
        row("bytes, full snapshot", (ts, "full"), (ab, "full"), "bytes", 0.8, count),
        row("bytes, -i snapshot", (ts, "interactive"), (ab, "interactive"), "bytes", 1.0, count),
        row("interactive refs, full", (ts, "full"), (ab, "full"), "interactive_refs", None,
            count),
        row("interactive refs, -i", (ts, "interactive"), (ab, "interactive"),
            "interactive_refs", None, count),
        row("navigate+snapshot, CLI, full", (ts, "full"), (ab, "full"), "total_ms", None, ms),
        row("navigate+snapshot, CLI, -i", (ts, "interactive"), (ab, "interactive"),
            "total_ms", None, ms),
    ]
    if mcp_medians:
        rows.append(row("navigate+snapshot, MCP, full", (ts, "mcp-full"), fast, "total_ms",
                        None, ms))
    return rows, notes


# -- part 2: our own measurements ----------------------------------------------------------

def isolated_env(root: Path) -> dict[str, str]:
    """HOME and XDG_* in a fresh folder, so nothing touches the developer's own state."""
    env = dict(os.environ)
    for var, sub in (("HOME", "home"), ("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "cfg"),
                     ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"),
                     ("XDG_CACHE_HOME", "cache")):
        (root / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(root / sub)
    os.chmod(env["XDG_RUNTIME_DIR"], 0o700)
    env["TABSTEWARD_TOKEN"] = BENCH_TOKEN  # see run_shared
    # the bench starts its own hub: a command polling for it while it starts must not start
    # another (which takes the socket, so the bench's own hub exits)
    env["TABSTEWARD_NO_AUTOSTART"] = "1"
    # policy runs on every action, but nobody is there to answer: clicks on the corpus's
    # "Subscribe" and "Send" buttons would wait for a person under the default profile
    (root / "cfg" / "tabsteward").mkdir(parents=True, exist_ok=True)
    (root / "cfg" / "tabsteward" / "policy.toml").write_text('default_profile = "trusted"\n')
    return env


class Cli:
    """One command line tool, one process per command, timed around the process."""

    def __init__(self, name: str, argv0: str, env: dict[str, str] | None, cwd: str) -> None:
        self.name, self.argv0, self.env, self.cwd = name, argv0, env, cwd

    def run(self, *args: str, timeout: float = 60.0) -> tuple[float, str]:
        """(milliseconds, stdout); BenchError when it fails."""
        t0 = time.perf_counter()
        r = subprocess.run([self.argv0, *args], capture_output=True, text=True, env=self.env,
                           cwd=self.cwd, timeout=timeout)
        took = (time.perf_counter() - t0) * 1000
        if r.returncode != 0:
            raise BenchError(f"{self.name} {' '.join(args)[:80]}: exit {r.returncode}: "
                             f"{(r.stderr or r.stdout).strip()[:200]}")
        return took, r.stdout


@contextmanager
def tabsteward_hub(tmp: Path, exe: str) -> Iterator[Cli]:
    """`tabsteward serve --cdp URL` on a Chromium started like the shared runner's."""
    root = Path(tempfile.mkdtemp(prefix="ts", dir=tmp))
    env = isolated_env(root)
    cli = Cli("tabsteward", str(TS_BIN), env, env["HOME"])
    with Chromium(exe, tmpdir=str(root)) as chrome:
        log = open(root / "serve.log", "wb")  # noqa: SIM115  (lives as long as the hub)
        hub = subprocess.Popen([str(TS_BIN), "serve", "--cdp", chrome.http_url],
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                               cwd=env["HOME"], start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    cli.run("tabs", timeout=10)
                    break
                except (BenchError, subprocess.TimeoutExpired):
                    if hub.poll() is not None or time.monotonic() > deadline:
                        raise BenchError(f"no hub; see {root / 'serve.log'}") from None
                    time.sleep(0.2)
            yield cli
        finally:
            hub.terminate()
            try:
                hub.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(hub.pid, signal.SIGKILL)
                hub.wait(5)
            log.close()


@contextmanager
def agent_browser(tmp: Path, exe: str) -> Iterator[Cli]:
    """agent-browser's daemon attached to its own Chromium, as the shared driver does it."""
    home = tempfile.mkdtemp(prefix="ab", dir=tmp)
    env = dict(os.environ, HOME=home, AGENT_BROWSER_SESSION=f"tsbench{os.getpid()}",
               AGENT_BROWSER_NO_VERSION_CHECK="1", AGENT_BROWSER_IDLE_TIMEOUT_MS="900000")
    for k in ("AGENT_BROWSER_CONFIG", "AGENT_BROWSER_PROVIDER", "AGENT_BROWSER_AUTO_CONNECT"):
        env.pop(k, None)
    cli = Cli("agent-browser", str(AB_BIN), env, home)
    with Chromium(exe, tmpdir=home) as chrome:
        cli.run("connect", str(chrome.port))
        try:
            yield cli
        finally:
            with suppress(BenchError, subprocess.TimeoutExpired):
                cli.run("close", timeout=30)


# (a) the snapshot's own work vs getFullAXTree, in-process ---------------------------------

async def inprocess(pages: list[tuple[str, str]], tmp: Path, exe: str) -> list[dict[str, Any]]:
    from tabsteward.bridge.engine import actions
    from tabsteward.bridge.engine.session import Browser
    from tabsteward.bridge.errors import TabstewardError

    out = []
    with Chromium(exe, tmpdir=str(tmp)) as chrome:
        browser = await Browser.attach(chrome.http_url)
        try:
            tab = await browser.session("bench").current_tab()
            calls: list[tuple[str, Callable[[], Any]]] = [
                ("full", lambda: tab.snapshot()),
                ("interactive", lambda: tab.snapshot(interactive=True)),
                ("ax", lambda: tab.send("Accessibility.getFullAXTree")),
            ]
            for i, (page, url) in enumerate(pages):
                times: dict[str, list[float]] = {name: [] for name, _ in calls}
                try:
                    await actions.navigate(tab, url)
                    for _, call in calls:  # warm: helper injected, AX tree built once
                        await call()
                    for k in range(INPROCESS_REPS):
                        j = (i + k) % len(calls)
                        for name, call in calls[j:] + calls[:j]:
                            t0 = time.perf_counter()
                            await call()
                            times[name].append((time.perf_counter() - t0) * 1000)
                except (TabstewardError, TimeoutError) as e:
                    print(f"[run] own: in-process {page} failed: {e}", file=sys.stderr)
                    continue
                out.append({"page": page, **{f"{n}_ms": statistics.median(v)
                                             for n, v in times.items()}})
        finally:
            await browser.close()
    return out


# (b) a trivial command ------------------------------------------------------------------

def trivial(clis: list[Cli]) -> dict[str, list[float]]:
    cmds: list[tuple[Cli, tuple[str, ...]]] = [
        (Cli("python", str(PYTHON), None, str(REPO)), ("-I", "-c", "pass"))]
    cmds += [(c, ("tabs",) if c.name == "tabsteward" else ("tab", "list")) for c in clis]
    times: dict[str, list[float]] = {c.name: [] for c, _ in cmds}
    for c, args in cmds:  # warm the page cache
        c.run(*args)
    for k in range(TRIVIAL_ROUNDS):
        j = k % len(cmds)
        for c, args in cmds[j:] + cmds[:j]:
            times[c.name].append(c.run(*args)[0])
    return times


# (c) click by ref, (d) navigate + snapshot ---------------------------------------------------

LOC = re.compile(r" (?:loc=|nth=\d).*$", re.M)  # a line's locator: `loc=...` or its `nth=N`
AB_LINE = re.compile(r'^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?.*\bref=(e\d+)')


def ts_targets(ts: Cli) -> dict[tuple[str, str, int], str]:
    """(role, name, nth) -> @N from `snapshot -i --json`, in document order."""
    obj = json.loads(ts.run("snapshot", "-i", "--json")[1])
    text: str = obj["text"]
    refs: dict[str, dict[str, Any]] = obj["refs"]
    order = sorted(refs, key=lambda r: text.find(f" {r} "))
    return _nth({r: (str(refs[r].get("role")), str(refs[r].get("name") or "")) for r in order})


def ab_targets(ab: Cli) -> dict[tuple[str, str, int], str]:
    found = {}
    for line in ab.run("snapshot", "-i")[1].splitlines():
        m = AB_LINE.match(line)
        if m:
            name = (m.group(2) or "").replace('\\"', '"').replace("\\\\", "\\")
            found["@" + m.group(3)] = (m.group(1), name)
    return _nth(found)


def _nth(refs: dict[str, tuple[str, str]]) -> dict[tuple[str, str, int], str]:
    seen: dict[tuple[str, str], int] = {}
    out = {}
    for ref, key in refs.items():
        n = seen[key] = seen.get(key, -1) + 1
        out[(*key, n)] = ref
    return out


def ts_url(ts: Cli) -> str:
    line = next(ln for ln in ts.run("tabs")[1].splitlines() if ln.startswith("*"))
    return line.rsplit(" — ", 1)[-1].strip()


def ab_url(ab: Cli) -> str:
    return ab.run("get", "url")[1].strip()


def same_doc(a: str, b: str) -> bool:
    return a.split("#")[0] == b.split("#")[0]


def pick_click_target(ts: Cli, ab: Cli | None, url: str) -> dict[str, str] | None:
    """An element both tools see (same role, name and rank) whose click does not leave
    the page: an input first, else a same-page #anchor link. One untimed click each
    checks it: not covered, no navigation."""
    mine = ts_targets(ts)
    theirs = ab_targets(ab) if ab else {k: "" for k in mine}
    shared = [k for k in mine if k in theirs]
    inputs = [k for k in shared if k[0] in INPUT_ROLES]
    candidates = inputs[:3]
    links = [k for k in shared if k[0] == "link"][:40] if ab and not inputs else []
    for k in links:  # same-page anchors; the href comes from agent-browser
        if len(candidates) >= 3:
            break
        if ab and ab.run("get", "attr", theirs[k], "href")[1].strip().startswith("#"):
            candidates.append(k)
    for k in candidates:
        target = {"tabsteward": mine[k], "agent-browser": theirs[k],
                  "what": f'{k[0]} "{k[1][:30]}"'}
        try:
            ts.run("click", mine[k])
            if ab:
                ab.run("click", theirs[k])
        except BenchError:
            continue
        if same_doc(ts_url(ts), url) and (ab is None or same_doc(ab_url(ab), url)):
            return target
        ts.run("open", url)
        mine = ts_targets(ts)
        if ab:
            ab.run("open", url)
            theirs = ab_targets(ab)
    return None


def cli_page(rec: dict[str, Any], url: str, order: list[Cli], ts: Cli, ab: Cli | None) -> None:
    for c in order:  # (d) what an agent waits for to open a page and read it
        t_open = c.run("open", url)[0]
        t_snap = c.run("snapshot")[0]
        rec[f"{c.name}_nav_snap_ms"] = t_open + t_snap
        # what the -i bytes are made of (untimed): tabsteward's locators (loc=, nth=)
        text = c.run("snapshot", "-i")[1]
        rec[f"{c.name}_i_bytes"] = len(text.encode())
        rec[f"{c.name}_i_bytes_no_loc"] = len(LOC.sub("", text).encode())
    target = pick_click_target(ts, ab, url)  # (c)
    if target is None:
        rec["click"] = "no element to click that stays on the page"
        return
    rec["click"] = target["what"]
    times: dict[str, list[float]] = {c.name: [] for c in order}
    for k in range(CLICKS):
        for c in order[k % len(order):] + order[:k % len(order)]:
            times[c.name].append(c.run("click", target[c.name])[0])
    for name, v in times.items():
        rec[f"{name}_click_ms"] = v
    if not same_doc(ts_url(ts), url) or (ab and not same_doc(ab_url(ab), url)):
        rec["click_left_page"] = True


def cli_pages(pages: list[tuple[str, str]], ts: Cli, ab: Cli | None) -> list[dict[str, Any]]:
    out = []
    tools = [ts] + ([ab] if ab else [])
    for i, (page, url) in enumerate(pages):
        rec: dict[str, Any] = {"page": page}
        try:
            cli_page(rec, url, tools[i % len(tools):] + tools[:i % len(tools)], ts, ab)
        except (BenchError, subprocess.TimeoutExpired) as e:
            rec = {"page": page, "error": str(e)[:300]}  # nothing half-measured is kept
        out.append(rec)
        print(f"[run] own: {i + 1}/{len(pages)} pages ({page}: "
              f"{rec.get('error') or 'click ' + rec['click']})", file=sys.stderr, flush=True)
    return out


def own_rows(own: dict[str, Any], peers: bool) -> list[Row]:
    inp, t, cli = own["inprocess"], own["trivial"], own["cli"]
    ab = "agent-browser"

    def per_round(a: str, b: str) -> float | None:
        return median([x / y for x, y in zip(t[a], t[b], strict=True)])

    def beside(v: float | None, who: str = ab) -> str:
        return f"{ms(v)} ({who})" if peers else NA

    rows = []
    for variant, label in (("full", "full"), ("interactive", "-i")):
        rows.append(Row(f"snapshot's own work in the engine, {label}",
                        ms(median([p[f"{variant}_ms"] for p in inp])),
                        ms(median([p["ax_ms"] for p in inp])) + " (getFullAXTree)",
                        median([p[f"{variant}_ms"] / p["ax_ms"] for p in inp]), 1.0,
                        f"in-process, {len(inp)} pages"))
    rows.append(Row("trivial command: `tabsteward tabs`", ms(median(t["tabsteward"])),
                    ms(median(t["python"])) + " (python -I -c pass)",
                    per_round("tabsteward", "python"), 1.5, f"{TRIVIAL_ROUNDS} rounds"))
    if peers:
        rows.append(Row("trivial command vs agent-browser `tab list`",
                        ms(median(t["tabsteward"])),
                        f"{ms(median(t[ab]))} ({ab}: {per_round(ab, 'python') or 0:.2f}x python)",
                        per_round("tabsteward", ab), None, f"{TRIVIAL_ROUNDS} rounds"))
    clicked = [p for p in cli if "tabsteward_click_ms" in p]
    mine = [x for p in clicked for x in p["tabsteward_click_ms"]]
    theirs = [x for p in clicked for x in p.get(f"{ab}_click_ms", [])]
    page_ratios = [statistics.median(p["tabsteward_click_ms"]) /
                   statistics.median(p[f"{ab}_click_ms"]) for p in clicked if peers]
    note = f"{len(clicked)} pages x {CLICKS} clicks"
    rows.append(Row("click by ref, CLI, median", ms(median(mine)), beside(median(theirs)),
                    median(page_ratios), None, note))
    p95_mine, p95_theirs = pct(mine, .95), pct(theirs, .95)
    rows.append(Row("click by ref, CLI, p95", ms(p95_mine), beside(p95_theirs),
                    p95_mine / p95_theirs if p95_mine and p95_theirs else None, None,
                    note + "; ratio of the p95s"))
    ok = [p for p in cli if "error" not in p]
    nav_ratios = [p["tabsteward_nav_snap_ms"] / p[f"{ab}_nav_snap_ms"] for p in ok if peers]
    rows.append(Row("navigate+snapshot, CLI, full (own)",
                    ms(median([p["tabsteward_nav_snap_ms"] for p in ok])),
                    beside(median([p[f"{ab}_nav_snap_ms"] for p in ok if peers])),
                    median(nav_ratios), None, f"{len(ok)} pages"))
    return rows


def own_measurements(page_ids: list[str], peers: bool) -> dict[str, Any]:
    exe = find_chromium()
    (CACHE / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="o", dir=CACHE / "tmp"))
    try:
        with StaticServer(str(SHARED / "corpus" / "pages")) as server:
            pages = [(p, server.url(f"/{p}/source.html")) for p in page_ids]
            print("[run] own: (a) snapshot vs getFullAXTree, in-process", file=sys.stderr)
            result: dict[str, Any] = {"inprocess": asyncio.run(inprocess(pages, tmp, exe))}
            with tabsteward_hub(tmp, exe) as ts:
                if peers:
                    with agent_browser(tmp, exe) as ab:
                        result["trivial"] = trivial([ts, ab])
                        result["cli"] = cli_pages(pages, ts, ab)
                else:
                    result["trivial"] = trivial([ts])
                    result["cli"] = cli_pages(pages, ts, None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


# -- main ---------------------------------------------------------------------------------------

def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _interrupt)  # unwind through the finally blocks
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", default="all",
                    help="N evenly spaced pages of the 40 (as the shared runner picks them), "
                         "'all' (default) or a comma list of page ids")
    ap.add_argument("--skip-peers", action="store_true",
                    help="no shared runner and no agent-browser: only tabsteward against its "
                         "floors (getFullAXTree, a bare python)")
    args = ap.parse_args(argv)
    if os.getcwd() != str(REPO):
        os.chdir(REPO)
    peers = not args.skip_peers
    fresh_bytecode()
    page_ids = select_pages(args.pages)
    stamp = dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    RESULTS.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    load = os.getloadavg()
    rows: list[Row] = []
    notes: list[str] = []
    shared_json = None
    if peers:
        shared_json = run_shared(args.pages, stamp)
        rows, notes = shared_rows(json.loads(shared_json.read_text()))
    own = own_measurements(page_ids, peers)
    own_json = RESULTS / f"own-{stamp}.json"
    own_json.write_text(json.dumps(own, indent=1))
    rows += own_rows(own, peers)
    failed = [f"{p['page']}: {p['error']}" for p in own["cli"] if "error" in p]
    skipped = [p["page"] for p in own["cli"] if "click" in p and "tabsteward_click_ms" not in p]
    left = [p["page"] for p in own["cli"] if p.get("click_left_page")]
    if peers:
        both = [p for p in own["cli"] if p.get("agent-browser_i_bytes")]
        with_loc = [p["tabsteward_i_bytes"] / p["agent-browser_i_bytes"] for p in both]
        no_loc = [p["tabsteward_i_bytes_no_loc"] / p["agent-browser_i_bytes"] for p in both]
        notes.append(f"-i bytes vs agent-browser -i: {median(with_loc) or 0:.2f}x as printed, "
                     f"{median(no_loc) or 0:.2f}x without the `loc=`/`nth=` locators (own pages)")
    notes += [f"own measurement failed on {f}" for f in failed]
    if skipped:
        notes.append(f"click: no element that stays on the page on {len(skipped)} pages "
                     f"({', '.join(skipped)})")
    if left:
        notes.append(f"click: a timed click left the page on {', '.join(left)}")
    wall = time.perf_counter() - t0
    cmd = "python tests/bench/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    head = (f"{len(page_ids)} pages, {os.cpu_count()} CPUs, {platform.platform()}, load "
            f"{'/'.join(f'{x:.2f}' for x in load)} at start, {wall:.0f} s")
    ratio_rule = ("ratio = median over pages of (tabsteward / peer) on the same page in one "
                  "run; the value columns are medians over pages (p95 rows: over all clicks)")
    summary = RESULTS / "summary-tabsteward.md"
    print(f"[run] writing {summary.relative_to(REPO)}", file=sys.stderr, flush=True)
    print()
    print(f"== tabsteward benchmark: {cmd.strip()}  ({head})")
    print(text_table(rows))
    for line in [ratio_rule, *notes]:
        print(f"- {line}")
    md = [f"# Tabsteward benchmark — {stamp}", "", f"`{cmd.strip()}` — {head}.", "",
          md_table(rows), "", f"- {ratio_rule}"]
    md += [f"- {n}" for n in notes]
    md += [f"- {r.figure}: {r.note}" for r in rows if r.note]
    if shared_json:
        md.append(f"- shared runner results: `{shared_json.relative_to(REPO)}` (and `.md`)")
    md.append(f"- own measurements: `{own_json.relative_to(REPO)}`")
    summary.write_text("\n".join(md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
