"""The extension's popup, driven over DevTools: the stop switch, names, agents, connection."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Extension, Page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]

STOPPED = ("the person stopped all agents in this browser (Tabsteward popup); "
           "nothing was done")


def test_stop_all_agents_detaches_every_debugger_and_refuses_calls_until_switched_off(
        extension: Extension) -> None:
    tabs = [extension.attached_tab(), extension.attached_tab()]
    popup = extension.popup()
    assert popup.evaluate("document.getElementById('stop').checked") is False
    popup.evaluate("document.getElementById('stop').click()")
    detached = [extension.event("debugger.detached", lambda a, t=t: a[0] == {"tabId": t})
                for t in tabs]
    assert detached == [[{"tabId": t}, "stopped_by_user"] for t in tabs]
    assert extension.event("agents.stopped") == [True]
    refused = extension.call("debugger.attach", {"tabId": tabs[0]})
    assert refused["error"] == {"code": 50, "message": STOPPED}
    assert extension.call("tabs.create", {"url": "about:blank"})["error"]["code"] == 50
    assert extension.result("tabs.query", {})
    assert extension.result("tabs.get", tabs[0])["id"] == tabs[0]
    assert extension.result("tabGroups.query", {}) == []

    popup.evaluate("document.getElementById('stop').click()")
    assert extension.event("agents.stopped") == [False]
    assert extension.result("debugger.attach", {"tabId": tabs[0]}) is None
    assert extension.is_attached(tabs[0])


def test_a_restarted_worker_keeps_refusing_while_agents_are_stopped(
        extension: Extension) -> None:
    popup = extension.popup()
    popup.evaluate("document.getElementById('stop').click()")
    assert extension.event("agents.stopped") == [True]
    extension.restart_worker()
    assert extension.hello["stopped"] is True
    tab = extension.result("tabs.query", {})[0]["id"]
    assert extension.call("debugger.attach", {"tabId": tab})["error"]["code"] == 50


def test_the_popup_shows_the_connection_and_the_agents_the_hub_reports(
        extension: Extension) -> None:
    popup = extension.popup()
    extension.hub.send({"notify": "hub", "version": "0.1.0"})
    extension.hub.send({"notify": "agents", "agents": [{"name": "default", "tabs": 2},
                                                       {"name": "research", "tabs": 1}]})
    text = "document.getElementById('connection').textContent"
    assert "Connected to the Tabsteward hub 0.1.0 since" in popup.wait_for(
        f"{text}.includes('0.1.0') && {text}")
    assert popup.wait_for("[...document.querySelectorAll('#agents li')]"
                          ".map((li) => li.textContent)") == ["default2 tabs", "research1 tab"]
    assert popup.evaluate("document.getElementById('no-agents').hidden") is True
    extension.hub.send({"notify": "agents", "agents": []})
    assert popup.wait_for("!document.getElementById('no-agents').hidden")
    assert popup.evaluate("document.querySelectorAll('#agents li').length") == 0


def _type_into(popup: Page, field: str, value: str) -> None:
    """Set a text field the way a person's edit ends: a new value, then a change event."""
    popup.evaluate(f"(() => {{ const f = document.getElementById({json.dumps(field)}); "
                   f"f.value = {json.dumps(value)}; f.dispatchEvent(new Event('change')); }})()")


def test_renaming_the_browser_in_the_popup_sends_a_new_hello(extension: Extension) -> None:
    popup = extension.popup()
    assert popup.evaluate("document.getElementById('name').value") == "chromium"
    _type_into(popup, "name", "  work laptop ")
    _type_into(popup, "profile", "work\tstuff")
    hello = extension.next(lambda m: m.get("type") == "hello" and m["profile"])
    assert (hello["name"], hello["profile"]) == ("work laptop", "workstuff")
    assert hello["install"] == extension.hello["install"]
    _type_into(popup, "name", "")  # back to the brand's name
    assert extension.next(lambda m: m.get("type") == "hello" and
                          m["name"] == "chromium")["profile"] == "workstuff"


def test_without_a_host_the_popup_says_why_and_retries_with_growing_delays(
        popup_without_host: Page) -> None:
    popup = popup_without_host
    connection = "chrome.storage.session.get('connection').then((g) => g.connection)"
    seen = popup.wait_for(f"{connection}.then((c) => c && c.retryIn >= 2 && c)")
    assert seen["state"] == "disconnected"
    assert seen["error"] == "Specified native messaging host not found."
    assert popup.wait_for("document.getElementById('connection').textContent.match("
                          "/^Not connected: Specified native messaging host not found "
                          "\\((retrying in \\d+ s|retrying now)\\)\\.$/)")


def test_the_popup_says_which_agent_holds_the_debugger_on_which_tab_and_when_none_does(
        extension: Extension) -> None:
    popup = extension.popup()
    items = "[...document.querySelectorAll('#debuggers li')].map((li) => li.textContent)"
    assert popup.wait_for("!document.getElementById('no-debuggers').hidden")
    research, other = extension.attached_tab(), extension.attached_tab()
    extension.hub.send({"notify": "agents", "agents": [
        {"name": "default", "tabs": 0, "tabIds": []},
        {"name": "research", "tabs": 1, "tabIds": [research]}]})
    shown = popup.wait_for(f"{items}.length === 2 && {items}.some((t) => "
                           f"t.startsWith('research')) && {items}")
    assert sorted(t.split(" holds it on tab ")[0] for t in shown) == ["an agent", "research"]
    assert all(" since " in t for t in shown)
    assert popup.evaluate("document.getElementById('no-debuggers').hidden") is True
    extension.result("debugger.detach", {"tabId": other})
    assert popup.wait_for(f"{items}.length === 1 && {items}")[0].startswith(
        "research holds it on tab ")
    extension.result("debugger.detach", {"tabId": research})
    assert popup.wait_for("!document.getElementById('no-debuggers').hidden")
    assert popup.evaluate(f"{items}.length") == 0
