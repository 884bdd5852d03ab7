"""The paired agents file: tokens kept only as hashes, private file mode, slug ids, revocation,
other instances' changes seen, corrupt files refused, names checked, usage times throttled."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from pathlib import Path

import pytest
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.records.agents import Agent, Agents, digest

SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
T0 = 1_700_000_000.0


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "tabsteward" / "agents.json"


def verified(agents: Agents, token: str) -> Agent:
    found = agents.verify(token)
    assert found is not None, "the token did not verify"
    return found


def rows(path: Path) -> list[dict[str, object]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["agents"])


# -- tokens --------------------------------------------------------------------------------

def test_digest_is_the_hex_sha256_of_the_token() -> None:
    assert digest("tok-123") == hashlib.sha256(b"tok-123").hexdigest()


def test_add_returns_a_token_that_verifies_to_the_new_agent(path: Path) -> None:
    agents = Agents(path)
    agent, token = agents.add("Codex in ~/shop")
    assert len(token) >= 40
    found = verified(agents, token)
    assert (found.id, found.name, found.token_sha256, found.created) == (
        agent.id, "Codex in ~/shop", digest(token), agent.created)
    assert agents.list() == [found]


def test_each_agent_gets_its_own_token(path: Path) -> None:
    agents = Agents(path)
    first, one = agents.add("one")
    second, two = agents.add("two")
    assert one != two
    assert verified(agents, one).id == first.id
    assert verified(agents, two).id == second.id


@pytest.mark.parametrize("token", ["", "not-a-token", "x" * 43])
def test_a_token_nobody_was_given_verifies_to_nothing(path: Path, token: str) -> None:
    agents = Agents(path)
    agents.add("one")
    assert agents.verify(token) is None


def test_only_the_tokens_sha256_is_in_the_file(path: Path) -> None:
    agents = Agents(path)
    _, token = agents.add("Codex in ~/shop")
    agents.verify(token)  # a usage time is written too: still no token
    raw = path.read_text(encoding="utf-8")
    assert token not in raw
    assert token.encode() not in path.read_bytes()
    assert [r["token_sha256"] for r in rows(path)] == [digest(token)]


def test_the_public_view_of_an_agent_has_no_token_hash(path: Path) -> None:
    agent, _ = Agents(path).add("one")
    assert set(agent.public()) == {"id", "name", "created", "last_used"}
    assert agent.token_sha256 not in json.dumps(agent.public())


# -- the file ------------------------------------------------------------------------------

def test_the_file_is_0600_in_a_0700_folder_with_no_temporary_files_left(path: Path) -> None:
    agents = Agents(path)
    agents.add("one")
    agents.add("two")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert os.listdir(path.parent) == ["agents.json"]


def test_the_default_file_is_in_the_state_folder() -> None:
    expected = Path(os.environ["XDG_STATE_HOME"]) / "tabsteward" / "agents.json"
    assert Agents().path == expected


def test_no_file_means_no_agents_and_none_is_written_until_one_is_added(path: Path) -> None:
    agents = Agents(path)
    assert agents.list() == []
    assert agents.verify("anything") is None
    assert not path.exists()


# -- ids -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "expected"), [
    ("Claude Code in ~/src/shop", "claude-code-in-src-shop"),
    ("Codex", "codex"),
    ("  --Gemini CLI!!  ", "gemini-cli"),
    ("Café in ~/données", "caf-in-donn-es"),
    ("!!!", "agent"),
    ("日本語のエージェント", "agent"),
    ("a" * 80, "a" * 24),
])
def test_an_agents_id_is_a_short_slug_of_its_name(path: Path, name: str, expected: str) -> None:
    agent, _ = Agents(path).add(name)
    assert agent.id == expected
    assert SLUG.fullmatch(agent.id)


def test_an_id_cut_at_a_separator_is_still_a_slug(path: Path) -> None:
    agents = Agents(path)
    first, _ = agents.add("abcdefghijklmnopqrstuvw xyz")
    second, _ = agents.add("abcdefghijklmnopqrstuvw xyz")
    assert SLUG.fullmatch(first.id)
    assert SLUG.fullmatch(second.id)


def test_the_same_name_twice_gets_numbered_ids(path: Path) -> None:
    agents = Agents(path)
    ids = [agents.add("Codex")[0].id for _ in range(3)]
    assert ids == ["codex", "codex-2", "codex-3"]
    assert len({a.token_sha256 for a in agents.list()}) == 3


def test_names_that_slug_alike_get_distinct_ids(path: Path) -> None:
    agents = Agents(path)
    assert [agents.add(n)[0].id for n in ("My Agent", "my-agent", "MY  AGENT!")] == [
        "my-agent", "my-agent-2", "my-agent-3"]


# -- revocation ----------------------------------------------------------------------------

def test_revoking_an_agent_makes_its_token_fail_at_once(path: Path) -> None:
    agents = Agents(path)
    agent, token = agents.add("one")
    other, other_token = agents.add("two")
    assert agents.verify(token) is not None
    assert agents.revoke(agent.id).id == agent.id
    assert agents.verify(token) is None
    assert agents.verify(other_token) is not None
    assert [a.id for a in agents.list()] == [other.id]
    assert [r["id"] for r in rows(path)] == [other.id]


def test_revoking_an_unknown_id_is_a_usage_error_and_changes_nothing(path: Path) -> None:
    agents = Agents(path)
    agents.add("one")
    before = path.read_bytes()
    with pytest.raises(UsageError, match="no paired agent 'nobody'; nothing was revoked"):
        agents.revoke("nobody")
    assert path.read_bytes() == before


def test_revoking_twice_is_a_usage_error_the_second_time(path: Path) -> None:
    agents = Agents(path)
    agent, _ = agents.add("one")
    agents.revoke(agent.id)
    with pytest.raises(UsageError, match="no paired agent"):
        agents.revoke(agent.id)


# -- two instances on one file -------------------------------------------------------------

def test_another_instance_sees_an_agent_paired_by_the_first(path: Path) -> None:
    hub, cli = Agents(path), Agents(path)
    assert cli.list() == []
    agent, token = hub.add("one")
    assert cli.verify(token) is not None
    assert [a.id for a in cli.list()] == [agent.id]


def test_another_instance_refuses_a_token_revoked_by_the_first(path: Path) -> None:
    hub, cli = Agents(path), Agents(path)
    agent, token = hub.add("one")
    assert cli.verify(token) is not None
    hub.revoke(agent.id)
    assert cli.verify(token) is None
    assert cli.list() == []


def test_an_instance_adding_after_another_keeps_both_agents(path: Path) -> None:
    first, second = Agents(path), Agents(path)
    _, one = first.add("one")
    _, two = second.add("two")
    assert first.verify(one) is not None
    assert first.verify(two) is not None
    assert [a.name for a in Agents(path).list()] == ["one", "two"]


def test_a_usage_time_written_by_one_instance_is_seen_by_the_other(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", lambda: T0)
    hub, cli = Agents(path), Agents(path)
    _, token = hub.add("one")
    hub.verify(token)
    assert [a.last_used for a in cli.list()] == [T0]


# -- corrupt files -------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    pytest.param("not json", id="not JSON"),
    pytest.param("", id="empty"),
    pytest.param("[]", id="a list"),
    pytest.param('{"agents": null}', id="no rows"),
    pytest.param('{"agents": [{"id": "a"}]}', id="a row without fields"),
    pytest.param('{"agents": [{"id": "a", "name": "b", "token_sha256": "c", "created": []}]}',
                 id="a bad created time"),
    pytest.param('{"paired": []}', id="another file's keys"),
])
def test_a_corrupt_file_is_a_usage_error_naming_it_and_is_not_overwritten(
        path: Path, body: str) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(body, encoding="utf-8")
    with pytest.raises(UsageError, match=re.escape(str(path))):
        Agents(path)
    assert path.read_text(encoding="utf-8") == body


def test_a_file_corrupted_while_in_use_is_refused_by_the_next_call(path: Path) -> None:
    agents = Agents(path)
    agents.add("one")
    path.write_text("{ half a file", encoding="utf-8")
    with pytest.raises(UsageError, match="is not a paired-agents file"):
        agents.add("two")
    assert path.read_text(encoding="utf-8") == "{ half a file"


def test_a_file_corrupted_while_in_use_stays_refused_and_is_never_overwritten(
        path: Path) -> None:
    agents = Agents(path)
    _, token = agents.add("one")
    path.write_text("{ half a file", encoding="utf-8")
    with pytest.raises(UsageError, match="is not a paired-agents file"):
        agents.list()
    try:
        with pytest.raises(UsageError, match="is not a paired-agents file"):
            agents.verify(token)
    finally:
        assert path.read_text(encoding="utf-8") == "{ half a file"


def test_a_file_that_is_not_utf8_is_a_usage_error_naming_it(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"agents": [{"id": "\xff"}]}')
    with pytest.raises(UsageError, match=re.escape(str(path))):
        Agents(path)


# -- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    pytest.param("", id="empty"),
    pytest.param(" \t\n ", id="only whitespace"),
    pytest.param("x" * 81, id="81 characters"),
    pytest.param("Codex\x00", id="NUL"),
    pytest.param("Codex \x1b[31m", id="an escape sequence"),
    pytest.param("Codex\x7f", id="DEL"),
    pytest.param("Co\u200bdex", id="a zero-width space"),
])
def test_a_bad_name_is_a_usage_error_and_pairs_nobody(path: Path, name: str) -> None:
    agents = Agents(path)
    with pytest.raises(UsageError, match="nothing was asked"):
        agents.add(name)
    assert agents.list() == []
    assert not path.exists()


def test_whitespace_in_a_name_is_collapsed_to_single_spaces(path: Path) -> None:
    agent, _ = Agents(path).add("  Claude\t\tCode \n in   ~/shop  ")
    assert agent.name == "Claude Code in ~/shop"


def test_a_name_of_80_characters_after_collapsing_is_accepted(path: Path) -> None:
    agents = Agents(path)
    assert len(agents.add("x" * 80)[0].name) == 80
    assert agents.add("y" * 40 + "     " + "z" * 39)[0].name == "y" * 40 + " " + "z" * 39


# -- usage times ---------------------------------------------------------------------------

def test_last_used_is_updated_at_most_once_a_minute(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [T0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    agents = Agents(path)
    agent, token = agents.add("one")
    assert (agent.created, agent.last_used) == (T0, 0.0)

    assert verified(agents, token).last_used == T0
    assert [r["last_used"] for r in rows(path)] == [T0]

    now[0] = T0 + 60
    assert verified(agents, token).last_used == T0
    assert [r["last_used"] for r in rows(path)] == [T0]

    now[0] = T0 + 61
    assert verified(agents, token).last_used == T0 + 61
    assert [r["last_used"] for r in rows(path)] == [T0 + 61]
    assert [r["created"] for r in rows(path)] == [T0]


def test_a_failed_verification_writes_nothing(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", lambda: T0)
    agents = Agents(path)
    agents.add("one")
    before = path.read_bytes()
    monkeypatch.setattr(time, "time", lambda: T0 + 3600)
    assert agents.verify("wrong") is None
    assert path.read_bytes() == before


def test_an_unpaired_agents_id_is_never_given_again(path: Path) -> None:
    # the attack: a new agent pairs under the old one's name and inherits its id (its tabs,
    # its session, the profile the person gave that id)
    agents = Agents(path)
    old, _ = agents.add("Agent C")
    agents.revoke(old.id)
    new, _ = agents.add("Agent C")
    assert new.id != old.id
    again = Agents(path)  # another instance, or the hub after a restart, remembers too
    again.revoke(new.id)
    third, _ = again.add("Agent C")
    assert third.id not in (old.id, new.id)
    assert json.loads(path.read_text(encoding="utf-8"))["retired"] == sorted([old.id, new.id])
