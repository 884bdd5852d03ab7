"""The browser's own blocking rules name the requests policy denies, read as Chrome writes
URLs (bridge/policy/netrules.py)."""

from __future__ import annotations

import re

import pytest

from bridge.policy.netrules import net_guard
from bridge.policy.profiles import BUILTIN, Profile

# canonical URLs, as Chrome hands them to declarativeNetRequest
URLS = [
    "http://localhost/", "http://localhost:8080/x", "http://app.localhost/",
    "http://127.0.0.1/", "http://127.12.0.9:99/", "http://0.0.0.0/", "http://[::1]/",
    "http://10.0.0.1/", "https://10.255.1.2/a?b", "http://172.16.0.1/", "http://172.31.9.9/",
    "http://172.32.0.1/", "http://172.15.0.1/", "http://192.168.1.1/", "http://192.169.1.1/",
    "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://100.127.0.1/",
    "http://100.128.0.1/", "http://100.63.0.1/", "http://[fd00::1]/", "http://[fc12:3::]/",
    "http://[fe80::1]/", "http://[fec0::1]/", "http://[2001:db8::1]/",
    "http://intranet/", "http://router/", "http://localhosts/", "http://localhos/",
    "http://printer.local/", "http://x.internal:81/", "http://nas.home.arpa/",
    "http://example.com/", "https://www.example.com/", "http://user:pw@10.0.0.1/",
    "http://example.com./", "https://local.example.com/", "https://lan.example/",
    "http://8.8.8.8/", "https://1.1.1.1/", "file:///etc/passwd", "chrome://settings/",
    "http://127.0.0.1.nip.io/", "https://10.0.0.1.example/",
]


def blocked(profile: Profile, url: str) -> bool:
    """What the browser does: a block rule matches, and no allow rule (of higher priority)."""
    guard = net_guard(profile)
    return any(re.search(f, url) for f in guard.filters) and \
        not any(re.search(e, url) for e in guard.exceptions)


@pytest.mark.parametrize("url", URLS)
def test_the_default_profiles_rules_block_exactly_the_urls_its_policy_denies(url: str) -> None:
    profile = BUILTIN["default"]
    assert blocked(profile, url) == (profile.sites.verdict(url) == "deny"), url


def test_denying_localhost_too_blocks_this_machine_in_every_spelling() -> None:
    profile = Profile("p", allow_sites=("*",), deny_sites=("localhost", "private"))
    for url in ("http://localhost/", "http://a.localhost:3000/", "http://127.0.0.2/",
                "http://[::1]:8000/", "http://0.0.0.0/"):
        assert blocked(profile, url), url
    assert not blocked(profile, "http://localhost.example.com/")


def test_an_ipv4_mapped_ipv6_literal_is_blocked_whatever_address_it_carries() -> None:
    profile = BUILTIN["default"]
    assert blocked(profile, "http://[::ffff:a00:1]/")  # 10.0.0.1, as Chrome writes it
    assert blocked(profile, "http://[::ffff:808:808]/")  # stricter than policy: said so


@pytest.mark.parametrize(("pattern", "yes", "no"), [
    ("evil.example", ["https://evil.example/", "http://a.evil.example:8/x"],
     ["https://notevil.example/", "https://evil.example.com/"]),
    ("*.corp.example", ["https://a.corp.example/"], ["https://corp.example/"]),
    ("https://bank.example:8443/admin", ["https://bank.example:8443/admin/x",
                                         "https://bank.example:8443/admin?q"],
     ["https://bank.example/admin", "http://bank.example:8443/admin",
      "https://bank.example:8443/administrator"]),
    ("shop.example:443/cart*", ["https://shop.example/cart", "https://shop.example/carts",
                                "http://shop.example:443/cart"],
     ["http://shop.example/cart", "https://shop.example/"]),
    ("203.0.113.7", ["http://203.0.113.7:81/"], ["http://203.0.113.70/"]),
])
def test_a_denied_site_pattern_blocks_what_it_names_and_nothing_else(
        pattern: str, yes: list[str], no: list[str]) -> None:
    profile = Profile("p", allow_sites=("*",), deny_sites=(pattern,))
    for url in yes:
        assert blocked(profile, url), url
        assert profile.sites.verdict(url) == "deny", url
    for url in no:
        assert not blocked(profile, url), url
        assert profile.sites.verdict(url) != "deny", url


def test_a_profile_that_stops_offsite_redirects_still_needs_the_debugger_to_navigate() -> None:
    narrow = Profile("p", allow_sites=("example.com",))
    assert not net_guard(narrow).complete
    assert net_guard(BUILTIN["default"]).complete
    assert net_guard(BUILTIN["read-only"]).never_attach
    assert not net_guard(BUILTIN["trusted"]).never_attach
