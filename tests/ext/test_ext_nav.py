"""What the extension connection does without a debugger for navigation, and when it must
leave it to the debugger (bridge/cdp/ext_nav.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tabsteward.bridge.cdp.ext_nav import Navigator, Unguarded, never_attached
from tabsteward.bridge.cdp.ext_reader import nav_events
from tabsteward.bridge.errors import BrowserError
from tabsteward.bridge.policy.netrules import net_guard
from tabsteward.bridge.policy.profiles import BUILTIN, Profile


def test_every_agent_navigates_without_the_debugger_unless_its_page_may_ask_first() -> None:
    for profile in ("read-only", "default"):
        for method in ("Page.navigate", "Page.reload", "Page.getNavigationHistory",
                       "Page.navigateToHistoryEntry"):
            assert Navigator.can(net_guard(BUILTIN[profile]), method)
    assert Navigator.can(Unguarded(), "Page.navigate")
    # a page given input may ask "Leave site?": only the debugger hears the question
    assert not Navigator.can(Unguarded(), "Page.navigate", asks=True)
    narrow = net_guard(Profile("read-only", allow_sites=("example.com",)))
    assert not Navigator.can(narrow, "Page.navigate")  # offsite redirects: Fetch's to stop
    assert not Navigator.can(Unguarded(), "Input.dispatchMouseEvent")


def test_the_session_set_up_waits_for_the_debugger_whatever_the_profile() -> None:
    narrow = net_guard(Profile("narrow", allow_sites=("example.com",)))
    for method in ("Page.enable", "Fetch.enable", "Page.setLifecycleEventsEnabled"):
        assert Navigator.can(narrow, method)
    assert not Navigator.can(narrow, "Network.enable")  # an action's report needs it


def go(answer: dict[str, Any], method: str = "Page.navigate") -> dict[str, Any]:
    async def call(*args: Any, **kwargs: Any) -> Any:
        assert args[:3] == ("nav.go", 7, "url" if method == "Page.navigate" else "reload")
        return answer
    return asyncio.run(Navigator(call).send(7, "MAIN", method, {"url": "https://a.test/"},
                                            30.0))


def test_a_navigation_answers_as_the_debuggers_page_navigate_would() -> None:
    assert go({"url": "https://a.test/"}) == {"frameId": "MAIN", "loaderId": "extension"}
    assert go({"url": "https://a.test/#x", "sameDocument": True}) == {"frameId": "MAIN"}
    failed = go({"url": "https://a.test/", "errorText": "net::ERR_BLOCKED_BY_CLIENT"})
    assert failed["errorText"] == "net::ERR_BLOCKED_BY_CLIENT"
    assert go({"url": "https://a.test/"}, "Page.reload") == {}


def test_a_navigation_whose_server_never_answers_fails_saying_so() -> None:
    with pytest.raises(BrowserError, match="did not start loading within 29 s"):
        go({"pending": True})


def test_a_read_only_refusal_says_nothing_was_done() -> None:
    message = never_attached("Input.dispatchMouseEvent").message
    assert "read-only" in message
    assert "nothing was done" in message


def test_a_load_told_by_the_extension_names_its_document_as_the_loader() -> None:
    assert nav_events("M", "loaded", "", "DOC")[0][1] == {
        "frameId": "M", "name": "load", "loaderId": "DOC"}
    assert go({"url": "https://a.test/", "documentId": "DOC"})["loaderId"] == "DOC"
