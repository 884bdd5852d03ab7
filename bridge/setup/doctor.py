"""`tabsteward doctor`: checks each link from browser to hub; says which is broken and the fix.

The chain, in order: browsers from Snap or Flatpak (which cannot start a native host);
per browser the host manifest (found through the registry on Windows),
its launcher and the launcher's Python; the unpacked extension's copy; the native host's
log; the hub (socket, token, ping); and whether a browser extension is connected to it.
The checks are functions of paths and data; only `run` and `main` gather and print.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from .. import paths
from ..browsers import extension_files, winreg_hosts
from ..browsers.extension_ids import EXTENSION_ID
from ..clients import client
from ..errors import TabstewardError
from ..records import locate
from . import install, sandboxed, setup_args
from .verdict import Check

ORIGIN = f"chrome-extension://{EXTENSION_ID}/"
IMPORT_TIMEOUT = 20.0
HUB_TIMEOUT = 5.0
LOG_TAIL = 256 * 1024
UNDONE = "nothing was checked"
HELP = """usage: tabsteward doctor [--browser NAME]... [--user-data-dir DIR] [--json]

Checks every link from the browser to the hub: browsers from Snap or Flatpak (their
sandbox cannot start the native host), each browser's native-host manifest, its
launcher and that launcher's Python, the unpacked extension's copy, the native host's log,
the tray app's autostart and menu entries (from `tabsteward setup`), the hub, and whether a
browser extension is connected to it. Each check prints
`ok`, `warn` or `FAIL` with how to fix it. Exit status 0 when nothing failed, else 1.
Without --browser it checks every browser whose config folder exists here.
"""

Request = Callable[[dict[str, object], float], dict[str, object]]


def _ok(what: str) -> Check:
    return Check("ok", what)


def _fail(what: str, why: str, fix: str) -> Check:
    return Check("fail", what, why, fix)


def _warn(what: str, why: str, fix: str = "") -> Check:
    return Check("warn", what, why, fix)


# -- the browser side: manifest, launcher, Python -----------------------------------------

def install_command(browser: str, user_data_dir: Path | None = None) -> str:
    """The command that registers the host for `browser` again."""
    cmd = f"tabsteward install --browser {browser}"
    if user_data_dir is not None:
        cmd += f" --user-data-dir {shlex.quote(str(user_data_dir))}"
    return f"run `{cmd}`"


def manifest_problems(data: object) -> list[str]:
    """What is wrong with a parsed host manifest (nothing: an empty list)."""
    if not isinstance(data, dict):
        return ["it is not a JSON object"]
    problems: list[str] = []
    if data.get("name") != install.HOST_NAME:
        problems.append(f"its name is {data.get('name')!r}, not {install.HOST_NAME!r}")
    if data.get("type") != "stdio":
        problems.append(f"its type is {data.get('type')!r}, not 'stdio'")
    origins = data.get("allowed_origins")
    if not isinstance(origins, list) or ORIGIN not in origins:
        problems.append(f"its allowed_origins lack {ORIGIN}, so the browser refuses to start "
                        "the host for Tabsteward's extension")
    launcher = data.get("path")
    if not isinstance(launcher, str) or not launcher:
        problems.append("it names no launcher (`path`)")
    elif not os.path.isabs(launcher):
        problems.append(f"its launcher path {launcher!r} is not absolute")
    return problems


def _runnable(path: Path, windows: bool) -> bool:
    if windows:
        return path.suffix.lower() in (".bat", ".cmd", ".exe")
    return os.access(path, os.X_OK)


def python_problem(python: str, timeout: float = IMPORT_TIMEOUT) -> str | None:
    """Why `python` cannot start the host, or None when it imports the host module."""
    if not os.path.isabs(python):
        return f"it runs {python!r}, not an absolute path to a Python"
    if not os.path.isfile(python):
        return f"its Python {python} does not exist"
    try:
        proc = subprocess.run([python, "-c", f"import {install.HOST_MODULE}"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"its Python {python} took over {timeout:.0f} s to import {install.HOST_MODULE}"
    except OSError as exc:
        return f"its Python {python} does not run ({exc.strerror or exc})"
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        reason = lines[-1].strip() if lines else f"exit status {proc.returncode}"
        return f"its Python {python} cannot import {install.HOST_MODULE} ({reason})"
    return None


def browser_checks(browser: str, manifest_path: Path | None, fix: str, windows: bool = False,
                   python_check: Callable[[str], str | None] = python_problem) -> list[Check]:
    """Check one browser's manifest, launcher and the launcher's Python, stopping at the
    first broken link (the later ones depend on it)."""
    if manifest_path is None:
        key = winreg_hosts.shown(winreg_hosts.host_key(browser, install.HOST_NAME))
        return [_fail(f"{browser}: host registration", f"no registry key {key}", fix)]
    what = f"{browser}: host manifest {manifest_path}"
    try:
        text = manifest_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [_fail(f"{browser}: host manifest", f"none at {manifest_path}", fix)]
    except (OSError, UnicodeDecodeError) as exc:
        return [_fail(what, f"cannot be read ({exc})", fix)]
    try:
        data = json.loads(text)
    except ValueError as exc:
        return [_fail(what, f"is not valid JSON ({exc})", fix)]
    problems = manifest_problems(data)
    if problems:
        return [_fail(what, "; ".join(problems), fix)]
    checks = [_ok(f"{what} (name, type and extension origin right)")]
    launcher = Path(data["path"])
    if not launcher.is_file():
        checks.append(_fail(f"{browser}: launcher", f"{launcher} does not exist", fix))
        return checks
    if not _runnable(launcher, windows):
        checks.append(_fail(f"{browser}: launcher {launcher}", "it is not executable",
                            f"run `chmod 755 {shlex.quote(str(launcher))}`, or {fix}"))
        return checks
    try:
        python = install.launcher_python(launcher.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        checks.append(_fail(f"{browser}: launcher {launcher}", f"cannot be read ({exc})", fix))
        return checks
    if python is None:
        checks.append(_fail(f"{browser}: launcher {launcher}",
                            f"it does not run `python -m {install.HOST_MODULE}`", fix))
        return checks
    checks.append(_ok(f"{browser}: launcher {launcher} is executable"))
    problem = python_check(python)
    if problem:
        checks.append(_fail(f"{browser}: launcher's Python", problem,
                            f"{fix} with the Tabsteward you use (it writes its own Python "
                            "into the launcher)"))
    else:
        checks.append(_ok(f"{browser}: launcher's Python {python} imports Tabsteward's host"))
    return checks


def confined_checks(found: Sequence[sandboxed.Sandboxed], others: bool) -> list[Check]:
    """Snap and Flatpak browsers, which cannot start the host: a warning each, or a
    failure when no other browser is here."""
    return [Check("warn" if others else "fail", s.name, s.why, s.fix) for s in found]


# -- the extension's copy ------------------------------------------------------------------

def extension_check(copy: Path, shipped: Traversable | None) -> Check:
    """Whether the unpacked extension's copy exists and matches the shipped extension."""
    load = (f'then on chrome://extensions turn on "Developer mode", click "Load unpacked" '
            f"and choose {copy}")
    manifest = copy / "manifest.json"
    if not manifest.is_file():
        return _fail("extension copy", f"no unpacked extension in {copy}",
                     f"run `tabsteward install`, {load}")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return _fail(f"extension copy {copy}", f"its manifest.json is unreadable ({exc})",
                     "run `tabsteward install` again")
    if not isinstance(data, dict) or not data.get("key"):
        return _fail(f"extension copy {copy}", "its manifest has no `key`, so its id would not "
                     f"be {EXTENSION_ID}", "run `tabsteward install` again")
    changed = extension_files.differences(shipped, copy) if shipped is not None else []
    if changed:
        return _warn(f"extension copy {copy}", "differs from this Tabsteward's extension ("
                     + ", ".join(changed[:5]) + (", ..." if len(changed) > 5 else "") + ")",
                     "run `tabsteward install` again, then click the reload icon on "
                     "Tabsteward's card on the browser's extensions page")
    return _ok(f"extension copy {copy} (id {EXTENSION_ID})")


