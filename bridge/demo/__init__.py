"""The README's demo: an agent's session on a bundled page, through the real CLI and hub."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).with_name("shop.html")


def _tabsteward() -> list[str]:
    found = shutil.which("tabsteward")
    return [found] if found else [sys.executable, "-m", "tabsteward.bridge"]


def run(*args: str, show: bool = True) -> str:
    """Run one CLI command as an agent would, echoing it and its output."""
    cmd = [*_tabsteward(), *args]
    if show:
        print("$ tabsteward " + " ".join(a if " " not in a else repr(a) for a in args),
              flush=True)
    env = dict(os.environ, TABSTEWARD_AGENT="demo")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        sys.stderr.write(r.stderr or r.stdout)
        raise SystemExit(r.returncode)
    if show:
        print(r.stdout.rstrip() + "\n", flush=True)
    return r.stdout


def ref_of(refs: dict[str, dict[str, str]], role: str, name: str) -> str:
    for ref, info in refs.items():
        if info.get("role") == role and info.get("name") == name:
            return ref
    raise SystemExit(f"demo page has no {role} {name!r}; the snapshot was:\n{refs}")


def main() -> int:
    print("Tabsteward demo: an agent opens a page in a background tab of a launched\n"
          "Chromium, reads it, and acts on it by ref. Every step is a real CLI call.\n")
    run("open", PAGE.as_uri())
    run("snapshot")
    refs = json.loads(run("snapshot", "-i", "--json", show=False))["refs"]
    qty, gift = ref_of(refs, "spinbutton", "Quantity"), ref_of(refs, "checkbox", "Gift wrap")
    add = ref_of(refs, "button", "Add to cart")
    run("fill", qty, "3")
    run("check", gift)
    run("click", add)
    run("wait", "--text", "Added 3")
    run("text")
    run("tab-close")
    print("Done. The hub stays up for the next command and stops by itself when idle.")
    return 0
