"""Questions for the person: asks that wait for an answer proven by a one-time code, blocked
actions on offer, withdrawal when the asker goes away, and what listeners are told.

The `async def` tests run on the shared test loop (tests/conftest.py), bounded by the timeout.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from tabsteward.bridge.errors import AuthError, UsageError
from tabsteward.bridge.hub.approvals import (
    CODE_ALPHABET,
    LOCK_SECONDS,
    MAX_OPEN,
    MAX_PAIRS,
    MAX_PAIRS_PER_PROGRAM,
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


async def open_questions(approvals: Approvals, n: int = 1) -> list[Question]:
    """The open questions, once at least `n` are open (the asking tasks have run)."""
    for _ in range(200):
        found = approvals.open()
        if len(found) >= n:
            return found
        await asyncio.sleep(0)
    raise AssertionError(f"{n} questions were never asked; open: {approvals.open()}")


def asking(approvals: Approvals, timeout: float = 30.0, **kwargs: Any) -> asyncio.Task[Answer]:
    return asyncio.create_task(approvals.ask("ask", "agent-a", "click Buy", timeout, **kwargs))


async def asked_by(approvals: Approvals, owner: object, summary: str) -> Answer:
    """Ask as if on connection `owner` (the server sets it per request task)."""
    context.connection.set(owner)
    return await approvals.ask("ask", "agent-a", summary, 30.0)


async def cancel(task: asyncio.Task[Answer]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def values(data: Any) -> list[Any]:
    """Every leaf value of a nested dict/list structure."""
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in values(v)]
    if isinstance(data, list | tuple):
        return [leaf for v in data for leaf in values(v)]
    return [data]


def no_code_in(data: Any, code: str) -> bool:
    raw = code.replace("-", "")
    return all(code not in str(v) and raw not in str(v) for v in values(data))


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
