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

Part 2 lives in own_measures.py; what the scripts here share, in benchkit.py.
The table is printed and written to .bench-cache/results/summary-tabsteward.md.
Only ratios from one run mean anything: milliseconds move with the machine's load.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import (
    BENCH_TOKEN,
    CACHE,
    REPO,
    RESULTS,
    SHARED,
    TS_BIN,
    Row,
    count,
    fresh_bytecode,
    md_table,
    median,
    ms,
    pair_ratios,
    pct,
    select_pages,
    text_table,
)
from own_measures import own_measurements, own_rows

RUNNER_TOOLS = ("tabsteward,agent-browser,agent-browser-mcp,playwright-mcp,chrome-devtools-mcp,"
                "cdp-floor")
MCP_PEERS = ("agent-browser-mcp", "playwright-mcp", "chrome-devtools-mcp")


# -- part 1: the shared runner -----------------------------------------------------------

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
