"""Questions for the person: asks that wait for an answer proven by a one-time code, blocked
actions on offer, and withdrawal when the asker goes away (what anyone may see and what
listeners are told: test_approval_notices.py; the caps: test_approval_limits.py).

The `async def` tests run on the shared test loop (tests/conftest.py), bounded by the timeout.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from approval_tools import asking, cancel, open_questions
from tabsteward.bridge.errors import AuthError, UsageError
from tabsteward.bridge.hub.approvals import (
    CODE_ALPHABET,
    LOCK_SECONDS,
    MAX_WRONG,
    OFFER_SECONDS,
    Answer,
    Approvals,
    Question,
    new_code,
)
from tabsteward.bridge.records import context

pytestmark = pytest.mark.timeout(30)

WITHDRAWN = Answer(False, "withdrawn: the agent went away", who="withdrawn")


async def asked_by(approvals: Approvals, owner: object, summary: str) -> Answer:
    """Ask as if on connection `owner` (the server sets it per request task)."""
    context.connection.set(owner)
    return await approvals.ask("ask", "agent-a", summary, 30.0)


# -- codes ---------------------------------------------------------------------------------

def test_a_new_code_is_two_groups_of_four_from_the_unambiguous_alphabet() -> None:
    codes = {new_code() for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        first, dash, second = code[:4], code[4], code[5:]
        assert dash == "-"
        assert len(second) == 4
        assert set(first + second) <= set(CODE_ALPHABET)
    assert not set("01OI") & set(CODE_ALPHABET)


# -- asking and answering ------------------------------------------------------------------

async def test_an_ask_waits_until_the_person_approves_with_the_right_code() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    await asyncio.sleep(0.05)
    assert not task.done()
    assert q.kind == "ask"
    assert q.id.startswith("A")
    assert approvals.answer(q.id, q.code, approve=True) is q
    assert await task == Answer(True, "approved by person", always=False, who="person")
    assert approvals.open() == []


async def test_an_ask_denied_with_the_right_code_ends_as_a_denial() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, q.codes["deny"], approve=False, by="the tray")
    assert await task == Answer(False, "denied by the tray", always=False, who="the tray")


async def test_approving_always_is_remembered_in_the_answer() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, q.codes["always"], approve=True, always=True)
    assert await task == Answer(True, "approved by person", always=True, who="person")


async def test_denying_with_always_does_not_make_the_answer_always() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, q.codes["deny"], approve=False, always=True)
    assert await task == Answer(False, "denied by person", always=False, who="person")


async def test_a_pairing_question_gets_a_p_id_and_the_askers_facts() -> None:
    approvals = Approvals()
    task = asyncio.create_task(approvals.ask("pair", "Codex in ~/shop", "use your browser",
                                             30.0, site="shop.test", reasons=("new",)))
    [q] = await open_questions(approvals)
    assert q.id.startswith("P")
    assert (q.kind, q.agent, q.site, q.reasons) == ("pair", "Codex in ~/shop", "shop.test",
                                                    ("new",))
    approvals.answer(q.id, q.code, approve=True)
    assert (await task).approved


async def test_a_wrong_code_raises_auth_error_saying_tries_left_and_keeps_the_question() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    wrong = "ZZZZ-ZZZZ" if q.code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    with pytest.raises(AuthError, match=f"{MAX_WRONG - 1} tries left"):
        approvals.answer(q.id, wrong, approve=True)
    with pytest.raises(AuthError, match=f"{MAX_WRONG - 2} tries left"):
        approvals.answer(q.id, "", approve=True)
    await asyncio.sleep(0)
    assert not task.done()
    assert approvals.open() == [q]
    approvals.answer(q.id, q.code, approve=True)
    assert (await task).approved


async def test_three_wrong_codes_lock_code_answers_but_never_deny_the_question() -> None:
    # the attack: an unpaired process guesses three times to have the person's question denied
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    for _ in range(MAX_WRONG - 1):
        with pytest.raises(AuthError, match="tries left"):
            approvals.answer(q.id, "nope", approve=False)
    with pytest.raises(AuthError, match=f"takes no code for {LOCK_SECONDS:g} s; nothing was "
                       "answered and the question is still open"):
        approvals.answer(q.id, "nope", approve=False)
    await asyncio.sleep(0)
    assert not task.done()
    assert approvals.open() == [q]
    with pytest.raises(AuthError, match="takes no code"):  # even the right one, for now
        approvals.answer(q.id, q.code, approve=True)
    assert approvals.open() == [q]
    approvals.settle(q, True, by="person (tray)")  # the tray still answers
    assert (await task).approved


async def test_code_answers_come_back_once_the_lock_has_passed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    for _ in range(MAX_WRONG):
        with pytest.raises(AuthError):
            approvals.answer(q.id, "nope", approve=True)
    later = time.time() + LOCK_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    approvals.answer(q.id, q.code, approve=True)
    assert (await task).approved


async def test_a_code_answers_only_the_verb_it_was_shown_with() -> None:
    # the attack: a watcher who saw the person's deny code uses it to approve
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    assert len(set(q.codes.values())) == 3
    with pytest.raises(AuthError, match="not its approve code"):
        approvals.answer(q.id, q.codes["deny"], approve=True)
    with pytest.raises(AuthError, match="not its always code"):
        approvals.answer(q.id, q.codes["approve"], approve=True, always=True)
    assert approvals.open() == [q]
    approvals.answer(q.id, q.codes["always"], approve=True, always=True)
    answer = await task
    assert (answer.approved, answer.always) == (True, True)


async def test_a_code_with_characters_beyond_ascii_is_a_wrong_code() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    with pytest.raises(AuthError, match="tries left"):
        approvals.answer(q.id, "ÄÖÜ\udcff-€", approve=True)
    await cancel(task)


def test_answering_an_unknown_id_is_a_usage_error() -> None:
    approvals = Approvals()
    with pytest.raises(UsageError, match="no open question 'A99'"):
        approvals.answer("A99", "ABCD-EFGH", approve=True)


async def test_an_answered_question_cannot_be_answered_again() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, q.codes["deny"], approve=False)
    with pytest.raises(UsageError, match="no open question"):
        approvals.answer(q.id, q.code, approve=True)
    assert not (await task).approved


@pytest.mark.parametrize("spell", [
    pytest.param(str.lower, id="lower case"),
    pytest.param(lambda c: c.replace("-", ""), id="without the dash"),
    pytest.param(lambda c: c.lower().replace("-", " "), id="a space for the dash"),
    pytest.param(lambda c: " ".join(c.replace("-", "")), id="spaced letters"),
    pytest.param(lambda c: f"  {c}\n", id="surrounding whitespace"),
])
async def test_codes_are_accepted_whatever_the_case_dash_or_spaces(spell: Any) -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(q.id, spell(q.code), approve=True)
    assert (await task).approved


async def test_question_ids_are_accepted_in_lower_case_and_with_spaces() -> None:
    approvals = Approvals()
    task = asking(approvals)
    [q] = await open_questions(approvals)
    approvals.answer(f" {q.id.lower()} ", q.code, approve=True)
    assert (await task).approved


# -- how an ask ends without an answer -----------------------------------------------------

async def test_an_ask_nobody_answers_ends_as_a_denial_after_its_timeout() -> None:
    approvals = Approvals()
    started = time.monotonic()
    answer = await approvals.ask("ask", "agent-a", "click Buy", 0.05)
    assert time.monotonic() - started >= 0.04
    assert answer == Answer(False, "nobody answered within 0.05 s", who="timeout")
    assert approvals.open() == []


async def test_an_ask_is_withdrawn_when_its_until_future_fails() -> None:
    approvals = Approvals()
    tab_closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    task = asking(approvals, until=tab_closed)
    await open_questions(approvals)
    tab_closed.set_exception(RuntimeError("the tab closed"))
    assert await task == Answer(False, "withdrawn: its tab was closed", who="withdrawn")
    assert approvals.open() == []
    assert isinstance(tab_closed.exception(), RuntimeError)  # retrieved: no loop warning


async def test_an_ask_is_withdrawn_when_its_until_future_ends_with_a_result() -> None:
    approvals = Approvals()
    tab_closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    task = asking(approvals, until=tab_closed)
    await open_questions(approvals)
    tab_closed.set_result(None)
    assert await task == Answer(False, "withdrawn: its tab was closed", who="withdrawn")


async def test_withdraw_closes_only_the_questions_of_that_connection() -> None:
    approvals = Approvals()
    mine, theirs = object(), object()
    a = asyncio.create_task(asked_by(approvals, mine, "first"))
    b = asyncio.create_task(asked_by(approvals, mine, "second"))
    c = asyncio.create_task(asked_by(approvals, theirs, "third"))
    await open_questions(approvals, 3)
    approvals.withdraw(mine)
    assert await a == WITHDRAWN
    assert await b == WITHDRAWN
    [left] = approvals.open()
    assert (left.summary, left.owner) == ("third", theirs)
    assert not c.done()
    assert context.connection.get() is None  # the tasks' context did not leak here
    approvals.answer(left.id, left.code, approve=True)
    assert (await c).approved


async def test_withdrawing_no_connection_closes_nothing() -> None:
    approvals = Approvals()
    task = asking(approvals)  # asked outside any connection: owner None
    [asked] = await open_questions(approvals)
    offered = approvals.offer("agent-a", "upload a file", lambda q, a: None)
    approvals.withdraw(None)
    assert approvals.open() == [asked, offered]
    await asyncio.sleep(0)
    assert not task.done()
    await cancel(task)


async def test_cancelling_the_asking_task_withdraws_its_question() -> None:
    approvals = Approvals()
    events: list[tuple[str, str, Answer | None]] = []
    approvals.listeners.append(lambda e, q, a: events.append((e, q.id, a)))
    task = asking(approvals)
    [q] = await open_questions(approvals)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert approvals.open() == []
    assert events == [("asked", q.id, None), ("closed", q.id, WITHDRAWN)]


async def test_close_all_denies_every_open_question_with_the_reason() -> None:
    approvals = Approvals()
    tasks = [asking(approvals) for _ in range(3)]
    await open_questions(approvals, 3)
    approvals.close_all("withdrawn: the hub stopped")
    for task in tasks:
        assert await task == Answer(False, "withdrawn: the hub stopped", who="withdrawn")
    assert approvals.open() == []


async def test_an_ask_whose_notice_cannot_be_sent_leaves_no_question_open() -> None:
    approvals = Approvals()

    async def broken(payload: dict[str, Any]) -> None:
        raise ConnectionResetError("the client went away")

    async def ask() -> Answer:
        context.notice.set(broken)
        return await approvals.ask("ask", "agent-a", "click Buy", 30.0)

    with pytest.raises(ConnectionResetError):
        await ask()
    assert approvals.open() == []


# -- blocked actions on offer --------------------------------------------------------------

def test_an_approved_offer_calls_on_answer_with_the_answer() -> None:
    approvals = Approvals()
    calls: list[tuple[Question, Answer]] = []
    q = approvals.offer("agent-a", "read cookies", lambda q, a: calls.append((q, a)),
                        site="shop.test", categories=("read_storage",))
    assert (q.kind, q.id[0], q.timeout, q.owner) == ("blocked", "B", OFFER_SECONDS, None)
    assert calls == []
    approvals.answer(q.id, q.codes["always"], approve=True, always=True)
    assert calls == [(q, Answer(True, "approved by person", always=True, who="person"))]
    assert approvals.open() == []


def test_a_denied_offer_calls_on_answer_with_the_denial() -> None:
    approvals = Approvals()
    calls: list[Answer] = []
    q = approvals.offer("agent-a", "read cookies", lambda q, a: calls.append(a))
    approvals.answer(q.id, q.codes["deny"], approve=False)
    assert calls == [Answer(False, "denied by person", who="person")]


def test_an_offer_expires_after_offer_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    approvals = Approvals()
    calls: list[Answer] = []
    q = approvals.offer("agent-a", "read cookies", lambda q, a: calls.append(a))
    monkeypatch.setattr(time, "time", lambda: q.created + OFFER_SECONDS - 1)
    assert approvals.open() == [q]
    assert calls == []
    monkeypatch.setattr(time, "time", lambda: q.created + OFFER_SECONDS)
    assert approvals.open() == []
    assert calls == [Answer(False, "the offer expired", who="expired")]
    with pytest.raises(UsageError, match="no open question"):
        approvals.answer(q.id, q.code, approve=True)
    # the late approval did nothing
    assert calls == [Answer(False, "the offer expired", who="expired")]


def test_a_failing_on_answer_reaches_the_answerer_and_the_question_still_closes() -> None:
    approvals = Approvals()
    seen: list[str] = []
    approvals.listeners.append(lambda e, q, a: seen.append(e))

    def broken(q: Question, a: Answer) -> None:
        raise UsageError("the grants file is unreadable; nothing was remembered")

    q = approvals.offer("agent-a", "read cookies", broken)
    with pytest.raises(UsageError, match="nothing was remembered"):
        approvals.answer(q.id, q.code, approve=True)
    assert approvals.open() == []
    assert seen == ["asked", "closed"]
