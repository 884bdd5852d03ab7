"""Writing policy.toml: text that reads back as the config, saved atomically or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge.errors import TabstewardError, UsageError
from tabsteward.bridge.policy import profile_reader, profiles, writer
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.profile_reader import load, load_text
from tabsteward.bridge.policy.profiles import (
    ASK_TIMEOUT_BOUNDS,
    BUILTIN,
    GOAL_BOUNDS,
    MAX_TABS_BOUNDS,
    Config,
    Profile,
)
from tabsteward.bridge.policy.writer import dump, save

C, A, Q, B = Category, Rule.ALLOW, Rule.ASK, Rule.BLOCK

WORK = Profile("work", allow_sites=("*.mycompany.com", "localhost"), deny_sites=("private",),
               rules={**BUILTIN["default"].rules, C.PURCHASE: B}, ask_timeout=300.5,
               model="claude-sonnet-4", key="anthropic.work", browser="Work Chrome",
               goal_actions=200, goal_seconds=86400)
CUSTOM = Config({**BUILTIN, "work": WORK,
                 "trusted": Profile("trusted", rules={c: A for c in Category})},
                default_profile="work", agents={"claude-code": "trusted", "nightly bot": "work"})


def same(a: Config, b: Config) -> bool:
    """Equal in every setting: profiles field by field, the default and the agents."""
    return (a.profiles == b.profiles and a.default_profile == b.default_profile
            and a.agents == b.agents)


def test_the_built_in_defaults_read_back_from_their_text() -> None:
    text = dump(Config())
    assert same(load_text(text), Config())
    assert "[profiles." not in text  # nothing differs from the built-in profiles


def test_custom_profiles_overrides_and_agents_read_back_from_their_text() -> None:
    text = dump(CUSTOM)
    assert same(load_text(text), CUSTOM)
    assert load_text(text) == CUSTOM


def test_the_text_says_the_tray_app_writes_it_and_spells_out_changed_profiles() -> None:
    text = dump(CUSTOM)
    assert text.startswith("# ")
    assert "tray app" in text.splitlines()[1]
    assert "[profiles.work]" in text
    assert "[profiles.trusted.rules]" in text
    assert "[profiles.default]" not in text
    assert "inherits" not in text
    assert 'ask_timeout = 300.5' in text
    assert '"nightly bot" = "work"' in text
    assert "goal_actions = 200\n" in text
    assert "goal_requests = 120\n" in text  # spelled out in full, defaults too
    assert "goal_seconds = 86400\n" in text


def test_awkward_names_and_values_are_quoted_so_they_read_back() -> None:
    odd = Profile("v1.2_x-y", model='say "hi" \\ there — ünïcode 😀', browser="Brave Beta")
    config = Config({**BUILTIN, odd.name: odd},
                    agents={'a "quoted" agent': odd.name, "tab\there": DEFAULT_NAME,
                            "del\x7fnul\x00": DEFAULT_NAME, "é😀": odd.name})
    assert same(load_text(dump(config)), config)


DEFAULT_NAME = "default"

PATTERNS = ["*", "localhost", "private", "file:", "chrome:", "example.com", "*.example.com",
            "https://mail.google.com/u/*", "127.0.0.1:8080", "data:"]
_SECRETS = profile_reader._SECRET_KEY  # names the reader refuses as secret-looking
NAMES = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,12}", fullmatch=True).filter(
    lambda name: not _SECRETS.search(name))
PRINTABLE = st.characters(blacklist_categories=("C", "Z")) | st.just(" ")


@st.composite
def profiles_named(draw: st.DrawFn, name: str) -> Profile:
    low, high = ASK_TIMEOUT_BOUNDS
    return Profile(
        name,
        allow_sites=tuple(draw(st.lists(st.sampled_from(PATTERNS), max_size=4))),
        deny_sites=tuple(draw(st.lists(st.sampled_from(PATTERNS), max_size=4))),
        rules={c: draw(st.sampled_from(list(Rule))) for c in Category},
        ask_timeout=draw(st.floats(low, high, allow_nan=False)),
        model=draw(st.text(PRINTABLE, max_size=200)),
        key=draw(st.just("") | st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,63}", fullmatch=True)),
        browser=draw(st.text(PRINTABLE, max_size=64)),
        goal_actions=draw(st.integers(*GOAL_BOUNDS["goal_actions"])),
        goal_requests=draw(st.integers(*GOAL_BOUNDS["goal_requests"])),
        goal_seconds=draw(st.integers(*GOAL_BOUNDS["goal_seconds"])),
        goal_candidates=draw(st.integers(*GOAL_BOUNDS["goal_candidates"])),
        max_tabs=draw(st.integers(*MAX_TABS_BOUNDS)),
    )


@st.composite
def configs(draw: st.DrawFn) -> Config:
    names = draw(st.lists(NAMES, max_size=4, unique=True))
    table = dict(BUILTIN)
    for name in names:
        table[name] = draw(profiles_named(name))
    agents = draw(st.dictionaries(NAMES, st.sampled_from(sorted(table)), max_size=3))
    return Config(table, draw(st.sampled_from(sorted(table))), agents)


@settings(max_examples=150, deadline=None, database=None)
@given(configs())
def test_any_config_reads_back_from_its_text(config: Config) -> None:
    assert same(load_text(dump(config)), config)


# -- saving --

@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "conf" / "policy.toml"


def test_save_writes_a_private_file_that_loads_as_the_config(path: Path) -> None:
    saved = save(CUSTOM, path)
    assert same(load(path), CUSTOM)
    assert same(saved, CUSTOM)
    assert saved.source == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["policy.toml"]  # no temp file left


def test_save_replaces_the_persons_file_whole(path: Path) -> None:
    path.parent.mkdir()
    path.write_text('default_profile = "trusted"\n# my notes\n', encoding="utf-8")
    save(CUSTOM, path)
    assert "# my notes" not in path.read_text(encoding="utf-8")
    assert load(path).default_profile == "work"


def test_save_goes_to_policy_toml_in_a_private_config_dir(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "tabsteward"
    monkeypatch.setattr(profiles, "config_dir", lambda: folder)
    save(CUSTOM)
    assert same(load(folder / "policy.toml"), CUSTOM)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_save_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "policy.toml"
    real.parent.mkdir()
    real.write_text("", encoding="utf-8")
    link = tmp_path / "policy.toml"
    link.symlink_to(real)
    save(CUSTOM, link)
    assert link.is_symlink()
    assert same(load(real), CUSTOM)


INVALID = [
    ("unusable-profile-name", Config({**BUILTIN, "my profile": Profile("my profile")}),
     "not a usable profile name"),
    ("secret-looking-agent", Config(agents={"github-token": "default"}), "looks like a secret"),
    ("built-in-removed", Config({"default": BUILTIN["default"]}), "built-in profiles"),
    ("name-differs-from-key", Config({**BUILTIN, "a": Profile("b")}), "would not read back"),
]


@pytest.mark.parametrize(("config", "what"), [case[1:] for case in INVALID],
                         ids=[case[0] for case in INVALID])
def test_save_refuses_a_config_the_reader_would_not_give_back_and_leaves_the_file(
        path: Path, config: Config, what: str) -> None:
    path.parent.mkdir()
    path.write_text('default_profile = "trusted"\n', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        save(config, path)
    assert what in caught.value.message
    assert caught.value.message.endswith(writer.NOTHING_SAVED)
    assert path.read_text(encoding="utf-8") == 'default_profile = "trusted"\n'
    assert [p.name for p in path.parent.iterdir()] == ["policy.toml"]


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.parent.mkdir()
    path.write_text('default_profile = "trusted"\n', encoding="utf-8")

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(TabstewardError) as caught:
        save(CUSTOM, path)
    assert "could not be written (No space left on device)" in caught.value.message
    assert caught.value.message.endswith(writer.NOTHING_SAVED)
    assert path.read_text(encoding="utf-8") == 'default_profile = "trusted"\n'
    assert [p.name for p in path.parent.iterdir()] == ["policy.toml"]


def test_from_tables_checks_edited_tables_with_the_real_reader(path: Path) -> None:
    tables = writer.to_tables(CUSTOM)
    tables["profiles"]["work"]["allow_sites"] = ["*", "exa*mple.com"]
    with pytest.raises(UsageError) as caught:
        writer.from_tables(tables, path)
    message = caught.value.message
    assert "profiles.work.allow_sites[1]" in message
    assert "exa*mple.com" in message
    assert message.endswith(writer.NOTHING_SAVED)
    assert not path.exists()


def test_goal_budgets_are_written_as_whole_numbers_and_read_back() -> None:
    lean = Profile("lean", goal_actions=1, goal_requests=2000, goal_seconds=10,
                   goal_candidates=2000)
    config = Config({**BUILTIN, "lean": lean})
    text = dump(config)
    assert "goal_seconds = 10\n" in text
    assert "goal_candidates = 2000\n" in text
    read = load_text(text).profiles["lean"]
    assert (read.goal_actions, read.goal_requests, read.goal_seconds,
            read.goal_candidates) == (1, 2000, 10, 2000)
    assert all(type(getattr(read, key)) is int for key in profiles.GOAL_FIELDS)


def test_from_tables_refuses_an_edited_goal_budget_out_of_range(path: Path) -> None:
    tables = writer.to_tables(CUSTOM)
    tables["profiles"]["work"]["goal_requests"] = 0
    with pytest.raises(UsageError) as caught:
        writer.from_tables(tables, path)
    message = caught.value.message
    assert "profiles.work.goal_requests" in message
    assert "from 1 to 2000" in message
    assert message.endswith(writer.NOTHING_SAVED)
    assert not path.exists()


def test_a_value_toml_cannot_say_is_refused() -> None:
    with pytest.raises(UsageError, match=r"profiles\.work\.model holds a NoneType"):
        writer.render({"profiles": {"work": {"model": None}}})
