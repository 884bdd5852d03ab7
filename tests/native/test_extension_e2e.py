"""The real extension in a real Chromium, starting the real native host, up to a hub socket."""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tabsteward.bridge.browsers.extension_ids import EXTENSION_ID

if TYPE_CHECKING:
    from conftest import Extension
    from fixture_server import Site

EXTENSION = Path(__file__).resolve().parents[2] / "extension"
pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]


def test_the_pinned_extension_id_is_the_one_the_manifest_key_gives() -> None:
    key = json.loads((EXTENSION / "manifest.json").read_text())["key"]
    digest = hashlib.sha256(base64.b64decode(key)).hexdigest()[:32]
    assert "".join("abcdefghijklmnop"[int(c, 16)] for c in digest) == EXTENSION_ID


def test_the_extension_says_hello_with_default_name_profile_and_stop_state(
        extension: Extension) -> None:
    hello = extension.hello
    assert hello["type"] == "hello"
    assert hello["protocol"] == 1
    assert hello["extension"] == EXTENSION_ID
    assert len(hello["install"]) >= 32
    assert "Chrome/" in hello["browser"]
    assert hello["name"] == "chromium"  # headless Chromium has no brand of its own
    assert hello["profile"] == ""
    assert hello["stopped"] is False


def test_allow_listed_calls_are_relayed_and_others_refused(extension: Extension) -> None:
    assert extension.result("tabs.query", {})
    created = extension.result("tabs.create", {"url": "about:blank"})
    assert created["active"] is False  # agent tabs never take focus
    group = extension.result("tabs.group", {"tabIds": [created["id"]]})
    assert extension.result("tabs.get", created["id"])["groupId"] == group
    assert extension.result("tabs.ungroup", [created["id"]]) is None
    assert extension.result("tabs.get", created["id"])["groupId"] == -1
    refused = extension.call("management.uninstallSelf")
    assert refused["error"]["code"] == 2
    assert "allow-list" in refused["error"]["message"]


def test_settings_update_refuses_bad_values_and_answers_the_settings_in_force(
        extension: Extension) -> None:
    for bad in ({"idleDetachSeconds": -1}, {"idleDetachSeconds": "5"},
                {"idleDetachSeconds": None}, {"idleDetachSeconds": 10**9},
                {"idleDetach": 5}, [5], 5):
        refused = extension.call("settings.update", bad)
        assert refused["error"]["code"] == 2, bad
        assert "nothing was changed" in refused["error"]["message"]
    assert extension.result("settings.update", {}) == {"idleDetachSeconds": 10}
    assert extension.result("settings.update", {"idleDetachSeconds": 0}) == {
        "idleDetachSeconds": 0}


def test_hook_key_takes_only_a_secret_of_letters_and_digits(extension: Extension) -> None:
    for bad in ("", "short", "x" * 65, "has space1", "ts'+alert(1)+'", 12345678, None,
                ["tsabcdefgh"]):
        refused = extension.call("hook.key", bad)
        assert refused["error"]["code"] == 2, bad
        assert "nothing was changed" in refused["error"]["message"]
    assert extension.result("hook.key", "ts0123456789abcdef") is None


def test_a_debugger_idle_for_idle_detach_seconds_is_detached_and_reported(
        extension: Extension) -> None:
    extension.result("settings.update", {"idleDetachSeconds": 1})
    tab = extension.attached_tab()
    time.sleep(0.6)  # then a command restarts the tab's idle clock
    extension.result("debugger.sendCommand", {"tabId": tab}, "Runtime.evaluate",
                     {"expression": "1+1"})
    used = time.monotonic()
    args = extension.event("debugger.detached", lambda a: a[0] == {"tabId": tab})
    assert args == [{"tabId": tab}, "idle"]
    assert 0.8 < time.monotonic() - used < 3
    assert not extension.is_attached(tab)


def test_a_command_still_running_past_idle_detach_seconds_keeps_its_debugger(
        extension: Extension) -> None:
    extension.result("settings.update", {"idleDetachSeconds": 0.5})
    tab = extension.attached_tab()
    slow = "new Promise((r) => setTimeout(() => r(7), 2000))"
    reply = extension.result("debugger.sendCommand", {"tabId": tab}, "Runtime.evaluate",
                             {"expression": slow, "awaitPromise": True,
                              "returnByValue": True})
    assert reply["result"]["value"] == 7  # answered: not detached while it ran
    done = time.monotonic()
    assert extension.event("debugger.detached") == [{"tabId": tab}, "idle"]
    assert time.monotonic() - done > 0.3  # the idle clock started again at its answer


