"""Site patterns and allow/deny lists, read the way Chrome reads URLs."""

from __future__ import annotations

import pytest
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy.sites import SiteList, matches, parse_pattern, parse_url, site_of

DEFAULT = SiteList.of(["*", "localhost"], ["file:", "private", "chrome:"])


@pytest.mark.parametrize(("pattern", "url"), [
    ("example.com", "https://example.com/"),
    ("example.com", "http://www.example.com/a"),
    ("example.com", "https://a.b.example.com:8443/"),
    ("EXAMPLE.com", "https://Example.COM./"),
    ("*.example.com", "https://mail.example.com/"),
    ("https://mail.google.com/u/*", "https://mail.google.com/u/0/#inbox"),
    ("https://mail.google.com/u", "https://mail.google.com/u/1"),
    ("example.com:8080", "http://example.com:8080/"),
    ("https://example.com:443", "https://example.com/"),
    ("bücher.de", "https://xn--bcher-kva.de/"),
    ("xn--bcher-kva.de", "https://BÜCHER.de/"),
    ("*", "https://anything.example/"),
    ("*", "http://203.0.113.9/"),
    ("203.0.113.9", "http://203.0.113.9:81/x"),
    ("[2001:db8::1]", "http://[2001:db8:0::1]/"),
    ("example.com", "https://%65xample.com/"),
    ("example.com", "https:example.com/path"),
])
def test_a_pattern_matches_the_sites_it_names(pattern: str, url: str) -> None:
    assert matches(pattern, url)


@pytest.mark.parametrize(("pattern", "url"), [
    ("example.com", "https://notexample.com/"),
    ("example.com", "https://example.com.evil.net/"),
    ("*.example.com", "https://example.com/"),
    ("https://example.com", "http://example.com/"),
    ("example.com:8080", "http://example.com/"),
    ("https://mail.google.com/u/*", "https://mail.google.com/settings"),
    ("https://mail.google.com/u", "https://mail.google.com/users"),
    ("https://mail.google.com/u/*", "https://mail.google.com/u/../settings"),
    ("https://mail.google.com/u/*", "https://mail.google.com/u/%2e%2e/settings"),
    ("*", "file:///etc/passwd"),
    ("*", "data:text/html,hi"),
    ("*", "chrome://settings"),
    ("*", "javascript:alert(1)"),
    ("203.0.113.9", "http://203.0.113.99/"),
    ("good.example", "https://evil.example\\@good.example/"),
    ("good.example", "https://good.example@evil.example/"),
    ("good.example", "https://good.example%2eevil.example/"),
    ("example.com", "not a url"),
])
def test_a_pattern_does_not_match_other_sites(pattern: str, url: str) -> None:
    assert not matches(pattern, url)


@pytest.mark.parametrize("url", [
    "http://localhost:3000/", "http://LOCALHOST./", "http://app.localhost/", "http://127.0.0.1/",
    "http://127.8.9.10:8000/", "http://[::1]:9222/json", "http://0x7f.1/", "http://2130706433/",
    "http://0177.0.0.1/", "http://127.1/", "http://0.0.0.0:8080/", "http://[::ffff:127.0.0.1]/",
])
def test_localhost_covers_every_way_of_writing_this_machine(url: str) -> None:
    assert matches("localhost", url)
    assert DEFAULT.verdict(url) == "allowed"


@pytest.mark.parametrize("url", [
    "http://192.168.1.1/", "http://10.0.0.138/admin", "http://172.16.5.4/", "http://172.31.255.1/",
    "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://[fd00::1]/",
    "http://[fe80::1]/", "http://nas.local/", "http://printer.internal/", "http://router/",
    "http://0xc0.0xa8.1.1/", "http://3232235777/", "http://[::ffff:192.168.1.1]/",
    "http://fritz.box.lan/", "https://%31%39%32.168.1.1/",
])
def test_private_covers_home_and_office_networks(url: str) -> None:
    assert matches("private", url)
    assert DEFAULT.verdict(url) == "deny"


@pytest.mark.parametrize("url", ["http://172.32.0.1/", "http://8.8.8.8/", "https://example.com/",
                                 "http://192.169.0.1/", "http://localhost/"])
def test_private_leaves_public_addresses_and_this_machine_alone(url: str) -> None:
    assert not matches("private", url)


