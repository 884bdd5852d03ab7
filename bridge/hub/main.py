"""`tabsteward serve`: listen on the local socket for agents and browser extensions, serve
until stopped; a Chromium is launched only when an agent needs one and no extension is
connected (or `--cdp` attaches to one at start)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import logging.handlers
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..engine.session import Browser
from ..errors import TabstewardError
from ..policy import profile_template
from ..policy.grants import Grants
from ..policy.watch import ConfigFile
from ..records import locate
from ..records.activity import ActivityLog
from ..records.agents import Agents
from ..records.lock import claim
from ..records.redact import REDACTOR
from ..shown import shown
from . import harden
from .approvals import Approvals
from .console import Console
from .core import Hub
from .gatekeeper import PolicyGate
from .pool import DEFAULT_IDLE_DETACH, BrowserPool
from .server import LocalServer

log = logging.getLogger("tabsteward.hub")

READY = "tabsteward hub ready on {}"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tabsteward serve",
        description="Run the Tabsteward hub in the foreground: it serves the CLI, MCP and SDK "
                    f"on {locate.socket_path()} and drives the browsers whose extension "
                    "connects, or else a Chromium it launches on first need.")
    p.add_argument("--cdp", metavar="URL",
                   help="attach to a running Chromium at this DevTools URL "
                        "(http://127.0.0.1:PORT or ws://...) instead of launching one")
    p.add_argument("--headed", action="store_true",
                   help="show the windows of the Chromium the hub launches")
    p.add_argument("--local-only", action="store_true",
                   help="launched Chromium resolves no host but 127.0.0.1 and 127.0.0.2 "
                        "(tests, bench)")
    p.add_argument("--idle-timeout", type=_seconds, default=0.0, metavar="SECONDS",
                   help="stop after this long without a request (default 0: never)")
    p.add_argument("--idle-detach", type=_seconds, default=DEFAULT_IDLE_DETACH,
                   metavar="SECONDS",
                   help="extensions detach the debugger from a tab idle this long, so the "
                        "browser's debugging bar goes away (default %(default)g; 0: never)")
    p.add_argument("--allow-eval", action="store_true",
                   help="let every agent run page script it writes (`eval`), whatever its "
                        "policy profile says")
    p.add_argument("--policy", metavar="FILE",
                   help=f"policy profiles (default {paths.config_dir() / 'policy.toml'}; "
                        "safe defaults when it does not exist)")
    p.add_argument("--log", metavar="FILE",
                   help=f"log file (default {paths.state_dir() / 'hub.log'})")
    return p


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be 0 or more, not {text!r}")
    return value


def setup_logging(path_given: str | None) -> str:
    """Log to the file (user-only), and to stderr unless stderr already is that file."""
    if path_given:
        path = Path(path_given).expanduser().resolve()
    else:
        path = paths.ensure_private_dir(paths.state_dir()) / "hub.log"
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    root = logging.getLogger("tabsteward")
    root.setLevel(logging.INFO)
    fmt = InertFormatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=4 * 1024 * 1024,
                                                   backupCount=1, encoding="utf-8")
    handler.setFormatter(fmt)
    root.addHandler(handler)
    if not _is_file(sys.stderr, path):
        stream = logging.StreamHandler(sys.stderr)
        stream.setFormatter(fmt)
        root.addHandler(stream)
    return str(path)


class InertFormatter(logging.Formatter):
    """Log lines with what agents, pages and processes wrote made inert: the log goes to
    the console the person reads, and a message must not forge lines or escape sequences
    there (tracebacks, added after the message, keep their lines). Every secret an agent
    typed and every obvious secret pattern is redacted, tracebacks included."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = shown(REDACTOR.text(record.message))
        return super().formatMessage(record)

    def formatException(self, ei: Any) -> str:
        return REDACTOR.text(super().formatException(ei))


def _is_file(stream: object, path: Path) -> bool:
    try:
        fileno = getattr(stream, "fileno", None)
        if fileno is None:
            return False
        a, b = os.fstat(fileno()), os.stat(path)
    except (OSError, ValueError):
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