def test_a_page_still_loading_keeps_its_tabs_debugger_and_its_load_restarts_the_clock(
        extension: Extension, site: Site) -> None:
    extension.result("settings.update", {"idleDetachSeconds": 0.3})
    tab = extension.attached_tab()
    extension.result("debugger.sendCommand", {"tabId": tab}, "Page.navigate",
                     {"url": site.url("slowload.html")})
    committed = time.monotonic()  # its image holds the page's load for 0.7 s more
    assert extension.event("debugger.detached") == [{"tabId": tab}, "idle"]
    assert time.monotonic() - committed > 0.7 + 0.2  # the idle time counted from the load


def test_a_debugger_chrome_detaches_is_reported_once_and_forgotten(
        extension: Extension) -> None:
    extension.result("settings.update", {"idleDetachSeconds": 0.5})
    tab = extension.attached_tab()
    extension.result("tabs.remove", tab)
    assert extension.event("debugger.detached") == [{"tabId": tab}, "target_closed"]
    with pytest.raises(AssertionError, match="no such message"):  # no "idle" detach later
        extension.event("debugger.detached", timeout=1.5)


def test_a_page_opening_a_window_pushes_tabs_created_with_its_opener(
        extension: Extension) -> None:
    tab = extension.attached_tab()
    opened = "window.open('about:blank', '_blank', 'popup'); 1"
    extension.result("debugger.sendCommand", {"tabId": tab}, "Runtime.evaluate",
                     {"expression": opened, "userGesture": True})
    [created] = extension.event("tabs.created", lambda a: "openerTabId" in a[0])
    assert created["openerTabId"] == tab
    assert created["id"] != tab


def test_dropping_the_hub_connection_detaches_the_debuggers(extension: Extension) -> None:
    tabs = [extension.attached_tab(), extension.attached_tab()]
    assert all(extension.is_attached(tab) for tab in tabs)
    extension.hub.drop()
    extension.reconnect()  # the worker retries and its new host connects
    assert extension.hello["type"] == "hello"
    assert not any(extension.is_attached(tab) for tab in tabs)


def test_malformed_hub_messages_leave_the_worker_working(extension: Extension) -> None:
    hub = extension.hub
    hub.send({"id": "a", "call": "tabs.query", "args": {"active": True}})
    reply = extension.next(lambda m: m.get("id") == "a")
    assert reply["error"]["code"] == 2
    assert "list" in reply["error"]["message"]
    for name in ("no.such", "constructor", "__proto__", "toString", None):
        refused = extension.call(name)  # type: ignore[arg-type]
        assert refused["error"]["code"] == 2, name
    for junk in (42, "text", None, [], {"notify": "nothing"}, {"notify": "agents"},
                 {"chunk": None}, {"chunk": {"id": 1, "index": 5, "count": 2, "data": "x"}},
                 {"chunk": {"id": 2, "index": -1, "count": 1, "data": "x"}},
                 {"chunk": {"id": 3, "index": 0, "count": 1, "data": "{not json"}},
                 {"chunk": {"id": 4, "index": 0, "count": 2, "data": 7}}):
        hub.send(junk)
    text = json.dumps({"id": "joined", "call": "tabs.query", "args": [{}]})
    for index, part in enumerate((text[:10], text[10:])):
        hub.send({"chunk": {"id": 9, "index": index, "count": 2, "data": part}})
    assert extension.next(lambda m: m.get("id") == "joined")["result"]
    assert extension.result("tabs.query", {})


def test_a_download_pushes_downloads_created_and_changed(extension: Extension) -> None:
    tab = extension.attached_tab()
    script = ("const a = document.createElement('a'); a.href = 'data:text/plain,hello';"
              "a.download = 'hello.txt'; document.body.append(a); a.click(); 1")
    extension.result("debugger.sendCommand", {"tabId": tab}, "Runtime.evaluate",
                     {"expression": script, "userGesture": True})
    [item] = extension.event("downloads.created")
    assert item["url"] == "data:text/plain,hello"
    [done] = extension.event("downloads.changed",
                             lambda a: a[0].get("state", {}).get("current") == "complete")
    assert done["id"] == item["id"]
    assert (Path(extension.profile) / "Downloads" / "hello.txt").read_text() == "hello"
