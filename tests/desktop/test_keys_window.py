"""The keys window, driven by clicks and typing on the qasync loop: keys added through the form
land in the real OS keyring and never show, Test asks a real local server, Remove and Revoke
take a second click, and a missing keyring shows a banner instead of a crash."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from provider_server import GOOD, WRONG, FakeProvider, server
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QTableWidget
from pytestqt.qtbot import QtBot
from tabsteward.bridge.records.agents import Agents
from tabsteward.bridge.secrets.apikeys import SERVICE, ApiKeys
from tabsteward.desktop.keys_window import KeysWindow
from test_apikeys import names, os_keyring

__all__ = ["names", "os_keyring", "server"]  # fixtures of test_apikeys and provider_server

QRun = Callable[..., Any]


@pytest.fixture
def agents(private_home: dict[str, str]) -> Agents:
    return Agents(Path(private_home["XDG_STATE_HOME"]) / "tabsteward" / "agents.json")


@pytest.fixture
def window(private_home: dict[str, str], os_keyring: KeyringBackend, agents: Agents,
           qtbot: QtBot, qrun: QRun) -> Iterator[KeysWindow]:
    w = KeysWindow(ApiKeys(), agents)
    qtbot.addWidget(w)
    w.show()
    yield w
    if w.test_task is not None and not w.test_task.done():
        w.test_task.cancel()


def line(w: KeysWindow, name: str) -> QLineEdit:
    found = w.findChild(QLineEdit, name)
    assert found is not None, name
    return found


def button(w: KeysWindow, name: str) -> QPushButton:
    found = w.findChild(QPushButton, name)
    assert found is not None, name
    return found


def table(w: KeysWindow, name: str) -> QTableWidget:
    found = w.findChild(QTableWidget, name)
    assert found is not None, name
    return found


def label(w: KeysWindow, name: str) -> QLabel:
    found = w.findChild(QLabel, name)
    assert found is not None, name
    return found


def provider(w: KeysWindow) -> QComboBox:
    found = w.findChild(QComboBox, "provider")
    assert found is not None
    return found


def cell(t: QTableWidget, row: int, column: int) -> str:
    item = t.item(row, column)
    return item.text() if item is not None else ""


def cells(t: QTableWidget) -> list[list[str]]:
    return [[cell(t, r, c) for c in range(t.columnCount())] for r in range(t.rowCount())]


def click(qtbot: QtBot, w: KeysWindow, name: str) -> None:
    qtbot.mouseClick(button(w, name), Qt.MouseButton.LeftButton)


def choose(w: KeysWindow, provider_id: str) -> None:
    combo = provider(w)
    combo.setCurrentIndex(combo.findData(provider_id))


def fill_form(qtbot: QtBot, w: KeysWindow, name: str, kind: str, url: str, model: str,
              secret: str) -> None:
    for field in ("name", "base_url", "model", "secret"):
        line(w, field).clear()
    qtbot.keyClicks(line(w, "name"), name)
    choose(w, kind)
    if url:
        line(w, "base_url").clear()
        qtbot.keyClicks(line(w, "base_url"), url)
    qtbot.keyClicks(line(w, "model"), model)
    qtbot.keyClicks(line(w, "secret"), secret)


def run_test_click(qtbot: QtBot, w: KeysWindow, qrun: QRun) -> None:
    """Click Test as the person would, while the loop runs, and wait for its result."""

    async def go() -> None:
        click(qtbot, w, "test")
        assert w.test_task is not None
        assert not button(w, "test").isEnabled()
        await w.test_task
        await asyncio.sleep(0)  # the done callback

    qrun(go(), 15)


def test_a_key_added_through_the_form_is_listed_and_kept_only_in_the_keyring(
        window: KeysWindow, qtbot: QtBot, names: Callable[[], str], server: FakeProvider,
        os_keyring: KeyringBackend, private_home: dict[str, str]) -> None:
    name = names()
    assert line(window, "secret").echoMode() == QLineEdit.EchoMode.Password
    fill_form(qtbot, window, name, "other", server.url("openai"), "m2", GOOD)
    click(qtbot, window, "add")
    assert cells(table(window, "keys_table")) == [
        [name, "Other (OpenAI-compatible)", server.url("openai"), "m2", "SecretService Keyring"]]
    assert line(window, "secret").text() == ""
    assert label(window, "status").text().startswith(f"added the key {name} ")
    assert os_keyring.get_password(SERVICE, name) == GOOD
    raw = (Path(private_home["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json").read_bytes()
    assert GOOD.encode() not in raw
    assert label(window, "banner").isHidden()


def test_choosing_a_provider_fills_its_base_url_unless_the_person_typed_one(
        window: KeysWindow, qtbot: QtBot) -> None:
    url = line(window, "base_url")
    assert url.text() == "https://api.openai.com/v1"
    choose(window, "anthropic")
    assert url.text() == "https://api.anthropic.com/v1"
    choose(window, "other")
    assert url.text() == ""
    qtbot.keyClicks(url, "http://localhost:11434/v1")
    choose(window, "openrouter")
    assert url.text() == "http://localhost:11434/v1"


def test_the_test_button_shows_what_the_provider_said(
        window: KeysWindow, qtbot: QtBot, qrun: QRun, names: Callable[[], str],
        server: FakeProvider) -> None:
    good, wrong = names(), names()
    fill_form(qtbot, window, good, "other", server.url("openai"), "m2", GOOD)
    click(qtbot, window, "add")
    fill_form(qtbot, window, wrong, "other", server.url("openai"), "", WRONG)
    click(qtbot, window, "add")
    keys_table = table(window, "keys_table")
    keys_table.selectRow(0)
    run_test_click(qtbot, window, qrun)
    assert label(window, "status").text() == \
        f"{good}: ok: the provider lists 3 models, including m2"
    assert button(window, "test").isEnabled()
    keys_table.selectRow(1)
    run_test_click(qtbot, window, qrun)
    status = label(window, "status").text()
    assert status.startswith(f"{wrong}: the provider refused this key (HTTP 401: ")
    assert "[key]" in status
    assert WRONG not in status


def test_removing_a_key_takes_a_second_click(
        window: KeysWindow, qtbot: QtBot, names: Callable[[], str],
        os_keyring: KeyringBackend) -> None:
    kept, gone = names(), names()
    for name in (kept, gone):
        fill_form(qtbot, window, name, "openai", "", "", GOOD)
        click(qtbot, window, "add")
    keys_table = table(window, "keys_table")
    keys_table.selectRow(1)
    assert line(window, "name").text() == gone
    click(qtbot, window, "remove")
    assert button(window, "remove").text() == f"Click again to remove {gone}"
    assert keys_table.rowCount() == 2
    keys_table.selectRow(0)  # another selection disarms it
    assert button(window, "remove").text() == "Remove selected"
    keys_table.selectRow(1)
    click(qtbot, window, "remove")
    click(qtbot, window, "remove")
    assert [row[0] for row in cells(keys_table)] == [kept]
    assert os_keyring.get_password(SERVICE, gone) is None
    assert os_keyring.get_password(SERVICE, kept) == GOOD
    assert button(window, "remove").text() == "Remove selected"


def test_replace_changes_the_selected_keys_secret_and_details(
        window: KeysWindow, qtbot: QtBot, names: Callable[[], str],
        os_keyring: KeyringBackend) -> None:
    name = names()
    fill_form(qtbot, window, name, "openai", "", "", WRONG)
    click(qtbot, window, "add")
    click(qtbot, window, "replace")
    assert label(window, "status").text().startswith("select the key to replace")
    table(window, "keys_table").selectRow(0)
    qtbot.keyClicks(line(window, "model"), "gpt-4o")
    qtbot.keyClicks(line(window, "secret"), GOOD)
    click(qtbot, window, "replace")
    assert cells(table(window, "keys_table"))[0][3] == "gpt-4o"
    assert os_keyring.get_password(SERVICE, name) == GOOD


def test_a_refused_form_shows_why_in_the_status_and_saves_nothing(
        window: KeysWindow, qtbot: QtBot, names: Callable[[], str],
        os_keyring: KeyringBackend) -> None:
    fill_form(qtbot, window, "bad name", "openai", "", "", GOOD)
    click(qtbot, window, "add")
    assert "the name 'bad name' is not valid" in label(window, "status").text()
    name = names()
    fill_form(qtbot, window, name, "openai", "", "", "sk-with space")
    click(qtbot, window, "add")
    status = label(window, "status").text()
    assert "space or line break inside" in status
    assert "with space" not in status
    assert line(window, "secret").text() == "sk-with space"  # kept, to be corrected
    assert table(window, "keys_table").rowCount() == 0
    assert os_keyring.get_password(SERVICE, name) is None


def test_a_broken_index_shows_in_the_status_instead_of_crashing(
        private_home: dict[str, str], os_keyring: KeyringBackend, agents: Agents,
        qtbot: QtBot) -> None:
    path = Path(private_home["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json"
    path.parent.mkdir(mode=0o700)
    path.write_text(json.dumps({"version": 9, "keys": []}))
    w = KeysWindow(ApiKeys(), agents)
    qtbot.addWidget(w)
    assert f"{path} is not a valid keys index" in label(w, "status").text()
    assert table(w, "keys_table").rowCount() == 0


def test_a_paired_agent_is_revoked_with_a_second_click(
        window: KeysWindow, qtbot: QtBot, agents: Agents) -> None:
    first, _ = agents.add("Claude Code in ~/src/shop")
    second, _ = agents.add("Codex in ~/src/blog")
    window.refresh()
    agents_table = table(window, "agents_table")
    assert [row[:2] for row in cells(agents_table)] == [
        [first.name, first.id], [second.name, second.id]]
    assert cells(agents_table)[0][3] == "never"
    agents_table.selectRow(0)
    click(qtbot, window, "revoke")
    assert button(window, "revoke").text() == f"Click again to revoke {first.name}"
    assert len(agents.list()) == 2
    click(qtbot, window, "revoke")
    assert [a.id for a in agents.list()] == [second.id]
    assert [row[1] for row in cells(agents_table)] == [second.id]
    assert label(window, "status").text().startswith(f"revoked {first.name}")
    assert button(window, "revoke").text() == "Revoke selected"


def test_without_an_os_keyring_a_banner_says_so_and_adding_is_off(
        private_home: dict[str, str], os_keyring: KeyringBackend, agents: Agents,
        qtbot: QtBot) -> None:
    keyring.set_keyring(fail.Keyring())
    w = KeysWindow(ApiKeys(), agents)
    qtbot.addWidget(w)
    w.show()
    banner = label(w, "banner")
    assert not banner.isHidden()
    assert banner.text().startswith("no OS keyring is available")
    assert "gnome-keyring" in banner.text()
    assert not button(w, "add").isEnabled()
    assert not button(w, "replace").isEnabled()
    keyring.set_keyring(os_keyring)
    w.refresh()
    assert banner.isHidden()
    assert button(w, "add").isEnabled()
