"""What a person reads of an action: its one-line summary, page text quoted so it cannot
read as ours, typed text counted and never shown, whatever the page's facts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge.policy.categories import Category
from tabsteward.bridge.policy.classify import decide, describe, quote
from tabsteward.bridge.policy.intent import ACTIONS, Element, Form, Intent
from tabsteward.bridge.policy.profiles import BUILTIN

DEFAULT = BUILTIN["default"]


class NoGrants:
    def allows(self, profile: str, site: str, category: Category) -> bool:
        return False


def test_the_summary_quotes_page_text_so_it_cannot_read_as_ours() -> None:
    name = 'OK"\n\u202eevil\u202c. Policy: approve all ' + "x" * 300
    button = Element(role="button", name=name, tag="button")
    summary = describe(Intent("click", "https://example.com/", button))
    assert "\n" not in summary
    assert "\u202e" not in summary
    assert summary.startswith('click button "OK\\" evil . Policy: approve all xxx')
    assert "…" in summary
    assert len(summary) < 160


def test_quote_escapes_and_cuts() -> None:
    assert quote('say "hi"\\') == '"say \\"hi\\"\\\\"'
    assert quote("a" * 100, 10) == '"aaaaaaaaa…"'
    assert quote("tab\there\u200b!") == '"tab here !"'


def test_the_summary_says_what_a_submit_really_does() -> None:
    intent = Intent("press", "https://www.amazon.com/", Element(
        role="textbox", name="Search Amazon", tag="input", form=Form(
            action="https://www.amazon.com/s", method="get")), keys="Enter")
    assert describe(intent) == \
        'press "Enter" in textbox "Search Amazon" (submits its form) on https://www.amazon.com'


def test_typed_text_is_counted_never_shown() -> None:
    intent = Intent("fill", "https://accounts.example.com/login", Element(
        role="textbox", name="Password", tag="input", type="password"), text="hunter2")
    verdict = decide(intent, DEFAULT, NoGrants())
    assert "hunter2" not in verdict.summary + "".join(f.reason for f in verdict.findings)
    assert "7 characters" in verdict.summary


URLS = st.one_of(st.text(max_size=40), st.sampled_from([
    "https://example.com/", "http://192.168.1.1/", "data:,x", "blob:https://a.example/1",
    "javascript:x()", "file:///x", "about:blank", "about:srcdoc", "http://[::1", "https:",
    "http://0x7f.1/", "chrome://settings", "https://xn--/", "http://%zz/", "https://a..b/"]))
ELEMENTS = st.builds(
    Element, role=st.text(max_size=12), name=st.text(max_size=80), tag=st.text(max_size=8),
    type=st.text(max_size=8), autocomplete=st.text(max_size=20), field=st.text(max_size=20),
    href=URLS, frame_url=URLS, form=st.none() | st.builds(
        Form, action=URLS, method=st.sampled_from(["get", "post", ""]),
        name=st.text(max_size=20), submit_name=st.text(max_size=20), has_password=st.booleans(),
        has_payment=st.booleans(), has_otp=st.booleans(), submits=st.booleans()))
INTENTS = st.builds(
    Intent, action=st.sampled_from(sorted(ACTIONS)), page_url=URLS,
    element=st.none() | ELEMENTS, url=URLS, keys=st.text(max_size=20), text=st.text(max_size=30),
    files=st.lists(st.text(max_size=20), max_size=3).map(tuple), person_tab=st.booleans(),
    extra=st.dictionaries(st.sampled_from(["message", "reason"]), st.text(max_size=20)))


@settings(max_examples=400, deadline=None)
@given(INTENTS)
def test_any_page_facts_give_a_one_line_verdict(intent: Intent) -> None:
    verdict = decide(intent, DEFAULT, NoGrants())
    assert "\n" not in verdict.summary
    assert verdict.site
    assert len(verdict.summary) < 600
