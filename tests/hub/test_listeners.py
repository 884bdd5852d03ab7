"""The hub tells its listeners (the tray app) of changes; a broken one silences no other."""

from __future__ import annotations

import logging

import pytest
from tabsteward.bridge.records.status import Status


def test_a_listener_that_raises_is_logged_and_the_others_are_still_told(
        caplog: pytest.LogCaptureFixture) -> None:
    status = Status()
    told: list[bool] = []

    def broken() -> None:
        raise RuntimeError("the tray fell over")

    status.listeners.extend([broken, lambda: told.append(status.paused)])
    with caplog.at_level(logging.ERROR, logger="tabsteward.hub"):
        status.pause()
    assert told == [True]
    assert "a status listener failed; the others were told" in caplog.text
    assert "the tray fell over" in caplog.text
