"""The Profiles window: edits reach policy.toml only through Save and the real reader."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot
from tabsteward.bridge.policy import profile_reader, profiles
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.grants import Grants
from tabsteward.bridge.policy.watch import ConfigFile
from tabsteward.desktop.profiles_window import CHANGED_ON_DISK, TITLE, ProfilesWindow

W = TypeVar("W", bound=QWidget)

WORK = """\
default_profile = "default"
[agents]
"claude-code" = "work"
[profiles.work]
allow_sites = ["*.mycompany.com"]
goal_seconds = 1200
[profiles.spare]
inherits = "read-only"
"""


class Setup:
    """A window over a policy.toml and a grants file of the test's own."""

    def __init__(self, folder: Path, qtbot: QtBot, text: str = WORK) -> None:
        self.path = folder / "config" / "tabsteward" / "policy.toml"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(text, encoding="utf-8")
        self.config_file = ConfigFile(self.path)
        self.grants = Grants(folder / "state" / "grants.json")
        self.window = ProfilesWindow(self.config_file, self.grants,
                                     lambda: ["anthropic", "openai.work"],
                                     lambda: ["Chrome", "Brave"])
        qtbot.addWidget(self.window)

    def get(self, kind: type[W], name: str) -> W:
        widget = self.window.findChild(kind, name)
        assert widget is not None, f"no {kind.__name__} named {name}"
        return widget

    def click(self, name: str) -> None:
        self.get(QPushButton, name).click()

    def select(self, profile: str) -> None:
        listing = self.get(QListWidget, "profiles_list")
        names = [listing.item(i).data(Qt.ItemDataRole.UserRole) for i in range(listing.count())]
        listing.setCurrentRow(names.index(profile))

    def status(self) -> str:
        return self.get(QLabel, "status").text()

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


@pytest.fixture
def setup(private_home: dict[str, str], qtbot: QtBot) -> Setup:
    return Setup(Path(private_home["HOME"]).parent, qtbot)


