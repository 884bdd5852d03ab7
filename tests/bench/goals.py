#!/usr/bin/env python3
"""The goal agent's own cost, in one run: the fixture tasks end to end, and the prompt it
sends per step on the shared corpus pages beside the peers' snapshot sizes.

    bash packaging/with-keyring.sh .venv/bin/python tests/bench/goals.py [--pages N]

1. A real hub (`serve --local-only`) and Chromium run each fixture task through
   `tabsteward run --json`, with a local OpenAI-compatible server playing the model
   (tests/goal_tasks.py). Per task: steps, model requests, prompt bytes per step, and time
   outside the model: the whole step but the model request (observing, building the prompt,
   validating, acting), and the loop's own part of it (all but the model and the action).
   Target (issue 6): under 50 ms median per step outside the model.
2. On the corpus pages (../shared/bench/corpus), the prompt of a first step (system prompt,
   goal, page observation) in bytes, beside each peer's snapshot of the same page from the
   shared runner's latest results (.bench-cache/results/bench-*.json), as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT.parent / "shared" / "bench"))

import fixture_server  # noqa: E402
from goal_tasks import TASKS, model_for  # noqa: E402
from hub_env import BIN, private_env, start_hub, stop_hub, write_policy  # noqa: E402
from llm_server import LLMServer  # noqa: E402
from serve import StaticServer  # noqa: E402
from tabsteward.bridge.agent import prompt  # noqa: E402
from tabsteward.bridge.agent.observe import observe  # noqa: E402
from tabsteward.bridge.engine import actions  # noqa: E402
from tabsteward.bridge.engine.session import Browser  # noqa: E402
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry  # noqa: E402

CORPUS = ROOT.parent / "shared" / "bench" / "corpus" / "pages"
RESULTS = ROOT / ".bench-cache" / "results"
TARGET_MS = 50.0
POLICY = """\
default_profile = "bench"

[profiles.bench]
inherits = "trusted"
model = "scripted-1"
"""
PEERS = (("agent-browser", "full"), ("agent-browser", "interactive"),
         ("playwright-mcp", "full"), ("chrome-devtools-mcp", "default"))


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def tasks() -> list[dict[str, Any]]:
    """Each fixture task through the CLI; its figures."""
    env = private_env()
    write_policy(env, POLICY)
    hub = start_hub(env)
    site = fixture_server.start()
    keys = ApiKeys(Path(env["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json")
    rows = []
    try:
        for task in TASKS:
            with LLMServer(model_for(task)) as server:
                keys.add(KeyEntry("bench", "other", server.url(), "scripted-1"), "sk-bench",
                         replace=True)
                done = subprocess.run([BIN, "--json", "run", task.goal, "--key", "bench",
                                       "--start-url", site.url(task.page)], env=env,
                                      capture_output=True, text=True, timeout=300,
                                      cwd=env["HOME"])
            if done.returncode != 0:
                raise SystemExit(f"{task.name}: {done.stderr}")
            out = json.loads(done.stdout)
            steps = out["steps"]
            rows.append({
                "task": task.name, "status": out["status"], "steps": len(steps),
                "requests": out["usage"]["requests"],
                "prompt_bytes": median([s["prompt_bytes"] for s in steps]),
                "outside_ms": median([s["elapsed_ms"] - s["model_ms"] for s in steps]),
                "loop_ms": median([s["loop_ms"] for s in steps]),
                "wall_s": out["seconds"],
            })
        keys.remove("bench")
    finally:
        site.close()
        stop_hub(hub)
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)
    return rows


async def corpus_prompts(pages: int) -> dict[str, int]:
    """The first step's prompt bytes on each corpus page."""
    found: dict[str, int] = {}
    browser = await Browser.launch(headless=True, local_only=True)
    try:
        tab = await browser.session("bench").new_tab()
        names = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
        step = max(1, len(names) // pages) if pages < len(names) else 1
        with StaticServer(str(CORPUS)) as server:
            for name in names[::step][:pages]:
                await actions.navigate(tab, server.url(f"{name}/source.html"))
                shot = await tab.snapshot(max_chars=24000)
                obs = observe(shot.url, shot.title, shot.text, shot.refs)
                messages = prompt.step_messages("summarise this article", obs, [], None,
                                                {"actions": 60, "requests": 120})
                found[name] = prompt.prompt_bytes(prompt.SYSTEM, messages)
    finally:
        await browser.close()
    return found


def peer_bytes() -> dict[tuple[str, str], dict[str, int]]:
    files = sorted(RESULTS.glob("bench-*.json"))
    if not files:
        return {}
    records = json.loads(files[-1].read_text())["records"]
    table: dict[tuple[str, str], dict[str, int]] = {}
    for r in records:
        if r.get("ok") and r.get("bytes"):
            table.setdefault((r["tool"], r["variant"]), {})[r["page"]] = int(r["bytes"])
    return table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=40, help="corpus pages (default all 40)")
    opts = ap.parse_args()
    rows = tasks()
    print("== goal agent on the fixture tasks (scripted model on a local server)\n")
    print("| task | status | steps | model requests | prompt bytes/step | outside the model, "
          "ms/step | loop's own, ms/step | wall s |\n|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['task']} | {r['status']} | {r['steps']} | {r['requests']} | "
              f"{r['prompt_bytes']:.0f} | {r['outside_ms']:.0f} | {r['loop_ms']:.0f} | "
              f"{r['wall_s']:.1f} |")
    overall = median([r["outside_ms"] for r in rows])
    met = overall < TARGET_MS
    print(f"\nmedian over tasks, outside the model: {overall:.0f} ms/step (target < "
          f"{TARGET_MS:g} ms: {'met' if met else 'NOT met'})\n")
    ours = asyncio.run(corpus_prompts(opts.pages))
    peers = peer_bytes()
    print(f"== first-step prompt bytes on {len(ours)} corpus pages, beside the peers' "
          "snapshots (median over pages of the per-page ratio)\n")
    print("| peer snapshot | median peer bytes | median prompt bytes | ratio |\n|---|---|---|---|")
    for tool, variant in PEERS:
        theirs = peers.get((tool, variant), {})
        both = [p for p in ours if p in theirs]
        if not both:
            print(f"| {tool} {variant} | — | — | no results (run tests/bench/run.py) |")
            continue
        ratio = median([ours[p] / theirs[p] for p in both])
        print(f"| {tool} {variant} | {median([theirs[p] for p in both]):.0f} | "
              f"{median([ours[p] for p in both]):.0f} | {ratio:.2f}x |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
