"""The real extension in a real Chromium, starting the real native host, up to a hub socket."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nm_standin import TOKEN, StandInHub, hub_env
from tabsteward.bridge import install
from tabsteward.bridge.cdp.launch import find_chromium
from tabsteward.bridge.native_host import EXTENSION_ID

EXTENSION = Path(__file__).resolve().parents[2] / "extension"
pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]


def test_the_pinned_extension_id_is_the_one_the_manifest_key_gives() -> None:
    key = json.loads((EXTENSION / "manifest.json").read_text())["key"]
    digest = hashlib.sha256(base64.b64decode(key)).hexdigest()[:32]
    assert "".join("abcdefghijklmnop"[int(c, 16)] for c in digest) == EXTENSION_ID


@pytest.fixture
def connected(tmp_path: Path) -> Iterator[StandInHub]:
    """Chromium with the extension loaded; the hub has accepted the host it started."""
    with hub_env(tmp_path) as env:
        hub = StandInHub(os.path.join(env["XDG_RUNTIME_DIR"], "tabsteward", "hub.sock"))
        profile = tempfile.mkdtemp(prefix="tsx", dir="/tmp")
        install.write_manifest("chromium", profile)
        args = [find_chromium(), "--headless=new", "--disable-gpu", "--no-first-run",
                f"--user-data-dir={profile}", f"--load-extension={EXTENSION}",
                "--disable-background-networking", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        browser = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            hub.accept()
            yield hub
        finally:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait()
            hub.close()


def call(hub: StandInHub, msg_id: int, name: str, *args: Any) -> dict[str, Any]:
    hub.send({"id": msg_id, "call": name, "args": list(args)})
    while True:
        reply = hub.recv()
        if reply.get("id") == msg_id:
            return dict(reply)


def test_the_extension_says_hello_through_the_host(connected: StandInHub) -> None:
    assert connected.recv() == {"op": "extension", "token": TOKEN}
    hello = connected.recv()
    assert hello["type"] == "hello"
    assert hello["protocol"] == 1
    assert hello["extension"] == EXTENSION_ID
    assert len(hello["install"]) >= 32


def test_allow_listed_calls_are_relayed_and_others_refused(connected: StandInHub) -> None:
    connected.recv()
    connected.recv()  # the host's first frame, then the hello
    tabs = call(connected, 1, "tabs.query", {})
    assert isinstance(tabs["result"], list)
    assert tabs["result"]
    created = call(connected, 2, "tabs.create", {"url": "about:blank"})
    assert created["result"]["active"] is False  # agent tabs never take focus
    refused = call(connected, 3, "management.uninstallSelf")
    assert refused["error"]["code"] == 2
    assert "allow-list" in refused["error"]["message"]
