"""Parsing what an action names: refs, role+name locators, text locators, CSS; malformed ones
refused."""

from __future__ import annotations

import pytest
from tabsteward.bridge.engine.snapshot import role_name_loc
from tabsteward.bridge.engine.targets import CssTarget, RefTarget, RoleTarget, TextTarget, parse
from tabsteward.bridge.errors import UsageError


@pytest.mark.parametrize(("text", "expected"), [
    ("@12", RefTarget(12)),
    ("  @3  ", RefTarget(3)),
    ("@e7", RefTarget(7)),
    ('loc=button "Save"', RoleTarget("button", "Save")),
    ('loc=button "Save" nth=2', RoleTarget("button", "Save", 2)),
    ('loc=menuitem-radio "A \\"quoted\\" name"', RoleTarget("menuitem-radio", 'A "quoted" name')),
    ('loc=link "back\\\\slash"', RoleTarget("link", "back\\slash")),
    ('loc=clickable ""', RoleTarget("clickable", "")),
    ("loc=#email", CssTarget("#email")),
    ('loc=input[name="q"]', CssTarget('input[name="q"]')),
    ("css=button.primary", CssTarget("button.primary")),
    ("#signup > button", CssTarget("#signup > button")),
])
def test_target_forms_parse_to_what_they_name(text: str, expected: object) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize("text", [
    "", "   ", "@", "@0", "@-1", "@x", "@1.5", "@ 3", "@e", "x" * 2001,
    'loc=button "unterminated', 'loc=button "Save" nth=x', 'loc=button "Save" extra',
    'loc=button "Save" nth=', "loc=", "loc=   ", "text=", "text=  ", 'text="', 'loc=text ""',
    'loc=text "  "', 'loc=text "a" nth=-1', 'text="a" more',
])
def test_malformed_targets_are_refused_with_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError):
        parse(text)


def test_empty_target_error_lists_the_accepted_forms() -> None:
    with pytest.raises(UsageError, match=r"@N from a snapshot, loc=\.\.\., or a CSS selector"):
        parse("")


def test_a_role_locator_round_trips_the_snapshot_quoting() -> None:
    for name in ['plain', 'with "quotes"', "back\\slash", 'both \\ "', ""]:
        for nth in (0, 3):
            assert parse("loc=" + role_name_loc("button", name, nth)) == \
                RoleTarget("button", name, nth)


@pytest.mark.parametrize(("text", "expected"), [
    ('loc=span.like in "Grace wrote a note."', CssTarget("span.like", "Grace wrote a note.")),
    ('loc=#feed button:has(use[href="#icon-reply"]) in "Ada \\"the\\" first"',
     CssTarget('#feed button:has(use[href="#icon-reply"])', 'Ada "the" first')),
    ('loc=a[title=" in "]', CssTarget('a[title=" in "]')),
    ('loc=span in "a" b', CssTarget('span in "a" b')),
    ('loc=span in ""', CssTarget('span in ""')),
])
def test_a_css_locator_may_name_the_words_of_the_card_it_sits_in(
        text: str, expected: CssTarget) -> None:
    assert parse(text) == expected


def test_uppercase_head_is_css_not_a_role() -> None:
    assert parse('loc=Button "x"') == CssTarget('Button "x"')


def test_typed_addresses_get_the_scheme_an_address_bar_would_give() -> None:
    from tabsteward.bridge.engine.actions import with_scheme
    assert with_scheme("example.org/a") == "https://example.org/a"
    assert with_scheme("localhost:8000/x") == "http://localhost:8000/x"
    assert with_scheme("127.0.0.1:9/") == "http://127.0.0.1:9/"
    assert with_scheme("http://example.org") == "http://example.org"
    assert with_scheme("about:blank") == "about:blank"
    assert with_scheme("file:///tmp/a.html") == "file:///tmp/a.html"


def test_a_role_locator_may_name_the_words_of_the_card_it_sits_in() -> None:
    assert parse('loc=button "more_vert" in "Ada \\"the\\" first"') == \
        RoleTarget("button", "more_vert", 0, 'Ada "the" first')
    for bad in ('loc=button "x" in ""', 'loc=button "x" in "a" nth=1', 'loc=button "x" in'):
        with pytest.raises(UsageError):
            parse(bad)


@pytest.mark.parametrize(("text", "expected"), [
    ('loc=text "Alice"', TextTarget("Alice")),
    ('loc=text "Archive" nth=0', TextTarget("Archive", 0)),
    ('loc=text "Archive" nth=2', TextTarget("Archive", 2)),
    ('loc=text "Archive" in "Carol"', TextTarget("Archive", None, "Carol")),
    ("text=Sign in", TextTarget("Sign in")),
    ('text="Sign \\"in\\""', TextTarget('Sign "in"')),
    ('text="Next" nth=1', TextTarget("Next", 1)),
])
def test_a_text_locator_names_the_element_that_shows_the_words(
        text: str, expected: TextTarget) -> None:
    assert parse(text) == expected
