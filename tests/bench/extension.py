#!/usr/bin/env python3
"""The extension transport against direct CDP on the same browser and pages, in one run.

    .venv/bin/python tests/bench/extension.py [--pages N] [--rounds N]
    .venv/bin/python tests/bench/extension.py --debugger [--pages N] [--seconds S]

One headless Chromium loads the real extension, whose real native host connects to a hub
in this process; the same Chromium also opens a DevTools port, which a second engine
attaches to directly. On each page of the shared corpus, both engines open the page in a
background tab of their own (in the same window, behind the first tab) and take turns,
interleaved: a snapshot, a trivial command (`Runtime.evaluate 1+1`), and (through the
extension) a click by ref. Ratios are medians
over pages of the per-page median ratio; only ratios from one run mean anything.
`--debugger` measures the debugger's share of an agent's time instead (ext_debugger.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[2] / "shared" / "bench"))

from extension_env import ExtensionHub  # noqa: E402
from serve import StaticServer  # noqa: E402
from tabsteward.bridge.engine import actions  # noqa: E402
from tabsteward.bridge.engine.session import Browser  # noqa: E402
from tabsteward.bridge.engine.tab import Tab  # noqa: E402
from tabsteward.bridge.engine.targets import RefTarget  # noqa: E402
from tabsteward.bridge.errors import TabstewardError  # noqa: E402
from tabsteward.bridge.hub.core import Hub  # noqa: E402
from tabsteward.bridge.hub.pool import BrowserPool  # noqa: E402
from tabsteward.bridge.hub.server import LocalServer  # noqa: E402
from tabsteward.bridge.sdk import Tabsteward  # noqa: E402

CLICKABLE = ("button", "checkbox", "radio", "textbox", "searchbox", "combobox", "tab")
CORPUS = HERE.parents[2] / "shared" / "bench" / "corpus" / "pages"


async def timed(make: object) -> float:
    start = time.perf_counter()
    await make()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


async def trivial(tab: Tab) -> None:
    await tab.send("Runtime.evaluate", {"expression": "1+1", "returnByValue": True})


async def agent_commands(ext_hub: ExtensionHub, direct: Browser, url: str,
                         rounds: int) -> tuple[float, float]:
    """Median ms of an agent's trivial command (SDK `eval 1+1`, through the hub and its
    socket) on the extension and on direct CDP: a second in-process hub drives `direct`."""
    assert ext_hub.pool is not None
    direct_hub = Hub(BrowserPool(primary=direct), log_path=f"{ext_hub.root}/direct.log",
                     agents=ext_hub.agents)
    socket = f"{ext_hub.root}/run/direct.sock"
    server = LocalServer(direct_hub.execute, socket_path=socket,
                         token_path=f"{ext_hub.root}/run/direct.token", agents=ext_hub.agents)
    await server.start()
    os.environ["TABSTEWARD_TOKEN"] = ext_hub.env["TABSTEWARD_TOKEN"]
    clients = {}
    try:
        for label, path in (("ext", ext_hub.socket), ("cdp", socket)):
            os.environ["TABSTEWARD_SOCKET"] = path  # read when the client connects
            clients[label] = await Tabsteward.connect(f"bench-agent-{label}", autostart=False)
            await clients[label].open(url)
        took: dict[str, list[float]] = {"ext": [], "cdp": []}
        for _ in range(rounds * 10):
            for label, client in clients.items():
                took[label].append(await timed(lambda c=client: c.eval("1+1")))
        return statistics.median(took["ext"]), statistics.median(took["cdp"])
    finally:
        for client in clients.values():
            await client.close()
        await server.close(then=None)


async def main(pages: int, rounds: int) -> None:
    hub = ExtensionHub(["--remote-debugging-port=0"])
    await hub.start()
    try:
        ext = await hub.connect()
        port_file = Path(hub.profiles[0].path) / "DevToolsActivePort"
        for _ in range(100):
            if port_file.exists():
                break
            await asyncio.sleep(0.05)
        port = port_file.read_text().split()[0]
        direct = await Browser.attach(f"http://127.0.0.1:{port}")
        # its tabs too are background tabs of the person's window, as the extension's are
        # (in a headless browser it would give each its own window, where it draws freely)
        direct.headless = False
        snap_ratio, cmd_ratio, clicks = [], [], []
        with StaticServer(str(CORPUS)) as server:
            names = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
            for name in names[:pages]:
                url = server.url(f"{name}/source.html")
                tabs = {}
                for label, browser in (("ext", ext), ("cdp", direct)):
                    tab = await browser.session(f"bench-{name}").new_tab()
                    await actions.navigate(tab, url)
                    tabs[label] = tab
                per: dict[str, dict[str, list[float]]] = {"ext": {}, "cdp": {}}
                for _ in range(rounds):
                    for label, tab in tabs.items():
                        per[label].setdefault("snap", []).append(
                            await timed(lambda t=tab: t.snapshot()))
                        per[label].setdefault("cmd", []).append(
                            await timed(lambda t=tab: trivial(t)))
                med = {k: {m: statistics.median(v) for m, v in d.items()} for k, d in per.items()}
                snap_ratio.append(med["ext"]["snap"] / med["cdp"]["snap"])
                cmd_ratio.append(med["ext"]["cmd"] / med["cdp"]["cmd"])
                shot = await tabs["ext"].snapshot(interactive=True)
                refs = [int(k.lstrip("@")) for k, v in shot.refs.items()
                        if v.get("role") in CLICKABLE][:3]
                for ref in refs:
                    try:
                        clicks.append(await timed(
                            lambda r=ref, t=tabs["ext"]: actions.click(t, RefTarget(r))))
                    except TabstewardError:  # covered, disabled, gone: not a click to time
                        continue
                print(f"{name:<40} snapshot {med['ext']['snap']:7.1f} / {med['cdp']['snap']:7.1f}"
                      f" ms   trivial {med['ext']['cmd']:5.2f} / {med['cdp']['cmd']:5.2f} ms")
                for tab in tabs.values():
                    await tab.browser.close_tab(tab)
            agent_ext, agent_cdp = await agent_commands(
                hub, direct, server.url(f"{names[0]}/source.html"), rounds)
        print(f"\nan agent's trivial command (SDK eval 1+1 through the hub): "
              f"{agent_ext:.2f} / {agent_cdp:.2f} ms")
        print()
        print("| Figure | Through the extension vs direct CDP | Target |")
        print("|---|---|---|")
        print(f"| Snapshot, same browser and pages | {statistics.median(snap_ratio):.2f}x "
              "| <= 1.3x |")
        print(f"| Trivial command, the raw round trip (Runtime.evaluate 1+1) | "
              f"{statistics.median(cmd_ratio):.2f}x | <= 1.5x |")
        print(f"| Trivial command, as an agent sees it (SDK `eval 1+1` through the hub) | "
              f"{agent_ext / agent_cdp:.2f}x | <= 1.5x |")
        if clicks:
            clicks.sort()
            p95 = clicks[min(len(clicks) - 1, int(len(clicks) * 0.95))]
            print(f"| Click by ref through the extension ({len(clicks)} clicks) | median "
                  f"{statistics.median(clicks):.1f} ms, p95 {p95:.1f} ms | report |")
        await direct.conn.close()
    finally:
        await hub.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--debugger", action="store_true",
                        help="instead: how long the debugger is attached for an agent that "
                             "reads and one that acts, and snapshot time without it")
    parser.add_argument("--seconds", type=float, default=40,
                        help="how long each agent of --debugger runs (default 40)")
    parser.add_argument("--think", type=float, default=2,
                        help="an agent's pause between turns under --debugger (default 2 s)")
    opts = parser.parse_args()
    if opts.debugger:
        import ext_debugger
        with StaticServer(str(CORPUS)) as server:
            names = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
            asyncio.run(ext_debugger.run([server.url(f"{n}/source.html")
                                          for n in names[:opts.pages]],
                                         opts.seconds, opts.think, opts.rounds))
    else:
        asyncio.run(main(opts.pages, opts.rounds))