# -- the native host's log -----------------------------------------------------------------

_LOG_LINE = re.compile(r"(?P<when>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:,\d+)? native-host\[\d+\] "
                       r"(?P<level>[A-Z]+) (?P<message>.*)")


@dataclass(frozen=True)
class LogSummary:
    last_error: tuple[str, str] | None  # (time, message)
    error_is_latest: bool  # no connection to the hub was logged after it
    last_connected: str | None


def scan_log(text: str) -> LogSummary:
    """The last ERROR line of the native host's log, and whether a connection followed."""
    error: tuple[str, str] | None = None
    connected: str | None = None
    latest = False
    for line in text.splitlines():
        m = _LOG_LINE.match(line)
        if not m:
            continue
        if m["level"] in ("ERROR", "CRITICAL"):
            error, latest = (m["when"], m["message"]), True
        elif m["message"].startswith("connected to the hub"):
            connected, latest = m["when"], False
    return LogSummary(error, latest, connected)


def error_fix(message: str, copy: Path) -> str:
    """How to fix what a native-host error line says."""
    if "not an allowed extension" in message:
        return (f"the browser started the host for another extension; load the unpacked "
                f"extension from {copy} (its id is {EXTENSION_ID}) and remove other copies")
    if "no hub" in message:
        return ("no hub ran when the browser connected: any `tabsteward` command (or "
                "`tabsteward serve`) starts one, and the extension reconnects by itself")
    if "malformed frame" in message:
        return ("the extension and Tabsteward disagree on the framing: run `tabsteward "
                "install` again and reload the extension")
    return "see the log for the whole message"


