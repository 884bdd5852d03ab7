"""Smoke test of the frozen build (packaging/build.sh runs it): the program alone, in a fresh
HOME, with no Python of ours on the path.

  python packaging/smoke_frozen.py dist/tabsteward/tabsteward

Checks `--version`; `serve` reading the bundled demo page (open, snapshot); `install` and
`doctor` for a Chromium profile; the native host from the frozen build started by a real
Chromium that loads the installed extension copy and connects to that hub; the tray app
(`desktop`, Qt offscreen) answering as the hub; `setup --no-open` writing an autostart entry
that runs the frozen program, and `uninstall`. Prints each step; exits 1 at the first failure.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

TOKEN = "frozen-smoke-token-0123456789abcdef"
WAIT = 40.0
CHROMIUMS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser",
             "/usr/bin/google-chrome")
QUIET = ["--headless=new", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]


class Failed(Exception):
    """A smoke check failed."""


def step(text: str) -> None:
    print(f"-- {text}", flush=True)


class Frozen:
    def __init__(self, program: Path, root: Path) -> None:
        self.program = program
        home, run = root / "home", root / "run"
        home.mkdir(mode=0o700)
        run.mkdir(mode=0o700)
        self.home = home
        path = ":".join(p for p in os.environ.get("PATH", "").split(":")
                        if not Path(p, "python3").exists())  # no Python of ours to lean on
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("TABSTEWARD_", "XDG_", "PYTHON", "VIRTUAL_ENV"))}
        self.env.update(HOME=str(home), XDG_RUNTIME_DIR=str(run), PATH=path or "/usr/bin:/bin",
                        TABSTEWARD_TOKEN=TOKEN, QT_QPA_PLATFORM="offscreen")
        self.env.pop("DISPLAY", None)

    def run(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([str(self.program), *args], env=self.env, cwd=self.home,
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL, check=False)
        if ok and proc.returncode != 0:
            raise Failed(f"`tabsteward {' '.join(args)}` exited {proc.returncode}:\n"
                         f"{proc.stdout}\n{proc.stderr}")
        return proc

    def start(self, *args: str) -> subprocess.Popen[str]:
        """A hub (`serve` or `desktop`), once it says it is ready."""
        proc = subprocess.Popen([str(self.program), *args], env=self.env, cwd=self.home,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("tabsteward hub ready on "):
            raise Failed(f"`tabsteward {' '.join(args)}` printed {line!r}, not ready")
        return proc


def stop(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    if proc.stdout is not None:
        proc.stdout.close()


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    raise Failed(f"waited {WAIT:.0f} s for {what}")


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def chromium() -> str:
    found = os.environ.get("TABSTEWARD_CHROMIUM") or next(
        (c for c in CHROMIUMS if os.access(c, os.X_OK)), None)
    if not found:
        raise Failed("no Chromium here (install Debian's chromium, or set TABSTEWARD_CHROMIUM)")
    return found


def smoke(app: Frozen, root: Path) -> None:
    internal = app.program.parent / "_internal"
    step("--version")
    expect(app.run("--version").stdout.startswith("tabsteward "), "no version printed")

    step("serve, then open and snapshot the bundled demo page")
    pages = ThreadingHTTPServer(("127.0.0.1", 0), partial(
        _Quiet, directory=str(internal / "tabsteward" / "bridge" / "demo")))
    Thread(target=pages.serve_forever, daemon=True).start()
    hub = app.start("serve")
    browser = None
    try:
        app.run("open", f"http://127.0.0.1:{pages.server_address[1]}/shop.html")
        text = app.run("snapshot", "-i").stdout
        expect('button "Add to cart"' in text, f"the snapshot lacks the shop's button:\n{text}")

        step("install and doctor for a Chromium profile")
        profile = root / "chromium profile"
        out = json.loads(app.run("install", "--browser", "chromium", "--user-data-dir",
                                 str(profile), "--json").stdout)
        launcher = Path(out["browsers"][0]["launcher"]).read_text()
        expect(str(app.program) in launcher, f"the launcher does not run the build:\n{launcher}")
        doctor = json.loads(app.run("doctor", "--browser", "chromium", "--user-data-dir",
                                    str(profile), "--json").stdout)
        expect(doctor["ok"] is True, f"doctor failed: {doctor}")

        step("a real Chromium loads the extension copy and starts the frozen native host")
        args = [chromium(), f"--user-data-dir={profile}",
                f"--load-extension={out['extension']['folder']}", *QUIET, "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        browser = subprocess.Popen(args, env=app.env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)

        def connected() -> bool:
            listed = json.loads(app.run("--json", "browsers").stdout)
            return any(b.get("kind") == "extension" for b in listed.get("browsers", []))
        wait_for(connected, "the extension to connect through the frozen host")
        hosts = _host_commands(app.home)
        expect(bool(hosts) and all(h[0] == str(app.program) for h in hosts),
               f"the native hosts running are not the build's: {hosts}")
    finally:
        if browser is not None:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait(30)
        stop(hub)
        pages.shutdown()

    step("the tray app (desktop, Qt offscreen) is the hub")
    tray = app.start("desktop")
    try:
        pinged = json.loads(app.run("doctor", "--json", ok=False).stdout)
        expect(any(c["what"].startswith("hub answers on") for c in pinged["checks"]),
               f"doctor found no hub while the tray app ran: {pinged}")
    finally:
        stop(tray)

    step("setup --no-open writes an autostart entry that runs the build; uninstall removes it")
    (app.home / ".config" / "chromium").mkdir(parents=True, exist_ok=True)
    app.run("setup", "--no-open")
    entry = (app.home / ".config" / "autostart" / "tabsteward.desktop").read_text()
    expect(f"Exec={app.program} desktop\n" in entry or f'Exec="{app.program}" desktop\n'
           in entry, f"the autostart entry does not run the build:\n{entry}")
    app.run("uninstall")
    expect(not (app.home / ".config" / "autostart" / "tabsteward.desktop").exists(),
           "uninstall left the autostart entry")


def _host_commands(home: Path) -> list[list[str]]:
    """The command lines of the native hosts running with this HOME."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"HOME={home}".encode() not in environ:
            continue
        args = [w.decode("utf-8", "replace") for w in words if w]
        if "tabsteward.bridge.native_host" in args:
            found.append(args)
    return found


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> int:
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python packaging/smoke_frozen.py dist/tabsteward/tabsteward\n")
        return 2
    program = Path(sys.argv[1]).absolute()
    root = Path(tempfile.mkdtemp(prefix="tsf", dir="/tmp"))
    started = time.monotonic()
    try:
        smoke(Frozen(program, root), root)
    except (Failed, subprocess.TimeoutExpired, OSError, ValueError) as exc:
        print(f"FAILED: {exc}", flush=True)
        return 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"frozen build smoke test passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
