"""The classifier: what an action really does, read from page facts alone, and its rule."""

# Page text is evidence, never instruction: a name can only add a risk, never remove one, and
# what the agent says it is doing is not an input at all. Every page-supplied string that
# reaches a summary or a reason is quoted and cut, so it cannot read as our own words.

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import unquote

from .categories import Category, Rule
from .describe import describe, place, target_of
from .facts import Facts, address, facts_of, is_button, is_toggle, plain, quote
from .files import sensitive, shown_path, within
from .intent import Element, Intent
from .profiles import Profile
from .sites import SiteList, parse_url, site_of
from .words import (
    ACCOUNT_PATH,
    ACTING,
    COMMIT_NAME,
    COMPOSER,
    FAMILIES,
    LOGIN_PATH,
    MONEY,
    NAVIGATING,
    SECRET_FIELDS,
    SETTINGS_NAME,
    SETTINGS_PATH,
    SIMPLE,
    VAGUE_NAME,
)

C = Category
BLANK_SITE = "about:"  # the site of a tab that shows nothing yet


@dataclass(frozen=True)
class Finding:
    """One risk an action carries, with the page facts that show it."""

    category: Category
    reason: str


@dataclass(frozen=True)
class Verdict:
    """What policy does with an action: its rule, why, and a line a person can judge it by."""

    rule: Rule
    findings: tuple[Finding, ...]
    site: str          # the site grants are kept for (or the deny-listed site)
    summary: str       # what the action does, to which element, on which site
    denied_site: bool = False


class GrantLookup(Protocol):
    def allows(self, profile: str, site: str, category: Category) -> bool: ...


# -- classification --

def classify(intent: Intent, sites: SiteList) -> list[Finding]:
    """Every risk category the action falls in, each with a reason built from page facts."""
    return _classify(facts_of(intent), sites)


def _classify(f: Facts, sites: SiteList) -> list[Finding]:
    found: list[Finding] = []
    for rater in (_navigation, _outside_document, _simple, _saving, _tabs, _submission, _words,
                  _composer, _money, _payment_form, _credentials, _account_settings):
        found.extend(rater(f, sites))
    first: dict[Category, Finding] = {}
    for finding in found:
        first.setdefault(finding.category, finding)
    return [first[c] for c in Category if c in first]


def _destinations(f: Facts) -> list[tuple[str, str]]:
    """(what leads there, URL) for every place the action may load."""
    out: list[tuple[str, str]] = []
    if f.action in NAVIGATING and f.intent.url:
        out.append(("the address", f.intent.url))
    if f.href and f.el is not None:
        out.append((target_of(f.el), f.href))
    if f.submits and f.form is not None and f.form.action:
        out.append(("its form", f.form.action))
    return out


# what pages write in a link's href where its click is their script's, not the URL's:
# nothing, `void(0)`, `void 0`, `undefined`, `false`, `null`, `0`, each with a `;` or not
_NOTHING = re.compile(r"(?:void\s*\(\s*0\s*\)|void\s+0|undefined|false|null|0)?\s*;?")


def runs_nothing(url: str) -> bool:
    """Whether a javascript: URL runs no code: an empty body, one that only says nothing
    (`javascript:void(0);`), or a comment alone (`javascript://`, no line break after it,
    percent-encoded or not, that would end the comment)."""
    body = unquote(url.split(":", 1)[1] if ":" in url else "").strip()
    if body.startswith("//"):
        return not any(c in body for c in "\n\r\u2028\u2029")
    return _NOTHING.fullmatch(body) is not None


def _navigation(f: Facts, sites: SiteList) -> list[Finding]:
    out: list[Finding] = []
    for what, url in _destinations(f):
        u = parse_url(url)
        if u is not None and u.scheme == "javascript":
            # (a link's `javascript:void(0)` runs nothing: the page's own handler acts, as
            # on a button; a navigation to one is refused before it is asked about)
            if f.action in NAVIGATING or not runs_nothing(url):
                out.append(Finding(C.EVAL, f"{what} runs script (a javascript: URL)"))
            continue
        verdict = sites.verdict(url)
        if verdict != "allowed":
            where = "on the profile's deny list" if verdict == "deny" else \
                "outside the allowed sites"
            out.append(Finding(C.NAVIGATE_OFFSITE, f"{what} leads to {place(url)}, {where}"))
    return out


