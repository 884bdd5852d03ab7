"""A button whose action is hard to undo works on a second click only: the first click
names what the second one will do, and any change of selection takes that back."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton


class SecondClick:
    """Wraps a button: `confirmed(key, name)` is True on a second click for the same key."""

    def __init__(self, button: QPushButton, verb: str) -> None:
        self.button = button
        self.verb = verb  # "remove", "revoke", "delete"
        self.idle_text = button.text()
        self.armed: str | None = None  # what a second click acts on

    def confirmed(self, key: str, name: str) -> bool:
        if self.armed != key:
            self.armed = key
            self.button.setText(f"Click again to {self.verb} {name}")
            return False
        self.disarm()
        return True

    def disarm(self) -> None:
        self.armed = None
        self.button.setText(self.idle_text)
