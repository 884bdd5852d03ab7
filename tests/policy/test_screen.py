"""Which document requests a page may send, judged from the profile's sites alone."""

from __future__ import annotations

from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.profiles import BUILTIN, DEFAULT_RULES, Profile
from tabsteward.bridge.policy.screen import screens, stop_reason

C = Category
WORK = Profile("work", allow_sites=("*.mycompany.com",), deny_sites=("private",))


def none(site: str, category: Category) -> bool:
    return False


def reason(url: str, profile: Profile = BUILTIN["default"], *, redirect: bool = True,
           main: bool = True, granted=none) -> str:
    return stop_reason(url, profile, redirect=redirect, main=main, granted=granted)


def test_a_redirect_to_a_private_address_is_stopped_under_the_default_profile() -> None:
    why = reason("http://192.168.1.1/admin")
    assert "denies the site http://192.168.1.1" in why


def test_a_denied_site_is_stopped_in_frames_and_first_requests_too() -> None:
    assert reason("http://10.0.0.7/", redirect=False, main=False)
    assert reason("http://10.0.0.7/", redirect=False, main=True)


def test_public_sites_pass_under_the_default_profile() -> None:
    assert reason("https://example.org/next") == ""


def test_a_redirect_outside_the_allowed_sites_is_stopped_unless_granted() -> None:
    why = reason("https://elsewhere.example/", WORK)
    assert "outside the sites policy profile 'work' allows" in why
    granted = reason("https://elsewhere.example/", WORK,
                     granted=lambda site, c: (site, c) == ("https://elsewhere.example",
                                                           C.NAVIGATE_OFFSITE))
    assert granted == ""


def test_outside_the_allowed_sites_only_a_redirect_of_the_page_is_stopped() -> None:
    # the agent's own navigation was judged (and maybe asked) before it was sent; a frame
    # from elsewhere is the page's business
    assert reason("https://elsewhere.example/", WORK, redirect=False) == ""
    assert reason("https://elsewhere.example/", WORK, main=False) == ""


def test_a_profile_that_lets_offsite_navigation_through_stops_only_denied_sites() -> None:
    loose = Profile("loose", allow_sites=("*.mycompany.com",), deny_sites=("private",),
                    rules={**DEFAULT_RULES, C.NAVIGATE_OFFSITE: Rule.ALLOW})
    assert reason("https://elsewhere.example/", loose) == ""
    assert reason("http://192.168.0.1/", loose)


def test_requests_are_paused_only_when_the_sites_can_refuse_one() -> None:
    assert screens(BUILTIN["default"].sites)
    assert screens(WORK.sites)
    assert not screens(Profile("open", allow_sites=("*",), deny_sites=()).sites)
