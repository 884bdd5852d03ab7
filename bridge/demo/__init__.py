"""The README's demo: an agent pairs, shops on a bundled page and is held at the checkout
until the person approves, all through the real CLI, a real hub and a launched Chromium.

The demo plays both sides in a private setting of its own (a temporary hub, policy and
keyring-free token) that it removes at the end: it shows the hub's console, where the
person sees each question and its one-time code, and answers as the person would."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).parent
WAIT = 60.0
# on a desktop, how long the demo leaves a question to the person's panel
PANEL_WAIT = float(os.environ.get("TABSTEWARD_DEMO_PANEL_WAIT", "30"))


def _on_desktop() -> bool:
    """A display and the tray app's Qt: the demo's hub is then the tray app."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import PySide6.QtWidgets  # noqa: F401
    except ImportError:
        return False
    return True


def _tabsteward() -> list[str]:
    found = shutil.which("tabsteward")
    return [found] if found else [sys.executable, "-m", "tabsteward.bridge"]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """The demo's page server prints nothing."""


class Console:
    """The hub's stderr, a terminal: shown to the reader, and searched for the codes."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.text = ""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.text += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def question(self, kind: str, after: int) -> re.Match[str]:
        """The next question of this kind ("P" pairing, "A" action, "T" the person's own
        command) on the console: its match has the id and the approve code as groups 1, 2."""
        deadline = time.monotonic() + WAIT
        pattern = re.compile(rf"\[tabsteward\] ({kind}\d+): (?:.*\n)*?.*approve: +"
                             rf"tabsteward approve \1 +code (\S+).*\n")
        while time.monotonic() < deadline:
            with self._lock:
                found = pattern.search(self.text, after)
            if found:
                return found
            time.sleep(0.05)
        raise SystemExit(f"the hub asked nothing within {WAIT:g} s; its console:\n{self.text}")

    @staticmethod
    def show(text: str) -> None:
        for line in text.strip("\n").splitlines():
            print(f"   hub console │ {line}", flush=True)


class Demo:
    """A private hub and page server, and the CLI run as the agent or as the person."""

    def __init__(self, root: str, desktop: bool = False) -> None:
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("TABSTEWARD_", "XDG_"))}
        for var in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            self.env[var] = os.path.join(root, var.lower())
            os.makedirs(self.env[var], mode=0o700)
        self.desktop = desktop
        self.console = Console()
        self.hub = subprocess.Popen([*_tabsteward(), "desktop" if desktop else "serve"],
                                    env=self.env, text=True,
                                    stdout=subprocess.PIPE, stderr=self.console.slave,
                                    stdin=subprocess.DEVNULL)
        os.close(self.console.slave)
        assert self.hub.stdout is not None
        if not self.hub.stdout.readline().startswith("tabsteward hub ready"):
            raise SystemExit(f"the hub did not start:\n{self.console.text}")
        self.pages = ThreadingHTTPServer(("127.0.0.1", 0),
                                         partial(_QuietHandler, directory=str(HERE)))
        threading.Thread(target=self.pages.serve_forever, daemon=True).start()
        self.agent_env = dict(self.env, TABSTEWARD_AGENT="demo")

    @property
    def shop(self) -> str:
        return f"http://127.0.0.1:{self.pages.server_address[1]}/shop.html"

    def close(self) -> None:
        self.pages.shutdown()
        self.pages.server_close()
        if self.hub.poll() is None:
            self.hub.terminate()
            self.hub.wait(30)
        assert self.hub.stdout is not None
        self.hub.stdout.close()
        os.close(self.console.master)

    def run(self, *args: str, person: bool = False, show: bool = True,
            typed: str | None = None) -> str:
        """One CLI command, as the agent (or as the person), echoed with its output;
        `typed` is what the person types when it asks (a code: never on the command line)."""
        who = "person" if person else "agent "
        if show:
            shown = " ".join(a if " " not in a else repr(a) for a in args)
            more = "   (types the code when asked)" if typed is not None else ""
            print(f"{who} $ tabsteward {shown}{more}", flush=True)
        done = subprocess.run([*_tabsteward(), *args], capture_output=True, text=True,
                              env=self.env if person else self.agent_env, timeout=120,
                              input="" if typed is None else typed + "\n")
        if done.returncode != 0:
            sys.stderr.write(done.stderr or done.stdout)
            raise SystemExit(done.returncode)
        if show:
            print(done.stdout.rstrip() + "\n", flush=True)
        return done.stdout

    def answer(self, kind: str, after: int) -> int:
        """Play the person: read the question and its code on the console, approve it
        (on a desktop, the person may answer in the tray app's panel first)."""
        found = self.console.question(kind, after)
        self.console.show(found.group(0))
        if self.desktop and self._answered_in_panel(found.group(1)):
            return found.end()
        self.run("approve", found.group(1), person=True, typed=found.group(2))
        return found.end()

    def confirmed(self, *args: str) -> None:
        """The person runs one of their own commands: the hub asks them to confirm it (its
        code on the console, or the panel), and the demo types the code as they would."""
        print("person $ tabsteward " + " ".join(args), flush=True)
        seen = len(self.console.text)
        proc = subprocess.Popen([*_tabsteward(), *args], env=self.env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        found = self.console.question("T", seen)
        self.console.show(found.group(0))
        print("person: types the code the console shows for it", flush=True)
        out, err = proc.communicate(found.group(2) + "\n", timeout=WAIT)
        if proc.returncode != 0:
            sys.stderr.write(err or out)
            raise SystemExit(proc.returncode)
        print(out.rstrip() + "\n", flush=True)

    def _answered_in_panel(self, qid: str) -> bool:
        print(f"person: {qid} waits in the Tabsteward panel too: answer it there within "
              f"{PANEL_WAIT:g} s, or the demo approves it with its code", flush=True)
        closed = re.compile(rf"\[tabsteward\] {qid} closed: (.*)\n")
        deadline = time.monotonic() + PANEL_WAIT
        while time.monotonic() < deadline:
            found = closed.search(self.console.text)  # the hub's console says how it ended
            if found:
                print(f"person: {found.group(1)}\n", flush=True)
                return True
            time.sleep(0.1)
        return False

    def pair(self) -> None:
        """The agent asks to pair; the person approves; the agent keeps its token."""
        from ..clients import client
        got: dict[str, object] = {}
        socket = os.path.join(self.env["XDG_RUNTIME_DIR"], "tabsteward", "hub.sock")
        asking = threading.Thread(target=lambda: got.update(client.request(
            {"op": "pair", "name": "demo agent", "id": 1}, socket)), daemon=True)
        print("agent: asks the hub to pair it, as 'demo agent'", flush=True)
        asking.start()
        self.answer("P", 0)
        asking.join(WAIT)
        token = got.get("token")
        if not isinstance(token, str):
            raise SystemExit(f"pairing failed: {got}")
        print("agent: paired; its token came back (an agent keeps it in the OS keyring)\n")
        self.agent_env["TABSTEWARD_TOKEN"] = token


def ref_of(refs: dict[str, dict[str, str]], role: str, name: str) -> str:
    for ref, info in refs.items():
        if info.get("role") == role and info.get("name") == name:
            return ref
    raise SystemExit(f"demo page has no {role} {name!r}; the snapshot was:\n{refs}")


def main() -> int:
    print("Tabsteward demo: an agent pairs with the hub, shops on a page in a background\n"
          "tab of a launched Chromium, and waits at the checkout until the person approves.\n"
          "Every step is a real CLI call; the hub's console is shown where it speaks.\n")
    root = tempfile.mkdtemp(prefix="tsdemo", dir="/tmp")
    demo = None
    try:
        desktop = _on_desktop()
        if desktop:
            print("On this display the demo's hub is the tray app: watch its icon and panel.\n")
        demo = Demo(root, desktop)
        demo.pair()
        demo.run("open", demo.shop)
        demo.run("snapshot")
        refs = json.loads(demo.run("snapshot", "-i", "--json", show=False))["refs"]
        demo.run("fill", ref_of(refs, "spinbutton", "Quantity"), "3")
        demo.run("check", ref_of(refs, "checkbox", "Gift wrap"))
        demo.run("click", ref_of(refs, "button", "Add to cart"))
        demo.run("wait", "--text", "Added 3")
        order = ref_of(refs, "button", "Place order")
        print(f"agent  $ tabsteward click {order}    (a purchase: policy asks the person)",
              flush=True)
        seen = len(demo.console.text)
        clicking = subprocess.Popen([*_tabsteward(), "click", order], env=demo.agent_env,
                                    text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        demo.answer("A", seen)
        out, err = clicking.communicate(timeout=WAIT)
        print(err.rstrip() + "\n" + out.rstrip() + "\n", flush=True)
        if clicking.returncode != 0:
            raise SystemExit(clicking.returncode)
        demo.run("text")
        demo.confirmed("activity", "--limit", "8")  # the person's log: agents cannot read it
        demo.run("tab-close")
        print("Done. The demo's hub, its pairing and its log are removed now; your own hub "
              "starts with the first `tabsteward` command.")
        return 0
    finally:
        if demo is not None:
            demo.close()
        shutil.rmtree(root, ignore_errors=True)
