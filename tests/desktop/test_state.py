"""The tray's state at a glance: the most urgent thing wins, and the tooltip says it all."""

from __future__ import annotations

import pytest
from tabsteward.desktop.state import Snapshot, TrayState, ago


@pytest.mark.parametrize(("snap", "state"), [
    (Snapshot(), TrayState.IDLE),
    (Snapshot(working=2), TrayState.WORKING),
    (Snapshot(working=1, disconnected=1), TrayState.DISCONNECTED),
    (Snapshot(working=1, disconnected=1, paused=True), TrayState.PAUSED),
    (Snapshot(working=1, disconnected=1, paused=True, waiting=1), TrayState.WAITING),
])
def test_the_most_urgent_state_is_shown(snap: Snapshot, state: TrayState) -> None:
    assert snap.state is state


def test_the_tooltip_names_everything_that_is_going_on() -> None:
    tip = Snapshot(waiting=2, paused=True, disconnected=1, working=3).tooltip()
    assert tip == ("Tabsteward: 2 waiting for you; agents paused; 1 browser disconnected; "
                   "3 actions running")
    assert Snapshot().tooltip() == "Tabsteward: idle"


@pytest.mark.parametrize(("seconds", "text"), [
    (-5, "0 s"), (0.4, "0 s"), (59, "59 s"), (60, "1 min"), (3599, "59 min"),
    (3600, "1 h"), (86400 * 2, "48 h"),
])
def test_durations_read_like_a_person_would_say_them(seconds: float, text: str) -> None:
    assert ago(seconds) == text