def log_check(path: Path, text: str | None, copy: Path) -> Check:
    """The native host's log read as a check (`text` None: there is no log)."""
    if text is None:
        return _warn("native host log", f"none at {path}, so the browser has not started the "
                     "host yet (or started it with another XDG_STATE_HOME)",
                     "load the extension, then restart the browser")
    summary = scan_log(text)
    when = f", last connected to the hub {summary.last_connected}" if summary.last_connected \
        else ""
    if summary.last_error is None:
        return _ok(f"native host log {path}: no errors{when}")
    at, message = summary.last_error
    if not summary.error_is_latest:
        return _ok(f"native host log {path}: connected after its last error{when} "
                   f"(the error, {at}: {message})")
    return _warn(f"native host log {path}", f"last error ({at}): {message}",
                 error_fix(message, copy))


def read_log_tail(path: Path, size: int = LOG_TAIL) -> str | None:
    """The end of the log (whole lines), or None when there is no log; OSError when it
    cannot be read."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            start = max(0, f.tell() - size)
            f.seek(start)
            data = f.read()
    except FileNotFoundError:
        return None
    if start:
        data = data.partition(b"\n")[2]
    return data.decode("utf-8", "replace")


# -- the hub -------------------------------------------------------------------------------

def _request(message: dict[str, object], timeout: float) -> dict[str, object]:
    """A request as this terminal's agent (a ping needs no token; listing browsers does)."""
    from ..secrets import credentials
    token = ""
    if message.get("op") != "ping":
        try:
            token = credentials.load(credentials.identity(os.getcwd())) or ""
        except credentials.TokenStoreError:
            token = ""
    return client.request(message, token=token, timeout=timeout)


def _error_of(reply: Mapping[str, object]) -> tuple[int | None, str]:
    error = reply.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        return (code if isinstance(code, int) else None,
                str(error.get("message") or "no message"))
    return None, "the reply is neither ok nor an error"


def ping_check(reply: Mapping[str, object], socket_path: str) -> Check:
    """What the hub's answer to a ping says."""
    if reply.get("ok") is True:
        return _ok(f"hub answers on {socket_path} (version {reply.get('version', '?')}, "
                   f"pid {reply.get('pid', '?')})")
    _, message = _error_of(reply)
    return _fail(f"hub on {socket_path}", f"it answered a ping with an error ({message})",
                 "stop the hub and let the next `tabsteward` command start one")


def browsers_check(reply: Mapping[str, object]) -> Check:
    """Whether the hub's answer to the `browsers` tool shows a connected extension."""
    what = "browser extension"
    if reply.get("ok") is not True:
        code, message = _error_of(reply)
        if code == 3:
            return _warn(what, "this terminal is not a paired agent, so the hub's browsers "
                         "cannot be listed here", "run any `tabsteward` command and approve "
                         "its pairing, then run doctor again")
        if code in (2, None) and "unknown tool" in message:
            return _warn(what, "this hub predates browser listing, so whether an extension "
                         "is connected cannot be told", "stop the hub and let the next "
                         "`tabsteward` command start one of this version")
        return _warn(what, f"the hub did not list its browsers ({message})")
    result = reply.get("result")
    listed = result.get("browsers") if isinstance(result, dict) else None
    if not isinstance(listed, list):
        return _warn(what, "the hub's browser list is malformed")
    entries = [b for b in listed if isinstance(b, dict)]
    connected = [str(b.get("name", "?")) for b in entries if b.get("kind") == "extension"]
    if connected:
        return _ok(f"{what} connected to the hub: {', '.join(connected)}")
    others = [f"{b.get('name', '?')} ({b.get('kind', '?')})" for b in entries]
    drives = f"it drives {', '.join(others)}" if others else "it drives no browser"
    return _warn(what, f"none is connected to the hub ({drives})",
                 "open the browser where Tabsteward's extension is loaded; if it is open, "
                 "click the reload icon on Tabsteward's card on its extensions page and "
                 "read the native host log")


