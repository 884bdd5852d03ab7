"""Remembered grants: per profile, site and category, kept in a private file, revocable."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy import grants as grants_module
from tabsteward.bridge.policy.categories import Category
from tabsteward.bridge.policy.grants import Grants

C = Category
SHOP = "https://shop.example"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "grants.json"


def test_a_grant_allows_only_its_profile_site_and_category(path: Path) -> None:
    grants = Grants(path)
    grants.add("default", SHOP, C.PURCHASE)
    assert grants.allows("default", SHOP, C.PURCHASE)
    assert not grants.allows("trusted", SHOP, C.PURCHASE)
    assert not grants.allows("default", "https://other.example", C.PURCHASE)
    assert not grants.allows("default", SHOP, C.SEND)


def test_grants_outlive_the_process_in_a_private_file(path: Path) -> None:
    Grants(path).add("default", SHOP, C.PURCHASE)
    assert Grants(path).allows("default", SHOP, C.PURCHASE)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["grants.json"]  # no temp file left


def test_granting_twice_keeps_one_grant_with_its_first_time(path: Path) -> None:
    grants = Grants(path)
    first = grants.add("default", SHOP, C.PURCHASE)
    again = grants.add("default", SHOP, C.PURCHASE)
    assert again == first
    assert len(grants.list()) == 1


def test_list_shows_each_grant_with_when_it_was_made(path: Path) -> None:
    grants = Grants(path)
    grants.add("default", SHOP, C.PURCHASE)
    grants.add("work", "https://mail.example", C.SEND)
    listed = grants.list()
    assert {(g.profile, g.site, g.category) for g in listed} == {
        ("default", SHOP, C.PURCHASE), ("work", "https://mail.example", C.SEND)}
    assert all(g.created.tzinfo is not None for g in listed)


def test_revoke_forgets_by_site_by_category_or_everything_of_a_profile(path: Path) -> None:
    grants = Grants(path)
    for site in (SHOP, "https://mail.example"):
        for category in (C.PURCHASE, C.SEND):
            grants.add("default", site, category)
    grants.add("work", SHOP, C.PURCHASE)
    assert grants.revoke("default", site=SHOP, category=C.SEND) == 1
    assert grants.revoke("default", category=C.PURCHASE) == 2
    assert grants.revoke("default", site="https://nowhere.example") == 0
    assert grants.revoke("default") == 1
    assert [(g.profile, g.site) for g in grants.list()] == [("work", SHOP)]
    assert not Grants(path).allows("default", "https://mail.example", C.SEND)


def test_a_revoke_by_another_process_is_seen_at_once(path: Path) -> None:
    hub, cli = Grants(path), Grants(path)
    hub.add("default", SHOP, C.PURCHASE)
    assert hub.allows("default", SHOP, C.PURCHASE)
    assert cli.revoke("default") == 1
    assert not hub.allows("default", SHOP, C.PURCHASE)


def test_a_corrupt_file_is_named_and_never_overwritten(path: Path) -> None:
    path.parent.mkdir(mode=0o700)
    path.write_text("{not json", encoding="utf-8")
    grants = Grants(path)
    with pytest.raises(UsageError) as caught:
        grants.add("default", SHOP, C.PURCHASE)
    assert str(path) in caught.value.message
    assert "Nothing was changed" in caught.value.message
    assert path.read_text(encoding="utf-8") == "{not json"


@pytest.mark.parametrize("body", [
    [], {"grants": {}}, {"grants": [{"profile": "default"}]},
    {"grants": [{"profile": "d", "site": SHOP, "category": "shopping", "created": "2024-01-01"}]},
    {"grants": [{"profile": "d", "site": SHOP, "category": "send", "created": "yesterday"}]},
])
def test_a_file_of_the_wrong_shape_is_refused(path: Path, body: object) -> None:
    path.parent.mkdir(mode=0o700)
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(UsageError, match="cannot be used"):
        Grants(path).list()


def test_a_grant_needs_a_site(path: Path) -> None:
    with pytest.raises(UsageError, match="needs a profile and a site"):
        Grants(path).add("default", "", C.PURCHASE)
    assert not path.exists()


def test_a_one_shot_grant_is_used_up_by_the_first_action(path: Path) -> None:
    grants = Grants(path)
    grants.add_once("default", SHOP, C.PURCHASE)
    assert not grants.allows("default", SHOP, C.PURCHASE)
    assert not grants.take_once("default", SHOP, C.SEND)
    assert grants.take_once("default", SHOP, C.PURCHASE)
    assert not grants.take_once("default", SHOP, C.PURCHASE)


def test_a_one_shot_grant_for_one_script_allows_no_other(path: Path) -> None:
    grants = Grants(path)
    grants.add_once("default", SHOP, C.EVAL, "a" * 64)
    assert not grants.take_once("default", SHOP, C.EVAL, "b" * 64)
    assert not grants.take_once("default", SHOP, C.EVAL)
    assert grants.take_once("default", SHOP, C.EVAL, "a" * 64)
    assert not grants.take_once("default", SHOP, C.EVAL, "a" * 64)


def test_one_shot_grants_live_in_memory_only(path: Path) -> None:
    Grants(path).add_once("default", SHOP, C.PURCHASE)
    assert not path.exists()
    assert not Grants(path).take_once("default", SHOP, C.PURCHASE)


def test_the_default_file_is_in_the_state_dir(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setattr(grants_module, "state_dir", lambda: tmp_path / "state")
    grants = Grants()
    grants.add("default", SHOP, C.DELETE)
    assert (tmp_path / "state" / "grants.json").exists()
