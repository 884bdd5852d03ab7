"""Site patterns and allow/deny lists, read the way Chrome reads URLs."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from props import (
    known_bug,
    props,
    result_or_error,
)
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy import sites
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


# -- site patterns and lists -----------------------------------------------------------

HOSTS = st.sampled_from([
    "example.com", "a.example.com", "b.a.example.com", "EXAMPLE.com", "example.com.",
    "localhost", "app.localhost", "127.0.0.1", "0x7f.1", "2130706433", "0177.0.0.1",
    "10.1.2.3", "192.168.0.1", "0.0.0.0", "[::1]", "[::ffff:127.0.0.1]", "[fe80::1]",
    "intranet", "printer.local", "bücher.example", "xn--bcher-kva.example", "%65xample.com",
    "user:pw@example.com", "a..b", "256.1.1.1", "[::1", "",
]) | st.text(max_size=12)
PATH_PARTS = st.sampled_from(["a", "b", "..", ".", "%2e", "%2E%2e", "", "%41", "x y", "?q",
                              "#f", "*", "\\"]) | st.text(max_size=5)
PATHS = st.lists(PATH_PARTS, max_size=4).map("/".join)
URLS = st.builds(
    lambda scheme, sep, host, port, path: f"{scheme}:{sep}{host}{port}/{path}",
    st.sampled_from(["http", "https", "HTTP", "hTTps", "ws", "wss", "ftp", "file", "data",
                     "about", "chrome", "chrome-extension", "blob:http", "blob:https",
                     "blob:blob:https", "filesystem:http", "javascript", "view-source:http"])
    | st.from_regex(r"[a-zA-Z][a-zA-Z0-9+.-]{0,8}", fullmatch=True),
    st.sampled_from(["//", "", "/", "\\\\", "///", "\t//"]),
    HOSTS,
    st.sampled_from(["", ":80", ":443", ":8080", ":0", ":65536", ":x", ":"])
    | st.integers(0, 99999).map(":{}".format),
    PATHS,
) | st.sampled_from([
    "about:blank", "about:blank#x", " ABOUT:BLANK?q ", "about:srcdoc", "about:settings",
    "data:text/html,hi", "file:///etc/passwd", "chrome://settings", "blob:null/abc",
    "javascript:alert(1)", "", "http:", "https://",
]) | st.text(max_size=40)
PATTERNS = st.sampled_from([*sites.WORDS, "*", "LOCALHOST", " private "]) | st.builds(
    "".join,
    st.tuples(
        st.sampled_from(["", "http://", "https://", "*://", "HTTPS://", "ftp://"]),
        st.sampled_from(["", "", "*."]),
        HOSTS | st.just("*"),
        st.sampled_from(["", "", ":80", ":443", ":8080", ":*", ":0", ":99999", ":x"]),
        st.sampled_from(["", "/", "/*", "/a", "/a/", "/a*", "/a/b", "/%2e%2e/a", "/*/b"]),
    )) | st.text(max_size=20)


def _parses(text: str) -> bool:
    try:
        sites.parse_pattern(text)
    except UsageError:
        return False
    return True


VALID_PATTERNS = PATTERNS.filter(_parses)


@props(80)
@given(text=PATTERNS)
def test_a_site_pattern_is_parsed_or_refused_with_a_usage_error_naming_it(text: str) -> None:
    p, err = result_or_error(sites.parse_pattern, text)
    if err is not None:
        assert f"the site pattern {text!r} is not valid" in err.message
        return
    assert p.text == text.strip()
    assert p.kind in ("word", "any", "host", "subdomains", "ip")
    assert p.word in (*sites.WORDS, "")
    assert p.scheme in ("", "http", "https")
    assert p.port is None or 0 < p.port <= 65535
    assert sites.parse_pattern(p.text) == p


@props(70)
@given(url=URLS, pattern=VALID_PATTERNS)
def test_reading_any_url_gives_a_site_and_a_yes_or_no_for_any_pattern(
        url: str, pattern: str) -> None:
    site = sites.site_of(url)
    assert isinstance(site, str)
    parsed = sites.parse_url(url)
    assert (site == "") == (parsed is None)
    assert sites.matches(pattern, url) in (True, False)
    if parsed is not None:
        assert sites.matches(pattern, parsed) == sites.matches(pattern, url)


@props(70)
@given(url=URLS)
def test_the_site_of_a_web_url_is_its_own_site_and_the_schemes_case_does_not_matter(
        url: str) -> None:
    site = sites.site_of(url)
    if site.split(":", 1)[0] in sites.SPECIAL:
        assert sites.site_of(site) == site
    scheme, colon, rest = url.partition(":")
    if colon and scheme.isascii():
        assert sites.site_of(scheme.upper() + ":" + rest) == site


@props(70)
@given(allow=st.lists(VALID_PATTERNS, max_size=3), deny=st.lists(VALID_PATTERNS, max_size=3),
       url=URLS)
def test_the_verdict_is_deny_when_any_deny_pattern_matches_else_allowed_or_outside(
        allow: list[str], deny: list[str], url: str) -> None:
    lists = sites.SiteList.of(allow, deny)
    verdict = lists.verdict(url)
    assert verdict in ("deny", "allowed", "outside")
    if sites.is_blank(url):  # every tab starts there: always allowed
        assert verdict == "allowed"
        return
    denied = any(sites.matches(p, url) for p in lists.deny)
    allowed = any(sites.matches(p, url) for p in lists.allow)
    assert verdict == ("deny" if denied else "allowed" if allowed else "outside")


@props(60)
@given(pattern=VALID_PATTERNS, allow=st.lists(VALID_PATTERNS, max_size=3), url=URLS)
def test_a_pattern_in_both_lists_denies_every_url_it_matches(
        pattern: str, allow: list[str], url: str) -> None:
    assume(not sites.is_blank(url))
    verdict = sites.SiteList.of([*allow, pattern], [pattern]).verdict(url)
    assert verdict != "allowed" or not sites.matches(pattern, url)
    if sites.matches(pattern, url):
        assert verdict == "deny"


@known_bug()
@given(digits=st.integers(4301, 6000), host=st.sampled_from(["example.com", "[::1]"]))
def test_a_port_of_thousands_of_digits_is_a_url_chrome_refuses_and_a_bad_pattern(
        digits: int, host: str) -> None:
    port = "9" * digits
    assert sites.SiteList.of(["*"], []).verdict(f"https://{host}:{port}/") == "outside"
    with pytest.raises(UsageError):
        sites.parse_pattern(f"{host}:{port}")


@known_bug()
@given(depth=st.integers(3000, 6000), inner=st.sampled_from(["blob:", "filesystem:"]))
def test_a_url_with_a_thousand_nested_blob_prefixes_still_gets_a_verdict(
        depth: int, inner: str) -> None:
    url = inner * depth + "https://example.com/"
    assert sites.SiteList.of([], ["example.com"]).verdict(url) in ("deny", "outside")
