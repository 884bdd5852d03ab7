"""Cookies and web storage, read through the hub: what the profile allows, and what not."""

from __future__ import annotations

import json

import pytest
from hub_env import Hub
from tabsteward.bridge.errors import PolicyError

pytestmark = pytest.mark.browser


@pytest.fixture
def page(hub: Hub, site) -> Hub:
    assert hub.cli("open", site.url("form.html")).returncode == 0
    done = hub.cli("eval", "document.cookie = 'flavour=sencha; path=/'; "
                   "localStorage.setItem('cart', JSON.stringify([1, 2])); "
                   "sessionStorage.setItem('step', '2'); 1")
    assert done.returncode == 0, done.stderr
    return hub


def test_cookies_lists_what_the_browser_sends_to_the_page(page: Hub) -> None:
    done = page.cli("cookies", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["cookies"]
    assert [(c["name"], c["value"], c["path"]) for c in rows] == [("flavour", "sencha", "/")]
    assert "flavour=sencha" in page.cli("cookies").stdout


def test_storage_lists_every_entry_or_one_key(page: Hub) -> None:
    local = json.loads(page.cli("storage", "local", "--json").stdout)["local"]
    assert local == {"cart": "[1,2]"}
    one = page.cli("storage", "session", "step")
    assert one.returncode == 0
    assert 'step = "2"' in one.stdout
    missing = page.cli("storage", "local", "nope")
    assert missing.returncode == 2
    assert "has no key 'nope'" in missing.stderr


def test_a_storage_kind_that_does_not_exist_is_a_usage_error(page: Hub) -> None:
    done = page.cli("storage", "cookies")
    assert done.returncode == 2
    assert "local" in done.stderr


def test_reading_storage_is_blocked_by_the_default_profile(site, tmp_path) -> None:
    from hub_env import private_env, start_hub, stop_hub, write_policy
    env = private_env()
    write_policy(env, 'default_profile = "default"\n')
    hub = start_hub(env)
    try:
        assert hub.cli("open", site.url("form.html")).returncode == 0
        for command in (["cookies"], ["storage", "local"]):
            done = hub.cli(*command)
            assert done.returncode == PolicyError.exit_code
            assert "blocks reading cookies or storage" in done.stderr
    finally:
        stop_hub(hub)
