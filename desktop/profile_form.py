"""The Profiles window's form for one profile: its sites, rules, wait for the person,
browser, tab cap and goal agent settings, filled from the profile's TOML table and read back
into it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QWidget,
)
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.profiles import (
    ASK_TIMEOUT_BOUNDS,
    BUILTIN,
    GOAL_BOUNDS,
    GOAL_FIELDS,
    GOAL_HELP,
    MAX_TABS_BOUNDS,
)

W = TypeVar("W", bound=QWidget)

# the goal agent's budgets in the editor: label, suffix and step of each one's spin box
_GOAL_BOXES = {
    "goal_actions": ("Actions per run", "", 10),
    "goal_requests": ("Model requests per run", "", 10),
    "goal_seconds": ("Time limit per run", " s", 60),
    "goal_candidates": ("Page elements shown per look", "", 50),
}


def named(widget: W, name: str) -> W:
    widget.setObjectName(name)
    return widget


def _lines(text: str) -> list[str]:
    """The site patterns of a text box: one a line, blank lines left out."""
    return [line.strip() for line in text.splitlines() if line.strip()]


class ProfileForm(QScrollArea):
    """One profile's settings as widgets; `on_edit` is called when the person changes one
    (and also when `fill` does: the window tells the two apart)."""

    def __init__(self, on_edit: Callable[[], None]) -> None:
        super().__init__()
        self._edited = on_edit
        self.editing = named(QLabel(), "editing")
        self.allow_sites = self._sites_box("allow_sites", "Sites agents may use, one a line")
        self.deny_sites = self._sites_box("deny_sites", "Sites refused even when allowed")
        self.rules: dict[Category, QComboBox] = {}
        rules = QFormLayout()
        for category in Category:
            combo = named(QComboBox(), f"rule_{category.value}")
            combo.addItems([rule.value for rule in Rule])
            combo.setToolTip(category.value)
            combo.currentIndexChanged.connect(self._edited)
            self.rules[category] = combo
            rules.addRow(category.label[:1].upper() + category.label[1:], combo)
        low, high = ASK_TIMEOUT_BOUNDS
        self.ask_timeout = named(QDoubleSpinBox(), "ask_timeout")
        self.ask_timeout.setRange(low, high)
        self.ask_timeout.setDecimals(1)
        self.ask_timeout.setSingleStep(5)
        self.ask_timeout.setSuffix(" s")
        self.ask_timeout.valueChanged.connect(self._edited)
        self.model = named(QLineEdit(), "model")
        self.model.setPlaceholderText("none")
        self.model.textChanged.connect(self._edited)
        self.key = named(QComboBox(), "key")
        self.key.currentIndexChanged.connect(self._edited)
        self.browser = named(QComboBox(), "browser")
        self.browser.setEditable(True)
        self.browser.currentTextChanged.connect(self._edited)
        self.goal: dict[str, QSpinBox] = {key: self._goal_box(key) for key in GOAL_FIELDS}
        self.max_tabs = named(QSpinBox(), "max_tabs")
        self.max_tabs.setRange(*MAX_TABS_BOUNDS)
        low, high = MAX_TABS_BOUNDS
        self.max_tabs.setToolTip("The most tabs one agent may have open in a browser, those "
                                 f"its pages open included ({low} to {high})")
        self.max_tabs.valueChanged.connect(self._edited)
        form = QFormLayout()
        form.addRow(self.editing)
        form.addRow("Allowed sites", self.allow_sites)
        form.addRow("Denied sites", self.deny_sites)
        form.addRow(QLabel("What agents may do: allow, ask you, or block"))
        form.addRow(rules)
        form.addRow("Wait for your answer", self.ask_timeout)
        form.addRow("Browser", self.browser)
        form.addRow("Tabs per agent", self.max_tabs)
        goal_agent = named(QLabel("Goal agent"), "goal_agent")
        goal_agent.setToolTip("Tabsteward's own agent for goals you give it: the model it "
                              "uses and what one run may spend")
        form.addRow(goal_agent)
        form.addRow("Model", self.model)
        form.addRow("API key", self.key)
        for key, box in self.goal.items():
            form.addRow(_GOAL_BOXES[key][0], box)
        page = QWidget()
        page.setLayout(form)
        self.setWidgetResizable(True)
        self.setWidget(page)

    def _goal_box(self, key: str) -> QSpinBox:
        _label, suffix, step = _GOAL_BOXES[key]
        low, high = GOAL_BOUNDS[key]
        box = named(QSpinBox(), key)
        box.setRange(low, high)
        box.setSingleStep(step)
        box.setSuffix(suffix)
        box.setToolTip(f"{GOAL_HELP[key][:1].upper()}{GOAL_HELP[key][1:]} ({low} to {high})")
        box.valueChanged.connect(self._edited)
        return box

    def _sites_box(self, name: str, tip: str) -> QPlainTextEdit:
        box = named(QPlainTextEdit(), name)
        box.setToolTip(tip)
        box.setTabChangesFocus(True)
        box.setFixedHeight(80)
        box.textChanged.connect(self._edited)
        return box

    def fill(self, name: str, table: dict[str, Any], key_names: list[str],
             browser_names: list[str]) -> None:
        """Show the profile `name`, whose settings are `table`; `key_names` and
        `browser_names` are offered in their combo boxes."""
        self.editing.setText(f"Profile: {name}"
                             + (" (built in; your changes are saved as an override)"
                                if name in BUILTIN else ""))
        self.allow_sites.setPlainText("\n".join(table["allow_sites"]))
        self.deny_sites.setPlainText("\n".join(table["deny_sites"]))
        for category, combo in self.rules.items():
            combo.setCurrentText(table["rules"][category.value])
        self.ask_timeout.setValue(table["ask_timeout"])
        self.model.setText(table["model"])
        self._fill_key(table["key"], key_names)
        self.browser.clear()
        self.browser.addItems(["", *browser_names])
        self.browser.setCurrentText(table["browser"])
        for key, box in self.goal.items():
            box.setValue(table[key])
        self.max_tabs.setValue(table["max_tabs"])

    def _fill_key(self, key: str, names: list[str]) -> None:
        self.key.clear()
        self.key.addItem("(none)", "")
        for name in names:
            self.key.addItem(name, name)
        if key and self.key.findData(key) < 0:
            self.key.addItem(f"{key} (not among your keys)", key)
        self.key.setCurrentIndex(self.key.findData(key))

    def commit(self, table: dict[str, Any]) -> None:
        """Keep what the form says in the profile's `table`."""
        table["allow_sites"] = _lines(self.allow_sites.toPlainText())
        table["deny_sites"] = _lines(self.deny_sites.toPlainText())
        table["rules"] = {c.value: combo.currentText() for c, combo in self.rules.items()}
        shown = self.ask_timeout.value()
        if abs(shown - table["ask_timeout"]) >= 0.5 * 10 ** -self.ask_timeout.decimals():
            table["ask_timeout"] = shown  # the person changed it, not the display's rounding
        table["model"] = self.model.text().strip()
        table["key"] = str(self.key.currentData() or "")
        table["browser"] = self.browser.currentText().strip()
        for key, box in self.goal.items():
            table[key] = box.value()
        table["max_tabs"] = self.max_tabs.value()
