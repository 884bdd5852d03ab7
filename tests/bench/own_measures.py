"""Part 2 of run.py: Tabsteward's own measurements on the corpus pages, each against its
floor or peer under the same load: (a) the snapshot's own work vs getFullAXTree, in-process;
(b) a trivial command; (c) click by ref and (d) navigate + snapshot through the CLI."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import (
    CACHE,
    NA,
    PYTHON,
    REPO,
    SHARED,
    BenchError,
    Chromium,
    Cli,
    Row,
    StaticServer,
    agent_browser,
    find_chromium,
    median,
    ms,
    pct,
    tabsteward_hub,
)

INPROCESS_REPS = 3  # (a) timed snapshot / getFullAXTree pairs per page
TRIVIAL_ROUNDS = 30  # (b) rounds of python / tabs / tab list
CLICKS = 5  # (c) timed clicks per page and tool
INPUT_ROLES = ("textbox", "searchbox", "combobox", "checkbox", "radio", "switch")


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
