"""Imports every tool module, so that their tools register in order."""

from . import (  # noqa: F401
    activity,
    approvals,
    browsers,
    browsing,
    goals,
    interact,
    page,
    pairing,
    storage,
)