def _outside_document(f: Facts, sites: SiteList) -> list[Finding]:
    """Acting on a page or frame outside the allowed sites (reached by a redirect, say)."""
    if f.action not in ACTING:
        return []
    for what, url in (("the page", f.intent.page_url), ("the frame holding it", f.doc)):
        if url and sites.verdict(url) == "outside":
            return [Finding(C.NAVIGATE_OFFSITE,
                            f"{what} is {place(url)}, outside the allowed sites")]
    return []


def _simple(f: Facts, sites: SiteList) -> list[Finding]:
    category = SIMPLE.get(f.action)
    if category is None:
        return []
    out = [Finding(category, _simple_reason(f))]
    if f.action == "upload":  # the engine gives real paths: a link named cv.pdf is its target
        out.extend(Finding(C.CREDENTIALS, f"the upload includes {shown_path(path)}, which is "
                           "a key, credentials, keyring or browser profile file")
                   for path in f.intent.files if sensitive(path))
    return out


def _saving(f: Facts, sites: SiteList) -> list[Finding]:
    """A file saved outside the agent's own folder, or over a file that exists."""
    if f.action not in ("save", "download") or not f.intent.files:
        return []
    path, folder = f.intent.files[0], f.intent.extra.get("folder", "")
    reasons = []
    if not within(path, folder):
        reasons.append(f"the file would be saved at {shown_path(path)}, outside the agent's "
                       f"folder {shown_path(folder)}" if folder else
                       f"the file would be saved at {shown_path(path)}")
    if f.intent.extra.get("replaces"):
        reasons.append(f"it would replace the existing file {shown_path(path)}")
    return [Finding(C.WRITE_FILES, "; ".join(reasons))] if reasons else []


def _simple_reason(f: Facts) -> str:
    if f.action == "upload":
        return f"{len(f.intent.files)} file(s) would leave this computer"
    if f.action == "download":
        return f"a file from {place(f.intent.url)} would be saved" if f.intent.url else \
            "a file would be saved"
    if f.action == "eval":
        return "script the agent wrote would run in the page"
    return "cookies or site storage would be read"


def _tabs(f: Facts, sites: SiteList) -> list[Finding]:
    if f.action.startswith("tab_") and f.intent.person_tab:
        return [Finding(C.PERSON_TABS, "the tab belongs to the person, not to an agent")]
    return []


def _submission(f: Facts, sites: SiteList) -> list[Finding]:
    if not f.submits or f.el is None:
        return []
    how = "Enter in " + target_of(f.el) if f.implicit else target_of(f.el)
    return [Finding(C.SUBMIT, f"{how} submits its form")]


def _sources(f: Facts) -> list[tuple[str, str]]:
    """(what, words) of every page fact a name-based risk may be read from."""
    el, form = f.el, f.form
    out: list[tuple[str, str]] = []
    if el is not None and el.name and f.activates:  # a field's label is no action
        out.append((target_of(el), el.name))
    if el is not None and f.activates and shown_text(el):
        out.append((f"the text {quote(el.text)} on {target_of(el)}", el.text))
    if f.action == "dialog" and f.intent.keys == "accept" and f.intent.extra.get("message"):
        out.append(("the dialog being accepted", f.intent.extra["message"]))
    if f.href:
        out.append((f"the link's address {quote(address(f.href))}", address(f.href)))
    if f.submits and form is not None:
        out.extend([(f"its form's button {quote(form.submit_name)}", form.submit_name),
                    (f"its form's button showing {quote(form.submit_text)}", form.submit_text),
                    (f"its form {quote(form.name)}", form.name),
                    (f"the form's address {quote(address(form.action))}",
                     address(form.action))])
        out.extend(_page_addresses(f))
    return [(what, plain(text)) for what, text in out if text]


def _page_addresses(f: Facts) -> list[tuple[str, str]]:
    urls = dict.fromkeys(u for u in (f.doc, f.intent.page_url) if u)
    return [(f"the page address {quote(address(u))}", address(u)) for u in urls]


