"""Questions for the person: how many may wait, and the caps that keep unpaired processes
and terminal commands from filling them.

The `async def` tests run on the shared test loop (tests/conftest.py), bounded by the timeout.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from approval_tools import asking, cancel, open_questions
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.hub.approvals import (
    MAX_OPEN,
    MAX_PAIRS,
    MAX_PAIRS_PER_PROGRAM,
    OFFER_SECONDS,
    Answer,
    Approvals,
)

pytestmark = pytest.mark.timeout(30)


# -- limits --------------------------------------------------------------------------------

async def test_more_than_max_open_questions_are_refused_with_a_usage_error() -> None:
    approvals = Approvals()
    heard: list[str] = []
    approvals.listeners.append(lambda e, q, a: heard.append(e))
    offers = [approvals.offer("agent-a", f"offer {i}", lambda q, a: None)
              for i in range(MAX_OPEN)]
    with pytest.raises(UsageError, match=f"{MAX_OPEN} questions already wait"):
        approvals.offer("agent-a", "one too many", lambda q, a: None)
    with pytest.raises(UsageError, match="nothing was done"):
        await approvals.ask("ask", "agent-a", "one too many", 30.0)
    assert len(approvals.open()) == MAX_OPEN
    assert heard == ["asked"] * MAX_OPEN  # the refused ones were never shown
    approvals.answer(offers[0].id, offers[0].codes["deny"], approve=False)
    approvals.offer("agent-a", "room again", lambda q, a: None)
    assert len(approvals.open()) == MAX_OPEN


async def test_expired_offers_do_not_count_toward_max_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    approvals = Approvals()
    for i in range(MAX_OPEN):
        approvals.offer("agent-a", f"offer {i}", lambda q, a: None)
    later = time.time() + OFFER_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    task = asking(approvals, timeout=0.05)
    assert (await task).by == "nobody answered within 0.05 s"


# -- pairing requests from unpaired processes ----------------------------------------------

def pairing(approvals: Approvals, pid: int, exe: str) -> asyncio.Task[Answer]:
    return asyncio.create_task(approvals.ask("pair", f"agent {pid}", "use your browser",
                                             30.0, process={"pid": pid, "exe": exe}))


async def test_one_process_gets_one_pairing_request_at_a_time() -> None:
    approvals = Approvals()
    first = pairing(approvals, 100, "/usr/bin/a")
    await open_questions(approvals)
    with pytest.raises(UsageError, match="this process already waits"):
        await approvals.ask("pair", "again", "use your browser", 30.0,
                            process={"pid": 100, "exe": "/usr/bin/a"})
    assert len(approvals.open()) == 1
    await cancel(first)


async def test_one_program_gets_a_few_pairing_requests_at_a_time() -> None:
    approvals = Approvals()
    tasks = [pairing(approvals, 200 + i, "/usr/bin/python3")
             for i in range(MAX_PAIRS_PER_PROGRAM)]
    await open_questions(approvals, MAX_PAIRS_PER_PROGRAM)
    with pytest.raises(UsageError, match="from this program already wait"):
        await approvals.ask("pair", "one more", "use your browser", 30.0,
                            process={"pid": 299, "exe": "/usr/bin/python3"})
    for task in tasks:
        await cancel(task)


async def test_pairing_requests_cannot_fill_the_questions_of_paired_agents() -> None:
    # the attack: unpaired processes fill the 200-question cap with pairing requests, so
    # no paired agent's action can be asked about (and each waits, then is denied)
    approvals = Approvals()
    tasks = [pairing(approvals, 1000 + i, f"/tmp/prog{i}") for i in range(MAX_PAIRS)]
    await open_questions(approvals, MAX_PAIRS)
    with pytest.raises(UsageError, match=f"{MAX_PAIRS} pairing requests already wait"):
        await approvals.ask("pair", "late", "use your browser", 30.0,
                            process={"pid": 5000, "exe": "/tmp/late"})
    ask = asking(approvals)  # a paired agent's action is still asked about
    await open_questions(approvals, MAX_PAIRS + 1)
    assert approvals.open()[-1].kind == "ask"
    for task in [*tasks, ask]:
        await cancel(task)


async def test_a_pairing_request_expires_as_a_denial() -> None:
    approvals = Approvals()
    answer = await approvals.ask("pair", "slow", "use your browser", 0.05,
                                 process={"pid": 1, "exe": "/x"})
    assert answer.who == "timeout"
    assert approvals.open() == []


async def test_a_person_question_has_no_always_and_is_settled_by_the_tray_without_code(
        ) -> None:
    approvals = Approvals()
    task = asyncio.create_task(approvals.ask("person", "a terminal", "run: tabsteward agents",
                                             30.0))
    [q] = await open_questions(approvals)
    assert q.id.startswith("T")
    approvals.settle(q, True, by="person (tray)")
    assert (await task) == Answer(True, "approved by person (tray)", who="person (tray)")
    with pytest.raises(UsageError, match="no longer open"):
        approvals.settle(q, True)


async def test_the_persons_terminal_commands_are_capped_like_pairings() -> None:
    # the attack: flood the person with "a terminal asks to run ..." questions
    approvals = Approvals()
    tasks = [asyncio.create_task(approvals.ask("person", "a terminal", "run: x", 30.0,
                                               process={"pid": 300 + i, "exe": f"/p{i}"}))
             for i in range(MAX_PAIRS)]
    await open_questions(approvals, MAX_PAIRS)
    with pytest.raises(UsageError, match=f"{MAX_PAIRS} terminal commands already wait"):
        await approvals.ask("person", "a terminal", "run: y", 30.0,
                            process={"pid": 999, "exe": "/q"})
    for task in tasks:
        await cancel(task)
