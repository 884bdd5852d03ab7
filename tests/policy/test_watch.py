"""ConfigFile: hand edits of policy.toml take effect on the next look; bad edits do not."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy import profile_reader, profiles, writer
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.profiles import BUILTIN, Config, Profile
from tabsteward.bridge.policy.watch import ConfigFile

TRUSTED = 'default_profile = "trusted"\n'
READ_ONLY = 'default_profile = "read-only"\n'


def edit(path: Path, text: str) -> None:
    """Write the file as an editor would, a second later than its last change."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
    os.utime(path, ns=(later, later))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "policy.toml"
    edit(path, TRUSTED)
    return path


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "tabsteward.hub" and r.levelno == logging.WARNING]


def test_a_hand_edit_is_picked_up_on_the_next_look(path: Path) -> None:
    config_file = ConfigFile(path)
    assert config_file.current().default_profile == "trusted"
    edit(path, READ_ONLY)
    assert config_file.current().default_profile == "read-only"
    assert config_file.error is None


def test_an_edit_of_the_same_size_is_picked_up_too(path: Path) -> None:
    config_file = ConfigFile(path)
    edit(path, TRUSTED.replace("trusted", "default"))
    assert config_file.current().default_profile == "default"


def test_an_unchanged_file_is_not_read_again(path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    config_file = ConfigFile(path)

    def no_reading(_: Path | None = None) -> Config:
        raise AssertionError("the unchanged file was read again")

    monkeypatch.setattr("tabsteward.bridge.policy.watch.load", no_reading)
    assert config_file.current().default_profile == "trusted"


def test_a_bad_edit_keeps_the_last_good_config_and_says_why_once(
        path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config_file = ConfigFile(path)
    edit(path, 'default_profile = "paranoid"\n')
    with caplog.at_level(logging.WARNING, logger="tabsteward.hub"):
        assert config_file.current().default_profile == "trusted"
        assert config_file.current().default_profile == "trusted"
    assert config_file.error is not None
    assert "'paranoid'" in config_file.error
    assert len(warnings(caplog)) == 1
    assert "stays as it was" in warnings(caplog)[0]


def test_each_new_bad_edit_is_reported_again(path: Path,
                                             caplog: pytest.LogCaptureFixture) -> None:
    config_file = ConfigFile(path)
    with caplog.at_level(logging.WARNING, logger="tabsteward.hub"):
        edit(path, 'default_profile = "paranoid"\n')
        config_file.current()
        edit(path, "default_profile = \n")
        config_file.current()
    assert len(warnings(caplog)) == 2
    assert config_file.error is not None
    assert "not valid TOML" in config_file.error


def test_fixing_the_file_clears_the_error(path: Path) -> None:
    config_file = ConfigFile(path)
    edit(path, "[profiles.work]\nask_timeout = 1\n")
    config_file.current()
    assert config_file.error is not None
    edit(path, READ_ONLY)
    assert config_file.current().default_profile == "read-only"
    assert config_file.error is None


def test_a_deleted_file_means_the_built_in_defaults(path: Path) -> None:
    config_file = ConfigFile(path)
    path.unlink()
    assert config_file.current() == Config()
    assert config_file.error is None
    edit(path, READ_ONLY)
    assert config_file.current().default_profile == "read-only"


def test_a_missing_file_at_the_start_means_the_defaults(tmp_path: Path) -> None:
    assert ConfigFile(tmp_path / "policy.toml").current() == Config()


def test_a_file_wrong_from_the_start_is_refused(path: Path) -> None:
    edit(path, 'default_profile = "paranoid"\n')
    with pytest.raises(UsageError, match="paranoid"):
        ConfigFile(path)


def test_the_default_file_is_policy_toml_in_the_config_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiles, "config_dir", lambda: tmp_path)
    edit(tmp_path / "policy.toml", READ_ONLY)
    config_file = ConfigFile()
    assert config_file.path == tmp_path / "policy.toml"
    assert config_file.current().default_profile == "read-only"


def test_save_writes_the_file_and_the_next_look_does_not_read_it_again(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config_file = ConfigFile(path)
    strict = Profile("strict", rules={c: Rule.BLOCK for c in Category})
    config = Config({**BUILTIN, "strict": strict}, default_profile="strict")
    saved = config_file.save(config)
    assert saved == config
    assert profile_reader.load(path) == config

    def no_reading(_: Path | None = None) -> Config:
        raise AssertionError("the file just saved was read again")

    monkeypatch.setattr("tabsteward.bridge.policy.watch.load", no_reading)
    assert config_file.current() == config
    assert config_file.error is None


def test_a_refused_save_changes_nothing(path: Path) -> None:
    config_file = ConfigFile(path)
    with pytest.raises(UsageError, match=writer.NOTHING_SAVED):
        config_file.save(Config(agents={"api-key-bot": "default"}))
    assert path.read_text(encoding="utf-8") == TRUSTED
    assert config_file.current().default_profile == "trusted"


def test_another_writer_is_seen_after_a_save(path: Path) -> None:
    config_file = ConfigFile(path)
    config_file.save(Config(default_profile="trusted"))
    edit(path, READ_ONLY)
    assert config_file.current().default_profile == "read-only"
