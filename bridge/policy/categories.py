"""The risk categories policy rates actions by, and the three rules a profile gives each."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Category(StrEnum):
    """One kind of risk an action can carry; the value is its name in policy.toml."""

    NAVIGATE_OFFSITE = "navigate_offsite"
    SUBMIT = "submit"
    PURCHASE = "purchase"
    SEND = "send"
    DELETE = "delete"
    CREDENTIALS = "credentials"
    UPLOAD = "upload"
    DOWNLOAD = "download"
    WRITE_FILES = "write_files"
    ACCOUNT_SETTINGS = "account_settings"
    EVAL = "eval"
    READ_STORAGE = "read_storage"
    PERSON_TABS = "person_tabs"

    @property
    def label(self) -> str:
        """A short description for people, e.g. "purchases and payments"."""
        return _LABELS[self]


_LABELS = {
    Category.NAVIGATE_OFFSITE: "navigation to a site outside the allowed set",
    Category.SUBMIT: "submitting forms",
    Category.PURCHASE: "purchases and payments",
    Category.SEND: "sending or publishing (messages, posts, emails, comments)",
    Category.DELETE: "deleting",
    Category.CREDENTIALS: "entering credentials or payment data",
    Category.UPLOAD: "file upload",
    Category.DOWNLOAD: "downloads",
    Category.WRITE_FILES: "saving files outside the agent's own folder, or over a file",
    Category.ACCOUNT_SETTINGS: "account or security settings",
    Category.EVAL: "running arbitrary script",
    Category.READ_STORAGE: "reading cookies or storage",
    Category.PERSON_TABS: "opening or closing the person's own tabs",
}


class Rule(StrEnum):
    """What a profile does with a category: let it run, ask the person, or refuse it."""

    ALLOW = "allow"
    ASK = "ask"
    BLOCK = "block"

    @property
    def strictness(self) -> int:
        return _STRICTNESS[self]


_STRICTNESS = {Rule.ALLOW: 0, Rule.ASK: 1, Rule.BLOCK: 2}


def strictest(rules: Iterable[Rule]) -> Rule:
    """block > ask > allow; no rules at all is allow."""
    return max(rules, key=lambda rule: rule.strictness, default=Rule.ALLOW)