def hand_edit(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


def test_the_window_names_its_widgets_for_tests_and_screenshots(setup: Setup) -> None:
    assert setup.window.windowTitle() == TITLE
    for kind, name in [(QListWidget, "profiles_list"), (QComboBox, "default_profile"),
                       (QPlainTextEdit, "allow_sites"), (QPlainTextEdit, "deny_sites"),
                       (QDoubleSpinBox, "ask_timeout"), (QLineEdit, "model"), (QComboBox, "key"),
                       (QComboBox, "browser"), (QPushButton, "save"), (QLineEdit, "new_name"),
                       (QComboBox, "new_inherits"), (QPushButton, "new_profile"),
                       (QPushButton, "delete"), (QLabel, "status"),
                       (QTableWidget, "grants_table"), (QPushButton, "revoke"),
                       (QPushButton, "reload"), (QTableWidget, "agents_table")]:
        setup.get(kind, name)
    for category in Category:
        assert [setup.get(QComboBox, f"rule_{category.value}").itemText(i) for i in range(3)] \
            == ["allow", "ask", "block"]


def test_the_list_marks_built_in_profiles_and_shows_the_default_one(setup: Setup) -> None:
    listing = setup.get(QListWidget, "profiles_list")
    texts = [listing.item(i).text() for i in range(listing.count())]
    assert texts == ["default (built-in)", "trusted (built-in)", "read-only (built-in)",
                     "work", "spare"]
    assert listing.currentItem().text() == "default (built-in)"
    assert setup.get(QComboBox, "default_profile").currentText() == "default"


def test_selecting_a_profile_shows_its_settings(setup: Setup) -> None:
    setup.select("work")
    assert setup.get(QPlainTextEdit, "allow_sites").toPlainText() == "*.mycompany.com"
    assert setup.get(QPlainTextEdit, "deny_sites").toPlainText() == "file:\nprivate\nchrome:"
    setup.select("spare")
    assert setup.get(QComboBox, "rule_submit").currentText() == "block"
    assert setup.get(QDoubleSpinBox, "ask_timeout").value() == 120


def test_a_changed_rule_is_saved_to_the_file_and_used_from_then_on(setup: Setup) -> None:
    setup.select("work")
    setup.get(QComboBox, "rule_purchase").setCurrentText("block")
    setup.click("save")
    assert 'purchase = "block"' in setup.text()
    assert profile_reader.load(setup.path).profiles["work"].rules[Category.PURCHASE] is Rule.BLOCK
    assert setup.config_file.current().profiles["work"].rules[Category.PURCHASE] is Rule.BLOCK
    assert "Saved" in setup.status()


def test_edits_of_several_profiles_are_all_kept_until_save(setup: Setup) -> None:
    setup.select("work")
    setup.get(QDoubleSpinBox, "ask_timeout").setValue(300)
    setup.select("default")
    setup.get(QComboBox, "rule_eval").setCurrentText("ask")
    setup.click("save")
    config = setup.config_file.current()
    assert config.profiles["work"].ask_timeout == 300
    assert config.profiles["default"].rules[Category.EVAL] is Rule.ASK


def test_an_invalid_site_pattern_is_shown_and_nothing_is_written(setup: Setup) -> None:
    before = setup.text()
    setup.select("work")
    setup.get(QPlainTextEdit, "allow_sites").setPlainText("*.mycompany.com\nexa*mple.com")
    setup.click("save")
    assert "profiles.work.allow_sites[1]" in setup.status()
    assert "exa*mple.com" in setup.status()
    assert "Nothing was saved" in setup.status()
    assert setup.text() == before
    assert setup.config_file.current().profiles["work"].allow_sites == ("*.mycompany.com",)


def test_model_key_and_browser_are_offered_and_saved(setup: Setup) -> None:
    setup.select("work")
    key = setup.get(QComboBox, "key")
    assert [key.itemText(i) for i in range(key.count())] == ["(none)", "anthropic",
                                                             "openai.work"]
    browser = setup.get(QComboBox, "browser")
    assert [browser.itemText(i) for i in range(browser.count())] == ["", "Chrome", "Brave"]
    setup.get(QLineEdit, "model").setText("claude-sonnet-4")
    key.setCurrentText("openai.work")
    browser.setCurrentText("My Chromium")
    setup.click("save")
    work = setup.config_file.current().profiles["work"]
    assert (work.model, work.key, work.browser) == ("claude-sonnet-4", "openai.work",
                                                    "My Chromium")


def test_the_goal_agent_budgets_are_spin_boxes_with_their_bounds_under_a_goal_agent_label(
        setup: Setup) -> None:
    assert setup.get(QLabel, "goal_agent").text() == "Goal agent"
    boxes = {key: setup.get(QSpinBox, key) for key in profiles.GOAL_FIELDS}
    assert {key: (box.minimum(), box.maximum()) for key, box in boxes.items()} == {
        "goal_actions": (1, 1000), "goal_requests": (1, 2000), "goal_seconds": (10, 86400),
        "goal_candidates": (10, 2000)}
    assert all(box.toolTip() for box in boxes.values())
    assert [box.value() for box in boxes.values()] == [60, 120, 600, 250]
    setup.select("work")
    assert [box.value() for box in boxes.values()] == [60, 120, 1200, 250]


def test_the_tab_cap_is_a_spin_box_that_is_saved(setup: Setup) -> None:
    box = setup.get(QSpinBox, "max_tabs")
    assert (box.minimum(), box.maximum(), box.value()) == (1, 1000, 50)
    assert box.toolTip()
    setup.select("work")
    box.setValue(8)
    setup.click("save")
    assert "Saved" in setup.status()
    assert profile_reader.load(setup.path).profiles["work"].max_tabs == 8
    assert profile_reader.load(setup.path).profiles["default"].max_tabs == 50


def test_a_changed_goal_budget_is_saved_and_the_others_kept(setup: Setup) -> None:
    setup.select("work")
    setup.get(QSpinBox, "goal_actions").setValue(150)
    setup.select("default")
    setup.get(QSpinBox, "goal_candidates").setValue(500)
    setup.click("save")
    assert "Saved" in setup.status()
    assert "goal_actions = 150\n" in setup.text()
    config = setup.config_file.current()
    work, default = config.profiles["work"], config.profiles["default"]
    assert (work.goal_actions, work.goal_requests, work.goal_seconds,
            work.goal_candidates) == (150, 120, 1200, 250)
    assert (default.goal_actions, default.goal_candidates) == (60, 500)
    assert profile_reader.load(setup.path).profiles["work"].goal_actions == 150


def test_a_key_no_longer_stored_stays_chosen_and_is_marked(private_home: dict[str, str],
                                                           qtbot: QtBot) -> None:
    setup = Setup(Path(private_home["HOME"]).parent, qtbot,
                  '[profiles.work]\nkey = "gone"\n')
    setup.select("work")
    assert setup.get(QComboBox, "key").currentText() == "gone (not among your keys)"
    setup.click("save")
    assert setup.config_file.current().profiles["work"].key == "gone"


def test_a_new_profile_copies_the_one_it_inherits_and_is_saved(setup: Setup) -> None:
    setup.get(QLineEdit, "new_name").setText("contractor")
    setup.get(QComboBox, "new_inherits").setCurrentText("work")
    setup.click("new_profile")
    assert setup.get(QPlainTextEdit, "allow_sites").toPlainText() == "*.mycompany.com"
    setup.get(QComboBox, "rule_send").setCurrentText("block")
    setup.click("save")
    contractor = setup.config_file.current().profiles["contractor"]
    assert contractor.allow_sites == ("*.mycompany.com",)
    assert contractor.rules[Category.SEND] is Rule.BLOCK
    assert "[profiles.contractor]" in setup.text()


@pytest.mark.parametrize("name", ["work", "bad name", ""])
def test_a_new_profile_needs_a_free_usable_name(setup: Setup, name: str) -> None:
    setup.get(QLineEdit, "new_name").setText(name)
    setup.click("new_profile")
    assert "no profile was made" in setup.status()
    assert setup.get(QListWidget, "profiles_list").count() == 5


def test_delete_needs_a_second_click_and_then_save(setup: Setup) -> None:
    setup.select("spare")
    setup.click("delete")
    assert "again" in setup.status()
    assert setup.get(QListWidget, "profiles_list").count() == 5
    setup.click("delete")
    assert setup.get(QListWidget, "profiles_list").count() == 4
    assert "spare" in profile_reader.load(setup.path).profiles  # not yet saved
    setup.click("save")
    assert "spare" not in setup.config_file.current().profiles


def test_moving_away_cancels_a_first_click_on_delete(setup: Setup) -> None:
    setup.select("spare")
    setup.click("delete")
    setup.select("default")
    setup.select("spare")
    setup.click("delete")
    assert setup.get(QListWidget, "profiles_list").count() == 5


@pytest.mark.parametrize("name", ["default", "trusted", "work"])
def test_built_in_profiles_and_profiles_in_use_cannot_be_deleted(setup: Setup,
                                                                 name: str) -> None:
    setup.select(name)
    assert not setup.get(QPushButton, "delete").isEnabled()


def test_an_agent_can_be_given_another_profile(setup: Setup) -> None:
    table = setup.get(QTableWidget, "agents_table")
    assert table.item(0, 0).text() == "claude-code"
    combo = table.cellWidget(0, 1)
    assert isinstance(combo, QComboBox)
    assert combo.currentText() == "work"
    combo.setCurrentText("trusted")
    setup.click("save")
    assert setup.config_file.current().agents == {"claude-code": "trusted"}


def test_the_default_profile_can_be_changed(setup: Setup) -> None:
    setup.get(QComboBox, "default_profile").setCurrentText("spare")
    setup.select("spare")
    assert not setup.get(QPushButton, "delete").isEnabled()
    setup.click("save")
    assert setup.config_file.current().default_profile == "spare"


def test_remembered_grants_are_shown_and_revoked(setup: Setup) -> None:
    setup.grants.add("work", "https://shop.example", Category.PURCHASE)
    setup.grants.add("default", "https://mail.example", Category.SEND)
    setup.window.reload()
    table = setup.get(QTableWidget, "grants_table")
    rows = [[table.item(r, c).text() for c in range(3)] for r in range(table.rowCount())]
    assert sorted(rows) == [["default", "https://mail.example", "send"],
                            ["work", "https://shop.example", "purchase"]]
    work_row = [row[0] for row in rows].index("work")
    table.selectionModel().select(table.model().index(work_row, 0),
                                  QItemSelectionModel.SelectionFlag.Select
                                  | QItemSelectionModel.SelectionFlag.Rows)
    setup.click("revoke")
    assert [(g.profile, g.site) for g in setup.grants.list()] == [("default",
                                                                   "https://mail.example")]
    assert table.rowCount() == 1
    assert "Revoked 1" in setup.status()


def test_revoke_without_a_selection_revokes_nothing(setup: Setup) -> None:
    setup.grants.add("work", "https://shop.example", Category.PURCHASE)
    setup.window.reload()
    setup.click("revoke")
    assert len(setup.grants.list()) == 1
    assert "nothing was revoked" in setup.status()


def test_a_hand_edit_shows_up_after_reload(setup: Setup) -> None:
    hand_edit(setup.path, WORK.replace('"*.mycompany.com"', '"*.newcompany.com"'))
    setup.window.reload()
    setup.select("work")
    assert setup.get(QPlainTextEdit, "allow_sites").toPlainText() == "*.newcompany.com"


def test_a_hand_edit_does_not_discard_unsaved_edits_until_reload_is_clicked(
        setup: Setup) -> None:
    setup.select("work")
    setup.get(QComboBox, "rule_purchase").setCurrentText("block")
    hand_edit(setup.path, WORK.replace('"*.mycompany.com"', '"*.newcompany.com"'))
    setup.window.reload()
    assert setup.status() == CHANGED_ON_DISK
    assert setup.get(QComboBox, "rule_purchase").currentText() == "block"
    setup.click("reload")
    assert setup.get(QComboBox, "rule_purchase").currentText() == "ask"
    assert setup.get(QPlainTextEdit, "allow_sites").toPlainText() == "*.newcompany.com"


def test_a_mistaken_hand_edit_is_reported_and_the_last_good_version_shown(setup: Setup) -> None:
    hand_edit(setup.path, WORK + "[profiles.work.rules]\npurchase = \"blok\"\n")
    setup.window.reload()
    assert "last good version" in setup.status()
    assert "'blok'" in setup.status()
    assert setup.get(QListWidget, "profiles_list").count() == 5
    setup.click("reload")
    assert "last good version" in setup.status()


def test_a_visible_window_notices_a_hand_edit_by_itself(setup: Setup, qrun: Callable[..., Any]
                                                       ) -> None:
    setup.window.show()
    hand_edit(setup.path, WORK.replace('default_profile = "default"',
                                       'default_profile = "spare"'))
    combo = setup.get(QComboBox, "default_profile")

    async def noticed() -> None:
        while combo.currentText() != "spare":
            await asyncio.sleep(0.05)

    qrun(noticed(), 5.0)
    setup.window.hide()
