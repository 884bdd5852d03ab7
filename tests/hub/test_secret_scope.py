"""Where a typed secret is redacted: from every record the hub keeps or shows the person
(activity log, hub log, goal transcripts, questions), never from the pages an agent reads.

The real hub, Chromium and the person's commands run in test_secret_scope_e2e.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hub_tables import make_table
from tabsteward.bridge.agent import transcript
from tabsteward.bridge.hub.approvals import Approvals
from tabsteward.bridge.hub.core import Hub
from tabsteward.bridge.hub.main import InertFormatter
from tabsteward.bridge.hub.pool import BrowserPool
from tabsteward.bridge.records.activity import ActivityLog
from tabsteward.bridge.records.redact import MARK, PATTERNS, REDACTOR, Redactor

pytestmark = pytest.mark.timeout(30)

SECRET = "tiger"  # as short as a real one may be: four letters are enough to be redacted
SK_KEY = "sk-" + "Ab1" * 8  # an API key by its pattern


@pytest.fixture
def typed() -> Iterator[str]:
    """A password some agent typed: the process-wide redactor knows it (for this test)."""
    REDACTOR.add(SECRET)
    yield SECRET
    REDACTOR.forget(SECRET)


def test_the_patterns_alone_remember_no_typed_value_but_catch_obvious_secrets() -> None:
    PATTERNS.add(SECRET)
    assert len(PATTERNS) == 0
    assert PATTERNS.text("The tiger is asleep.") == "The tiger is asleep."
    assert PATTERNS.text(f"key {SK_KEY}") == f"key {MARK}"
    assert PATTERNS.text("Authorization: Bearer abcdefgh12345") == (
        f"Authorization: Bearer {MARK}")
    assert PATTERNS.data({"note": "tiger", "token": "abc"}) == {"note": "tiger",
                                                               "token": MARK}


def test_a_redactor_that_keeps_values_still_redacts_a_typed_one() -> None:
    records = Redactor()
    records.add(SECRET)
    assert records.text("The tiger is asleep.") == f"The {MARK} is asleep."


class StandInBrowser:
    def __init__(self) -> None:
        self.closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.allow_eval = False

    def session(self, agent: str, principal: str | None = None) -> object:
        return object()

    def show_agents(self) -> None:
        pass


def echo(args: dict[str, Any], activity: ActivityLog) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        pool = BrowserPool(primary=StandInBrowser())  # type: ignore[arg-type]
        hub = Hub(pool, tools=make_table(), log_path="/logs/hub.log", activity=activity)
        return await hub.execute({"op": "call", "tool": "echo", "args": args})
    return asyncio.run(asyncio.wait_for(go(), 30))


def test_an_agent_reads_a_page_word_that_is_a_typed_password_as_it_is_but_the_log_does_not(
        typed: str, tmp_path: Path) -> None:
    with ActivityLog(tmp_path / "activity.sqlite3") as log:
        reply = echo({"text": "The tiger is asleep."}, log)
        [entry] = log.query()
    assert reply["text"] == "echo The tiger is asleep."
    assert reply["result"]["args"]["text"] == "The tiger is asleep."
    assert entry.outcome == f"ok: echo The {MARK} is asleep."
    assert typed.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())


def test_an_api_key_on_a_page_is_still_kept_from_the_agent(tmp_path: Path) -> None:
    with ActivityLog(tmp_path / "activity.sqlite3") as log:
        reply = echo({"text": f"your key: {SK_KEY}"}, log)
    assert reply["text"] == f"echo your key: {MARK}"
    assert SK_KEY not in json.dumps(reply)


def test_a_goal_naming_its_password_keeps_it_out_of_the_transcript_once_typed(
        tmp_path: Path) -> None:
    record = transcript.Transcript(where=tmp_path)
    record.write("start", goal="sign in as ada (password lovelace-7)")
    REDACTOR.add("lovelace-7")  # the goal's model typed it into the password field
    try:
        record.write("decision", reason="typing the password lovelace-7")
        record.close()
        on_disk = record.path.read_text()
        assert "lovelace-7" not in on_disk
        assert [e["event"] for e in transcript.events(record.id, tmp_path)] == [
            "start", "decision"]
        assert transcript.runs(tmp_path)[0].goal == f"sign in as ada (password {MARK})"
    finally:
        REDACTOR.forget("lovelace-7")


def test_a_transcript_written_before_a_secret_was_known_is_redacted_when_read(
        tmp_path: Path) -> None:
    record = transcript.Transcript(where=tmp_path)
    record.write("start", goal="use the code 8812-late")
    record._out.close()  # cut short: the hub stopped before the run's end
    REDACTOR.add("8812-late")
    try:
        assert "8812-late" not in transcript.replay(record.id, tmp_path)
    finally:
        REDACTOR.forget("8812-late")


def test_a_question_shown_to_the_person_never_quotes_a_typed_password(typed: str) -> None:
    async def go() -> list[dict[str, Any]]:
        approvals = Approvals()
        approvals.offer("shopper", 'click button "tiger"', lambda q, a: None,
                        target='button "tiger" in form "login"',
                        reasons=("its text reads tiger",))
        return [q.public() for q in approvals.open()]
    [shown] = asyncio.run(go())
    assert typed not in json.dumps(shown)
    assert shown["summary"] == f'click button "{MARK}"'


def test_the_hub_log_redacts_a_typed_password_in_messages_and_tracebacks(typed: str) -> None:
    fmt = InertFormatter("%(message)s")
    try:
        raise ValueError("the field held tiger")
    except ValueError:
        record = logging.LogRecord("tabsteward.hub", logging.ERROR, __file__, 1,
                                   "filled %s", ("tiger",), sys.exc_info())
    line = fmt.format(record)
    assert typed not in line
    assert f"filled {MARK}" in line
    assert f"the field held {MARK}" in line
