"""Imports every tool module, so that their tools register in order."""

from . import activity, approvals, browsers, browsing, interact, page, pairing  # noqa: F401