def hub_checks(request: Request = _request) -> list[Check]:
    """Ping the hub (never starting one), then ask it which browsers it drives."""
    sock = locate.socket_path()
    idle = ("it starts on first use or when the browser's extension connects; "
            "`tabsteward serve` starts one now")
    if not os.path.exists(sock):
        return [_warn("hub", f"not running (no socket at {sock}); {idle}")]
    try:
        reply = request({"op": "ping", "id": 1}, HUB_TIMEOUT)
    except client.NoHub:
        return [_warn("hub", f"not running (a stale socket at {sock}); {idle}")]
    except (client.HubLost, OSError) as exc:
        return [_fail(f"hub on {sock}", f"it did not answer a ping ({exc})",
                      f"stop it and start another; its log is {paths.state_dir() / 'hub.log'}")]
    checks = [ping_check(reply, sock)]
    if checks[0].status != "ok":
        return checks
    try:
        reply = request({"op": "call", "tool": "browsers", "args": {}, "id": 2}, HUB_TIMEOUT)
    except (client.NoHub, client.HubLost, OSError) as exc:
        checks.append(_warn("browser extension", f"the hub did not list its browsers ({exc})"))
        return checks
    checks.append(browsers_check(reply))
    return checks


# -- the whole chain -----------------------------------------------------------------------

def run(opts: setup_args.Options, *, platform: str = sys.platform, home: Path | None = None,
        env: Mapping[str, str] | None = None, registry: winreg_hosts.Registry | None = None,
        request: Request = _request) -> list[Check]:
    """Every check, in the chain's order."""
    checks: list[Check] = []
    explicit = bool(opts.browsers)
    browsers = list(opts.browsers) or install.detect(platform, home, env)
    checks.extend(confined_checks(sandboxed.find(platform, home, env), bool(browsers)))
    if not browsers and not checks:
        looked = ", ".join(str(install.config_folder(b, platform, home, env))
                           for b in install.BROWSERS)
        checks.append(_fail("browsers", f"no Chrome, Chromium, Edge or Brave config folder "
                            f"here (looked for {looked})", "install and start one of them, or "
                            "name one with --browser NAME (and --user-data-dir DIR)"))
    tested: dict[str, str | None] = {}

    def python_check(python: str) -> str | None:
        if python not in tested:
            tested[python] = python_problem(python)
        return tested[python]

    per_browser: list[tuple[bool, list[Check]]] = []  # (nothing registered, checks)
    for browser in browsers:
        where = install.place(browser, opts.user_data_dir, platform, home, env)
        found = install.registered_manifest(where, registry)
        fix = install_command(browser, opts.user_data_dir)
        missing = found is None or not (found.exists() or found.is_symlink())
        per_browser.append((missing, browser_checks(browser, found, fix, where.windows,
                                                    python_check)))
    some_set_up = not all(missing for missing, _ in per_browser)
    for missing, result in per_browser:
        if missing and some_set_up and not explicit:
            # a browser here that Tabsteward is not set up for, while another one is
            first = result[0]
            checks.append(_warn(first.what, f"{first.why} (Tabsteward is not set up for "
                                "this browser)", f"{first.fix} to use it too"))
        else:
            checks.extend(result)
    try:
        shipped: Traversable | None = extension_files.source()
    except TabstewardError:
        shipped = None
    copy = extension_files.copy_dir()
    checks.append(extension_check(copy, shipped))
    log = paths.state_dir() / "native-host.log"
    try:
        text = read_log_tail(log)
    except OSError as exc:
        checks.append(_warn("native host log", f"{log} cannot be read ({exc})"))
    else:
        checks.append(log_check(log, text, copy))
    from . import setup_doctor  # the checks of setup's own parts
    checks.extend(setup_doctor.checks(platform, home, env))
    checks.extend(hub_checks(request))
    return checks


def report(checks: Sequence[Check]) -> dict[str, Any]:
    """The --json form: every check, and the counts."""
    failed = sum(c.status == "fail" for c in checks)
    return {"ok": failed == 0, "failed": failed,
            "warnings": sum(c.status == "warn" for c in checks),
            "checks": [asdict(c) for c in checks]}


def main(argv: Sequence[str]) -> int:
    """`tabsteward doctor [--browser NAME]... [--user-data-dir DIR] [--json]`."""
    as_json = setup_args.wants_json(argv)
    try:
        opts = setup_args.parse(argv, "doctor", UNDONE)
        if opts.help:
            sys.stdout.write(HELP)
            return 0
        checks = run(opts)
    except TabstewardError as err:
        return setup_args.report_error(err, as_json)
    summary = report(checks)
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        lines = [c.line() for c in checks]
        lines.append(f"{summary['failed']} failed, {summary['warnings']} warning(s)")
        sys.stdout.write("\n".join(lines) + "\n")
    return 0 if summary["ok"] else 1