@dataclass
class Running:
    """A started hub and its parts, for whoever runs it: `serve`, or the tray app."""

    hub: Hub
    server: LocalServer
    gate: PolicyGate
    approvals: Approvals
    agents: Agents
    activity: ActivityLog

    async def run(self) -> int:
        """Serve until stopped; the exit status."""
        try:
            return await self.hub.run(self.server)
        finally:
            self.activity.close()


async def start(opts: argparse.Namespace, log_path: str, *,
                console: bool = True, lock: int | None = None) -> Running:
    """Claim the hub's socket (unless `lock` holds it already), build the hub and listen;
    the caller then `run`s it. `console`: show the person's questions on this process's
    terminal."""
    socket_path = locate.socket_path()
    if lock is None:  # first: a command finding no hub meanwhile waits for this one
        lock = claim(socket_path)
    if harden.non_dumpable():  # before any code or token is made: none is ever readable
        log.info("the hub is non-dumpable: other processes cannot read its memory")
    attach = None
    if opts.cdp:
        url = opts.cdp

        async def attach() -> Browser:
            log.info("attaching to the browser at %s", url)
            return await Browser.attach(url)

    async def launch() -> Browser:
        log.info("launching Chromium (%s%s)", "headed" if opts.headed else "headless",
                 ", local only" if opts.local_only else "")
        return await Browser.launch(headless=not opts.headed, local_only=opts.local_only)

    try:
        gate, agents, activity = _safety(opts, console)
    except BaseException:
        os.close(lock)
        raise
    approvals = gate.approvals
    # listening comes first, so a CLI that finds no hub meanwhile does not start another;
    # requests wait for the browser being attached
    pool = BrowserPool(attach=attach, launch=launch, gate=gate, idle_detach=opts.idle_detach)
    try:
        hub = Hub(pool, idle_timeout=opts.idle_timeout, log_path=log_path,
                  approvals=approvals, activity=activity, agents=agents, policy=gate)
        server = LocalServer(hub.execute, socket_path=socket_path, log_path=log_path,
                             extension_handler=hub.serve_extension,
                             on_disconnect=approvals.withdraw, agents=agents)
    except BaseException:
        os.close(lock)
        await pool.close()
        activity.close()
        raise
    try:
        await server.start(lock)  # it lets go of the lock if it fails
    except BaseException:
        await pool.close()
        activity.close()
        raise
    return Running(hub, server, gate, approvals, agents, activity)


async def serve(opts: argparse.Namespace, log_path: str, lock: int | None = None) -> int:
    running = await start(opts, log_path, lock=lock)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, running.hub.stop, f"got {sig.name}")
    print(READY.format(running.server.socket_path), flush=True)
    return await running.run()


def _safety(opts: argparse.Namespace,
            console: bool) -> tuple[PolicyGate, Agents, ActivityLog]:
    """The policy gate (profiles, grants, questions for the person), the paired agents and
    the activity log."""
    if not opts.policy:
        try:  # the commented defaults, for the person to read and edit
            profile_template.write_default()
        except OSError as exc:
            log.warning("could not write the default policy file: %s", exc)
    config = ConfigFile(Path(opts.policy) if opts.policy else None)
    agents = Agents()
    given = os.environ.pop("TABSTEWARD_TOKEN", "").strip()
    if given:  # the person started this hub with a token: CI, benchmarks, scripts
        agents.accept(given, "environment")
        log.info("accepting the TABSTEWARD_TOKEN this hub was started with, as agent "
                 "'environment', while it runs")
    activity = ActivityLog()
    approvals = Approvals()
    if console:
        approvals.listeners.append(Console(sys.stderr))
    return (PolicyGate(config, Grants(), approvals, activity, allow_eval=opts.allow_eval),
            agents, activity)


def main(argv: list[str] | None = None, lock: int | None = None) -> int:
    """`serve`; `lock`: the hub lock, when the CLI took it before importing this module."""
    opts = parser().parse_args(argv)
    log_path = setup_logging(opts.log)
    log.info("tabsteward hub starting (pid %d)", os.getpid())
    try:
        code = asyncio.run(serve(opts, log_path, lock))
    except TabstewardError as err:
        log.error("%s", err.message)
        return err.exit_code
    log.info("tabsteward hub exits with status %d", code)
    return code
