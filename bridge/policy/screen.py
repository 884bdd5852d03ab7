"""Which document requests a page may send: judged before they leave, from the profile's
sites alone (a paused request cannot wait for the person, so nothing here asks)."""

# What the agent asked for was judged already: `open URL`, a click on a link. What it did
# not ask for is judged here, while the request waits at the browser: a redirect hop, a
# frame, a navigation the page started. A site the profile denies is never requested; a
# redirect of the page to a site outside its allowed ones is stopped too, unless the profile
# lets such navigations through or the person granted that site (the agent may then open
# the address itself and be asked).

from __future__ import annotations

from collections.abc import Callable

from .categories import Category, Rule
from .describe import place
from .profiles import Profile
from .sites import SiteList, site_of


def screens(sites: SiteList) -> bool:
    """Whether the sites can stop any request: a deny list, or an allow list short of `*`."""
    return bool(sites.deny) or not any(p.kind == "any" for p in sites.allow)


def stop_reason(url: str, profile: Profile, *, redirect: bool, main: bool,
                granted: Callable[[str, Category], bool]) -> str:
    """Why a document request to `url` must not leave ("" when it may). `redirect`: it is a
    redirect hop; `main`: it loads the tab's page, not a frame; `granted(site, category)`:
    the person's remembered grants."""
    verdict = profile.sites.verdict(url)
    if verdict == "deny":
        return f"policy profile {profile.name!r} denies the site {site_of(url) or place(url)}"
    if verdict != "outside" or not (redirect and main):
        return ""
    site = site_of(url)
    if profile.rule(Category.NAVIGATE_OFFSITE) is Rule.ALLOW or \
            granted(site, Category.NAVIGATE_OFFSITE):
        return ""
    return (f"{place(url)} is outside the sites policy profile {profile.name!r} allows (open "
            "it directly to ask the person)")
