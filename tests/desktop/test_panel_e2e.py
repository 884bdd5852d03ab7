"""The tray app's panel against the real hub, in this process on the qasync loop: an agent's
CLI click on a purchase waits until the test, playing the person, clicks in the panel."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from goal_tasks import Model, act
from hub_env import BIN, pair, write_policy
from llm_server import LLMServer
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.hub import main as hub_main
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry
from tabsteward.desktop.app import Desktop, parser
from tabsteward.desktop.panel import Panel
from tabsteward.desktop.state import TrayState

pytestmark = pytest.mark.browser

POLICY = """\
default_profile = "shop"

[profiles.shop]
inherits = "default"
ask_timeout = 6
"""


@dataclass
class App:
    desktop: Desktop
    serving: asyncio.Task[int]
    env: dict[str, str]
    qrun: Callable[..., Any]

    @property
    def panel(self) -> Panel:
        return self.desktop.panel

    async def start(self, *args: str, agent: str = "shopper") -> asyncio.subprocess.Process:
        """An agent's CLI command; the hub answers on this loop, so it must not block."""
        return await asyncio.create_subprocess_exec(
            BIN, "--agent", agent, *args, env=self.env, cwd=self.env["HOME"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    async def cli(self, *args: str, agent: str = "shopper") -> tuple[int, str, str]:
        proc = await self.start(*args, agent=agent)
        out, err = await proc.communicate()
        assert proc.returncode is not None
        return proc.returncode, out.decode(), err.decode()

    async def ref(self, label: str, agent: str = "shopper") -> str:
        code, out, err = await self.cli("snapshot", "-i", agent=agent)
        assert code == 0, err
        found = re.search(rf'\w+ "{re.escape(label)}".*?(@\d+)', out)
        assert found, out
        return found.group(1)

    async def question(self) -> None:
        """Until the panel shows a question, and its allow buttons are armed."""
        while self.panel.current is None or not self.panel.allow_once.isEnabled():
            await asyncio.sleep(0.05)


@pytest.fixture
def app(private_home: dict[str, str], aloop: asyncio.AbstractEventLoop, qrun, site,
        tmp_path) -> Iterator[App]:
    import os
    env = {**os.environ, **private_home}
    write_policy(env, POLICY)
    env["TABSTEWARD_TOKEN"] = pair(env, "shopper")
    opts = parser().parse_args(["--local-only", "--log", str(tmp_path / "hub.log")])
    running = qrun(hub_main.start(opts, str(tmp_path / "hub.log"), console=False))
    desktop = Desktop(running)
    desktop.panel.arm_seconds = 0.3
    serving = aloop.create_task(running.run())
    app = App(desktop, serving, env, qrun)
    code, _, err = qrun(app.cli("open", site.url("shop.html")), 60)
    assert code == 0, err
    try:
        yield app
    finally:
        running.hub.stop("the test ended")
        qrun(serving, 60)
        desktop.close()


def test_a_purchase_waits_in_the_panel_and_runs_once_the_person_allows_it(app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        buy = await app.ref("Buy now")
        click = asyncio.ensure_future(app.cli("click", buy))
        await app.question()
        q = app.panel.current
        assert q is not None
        assert q.agent == "shopper"
        fields = {k: v.text() for k, v in app.panel.fields.items()}
        assert fields["site"].startswith("http://127.0.0.1:")
        assert fields["profile"] == "shop"
        assert "Buy now" in fields["action"]
        assert 'button "Buy now" in the form' in fields["target"]
        assert "purchase" in app.panel.allow_always.text()
        assert app.desktop.tray.snapshot().state is TrayState.WAITING
        assert not click.done()
        qtbot.mouseClick(app.panel.allow_once, Qt.MouseButton.LeftButton)
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == 0, err
    assert "waiting for the person" in err
    assert app.panel.current is None
    assert not app.panel.isVisible()
    code, text, _ = app.qrun(app.cli("text"), 30)
    assert "ordered" in text


def test_a_purchase_the_person_denies_is_reported_and_nothing_happens(app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        qtbot.mouseClick(app.panel.deny, Qt.MouseButton.LeftButton)
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == PolicyError.exit_code
    assert "denied by person (tray)" in err
    assert "ordered" not in app.qrun(app.cli("text"), 30)[1]


def test_enter_never_allows_and_escape_denies(app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            QApplication.sendEvent(app.panel, QKeyEvent(QKeyEvent.Type.KeyPress, key,
                                                        Qt.KeyboardModifier.NoModifier))
        await asyncio.sleep(0.3)
        assert not click.done()
        assert app.panel.current is not None
        qtbot.keyClick(app.panel, Qt.Key.Key_Escape)
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == PolicyError.exit_code
    assert "denied by person (tray)" in err


def test_an_unanswered_question_is_denied_at_its_timeout_and_leaves_the_panel(app):
    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        assert "denied in" in app.panel.countdown.format()
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == PolicyError.exit_code
    assert "nobody answered within 6 s" in err
    assert app.panel.current is None


def test_a_click_before_the_buttons_arm_allows_nothing(app, qtbot):
    app.panel.arm_seconds = 5.0

    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        while app.panel.current is None:
            await asyncio.sleep(0.02)
        app.panel.allow_once.setEnabled(True)  # even a button enabled by mistake
        qtbot.mouseClick(app.panel.allow_once, Qt.MouseButton.LeftButton)
        await asyncio.sleep(0.3)
        assert not click.done()
        assert app.panel.current is not None
        qtbot.mouseClick(app.panel.deny, Qt.MouseButton.LeftButton)
        return await click

    code, _out, _err = app.qrun(scenario(), 60)
    assert code == PolicyError.exit_code


def test_several_questions_queue_and_a_withdrawn_one_disappears(app, qtbot, site):
    async def scenario() -> None:
        first = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        q1 = app.panel.current
        code, _, err = await app.cli("open", site.url("shop.html"), agent="second")
        assert code == 0, err
        second = await app.start("click", await app.ref("Buy now", agent="second"),
                                 agent="second")
        while len(app.panel.queue) < 2:
            await asyncio.sleep(0.05)
        assert app.panel.current is q1  # the new one queues; the shown one stays
        assert app.panel.queued.text() == "1 more waiting"
        second.kill()  # its agent goes away: its question is withdrawn
        await second.wait()
        while len(app.panel.queue) > 1:
            await asyncio.sleep(0.05)
        assert app.panel.queued.text() == ""
        qtbot.mouseClick(app.panel.deny, Qt.MouseButton.LeftButton)
        await first

    app.qrun(scenario(), 60)
    assert app.panel.current is None


def test_pause_holds_every_agent_request_until_resumed(app):
    async def scenario() -> tuple[int, str, str]:
        app.desktop.tray.pause.setChecked(True)
        assert app.desktop.tray.snapshot().state is TrayState.PAUSED
        tabs = asyncio.ensure_future(app.cli("tabs"))
        await asyncio.sleep(1.5)
        assert not tabs.done()
        app.desktop.tray.pause.setChecked(False)
        return await tabs

    code, _out, err = app.qrun(scenario(), 60)
    assert code == 0, err
    assert "paused by the person" in err


def test_the_menu_lists_browsers_and_what_each_agent_did(app):
    app.desktop.tray.rebuild()
    texts = [a.text() for a in app.desktop.tray.menu.actions()]
    assert any(t.startswith("launched (") for t in texts), texts
    assert any(t.startswith("shopper: last open") for t in texts), texts
    assert "Pause all agents" in texts
    assert "Quit Tabsteward" in texts


def test_quit_stops_the_hub_and_withdraws_open_questions(app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        quit_action = next(a for a in app.desktop.tray.menu.actions()
                           if a.text() == "Quit Tabsteward")
        quit_action.trigger()
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == PolicyError.exit_code, err
    assert "the hub stopped" in err
    assert app.qrun(app.serving, 30) == 0


def test_allow_always_remembers_the_site_and_category_so_the_next_time_runs_unasked(app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        qtbot.mouseClick(app.panel.allow_always, Qt.MouseButton.LeftButton)
        code, _, err = await click
        assert code == 0, err
        await app.cli("reload")
        return await app.cli("click", await app.ref("Buy now"))

    code, _out, err = app.qrun(scenario(), 60)
    assert code == 0, err
    assert "waiting for the person" not in err
    grants = app.desktop.running.gate.grants.list()
    assert {(g.profile, g.category) for g in grants} >= {("shop", "purchase")}


def test_a_hand_edit_of_the_policy_takes_effect_and_a_block_is_offered_in_the_panel(
        app, qtbot):
    write_policy(app.env, POLICY + '\n[profiles.shop.rules]\npurchase = "block"\n')

    async def scenario() -> tuple[int, str, str]:
        code, _, err = await app.cli("click", await app.ref("Buy now"))
        assert code == PolicyError.exit_code
        assert "blocks" in err
        while app.panel.current is None:
            await asyncio.sleep(0.05)
        assert app.panel.current.kind == "blocked"
        assert app.panel.deny.text() == "Keep blocked"
        await app.question()
        qtbot.mouseClick(app.panel.allow_once, Qt.MouseButton.LeftButton)
        return await app.cli("click", await app.ref("Buy now"))

    code, _out, err = app.qrun(scenario(), 60)
    assert code == 0, err  # allowed once, by the person


def test_a_browser_that_goes_away_shows_in_the_tray_until_one_is_back(app):
    pool = app.desktop.running.hub.pool
    browser = pool._launched
    assert browser is not None
    process = browser.conn.process

    async def scenario() -> None:
        process.kill()
        while not pool.disconnected:
            await asyncio.sleep(0.05)
        app.desktop.tray.update()
        assert app.desktop.tray.state is TrayState.DISCONNECTED
        assert any(line.startswith("⚠ launched: disconnected")
                   for line in app.desktop.tray.browser_lines())
        code, _, err = await app.cli("open", "about:blank")  # a new Chromium is launched
        assert code == 0, err
        assert not pool.disconnected

    app.qrun(scenario(), 60)



def test_the_tray_lists_a_running_goal_and_stops_it(app, site):
    keys = ApiKeys(Path(app.env["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json")
    slow = Model(lambda page, did: act("scroll", None, "down"))
    goals = app.desktop.running.hub.status.goals

    async def scenario() -> tuple[int, str, str]:
        run = asyncio.ensure_future(app.cli("--json", "run", "read every release note",
                                            "--key", "tray-goal", "--start-url",
                                            site.url("agent-long.html")))
        while not goals.running:
            await asyncio.sleep(0.05)
        app.desktop.tray.rebuild()
        stop = next(a for a in app.desktop.tray.menu.actions()
                    if a.text().startswith("Stop shopper: read every release note"))
        stop.trigger()
        return await run

    with LLMServer(slow, delay=0.5) as server:
        keys.add(KeyEntry("tray-goal", "other", server.url(), "scripted-1"), "sk-local",
                 replace=True)
        try:
            code, out, err = app.qrun(scenario(), 60)
        finally:
            keys.remove("tray-goal")
    assert code == 0, err
    assert json.loads(out)["status"] == "stopped"
    assert not goals.running


def test_the_persons_terminal_command_is_confirmed_in_the_panel_showing_what_was_verified(
        app, qtbot):
    async def scenario() -> tuple[int, str, str]:
        listing = await asyncio.create_subprocess_exec(
            BIN, "agents", "--json", env={**app.env, "TABSTEWARD_TOKEN": ""},
            cwd=app.env["HOME"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        await app.question()
        q = app.panel.current
        assert q is not None
        assert q.kind == "person"
        assert app.panel.headline.text() == "A terminal asks to run: tabsteward agents --json"
        who = app.panel.fields["agent"].text()
        assert f"verified: pid {listing.pid}, program " in who
        assert f"in {app.env['HOME']}" in who
        assert not app.panel.allow_always.isVisibleTo(app.panel)
        qtbot.mouseClick(app.panel.allow_once, Qt.MouseButton.LeftButton)
        out, err = await listing.communicate()
        assert listing.returncode is not None
        return listing.returncode, out.decode(), err.decode()

    code, out, err = app.qrun(scenario(), 60)
    assert code == 0, err
    assert [a["id"] for a in json.loads(out)["agents"]] == ["shopper"]


def test_wrong_codes_lock_code_answers_but_not_the_panel(app, qtbot, monkeypatch):
    # the attack: three wrong codes, to have the purchase question denied or frozen
    import logging

    from tabsteward.bridge.clients import client
    hub_log = logging.getLogger("tabsteward.hub")
    monkeypatch.setattr(hub_log, "warning", hub_log.info)  # the lock's warning is expected

    async def scenario() -> tuple[int, str, str]:
        click = asyncio.ensure_future(app.cli("click", await app.ref("Buy now")))
        await app.question()
        q = app.panel.current
        assert q is not None
        sock = app.desktop.running.server.socket_path
        for _ in range(3):
            reply = await asyncio.to_thread(client.request, {
                "op": "answer", "argv": ["deny", q.id], "cwd": "/", "code": "AAAA-AAAA"},
                sock)
            assert reply["ok"] is False
        assert app.panel.current is q
        assert not click.done()
        qtbot.mouseClick(app.panel.allow_once, Qt.MouseButton.LeftButton)
        return await click

    code, _out, err = app.qrun(scenario(), 60)
    assert code == 0, err
    assert "ordered" in app.qrun(app.cli("text"), 30)[1]


def test_a_pairing_shows_what_the_agent_says_apart_from_what_the_hub_verified(app, qtbot):
    from tabsteward.bridge.clients import client

    async def scenario() -> None:
        sock = app.desktop.running.server.socket_path
        asking = asyncio.ensure_future(asyncio.to_thread(
            client.request, {"op": "pair", "name": "Claude Code"}, sock))
        await app.question()
        q = app.panel.current
        assert q is not None
        assert q.kind == "pair"
        headline = app.panel.headline.text()
        assert headline.endswith("it says it is 'Claude Code'")
        import os
        verified = app.panel.fields["agent"].text()
        assert verified.startswith(f"says it is 'Claude Code'; verified: pid {os.getpid()}, ")
        qtbot.mouseClick(app.panel.deny, Qt.MouseButton.LeftButton)
        reply = await asking
        assert reply["ok"] is False

    app.qrun(scenario(), 60)
