"""The count of connections without a token: capped per process and in all; the one idle
longest makes room, one waiting for the person is never pushed out."""

from __future__ import annotations

from tabsteward.bridge.hub.strangers import Strangers


class Conn:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def __repr__(self) -> str:
        return self.name


def test_one_process_keeps_at_most_its_share_and_its_oldest_idle_one_goes() -> None:
    strangers = Strangers(max_all=10, max_per_process=2)
    a, b, c = Conn("a"), Conn("b"), Conn("c")
    assert strangers.admit(a, 7)
    assert strangers.admit(b, 7)
    assert strangers.admit(c, 7)
    assert (a.closed, b.closed, c.closed) == (True, False, False)
    other = Conn("other")
    assert strangers.admit(other, 8)  # another process is not pushed out by process 7
    assert not other.closed
    assert len(strangers) == 3


def test_over_the_cap_for_all_the_one_idle_longest_goes_not_a_busy_one() -> None:
    strangers = Strangers(max_all=2, max_per_process=10)
    waiting, idle, new = Conn("waiting"), Conn("idle"), Conn("new")
    strangers.admit(waiting, 1)
    strangers.busy(waiting, True)  # a pairing waits for the person
    strangers.admit(idle, 2)
    assert strangers.admit(new, 3)
    assert (waiting.closed, idle.closed, new.closed) == (False, True, False)


def test_when_every_one_waits_for_the_person_the_new_one_is_refused() -> None:
    strangers = Strangers(max_all=1, max_per_process=10)
    waiting, new = Conn("waiting"), Conn("new")
    strangers.admit(waiting, 1)
    strangers.busy(waiting, True)
    assert not strangers.admit(new, 2)
    assert new.closed
    assert not waiting.closed
    assert new not in strangers


def test_a_connection_that_shows_a_token_is_no_longer_counted() -> None:
    strangers = Strangers(max_all=1, max_per_process=1)
    agent, next_one = Conn("agent"), Conn("next")
    strangers.admit(agent, 1)
    strangers.drop(agent)
    assert strangers.admit(next_one, 1)
    assert not agent.closed
