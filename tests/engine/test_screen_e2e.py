"""Document requests wait for policy at the browser: a redirect to a site the profile denies
is failed before it is sent, on both transports, and the server behind it hears nothing."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from fixture_server import Site
from pagetools import goto, js
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.policy.categories import Category
from tabsteward.bridge.policy.intent import Intent
from tabsteward.bridge.policy.profiles import Profile
from tabsteward.bridge.policy.screen import screens, stop_reason

pytestmark = pytest.mark.browser

OTHER = "127.0.0.2"


class Screening:
    """A gate that lets every action run and screens requests with a real profile."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.asked: list[tuple[str, bool, bool]] = []

    async def __call__(self, tab: Tab, intent: Intent) -> None:
        return None

    def screens(self, tab: Tab) -> bool:
        return screens(self.profile.sites)

    def screen(self, tab: Tab, url: str, *, redirect: bool, main: bool) -> str:
        self.asked.append((url, redirect, main))
        return stop_reason(url, self.profile, redirect=redirect, main=main,
                           granted=lambda site, category: False)


def no_grants(site: str, category: Category) -> bool:
    return False


@pytest.fixture
def deny_other(tab: Tab) -> Iterator[Screening]:
    gate = Screening(Profile("strict", allow_sites=("*",), deny_sites=(OTHER,)))
    tab.browser.gate = gate
    yield gate
    tab.browser.gate = None


def bounce(site: Site, to: str) -> str:
    return site.url(f"redirect?to={quote(to, safe='')}")


async def test_open_of_an_address_that_redirects_to_a_denied_host_never_reaches_it(
        tab: Tab, site: Site, deny_other: Screening) -> None:
    await goto(tab, site.url("nav1.html"))
    land = site.other("land.html")
    with pytest.raises(PolicyError) as stopped:
        await actions.navigate(tab, bounce(site, land))
    assert f"stopped a redirect to {land} before it was sent" in stopped.value.message
    assert "denies the site http://127.0.0.2" in stopped.value.message
    assert site.received(OTHER, "/land.html") == []
    assert site.received("127.0.0.1", "/redirect") != []  # the first hop was allowed


async def test_a_link_that_redirects_to_a_denied_host_is_stopped_and_reported(
        tab: Tab, site: Site, deny_other: Screening) -> None:
    await goto(tab, site.url("nav1.html"))
    land = site.other("land.html?from=link")
    await js(tab, f"""(() => {{ const a = document.createElement('a');
        a.id = 'away'; a.textContent = 'away'; a.href = {bounce(site, land)!r};
        document.body.prepend(a); }})()""")
    out = await actions.click(tab, parse("#away"))
    assert any(c.startswith(f"stopped a redirect to {land}") for c in out.changes), out.text()
    assert not any(c.startswith("navigated to") for c in out.changes), out.text()
    assert site.received(OTHER, "/land.html") == []


async def test_a_frame_from_a_denied_host_is_never_requested_and_the_page_opens_saying_so(
        tab: Tab, site: Site, deny_other: Screening) -> None:
    before = len(site.received(OTHER, "/inner.html"))
    out = await actions.navigate(tab, site.url("frames.html"))
    assert out.data["url"] == site.url("frames.html")
    assert any(c.startswith(f"stopped a frame's request to {site.other('inner.html')}")
               for c in out.changes), out.text()
    assert len(site.received(OTHER, "/inner.html")) == before
    assert any(url.startswith(site.other("inner.html")) and not main
               for url, _, main in deny_other.asked)


async def test_allowed_pages_and_redirects_load_as_before(
        tab: Tab, site: Site, deny_other: Screening) -> None:
    out = await actions.navigate(tab, bounce(site, site.url("nav2.html")))
    assert out.data["url"] == site.url("nav2.html")
    assert await js(tab, "document.title") != ""


async def test_nothing_is_paused_when_the_profile_refuses_no_site(
        tab: Tab, site: Site) -> None:
    gate = Screening(Profile("open", allow_sites=("*",), deny_sites=()))
    tab.browser.gate = gate
    try:
        await goto(tab, site.url("frames.html"))
        assert not tab.screening
        assert gate.asked == []
    finally:
        tab.browser.gate = None