def _words(f: Facts, sites: SiteList) -> list[Finding]:
    out: list[Finding] = []
    sources = _sources(f)
    for category, pattern, meaning in FAMILIES:
        for what, words in sources:
            m = pattern.search(words)
            if m:
                out.append(Finding(category, f"{what} suggests {meaning} "
                                             f"({quote(m.group(0), 30)})"))
                break
    return out


def _composer(f: Facts, sites: SiteList) -> list[Finding]:
    """Enter in a message box sends it in most chat and mail apps, form or no form."""
    if f.el is None or not f.enter or f.activates:
        return []
    m = COMPOSER.search(plain(f.el.name))
    if m is None:
        return []
    return [Finding(C.SEND, f"Enter in {target_of(f.el)} may send what it holds "
                            f"({quote(m.group(0), 30)})")]


def _money(f: Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not (f.activates or f.submits):
        return []
    names = [(target_of(f.el), f.el.name if f.activates else "")]
    if f.activates and is_button(f.el) and shown_text(f.el):  # a link's text is its name
        names.append((f"the text on {target_of(f.el)}", f.el.text))
    if f.submits and f.form is not None:
        names.append((f"its form's button {quote(f.form.submit_name)}", f.form.submit_name))
        names.append((f"its form's button showing {quote(f.form.submit_text)}",
                      f.form.submit_text))
    for what, name in names:
        if name and MONEY.search(name):
            return [Finding(C.PURCHASE, f"{what} names an amount of money")]
    return _amount_nearby(f)


def _amount_nearby(f: Facts) -> list[Finding]:
    """A button that sends a form and says nothing of what it does ("Continue", or only an
    image) does what the amounts around it say."""
    el, form = f.el, f.form
    if el is None or form is None or not (f.activates and f.submits) or form.method == "get":
        return []
    if not VAGUE_NAME.match(plain(f"{el.name} {el.text}")):
        return []
    m = MONEY.search(el.near)
    if m is None:
        return []
    return [Finding(C.PURCHASE, f"{target_of(el)} sends a form that shows an amount of money "
                                f"({quote(m.group(0), 20)})")]


def shown_text(el: Element) -> bool:
    """The element shows text its name does not say (a label or aria-label renamed it)."""
    words = plain(el.text).lower()
    return bool(words) and words not in plain(el.name).lower()


def _payment_form(f: Facts, sites: SiteList) -> list[Finding]:
    if not f.submits or f.form is None or f.el is None:
        return []
    how = "Enter in " + target_of(f.el) if f.implicit else target_of(f.el)
    out: list[Finding] = []
    if f.form.has_payment:
        out.append(Finding(C.PURCHASE, f"{how} submits a form with card or payment fields"))
    if f.form.has_password:
        out.append(Finding(C.CREDENTIALS, f"{how} submits a form with a password field"))
    if f.form.has_otp:
        out.append(Finding(C.CREDENTIALS, f"{how} submits a form with a one-time-code field"))
    return out


def secret_kind(el: Element) -> str:
    """What secret a field takes ("password", "one-time-code", "card or bank",
    "identity number"), or "" when it looks like none."""
    tokens = set(el.autocomplete.split())
    if el.type == "password" or el.masked or tokens & {"current-password", "new-password"}:
        return "password"
    if "one-time-code" in tokens:
        return "one-time-code"
    if any(t.startswith("cc-") for t in tokens):
        return "card or bank"
    hints = plain(f"{el.field} {el.name}")
    for kind, pattern in SECRET_FIELDS:
        if pattern.search(hints):
            return kind
    return ""


def _credentials(f: Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not (f.typing or f.action == "select"):
        return []
    kind = secret_kind(f.el)
    verb = "choosing in" if f.action == "select" else "typing into"
    if kind:
        return [Finding(C.CREDENTIALS, f"{verb} {target_of(f.el)}, a {kind} field")]
    if f.action in ("fill", "type") and _card_number(f.intent.text):
        return [Finding(C.CREDENTIALS, f"the text typed into {target_of(f.el)} is a valid "
                                       "card number")]
    return []


def _card_number(text: str) -> bool:
    """13 to 19 digits (spaces and dashes aside) that pass the Luhn check."""
    digits = re.sub(r"[ -]", "", text.strip())
    if not (13 <= len(digits) <= 19 and digits.isascii() and digits.isdigit()):
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _changes_something(f: Facts) -> bool:
    if f.action in ("check", "uncheck", "select") or f.typing or f.submits:
        return True
    return f.activates and f.el is not None and (
        is_toggle(f.el) or bool(COMMIT_NAME.search(plain(f"{f.el.name} {f.el.text}"))))


def _account_settings(f: Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not _changes_something(f):
        return []
    names = [(target_of(f.el), f.el.name)]
    if f.activates and shown_text(f.el):
        names.append((f"the text {quote(f.el.text)} on {target_of(f.el)}", f.el.text))
    if f.submits and f.form is not None:
        names.append((f"its form's button {quote(f.form.submit_name)}", f.form.submit_name))
    for what, name in names:
        m = SETTINGS_NAME.search(plain(name))
        if m:
            return [Finding(C.ACCOUNT_SETTINGS, f"{what} suggests an account or security "
                                                f"setting ({quote(m.group(0), 30)})")]
    if f.form is not None and f.form.method == "get":  # a search or filter changes nothing
        return []
    for what, url in _settings_places(f):
        if _settings_address(address(url)):
            return [Finding(C.ACCOUNT_SETTINGS, f"it changes something on {what} "
                                                f"{quote(address(url))}, an account or "
                                                "security settings address")]
    return []


def _settings_places(f: Facts) -> list[tuple[str, str]]:
    out = [("the page", f.doc), ("the page", f.intent.page_url)]
    if f.submits and f.form is not None and f.form.action:
        out.insert(0, ("the form's address", f.form.action))
    return [(what, url) for what, url in out if url]


def _settings_address(path: str) -> bool:
    words = plain(path)
    if SETTINGS_PATH.search(words):
        return True
    return bool(ACCOUNT_PATH.search(words)) and not LOGIN_PATH.search(words)


# -- the decision --

def decide(intent: Intent, profile: Profile, grants: GrantLookup) -> Verdict:
    """The rule for an action under a profile: a deny-listed site blocks; otherwise the
    strictest rule among its findings, where a grant for the site lifts its category."""
    f = facts_of(intent)
    sites = profile.sites
    findings = tuple(_classify(f, sites))
    summary = describe(intent)
    denied = _denied_url(f, sites)
    if denied:
        return Verdict(Rule.BLOCK, findings, site_of(denied), summary, denied_site=True)
    site = _subject_site(f, sites)
    rule = _rule_after_grants(findings, profile, grants, site)
    return Verdict(rule, findings, site, summary)


def _denied_url(f: Facts, sites: SiteList) -> str:
    """The first URL the action touches that the profile denies: the page's, the element's
    frame's, or a destination's."""
    urls = [url for _, url in _destinations(f)]
    if f.action in ("download",) and f.intent.url:
        urls.append(f.intent.url)
    # leaving a page never harms it: closing its tab, or going to another address (the tab
    # may stand on the error page of a load the browser's site rules stopped)
    leaves = f.action in ("tab_close", "tab_select") or (
        f.action in NAVIGATING and bool(f.intent.url))
    if not leaves:
        urls[:0] = [f.intent.page_url, f.doc]
    return next((url for url in urls if url and sites.verdict(url) == "deny"), "")


def _subject_site(f: Facts, sites: SiteList) -> str:
    """Grants are kept per site: a navigation's destination, a link's when it leaves the
    allowed sites, otherwise the page's (the top page's, also for framed elements)."""
    target = ""
    if f.action in NAVIGATING and f.intent.url:
        target = f.intent.url
    elif f.href and sites.verdict(f.href) != "allowed":
        target = f.href
    u = parse_url(target) if target else None
    if u is not None and u.scheme != "javascript":
        return site_of(target)
    return site_of(f.intent.page_url) or BLANK_SITE


def _rule_after_grants(findings: Iterable[Finding], profile: Profile, grants: GrantLookup,
                       site: str) -> Rule:
    """Strictest first, so a grant is only looked up (and a one-shot one used) when it can
    change the outcome."""
    rules = sorted({(profile.rule(f.category), f.category) for f in findings},
                   key=lambda pair: -pair[0].strictness)
    for rule, category in rules:
        if rule is Rule.ALLOW:
            break
        if not grants.allows(profile.name, site, category):
            return rule
    return Rule.ALLOW
