"""What tests/bench's scripts share: where things are, the shared runner's modules, fresh
bytecode, an isolated home, timed command lines, the hubs they drive (`tabsteward serve
--cdp`, agent-browser's daemon) and the results table."""

from __future__ import annotations

import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = (REPO.parent / "shared" / "bench").resolve()
CACHE = REPO / ".bench-cache"  # short on purpose: the hub's Unix socket lives under it
RESULTS = CACHE / "results"
PYCACHE = CACHE / "pycache"  # tabsteward's bytecode, fresh, outside the repository
PYTHON = REPO / ".venv" / "bin" / "python"
TS_BIN = REPO / ".venv" / "bin" / "tabsteward"
AB_BIN = CACHE / "peers" / "node_modules" / "agent-browser" / "bin" / "agent-browser-linux-x64"
BENCH_TOKEN = secrets.token_urlsafe(32)  # this run's agent token (hubs accept it: see run_shared)

NA = "-"  # a figure that was not measured

sys.path.insert(0, str(SHARED))
sys.dont_write_bytecode = True  # nothing written into the shared folder
# the shared runner's modules, for the scripts here too
from bench import pair_ratios, pct, select_pages  # noqa: E402, F401
from browser import Chromium, find_chromium  # noqa: E402, F401
from serve import StaticServer  # noqa: E402, F401


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