@pytest.mark.parametrize(("word", "url"), [
    ("file:", "file:///etc/passwd"),
    ("file:", "FILE://server/share/x.txt"),
    ("data:", "data:text/html;base64,PHNjcmlwdD4="),
    ("blob:", "blob:https://example.com/0f1e-22"),
    ("about:", "about:blank"),
    ("chrome:", "chrome://settings/passwords"),
    ("chrome:", "chrome-extension://abcdefgh/popup.html"),
    ("chrome:", "devtools://devtools/bundled/inspector.html"),
    ("chrome:", "view-source:https://example.com/"),
    ("chrome:", "about:settings"),
])
def test_special_words_name_their_kind_of_url(word: str, url: str) -> None:
    assert matches(word, url)


def test_about_blank_is_not_a_browser_page() -> None:
    assert not matches("chrome:", "about:blank")


def test_a_blob_url_matches_by_its_origin_as_well_as_by_blob() -> None:
    url = "blob:https://docs.example.com/5b1c-77aa"
    assert matches("example.com", url)
    assert matches("blob:", url)
    assert not matches("other.example", url)
    assert SiteList.of(["*.example.com"], []).verdict(url) == "allowed"
    assert SiteList.of(["*"], ["docs.example.com"]).verdict(url) == "deny"


def test_a_blob_url_without_a_web_origin_matches_only_blob() -> None:
    assert not matches("*", "blob:null/1234")
    assert matches("blob:", "blob:null/1234")


def test_deny_wins_over_allow() -> None:
    sites = SiteList.of(["example.com"], ["admin.example.com"])
    assert sites.verdict("https://admin.example.com/") == "deny"
    assert sites.verdict("https://www.example.com/") == "allowed"
    assert sites.verdict("https://other.example/") == "outside"


def test_about_blank_is_always_allowed_because_new_tabs_start_there() -> None:
    sites = SiteList.of([], ["about:"])
    assert sites.verdict("about:blank") == "allowed"
    assert sites.verdict("about:blank#x") == "allowed"
    assert sites.verdict("about:version") == "deny"


def test_the_defaults_leave_data_urls_outside_and_deny_files_and_browser_pages() -> None:
    assert DEFAULT.verdict("data:text/html,<h1>hi") == "outside"
    assert DEFAULT.verdict("file:///home/me/.ssh/id_rsa") == "deny"
    assert DEFAULT.verdict("chrome://settings") == "deny"
    assert DEFAULT.verdict("https://example.com/") == "allowed"


def test_a_url_chrome_would_refuse_is_outside_every_list() -> None:
    assert DEFAULT.verdict("http://1.2.3.4.5/") == "outside"
    assert DEFAULT.verdict("example.com/no-scheme") == "outside"
    assert parse_url("http://09.1.1.1/") is None


@pytest.mark.parametrize(("url", "site"), [
    ("https://Shop.Example.com:443/cart?x=1", "https://shop.example.com"),
    ("http://localhost:3000/app", "http://localhost:3000"),
    ("http://0x7f.1/", "http://127.0.0.1"),
    ("http://[::1]:9222/json", "http://[::1]:9222"),
    ("https://bücher.de/", "https://xn--bcher-kva.de"),
    ("file:///etc/passwd", "file:"),
    ("data:text/plain,hi", "data:"),
    ("blob:https://x.example/1-2", "blob:https://x.example"),
    ("about:blank", "about:"),
    ("chrome://settings/", "chrome://settings"),
    ("javascript:alert(1)", "javascript:"),
    ("mailto:someone@example.com", "mailto:"),
    ("https://evil.example\\@good.example/", "https://evil.example"),
    ("http://[bad/", ""),
])
def test_site_of_gives_what_grants_are_kept_for(url: str, site: str) -> None:
    assert site_of(url) == site


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty"),
    ("ftp://example.com", "scheme"),
    ("exa*mple.com", "`*`"),
    ("*.192.168.1.1", "address has no subdomains"),
    ("example.com:99999", "port"),
    ("example.com:http", "port"),
    ("https://example.com/a*/b", "end the path"),
    ("file", "file:"),
    ("data", "data:"),
    ("exa mple.com", "host"),
    ("http://[::1", "host"),
])
def test_a_bad_pattern_is_refused_with_a_sentence_naming_it(text: str, why: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_pattern(text)
    assert repr(text) in caught.value.message
    assert why in caught.value.message


def test_special_words_are_read_in_any_case() -> None:
    assert parse_pattern("LocalHost").word == "localhost"
    assert parse_pattern("Private").word == "private"
