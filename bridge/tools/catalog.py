"""Imports every tool module, so that their tools register in order."""

from . import browsing, interact, page  # noqa: F401
