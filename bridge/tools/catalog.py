"""Imports every tool module, so that their tools register in order."""

from . import browsers, browsing, interact, page  # noqa: F401
