"""A click that submits a form returns once the next page is there, on both transports: a
navigation requested but not yet begun when the input was acknowledged is waited for."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fixture_server import Site
from pagetools import goto, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab

MAIN = "MAINFRAME"


def tab_like(loading: bool = False) -> Any:
    return SimpleNamespace(target_id=MAIN, state=SimpleNamespace(loading=loading))


def requested(disposition: str = "currentTab", frame: str = MAIN) -> tuple[str, dict[str, Any]]:
    return ("Page.frameRequestedNavigation", {"frameId": frame, "reason": "formSubmissionPost",
                                              "url": "http://x/", "disposition": disposition})


def test_a_navigation_requested_and_not_begun_is_waited_for() -> None:
    assert actions._only_requested(tab_like(), [requested()])


def test_a_navigation_that_began_or_loads_already_is_not_waited_for_again() -> None:
    begun = ("Page.frameStartedLoading", {"frameId": MAIN})
    assert not actions._only_requested(tab_like(), [requested(), begun])
    assert not actions._only_requested(tab_like(loading=True), [requested()])
    navigated = ("Page.frameNavigated", {"frame": {"id": MAIN}})
    assert not actions._only_requested(tab_like(), [requested(), navigated])


def test_a_navigation_of_another_tab_or_frame_or_a_download_is_not_waited_for() -> None:
    assert not actions._only_requested(tab_like(), [requested("newTab")])
    assert not actions._only_requested(tab_like(), [requested("download")])
    assert not actions._only_requested(tab_like(), [requested(frame="CHILD")])


@pytest.mark.browser
async def test_every_click_that_submits_a_form_returns_on_the_next_page(
        tab: Tab, site: Site) -> None:
    for _ in range(6):  # the race showed about once in eight through the extension
        await goto(tab, site.url("asleep.html"))
        shot = await tab.snapshot(interactive=True)
        out = await actions.click(tab, target(shot, "button", "Save"))
        assert "navigated to" in out.text(), out.text()
        after = await tab.snapshot()
        assert "page: Received" in after.text, after.text[:200]
