"""Where an agent's files go and how they are written: the rules, and the writing itself on a
real filesystem (links, dot-dot, a file already there, a folder swapped mid-way)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from tabsteward.bridge.engine import outputs
from tabsteward.bridge.errors import PolicyError, UsageError

HOME = "/home/ada"
FOLDER = "/home/ada/Downloads/Tabsteward/claude"
OWN = ["/home/ada/.config/tabsteward", "/run/user/1000/tabsteward"]


@pytest.mark.parametrize(("path", "why"), [
    ("/home/ada/.config/tabsteward/policy.toml", "Tabsteward's own folder"),
    ("/run/user/1000/tabsteward/hub.token", "Tabsteward's own folder"),
    ("/home/ada/.bashrc", "'.bashrc'"),
    ("/home/ada/.ssh/authorized_keys", "'.ssh'"),
    ("/home/ada/src/app/.git/hooks/pre-commit", "'.git'"),
    ("/home/ada/Downloads/Tabsteward/victim/.bashrc", "'.bashrc'"),
    ("/home/ada/Downloads/Tabsteward/claude/.hidden.png", "'.hidden.png'"),
    ("/tmp/.X11-unix/x", "'.X11-unix'"),
])
def test_no_agent_may_write_tabstewards_folders_or_a_dotfile(path: str, why: str) -> None:
    reason = outputs.refusal(path, folder=FOLDER, home=HOME, own=OWN)
    assert reason is not None
    assert why in reason


@pytest.mark.parametrize("path", [f"{FOLDER}/shot.png", f"{FOLDER}/sub/a.csv",
                                  "/home/ada/Documents/report.pdf", "/tmp/out.png"])
def test_other_places_are_for_policy_to_rule_on(path: str) -> None:
    assert outputs.refusal(path, folder=FOLDER, home=HOME, own=OWN) is None


def test_a_dot_folder_above_home_or_the_agents_folder_does_not_count() -> None:
    assert outputs.refusal("/srv/.homes/ada/x.png", folder="/srv/.homes/ada/Downloads/T/a",
                           home="/srv/.homes/ada", own=[]) is None


@pytest.fixture
def downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "Downloads"))
    return tmp_path / "Downloads" / "Tabsteward" / "claude"


def test_a_path_is_resolved_from_the_agents_folder_before_anything_happens(
        downloads: Path, tmp_path: Path) -> None:
    assert outputs.output(None, "claude", "shot.png").path == str(downloads / "shot.png")
    assert outputs.output("a/../b.png", "claude", "").path == str(downloads / "b.png")
    assert outputs.output("../x/.bashrc", "claude", "").path == \
        str(downloads.parent / "x" / ".bashrc")
    assert outputs.output("~/Documents/c.png", "claude", "").path == \
        str(tmp_path / "Documents" / "c.png")
    assert outputs.output("c.png", "claude", "", cwd="/srv").path == "/srv/c.png"
    assert outputs.output(None, "claude", "").into
    assert outputs.output("out/", "claude", "").into
    assert outputs.output("c.png", "claude", "").inside


def test_a_link_is_followed_to_what_it_points_at(downloads: Path, tmp_path: Path) -> None:
    downloads.mkdir(parents=True)
    (downloads / "cv.png").symlink_to(tmp_path / ".bashrc")
    dest = outputs.output("cv.png", "claude", "")
    assert dest.path == str(tmp_path / ".bashrc")
    with pytest.raises(PolicyError, match="dotfile"):
        outputs.check(dest)


def test_save_writes_a_private_file_and_leaves_no_temporary_one(downloads: Path) -> None:
    dest = outputs.output("sub/shot.png", "claude", "")
    outputs.save(dest, lambda fp: fp.write(b"png"))
    path = downloads / "sub" / "shot.png"
    assert path.read_bytes() == b"png"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(path.parent) == ["shot.png"]


def test_save_never_replaces_a_file_unless_told_to(downloads: Path) -> None:
    downloads.mkdir(parents=True)
    (downloads / "a.png").write_bytes(b"old")
    with pytest.raises(UsageError, match="already exists; nothing was written"):
        outputs.prepare(outputs.output("a.png", "claude", ""))
    with pytest.raises(UsageError, match="already exists; nothing was written"):
        outputs.save(outputs.output("a.png", "claude", ""), lambda fp: fp.write(b"new"))
    assert (downloads / "a.png").read_bytes() == b"old"
    assert os.listdir(downloads) == ["a.png"]
    facts = outputs.prepare(outputs.output("a.png", "claude", "", overwrite=True))
    assert facts == {"folder": str(downloads), "replaces": "yes"}
    outputs.save(outputs.output("a.png", "claude", "", overwrite=True),
                 lambda fp: fp.write(b"new"))
    assert (downloads / "a.png").read_bytes() == b"new"


def test_a_link_planted_after_the_check_is_replaced_not_followed(
        downloads: Path, tmp_path: Path) -> None:
    dest = outputs.output("a.png", "claude", "", overwrite=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    downloads.mkdir(parents=True)
    (downloads / "a.png").symlink_to(victim)  # raced in between resolving and writing
    outputs.save(dest, lambda fp: fp.write(b"png"))
    assert victim.read_text() == "keep"
    assert not (downloads / "a.png").is_symlink()


def test_a_folder_swapped_for_a_link_after_the_check_is_refused(
        downloads: Path, tmp_path: Path) -> None:
    dest = outputs.output("sub/a.png", "claude", "")
    elsewhere = tmp_path / ".config"
    elsewhere.mkdir()
    downloads.mkdir(parents=True)
    (downloads / "sub").symlink_to(elsewhere)
    with pytest.raises(UsageError, match="changed while it was being written"):
        outputs.save(dest, lambda fp: fp.write(b"png"))
    assert os.listdir(elsewhere) == []


def test_a_failed_write_leaves_nothing_behind(downloads: Path) -> None:
    def broken(fp: object) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        outputs.save(outputs.output("a.png", "claude", ""), broken)
    assert os.listdir(downloads) == []


@pytest.mark.parametrize(("suggested", "name"), [
    ("report.csv", "report.csv"), ("../../.bashrc", "bashrc"), (".env", "env"),
    ("a\\b\\c.txt", "c.txt"), ("x\x1b[2Ky.txt", "x_[2Ky.txt"), ("", "download"),
    ("...", "download")])
def test_a_pages_suggested_name_is_made_safe(suggested: str, name: str) -> None:
    assert outputs.file_name(suggested) == name


def test_a_taken_name_is_numbered(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("")
    (tmp_path / "a (2).csv").write_text("")
    assert outputs.free_name(str(tmp_path), "a.csv") == "a (3).csv"
    assert outputs.free_name(str(tmp_path), "b.csv") == "b.csv"
