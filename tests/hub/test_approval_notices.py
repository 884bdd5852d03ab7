"""Questions for the person: what anyone may see of one (never a code), and what listeners
and the asker's connection are told.

The `async def` tests run on the shared test loop (tests/conftest.py), bounded by the timeout.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from approval_tools import asking, cancel, no_code_in, open_questions
from tabsteward.bridge.hub.approvals import (
    Answer,
    Approvals,
    Question,
)
from tabsteward.bridge.records import context

pytestmark = pytest.mark.timeout(30)


# -- what anyone may see -------------------------------------------------------------------

async def test_public_never_contains_the_code() -> None:
    approvals = Approvals()
    notices: list[dict[str, Any]] = []

    async def send(payload: dict[str, Any]) -> None:
        notices.append(payload)

    async def ask(kind: Any) -> Answer:
        context.notice.set(send)
        return await approvals.ask(kind, "agent-a", "click Buy", 30.0, site="shop.test",
                                   profile="default", categories=("payment",),
                                   reasons=("a card number",))

    tasks = [asyncio.create_task(ask("ask")), asyncio.create_task(ask("pair"))]
    approvals.offer("agent-a", "read cookies", lambda q, a: None, site="shop.test")
    questions = await open_questions(approvals, 3)
    assert len(notices) == 2
    for q in questions:
        public = q.public()
        assert set(public) == {"id", "kind", "agent", "summary", "site", "profile",
                               "categories", "reasons", "target", "process", "created",
                               "expires"}
        for code in q.codes.values():
            assert no_code_in(public, code), public
            assert code not in repr(q)
        for notice in notices:
            assert all(no_code_in(notice, c) for c in q.codes.values()), notice
    for task in tasks:
        await cancel(task)


async def test_the_public_view_says_when_the_question_expires() -> None:
    approvals = Approvals()
    task = asking(approvals, timeout=30.0)
    [q] = await open_questions(approvals)
    public = q.public()
    assert public["expires"] == pytest.approx(public["created"] + 30.0, abs=0.01)
    await cancel(task)


# -- listeners and notices -----------------------------------------------------------------

async def test_listeners_hear_asked_then_closed_with_the_answer() -> None:
    approvals = Approvals()
    events: list[tuple[str, Question, Answer | None]] = []
    approvals.listeners.append(lambda e, q, a: events.append((e, q, a)))
    task = asking(approvals)
    [q] = await open_questions(approvals)
    assert events == [("asked", q, None)]
    approvals.answer(q.id, q.code, approve=True)
    assert events == [("asked", q, None),
                      ("closed", q, Answer(True, "approved by person", who="person"))]
    assert (await task).approved


async def test_a_failing_listener_does_not_break_asking(
        caplog: pytest.LogCaptureFixture) -> None:
    approvals = Approvals()
    events: list[str] = []

    def broken(event: str, q: Question, a: Answer | None) -> None:
        raise RuntimeError("the tray is gone")

    approvals.listeners.extend([broken, lambda e, q, a: events.append(e)])
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, q.code, approve=True)
    assert (await task).approved
    assert events == ["asked", "closed"]
    assert f"a listener failed on question {q.id}" in caplog.text


async def test_tell_sends_a_pending_notice_through_the_context_notice() -> None:
    approvals = Approvals()
    notices: list[dict[str, Any]] = []

    async def send(payload: dict[str, Any]) -> None:
        notices.append(payload)

    async def ask() -> Answer:
        context.notice.set(send)
        return await approvals.ask("ask", "agent-a", "click Buy", 12.5, site="shop.test")

    task = asyncio.create_task(ask())
    [q] = await open_questions(approvals)
    assert notices == [{"pending": {**q.public(), "timeout": 12.5}}]
    assert notices[0]["pending"]["id"] == q.id
    assert notices[0]["pending"]["site"] == "shop.test"
    approvals.answer(q.id, q.codes["deny"], approve=False)
    assert not (await task).approved
    assert len(notices) == 1  # the answer itself goes back as the reply, not as a notice
