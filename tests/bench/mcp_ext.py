#!/usr/bin/env python3
"""MCP calls through the extension against the same calls over direct CDP, in one run.

    .venv/bin/python tests/bench/mcp_ext.py [--pages N] [--rounds N] [--phases]

One headed Chromium on an Xvfb display loads the real extension, whose real native host
connects to a hub in this process; the same Chromium opens a DevTools port, to which a second
hub in this process attaches (as `serve --cdp` does). Each hub has its own `tabsteward mcp`
server, a separate process driven by a real MCP client session over stdio. The Chromium's
first tab is the person's, in front; every agent tab is a hidden background tab of the same
window. On each page of the shared corpus both agents open the page, then take turns, round
by round (the order alternating): `snapshot`, and `click` by ref on the same element (a text
box, a checkbox, a radio button or a button, found by role, name and rank in both snapshots;
one whose click leaves the page is not timed, and the next is tried). The browser is off the
network but for 127.0.0.1 (as the tests' are): a corpus page's links to other sites fail at
once, as they would load at once online, instead of hanging on a name lookup for seconds (a
page's open took 5 to 11 s here without it, so the debugger went idle and was detached
between pages). The debugger then attaches for the first page's first click and stays; a
page's first click (it scrolls the element into view and often focuses it, on both sides)
counts like the others. `--think 11` waits past the idle detach between rounds, so that
every click attaches, as it does for an agent whose model thinks longer than that.
Beside them: the raw round trip (`Runtime.evaluate 1+1` in the engine, no hub) and the load
average. `--phases` also prints, for each side's clicks and snapshots, the median and p95
time of each DevTools method and of the debugger's attach (wrapped from outside; nothing in
the package carries timing code).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT.parent / "shared" / "bench"))

from extension_env import HOST_RULES, ExtensionHub  # noqa: E402
from mcp_client import StdioMCP, result_text  # noqa: E402
from serve import StaticServer  # noqa: E402
from tabsteward.bridge.engine import actions  # noqa: E402
from tabsteward.bridge.engine.session import Browser  # noqa: E402
from tabsteward.bridge.engine.tab import Tab  # noqa: E402
from tabsteward.bridge.hub.core import Hub  # noqa: E402
from tabsteward.bridge.hub.pool import DEFAULT_IDLE_DETACH, BrowserPool  # noqa: E402
from tabsteward.bridge.hub.server import LocalServer  # noqa: E402
from xdisplay import xvfb  # noqa: E402

CORPUS = ROOT.parent / "shared" / "bench" / "corpus" / "pages"
TS_BIN = ROOT / ".venv" / "bin" / "tabsteward"
CLICKABLE = ("textbox", "searchbox", "checkbox", "radio", "button")
# a click whose report says one of these is not timed: the page is not the same after it
NOT_TIMED = ("navigated to", "opened new tab", "still loading", "dialog", "nothing was done")
LINE = re.compile(r'^\s*-\s*(\w+)(?: "((?:[^"\\]|\\.)*)")?.*?@(\d+)\b')
LABELS = ("ext", "cdp")
Calls = list[tuple[str, float, float]]  # (what, ms, started ms after the click began)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def candidates(texts: dict[str, str]) -> list[dict[str, str]]:
    """Elements both snapshots show the same way: the ref in each, by role, name and rank;
    text boxes first (clicking one changes nothing but focus), buttons last."""
    keyed: dict[str, dict[tuple[str, str, int], str]] = {}
    for label, text in texts.items():
        seen: dict[tuple[str, str], int] = defaultdict(int)
        keyed[label] = {}
        for line in text.splitlines():
            m = LINE.match(line)
            if m and m.group(1) in CLICKABLE:
                rank = seen[(m.group(1), m.group(2) or "")]
                seen[(m.group(1), m.group(2) or "")] += 1
                keyed[label][(m.group(1), m.group(2) or "", rank)] = "@" + m.group(3)
    return [{"ext": ref, "cdp": keyed["cdp"][key]} for role in CLICKABLE
            for key, ref in keyed["ext"].items() if key[0] == role and key in keyed["cdp"]]


class Phases:
    """Times of the extension side's calls during its clicks, by name, click by click."""

    def __init__(self) -> None:
        self.clicks: dict[str, list[tuple[float, Calls]]] = defaultdict(list)
        self.current: Calls | None = None
        self.label = ""
        self.started = 0.0

    def wrap(self, owner: Any, name: str, label: Callable[..., str]) -> None:
        original = getattr(owner, name)
        phases = self

        async def timed(*args: Any, **kwargs: Any) -> Any:
            calls = phases.current
            if calls is None:
                return await original(*args, **kwargs)
            start = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                calls.append((label(*args, **kwargs), (time.perf_counter() - start) * 1000,
                              (start - phases.started) * 1000))
        setattr(owner, name, timed)

    def begin(self, label: str, first: bool = False) -> None:
        label = f"{label}, first clicks of a page" if first else label  # else all, or snapshots
        self.current, self.label, self.started = [], label, time.perf_counter()

    def end(self, took: float | None) -> None:
        """Keep the calls of the click that took `took` ms (None: it is not counted)."""
        if self.current is not None and took is not None:
            self.clicks[self.label].append((took, self.current))
        self.current = None

    def print(self) -> None:
        for label, clicks in self.clicks.items():
            self._print(label, clicks)

    @staticmethod
    def _print(label: str, clicks: list[tuple[float, Calls]]) -> None:
        took: dict[str, list[float]] = defaultdict(list)
        for _, calls in clicks:
            for name, ms, _ in calls:
                took[name].append(ms)
        print(f"\n{label}: {len(clicks)} clicks, by call (ms; calls, median, p95, total; "
              "nested calls are inside their callers):")
        for name, values in sorted(took.items(), key=lambda kv: -sum(kv[1]))[:30]:
            print(f"  {name:<52} {len(values):4d} {statistics.median(values):8.1f}"
                  f" {p95(values):8.1f} {sum(values):9.0f}")
        print(f"{label}: the slowest clicks, their calls over 5 ms:")
        for total, calls in sorted(clicks, key=lambda c: -c[0])[:4]:
            print(f"  {total:.1f} ms: " + ", ".join(f"{n} {ms:.0f}" for n, ms, _ in calls
                                                     if ms > 5))
        total, calls = sorted(clicks, key=lambda c: c[0])[len(clicks) // 2]
        Phases._timeline(f"{label}: the median click", total, calls)
        total, calls = max(clicks, key=lambda c: c[0])
        Phases._timeline(f"{label}: the slowest click", total, calls)

    @staticmethod
    def _timeline(title: str, total: float, calls: Calls) -> None:
        print(f"{title} ({total:.1f} ms), call by call (start +duration, over 0.5 ms):")
        for name, ms, start in sorted(calls, key=lambda c: c[2]):
            if ms > 0.5 and not name.startswith(("send ", "tab.evaluate", "tab._world")):
                print(f"  {start:6.1f} +{ms:5.1f}  {name}")


async def mcp_call(client: StdioMCP, tool: str, args: dict[str, Any]) -> tuple[float, str]:
    start = time.perf_counter()
    result = await asyncio.to_thread(client.call, tool, args, 60)
    took = (time.perf_counter() - start) * 1000
    text = result_text(result)
    if result.get("isError"):
        raise RuntimeError(f"{tool} {json.dumps(args)}: {text}")
    return took, text


async def raw_round_trips(ext: Browser, direct: Browser, url: str, n: int) -> dict[str, float]:
    """Median ms of `Runtime.evaluate 1+1` on a tab of each engine, interleaved."""
    tabs: dict[str, Tab] = {}
    for label, browser in (("ext", ext), ("cdp", direct)):
        tabs[label] = await browser.session("bench-raw").new_tab()
        await actions.navigate(tabs[label], url)
    took: dict[str, list[float]] = {"ext": [], "cdp": []}
    for _ in range(n):
        for label, tab in tabs.items():
            start = time.perf_counter()
            await tab.send("Runtime.evaluate", {"expression": "1+1", "returnByValue": True})
            took[label].append((time.perf_counter() - start) * 1000)
    for tab in tabs.values():
        await tab.browser.close_tab(tab)
    return {k: statistics.median(v) for k, v in took.items()}


async def run(names: list[str], rounds: int, phases: Phases | None, think: float) -> None:
    with xvfb() as display:
        os.environ["DISPLAY"] = display
        hub = ExtensionHub(["--remote-debugging-port=0", HOST_RULES],
                           idle_detach=DEFAULT_IDLE_DETACH)
        hub.env["DISPLAY"] = display
        await hub.start()
        server = None
        clients: dict[str, StdioMCP] = {}
        try:
            ext = await hub.connect(headless=False)
            port_file = Path(hub.profiles[0].path) / "DevToolsActivePort"
            for _ in range(200):
                if port_file.exists() and port_file.read_text().strip():
                    break
                await asyncio.sleep(0.05)
            port = port_file.read_text().split()[0]
            direct = await Browser.attach(f"http://127.0.0.1:{port}")
            if direct.own_windows:  # a headless browser would give each tab a window
                raise SystemExit("the direct browser must be headed: its tabs hidden")
            direct_hub = Hub(BrowserPool(primary=direct), log_path=f"{hub.root}/direct.log",
                             agents=hub.agents)
            sock = f"{hub.root}/run/direct.sock"
            server = LocalServer(direct_hub.execute, socket_path=sock,
                                 token_path=f"{hub.root}/run/direct.token", agents=hub.agents)
            await server.start()
            for label, path in (("ext", hub.socket), ("cdp", sock)):
                env = {**hub.env, "TABSTEWARD_SOCKET": path, "TABSTEWARD_NO_AUTOSTART": "1",
                       "TABSTEWARD_AGENT": f"bench-{label}"}
                clients[label] = StdioMCP([str(TS_BIN), "mcp"], env=env, cwd=hub.root,
                                          stderr_path=f"{hub.root}/mcp-{label}.log")
                await asyncio.to_thread(clients[label].start)
            if phases is not None:
                instrument(phases, ext)
            await measure(names, rounds, clients, ext, direct, phases, think)
        finally:
            for client in clients.values():
                await asyncio.to_thread(client.close)
            if server is not None:
                await server.close(then=None)
            await hub.close()


def instrument(phases: Phases, ext: Browser) -> None:
    """Wrap, from outside, the steps of a click on the hub's side and the extension's."""
    from tabsteward.bridge.engine import acting, pointer, screen, sent
    from tabsteward.bridge.engine import tab as tab_module
    conn = type(ext.conn)
    phases.wrap(Hub, "execute", lambda *a, **k: "hub.execute (the whole call)")
    phases.wrap(conn, "_reattach", lambda *a, **k: "debugger attach + re-enable (after idle)")
    phases.wrap(conn, "_attach", lambda *a, **k: "debugger attach, chrome.debugger part")
    phases.wrap(type(ext), "_reattached", lambda *a, **k: "debugger attach, engine re-enable")
    from tabsteward.bridge.cdp.ext_reader import Reader
    from tabsteward.bridge.cdp.extension_link import ExtensionLink
    phases.wrap(ExtensionLink, "call", lambda self, name, *a, **k: f"link {name} " + (
        str(a[1]) if name == "debugger.sendCommand" and len(a) > 1 else ""))
    phases.wrap(Reader, "send", lambda self, tab, method, *a, **k: f"reader {method}")
    phases.wrap(tab_module.Tab, "send", lambda self, method, *a, **k: f"send {method}")
    for name in ("resolve_placed", "resolve_info", "aim", "route", "info", "_world",
                 "wait_load", "evaluate", "next_frame"):
        phases.wrap(tab_module.Tab, name, lambda *a, n=name, **k: f"tab.{n}")
    # each where it is called from (pointer.py imports its helpers by name)
    for module, name in ((pointer, "guarded"), (pointer, "aim_and_ask"),
                         (pointer, "input_then_read"), (acting, "read_back"),
                         (acting, "barrier"), (acting, "_then_barrier"),
                         (sent, "listen"), (sent, "_disable"), (screen, "follow_policy")):
        phases.wrap(module, name, lambda *a, m=module.__name__, n=name, **k:
                    f"{m.rsplit('.', 1)[1]}.{n}")


async def measure(names: list[str], rounds: int, clients: dict[str, StdioMCP], ext: Browser,
                  direct: Browser, phases: Phases | None, think: float) -> None:
    rows = []
    every: dict[str, dict[str, list[float]]] = {k: {"snap": [], "click": []} for k in LABELS}
    firsts: dict[str, list[float]] = {k: [] for k in LABELS}
    later: dict[str, list[float]] = {k: [] for k in LABELS}  # the clicks after the first
    with StaticServer(str(CORPUS)) as pages:
        raw = await raw_round_trips(ext, direct, pages.url(f"{names[0]}/source.html"), 200)
        print(f"raw round trip (Runtime.evaluate 1+1, no hub): ext {raw['ext']:.2f} ms, "
              f"direct {raw['cdp']:.2f} ms ({raw['ext'] / raw['cdp']:.2f}x)   load {load()}\n")
        print(f"{'page':<34} {'snapshot ext/cdp median (x)':>30} {'click ext/cdp median (x)':>28}"
              f" {'click p95 ext/cdp':>18}  load")
        for name in names:
            url = pages.url(f"{name}/source.html")
            texts = {}
            for label in LABELS:
                await mcp_call(clients[label], "open", {"url": url})
                texts[label] = (await mcp_call(clients[label], "snapshot",
                                               {"interactive": True}))[1]
            tries = candidates(texts)[:4]
            per = await rounds_on(clients, url, tries, rounds, phases, think)
            for label in LABELS:
                if per[label]["click"]:
                    firsts[label].append(per[label]["click"][0])
                    later[label].extend(per[label]["click"][1:])
            for label in LABELS:
                for kind in ("snap", "click"):
                    every[label][kind].extend(per[label][kind])
            row = summarize(name, per)
            rows.append(row)
            print(row["line"])
    table(rows, every, firsts, later, raw)


async def rounds_on(clients: dict[str, StdioMCP], url: str, tries: list[dict[str, str]],
                    rounds: int, phases: Phases | None, think: float
                    ) -> dict[str, dict[str, list[float]]]:
    """Snapshot and click, taking turns; an element whose click leaves the page (or opens
    one) is dropped after its first click, the page opened again, and the next one tried."""
    per: dict[str, dict[str, list[float]]] = {k: {"snap": [], "click": []} for k in LABELS}
    refs = tries.pop(0) if tries else None
    n = 0
    while n < rounds:
        if n and think:
            await asyncio.sleep(think)
        order = LABELS if n % 2 == 0 else LABELS[::-1]
        for label in order:
            if phases is not None:
                phases.begin(f"{label} snapshot")
            per[label]["snap"].append((await mcp_call(clients[label], "snapshot", {}))[0])
            if phases is not None:
                phases.end(per[label]["snap"][-1])
        n += 1
        if refs is None:
            continue
        took: dict[str, float] = {}
        left = False
        for label in order:
            if phases is not None:
                phases.begin(label, not per[label]["click"])
            try:
                took[label], text = await mcp_call(clients[label], "click",
                                                   {"target": refs[label]})
            except RuntimeError as exc:  # covered, hidden: not an element to time
                took[label], text = 0.0, str(exc)
            if phases is not None:
                phases.end(None if any(word in text for word in NOT_TIMED) else took[label])
            left = left or any(word in text for word in NOT_TIMED)
        if left:  # not a click to time: try the next element on the page as it was
            for label in LABELS:
                await mcp_call(clients[label], "open", {"url": url})
                await mcp_call(clients[label], "snapshot", {"interactive": True})
            refs = tries.pop(0) if tries else None
            continue
        for label in LABELS:
            per[label]["click"].append(took[label])
    return per


def summarize(name: str, per: dict[str, dict[str, list[float]]]) -> dict[str, Any]:
    med = {k: {m: statistics.median(v) if v else float("nan") for m, v in d.items()}
           for k, d in per.items()}
    snap = med["ext"]["snap"] / med["cdp"]["snap"]
    click = med["ext"]["click"] / med["cdp"]["click"] if per["ext"]["click"] else None
    line = (f"{name[:34]:<34} {med['ext']['snap']:8.1f} / {med['cdp']['snap']:7.1f} ({snap:4.2f}x)"
            f"     ")
    if click is None:
        line += f"{'(nothing to click)':>28} {'':>18}"
    else:
        line += (f"{med['ext']['click']:7.1f} / {med['cdp']['click']:6.1f} ({click:4.2f}x)"
                 f"  {p95(per['ext']['click']):7.1f} / {p95(per['cdp']['click']):6.1f}")
    return {"snap": snap, "click": click, "line": f"{line}  {load()}"}


def table(rows: list[dict[str, Any]], every: dict[str, dict[str, list[float]]],
          firsts: dict[str, list[float]], later: dict[str, list[float]],
          raw: dict[str, float]) -> None:
    snap = statistics.median(r["snap"] for r in rows)
    clicks = [r["click"] for r in rows if r["click"] is not None]
    ext_clicks = every["ext"]["click"]
    print(f"\nload average {load()}; medians over pages of the per-page median ratio\n")
    print("| Figure (through MCP, hidden tab) | extension vs direct CDP | target |")
    print("|---|---|---|")
    print(f"| snapshot, median | {snap:.2f}x ({statistics.median(every['ext']['snap']):.1f}"
          f" / {statistics.median(every['cdp']['snap']):.1f} ms) | <= 1.3x |")
    if clicks:
        med_ext = statistics.median(ext_clicks)
        med_cdp = statistics.median(every["cdp"]["click"])
        print(f"| click by ref, median | {statistics.median(clicks):.2f}x ({med_ext:.1f} / "
              f"{med_cdp:.1f} ms, {len(clicks)} pages) | <= 1.3x |")
        print(f"| click by ref, p95 / own median | {p95(ext_clicks) / med_ext:.2f}x "
              f"(p95 {p95(ext_clicks):.1f} ms; direct {p95(every['cdp']['click']):.1f} ms, "
              f"{p95(every['cdp']['click']) / med_cdp:.2f}x its own) | <= 2x |")
        if later["ext"]:
            mid = statistics.median(later["ext"])
            print(f"| the same, the clicks after each page's first | {p95(later['ext']) / mid:.2f}x"
                  f" (p95 {p95(later['ext']):.1f} ms, median {mid:.1f} ms) | report |")
        print(f"| first click of a page, median | "
              f"{statistics.median(firsts['ext']):.1f} / {statistics.median(firsts['cdp']):.1f}"
              " ms | report |")
    print(f"| raw round trip (Runtime.evaluate 1+1) | {raw['ext'] / raw['cdp']:.2f}x "
          f"({raw['ext']:.2f} / {raw['cdp']:.2f} ms) | report |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="12",
                        help="how many pages of the corpus (evenly spaced), or a comma list")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--phases", action="store_true",
                        help="also time the extension's DevTools calls during its clicks")
    parser.add_argument("--think", type=float, default=0,
                        help="an agent's pause between rounds, in seconds (past the idle "
                             f"detach, {DEFAULT_IDLE_DETACH:g} s, every click attaches)")
    opts = parser.parse_args()
    names = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
    if opts.pages.isdigit():
        count = min(int(opts.pages), len(names))
        names = [names[round(i * len(names) / count)] for i in range(count)]
    else:
        names = opts.pages.split(",")
    phases = Phases() if opts.phases else None
    asyncio.run(run(names, opts.rounds, phases, opts.think))
    if phases is not None:
        phases.print()


if __name__ == "__main__":
    main()
