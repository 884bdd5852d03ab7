"""The classifier: what an action really does, read from page facts alone, and its rule."""

# Page text is evidence, never instruction: a name can only add a risk, never remove one, and
# what the agent says it is doing is not an input at all. Every page-supplied string that
# reaches a summary or a reason is quoted and cut, so it cannot read as our own words.

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import unquote

from .categories import Category, Rule
from .intent import Element, Form, Intent
from .profiles import Profile
from .sites import SiteList, Url, is_blank, parse_url, site_of

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


# -- what words on a page suggest --

def _phrases(*items: str) -> re.Pattern[str]:
    """Whole words or phrases, any case; a space in a phrase also matches no space."""
    body = "|".join(item.replace(" ", r"\s*") for item in items)
    return re.compile(rf"\b(?:{body})\b", re.IGNORECASE)


PURCHASE = _phrases(
    "buy", "buy now", "buy it now", "purchase", "pay", "pay now", "check out",
    "proceed to checkout", "place (your )?order", "complete (your )?(order|purchase|payment)",
    "confirm (your )?(order|purchase|payment)", "submit (your )?(order|payment)",
    "make (a )?payment", "approve (the )?(payment|transfer|transaction|purchase)",
    "subscribe", "donate", "add (a )?payment( method)?", "upgrade", "upgrade plan",
    "book now", "order now", "pre order", "place bid", "bid", "rent",
    "kaufen", "jetzt kaufen", "bezahlen", "zahlungspflichtig bestellen",
    "kostenpflichtig bestellen", "bestellen", "acheter", "payer", "commander",
    "passer (la )?commande", "comprar", "pagar", "realizar pedido", "finalizar compra")
SEND = _phrases(
    "send", "send now", "post", "publish", "tweet", "retweet", "repost", "reply",
    "reply all", "comment", "add (a )?comment", "share", "submit review", "email", "message",
    "invite", "transfer", "forward", "schedule (post|send|tweet|email)",
    "senden", "absenden", "veröffentlichen", "antworten", "teilen", "posten", "envoyer",
    "publier", "répondre", "partager", "enviar", "publicar", "responder", "compartir")
DELETE = _phrases(
    "delete", "remove", "erase", "destroy", "trash", "move to trash", "discard", "unsubscribe",
    "close (my |your |this )?account",
    "cancel (my |your |this )?(subscription|membership|plan|account|order)", "wipe",
    "deactivate", "purge", "clear (all|history|data|browsing data)", "factory reset",
    "löschen", "entfernen", "supprimer", "effacer", "eliminar", "borrar")
SETTINGS_NAME = _phrases(
    "(change|reset|update|set|edit|new) (your )?(password|email( address)?|phone( number)?|"
    "username)", "two factor( authentication)?", "2fa", "2 step( verification)?",
    "two step( verification)?", "mfa", "multi factor", "passkeys?", "security keys?",
    "authenticator( app)?", "recovery (email|phone|codes?)", "backup codes?", "ssh keys?",
    "gpg keys?", "api keys?", "(personal )?access tokens?",
    "(sign|log) out (of )?(all|everywhere|other)", "revoke", "authori[sz]e",
    "(grant|allow) access", "connected apps", "(delete|close) (my |your |this )?account",
    "transfer ownership", "change visibility")
SETTINGS_PATH = _phrases(
    "settings?", "security", "passwords?", "2fa", "two factor", "2 step", "two step", "mfa",
    "privacy", "billing", "profile edit", "edit profile", "recovery", "preferences", "oauth",
    "authori[sz]e", "consent", "signinoptions", "permissions")
ACCOUNT_PATH = _phrases("accounts?", "myaccount")
LOGIN_PATH = _phrases("log in", "sign in", "sign up", "register", "auth", "sso")
COMMIT_NAME = _phrases(
    "save", "save changes", "update", "apply", "confirm", "enable", "disable", "turn on",
    "turn off", "set up", "change", "add", "remove", "delete", "revoke", "reset", "regenerate",
    "generate", "done", "ok", "submit", "continue", "yes", "allow", "authori[sz]e", "verify",
    "activate", "deactivate")
COMPOSER = _phrases(
    "message", "reply", "comment", "post", "tweet", "chat", "send", "write", "compose",
    "publish", "respond", "nachricht", "antworten", "kommentar", "répondre", "commentaire",
    "mensaje", "responder", "comentario")
SUBMIT_NAME = _phrases(
    "submit", "save", "continue", "next", "sign in", "log in", "sign up", "register",
    "confirm", "ok", "done", "apply", "update", "search", "go", "proceed", "create", "finish",
    "verify", "send", "post", "publish", "pay", "buy", "order", "place order", "subscribe",
    "delete", "remove")
MONEY = re.compile(r"[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf)\b)|"
                   r"\b(?:usd|eur|gbp|chf)\s?\d", re.IGNORECASE)
SECRET_FIELDS = (
    ("password", _phrases("password", "passwd", "pwd", "passcode", "pin")),
    ("one-time-code", _phrases("otp", "totp", "hotp", "2fa", "mfa",
                               "one time (code|password|passcode|pin)", "verification code",
                               "security code", "auth(entication)? code", "(sms|text) code")),
    ("card or bank", _phrases("card( number)?", "card holder", "cc (number|num|exp|csc|cvc|cvv)",
                              "ccnum", "cvc2?", "cvv2?", "csc", "cvn", "iban", "bic", "swift",
                              "expiry( date)?", "expiration( date)?", "exp (date|month|year)",
                              "routing number", "account number", "sort code")),
    ("identity number", _phrases("ssn", "social security( number)?", "tax id",
                                 "passport number")),
)
SENSITIVE_FILE = re.compile(
    r"^(id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.env(\..*)?|\.netrc|\.npmrc|\.pypirc|"
    r"credentials(\.json)?|cookies|login data|wallet\.dat|.*\.(pem|key|p12|pfx|kdbx|keychain|"
    r"gpg|ovpn))$", re.IGNORECASE)

FAMILIES = ((C.PURCHASE, PURCHASE, "a purchase or payment"),
            (C.SEND, SEND, "sending or publishing"),
            (C.DELETE, DELETE, "deleting"))

TEXT_TYPES = frozenset({"", "text", "search", "email", "url", "tel", "password", "number",
                        "date", "datetime-local", "month", "time", "week"})
BUTTON_ROLES = frozenset({"button", "menuitem", "menuitemcheckbox", "menuitemradio", "tab",
                          "switch", "checkbox", "radio", "option", "treeitem"})
TOGGLE_ROLES = frozenset({"switch", "checkbox", "radio", "menuitemcheckbox", "menuitemradio"})
ACTING = frozenset({"click", "fill", "type", "press", "select", "check", "uncheck", "upload"})
NAVIGATING = frozenset({"navigate", "tab_open"})
SIMPLE = {"upload": C.UPLOAD, "download": C.DOWNLOAD, "eval": C.EVAL,
          "read_storage": C.READ_STORAGE}
PASTE_MODS = frozenset({"control", "ctrl", "meta", "cmd", "command"})


# -- quoting page text --

def quote(text: str, limit: int = 60) -> str:
    """Page text as a quoted, cut, one-line string: no control, format (bidi) or separator
    characters, quotes and backslashes escaped."""
    visible = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    clean = " ".join(visible.split())
    if len(clean) > limit:
        clean = clean[:limit - 1].rstrip() + "…"
    return '"' + clean.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _plain(text: str) -> str:
    """Words only: camelCase split apart, punctuation and invisible characters as spaces."""
    split = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return " ".join(re.sub(r"[\W_]+", " ", split).split())


def _address(url: str) -> str:
    """The path (and query) of a URL, decoded, for reading words in it."""
    u = parse_url(url)
    if u is None or u.scheme not in ("http", "https"):
        return ""
    query = url.split("?", 1)[1].split("#", 1)[0] if "?" in url else ""
    return unquote(u.path + ("?" + query if query else ""))


# -- the facts of one intent --

@dataclass(frozen=True)
class _Facts:
    """What the intent does, derived once: whether it clicks, submits, types, where it leads."""

    intent: Intent
    el: Element | None
    form: Form | None
    doc: str            # URL of the document holding the element: its frame, or the page
    framed: bool        # the element is in a frame from another site than the page
    activates: bool     # clicks the element (a click, or Enter/Space on something clickable)
    enter: bool         # Enter goes to the element
    implicit: bool      # Enter in a field submits its form
    submits: bool       # the element's form gets submitted
    typing: bool        # text goes into the element
    href: str           # where activating the element leads ("" when nowhere)

    @property
    def action(self) -> str:
        return self.intent.action


def _facts(intent: Intent) -> _Facts:
    el = intent.element
    form = el.form if el is not None else None
    doc = intent.page_url
    if el is not None and el.frame_url and not _inherits_origin(el.frame_url):
        doc = el.frame_url
    chords = _chords(intent.keys) if intent.action == "press" else []
    enter = el is not None and any(key == "enter" for _, key in chords)
    # a click into a text field focuses it: what it is named for happens on submit
    clicks = intent.action == "click" and not (el is not None and (
        _single_line(el) or _multi_line(el)))
    activates = clicks or (el is not None and _key_activates(el, chords))
    implicit = form is not None and el is not None and _implicit_submit(el, chords)
    submits = form is not None and el is not None and (
        implicit or (activates and (form.submits or _named_submit(el))))
    typing = intent.action in ("fill", "type") or (el is not None and _types_text(chords))
    href = el.href if activates and el is not None else ""
    framed = doc != intent.page_url and site_of(doc) != site_of(intent.page_url)
    return _Facts(intent, el, form, doc, framed, activates, enter, implicit, submits, typing,
                  href)


def _inherits_origin(url: str) -> bool:
    """about:blank and about:srcdoc frames belong to the page that made them."""
    u = parse_url(url)
    return u is not None and u.scheme == "about" and u.path.lower().startswith(("blank",
                                                                                "srcdoc"))


def _chords(keys: str) -> list[tuple[frozenset[str], str]]:
    """'Control+Enter a' -> [({'control'}, 'enter'), ({}, 'a')]; names lower-cased."""
    out: list[tuple[frozenset[str], str]] = []
    for spec in keys.split():
        parts = [*spec[:-2].split("+"), "+"] if spec.endswith("++") else spec.split("+")
        if spec == "+":
            parts = ["+"]
        *mods, key = parts
        key = {"return": "enter", " ": "space"}.get(key.lower(), key.lower())
        out.append((frozenset(m.lower() for m in mods if m), key))
    return out


def _types_text(chords: list[tuple[frozenset[str], str]]) -> bool:
    """Keys that put text into a field: characters, space, or a paste."""
    for mods, key in chords:
        if (len(key) == 1 or key == "space") and mods <= {"shift"}:
            return True
        if (mods & PASTE_MODS and key == "v") or (mods == {"shift"} and key == "insert"):
            return True
    return False


def _is_link(el: Element) -> bool:
    return el.role == "link" or (bool(el.href) and el.tag in ("a", "area"))


def _is_button(el: Element) -> bool:
    return (el.role in BUTTON_ROLES or el.tag in ("button", "summary")
            or (el.tag == "input" and el.type in ("submit", "button", "image", "reset",
                                                   "checkbox", "radio")))


def _is_toggle(el: Element) -> bool:
    return el.role in TOGGLE_ROLES or (el.tag == "input" and el.type in ("checkbox", "radio"))


def _single_line(el: Element) -> bool:
    if el.tag == "input":
        return el.type in TEXT_TYPES
    if el.tag == "textarea":
        return False
    return el.role in ("searchbox", "combobox", "spinbutton") or \
        (el.role == "textbox" and not el.tag)


def _multi_line(el: Element) -> bool:
    return el.tag == "textarea" or (el.role == "textbox" and el.tag not in ("", "input"))


def _key_activates(el: Element, chords: list[tuple[frozenset[str], str]]) -> bool:
    """Enter on a link or button, Space on a button, click it as a person would."""
    keys = {key for _, key in chords}
    if "enter" in keys and (_is_link(el) or _is_button(el)):
        return True
    return "space" in keys and _is_button(el)


def _implicit_submit(el: Element, chords: list[tuple[frozenset[str], str]]) -> bool:
    """Enter in a one-line field submits its form; Control/Meta+Enter in a text area often
    does too."""
    for mods, key in chords:
        if key != "enter":
            continue
        if _single_line(el) or (_multi_line(el) and mods & PASTE_MODS):
            return True
    return False


def _named_submit(el: Element) -> bool:
    """A button inside a form named like one that sends the form."""
    return _is_button(el) and not _is_toggle(el) and bool(SUBMIT_NAME.search(_plain(el.name)))


# -- classification --

def classify(intent: Intent, sites: SiteList) -> list[Finding]:
    """Every risk category the action falls in, each with a reason built from page facts."""
    return _classify(_facts(intent), sites)


def _classify(f: _Facts, sites: SiteList) -> list[Finding]:
    found: list[Finding] = []
    for rater in (_navigation, _outside_document, _simple, _tabs, _submission, _words,
                  _composer, _money, _payment_form, _credentials, _account_settings):
        found.extend(rater(f, sites))
    first: dict[Category, Finding] = {}
    for finding in found:
        first.setdefault(finding.category, finding)
    return [first[c] for c in Category if c in first]


def _destinations(f: _Facts) -> list[tuple[str, str]]:
    """(what leads there, URL) for every place the action may load."""
    out: list[tuple[str, str]] = []
    if f.action in NAVIGATING and f.intent.url:
        out.append(("the address", f.intent.url))
    if f.href and f.el is not None:
        out.append((_target(f.el), f.href))
    if f.submits and f.form is not None and f.form.action:
        out.append(("its form", f.form.action))
    return out


def _navigation(f: _Facts, sites: SiteList) -> list[Finding]:
    out: list[Finding] = []
    for what, url in _destinations(f):
        u = parse_url(url)
        if u is not None and u.scheme == "javascript":
            out.append(Finding(C.EVAL, f"{what} runs script (a javascript: URL)"))
            continue
        verdict = sites.verdict(url)
        if verdict != "allowed":
            where = "on the profile's deny list" if verdict == "deny" else \
                "outside the allowed sites"
            out.append(Finding(C.NAVIGATE_OFFSITE, f"{what} leads to {_place(url)}, {where}"))
    return out


def _outside_document(f: _Facts, sites: SiteList) -> list[Finding]:
    """Acting on a page or frame outside the allowed sites (reached by a redirect, say)."""
    if f.action not in ACTING:
        return []
    for what, url in (("the page", f.intent.page_url), ("the frame holding it", f.doc)):
        if url and sites.verdict(url) == "outside":
            return [Finding(C.NAVIGATE_OFFSITE,
                            f"{what} is {_place(url)}, outside the allowed sites")]
    return []


def _simple(f: _Facts, sites: SiteList) -> list[Finding]:
    category = SIMPLE.get(f.action)
    if category is None:
        return []
    out = [Finding(category, _simple_reason(f))]
    if f.action == "upload":
        out.extend(Finding(C.CREDENTIALS, f"the upload includes {quote(name, 40)}, which looks "
                           "like a key or credentials file")
                   for name in f.intent.files if SENSITIVE_FILE.match(_basename(name)))
    return out


def _basename(path: str) -> str:
    return re.split(r"[\\/]", path)[-1]


def _simple_reason(f: _Facts) -> str:
    if f.action == "upload":
        return f"{len(f.intent.files)} file(s) would leave this computer"
    if f.action == "download":
        return f"a file from {_place(f.intent.url)} would be saved" if f.intent.url else \
            "a file would be saved"
    if f.action == "eval":
        return "script the agent wrote would run in the page"
    return "cookies or site storage would be read"


def _tabs(f: _Facts, sites: SiteList) -> list[Finding]:
    if f.action.startswith("tab_") and f.intent.person_tab:
        return [Finding(C.PERSON_TABS, "the tab belongs to the person, not to an agent")]
    return []


def _submission(f: _Facts, sites: SiteList) -> list[Finding]:
    if not f.submits or f.el is None:
        return []
    how = "Enter in " + _target(f.el) if f.implicit else _target(f.el)
    return [Finding(C.SUBMIT, f"{how} submits its form")]


def _sources(f: _Facts) -> list[tuple[str, str]]:
    """(what, words) of every page fact a name-based risk may be read from."""
    el, form = f.el, f.form
    out: list[tuple[str, str]] = []
    if el is not None and el.name and f.activates:  # a field's label is no action
        out.append((_target(el), el.name))
    if f.action == "dialog" and f.intent.keys == "accept" and f.intent.extra.get("message"):
        out.append(("the dialog being accepted", f.intent.extra["message"]))
    if f.href:
        out.append((f"the link's address {quote(_address(f.href))}", _address(f.href)))
    if f.submits and form is not None:
        out.extend([(f"its form's button {quote(form.submit_name)}", form.submit_name),
                    (f"its form {quote(form.name)}", form.name),
                    (f"the form's address {quote(_address(form.action))}",
                     _address(form.action))])
        out.extend(_page_addresses(f))
    return [(what, _plain(text)) for what, text in out if text]


def _page_addresses(f: _Facts) -> list[tuple[str, str]]:
    urls = dict.fromkeys(u for u in (f.doc, f.intent.page_url) if u)
    return [(f"the page address {quote(_address(u))}", _address(u)) for u in urls]


def _words(f: _Facts, sites: SiteList) -> list[Finding]:
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


def _composer(f: _Facts, sites: SiteList) -> list[Finding]:
    """Enter in a message box sends it in most chat and mail apps, form or no form."""
    if f.el is None or not f.enter or f.activates:
        return []
    m = COMPOSER.search(_plain(f.el.name))
    if m is None:
        return []
    return [Finding(C.SEND, f"Enter in {_target(f.el)} may send what it holds "
                            f"({quote(m.group(0), 30)})")]


def _money(f: _Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not (f.activates or f.submits):
        return []
    names = [(_target(f.el), f.el.name if f.activates else "")]
    if f.submits and f.form is not None:
        names.append((f"its form's button {quote(f.form.submit_name)}", f.form.submit_name))
    for what, name in names:
        if name and MONEY.search(name):
            return [Finding(C.PURCHASE, f"{what} names an amount of money")]
    return []


def _payment_form(f: _Facts, sites: SiteList) -> list[Finding]:
    if not f.submits or f.form is None or f.el is None:
        return []
    how = "Enter in " + _target(f.el) if f.implicit else _target(f.el)
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
    if el.type == "password" or tokens & {"current-password", "new-password"}:
        return "password"
    if "one-time-code" in tokens:
        return "one-time-code"
    if any(t.startswith("cc-") for t in tokens):
        return "card or bank"
    hints = _plain(f"{el.field} {el.name}")
    for kind, pattern in SECRET_FIELDS:
        if pattern.search(hints):
            return kind
    return ""


def _credentials(f: _Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not (f.typing or f.action == "select"):
        return []
    kind = secret_kind(f.el)
    verb = "choosing in" if f.action == "select" else "typing into"
    if kind:
        return [Finding(C.CREDENTIALS, f"{verb} {_target(f.el)}, a {kind} field")]
    if f.action in ("fill", "type") and _card_number(f.intent.text):
        return [Finding(C.CREDENTIALS, f"the text typed into {_target(f.el)} is a valid "
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


def _changes_something(f: _Facts) -> bool:
    if f.action in ("check", "uncheck", "select") or f.typing or f.submits:
        return True
    return f.activates and f.el is not None and (
        _is_toggle(f.el) or bool(COMMIT_NAME.search(_plain(f.el.name))))


def _account_settings(f: _Facts, sites: SiteList) -> list[Finding]:
    if f.el is None or not _changes_something(f):
        return []
    names = [(_target(f.el), f.el.name)]
    if f.submits and f.form is not None:
        names.append((f"its form's button {quote(f.form.submit_name)}", f.form.submit_name))
    for what, name in names:
        m = SETTINGS_NAME.search(_plain(name))
        if m:
            return [Finding(C.ACCOUNT_SETTINGS, f"{what} suggests an account or security "
                                                f"setting ({quote(m.group(0), 30)})")]
    if f.form is not None and f.form.method == "get":  # a search or filter changes nothing
        return []
    for what, url in _settings_places(f):
        if _settings_address(_address(url)):
            return [Finding(C.ACCOUNT_SETTINGS, f"it changes something on {what} "
                                                f"{quote(_address(url))}, an account or "
                                                "security settings address")]
    return []


def _settings_places(f: _Facts) -> list[tuple[str, str]]:
    out = [("the page", f.doc), ("the page", f.intent.page_url)]
    if f.submits and f.form is not None and f.form.action:
        out.insert(0, ("the form's address", f.form.action))
    return [(what, url) for what, url in out if url]


def _settings_address(path: str) -> bool:
    words = _plain(path)
    if SETTINGS_PATH.search(words):
        return True
    return bool(ACCOUNT_PATH.search(words)) and not LOGIN_PATH.search(words)


# -- the decision --

def decide(intent: Intent, profile: Profile, grants: GrantLookup) -> Verdict:
    """The rule for an action under a profile: a deny-listed site blocks; otherwise the
    strictest rule among its findings, where a grant for the site lifts its category."""
    f = _facts(intent)
    sites = profile.sites
    findings = tuple(_classify(f, sites))
    summary = describe(intent)
    denied = _denied_url(f, sites)
    if denied:
        return Verdict(Rule.BLOCK, findings, site_of(denied), summary, denied_site=True)
    site = _subject_site(f, sites)
    rule = _rule_after_grants(findings, profile, grants, site)
    return Verdict(rule, findings, site, summary)


def _denied_url(f: _Facts, sites: SiteList) -> str:
    """The first URL the action touches that the profile denies: the page's, the element's
    frame's, or a destination's."""
    urls = [url for _, url in _destinations(f)]
    if f.action in ("download",) and f.intent.url:
        urls.append(f.intent.url)
    if f.action not in ("tab_close", "tab_select"):  # leaving a page never harms it
        urls[:0] = [f.intent.page_url, f.doc]
    return next((url for url in urls if url and sites.verdict(url) == "deny"), "")


def _subject_site(f: _Facts, sites: SiteList) -> str:
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


# -- the summary a person reads --

def describe(intent: Intent) -> str:
    """One line: what the action really does to which element on which site."""
    f = _facts(intent)
    on = f" on {_page(intent.page_url)}"
    if f.action in NAVIGATING:
        return _describe_navigation(f)
    if f.el is None:
        return _describe_bare(f) + on
    where = f" in a frame from {_host(f.doc)}" if f.framed else ""
    return f"{_describe_element(f)}{where}{on}"


def _describe_navigation(f: _Facts) -> str:
    tab = " in a new tab" if f.action == "tab_open" else ""
    if not f.intent.url:
        return f"open a new blank tab (from {_page(f.intent.page_url)})"
    u = parse_url(f.intent.url)
    if u is not None and u.scheme == "javascript":
        return f"run a javascript: URL on {_page(f.intent.page_url)}"
    return f"go to {_place(f.intent.url)}{tab} from {_page(f.intent.page_url)}"


def _describe_bare(f: _Facts) -> str:
    intent = f.intent
    whose = "the person's" if intent.person_tab else "the agent's"
    texts = {
        "eval": "run script the agent wrote",
        "read_storage": "read cookies and storage",
        "download": f"download {_place(intent.url)}" if intent.url else "download a file",
        "tab_close": f"close {whose} tab", "tab_select": f"switch to {whose} tab",
        "tab_open": "open a tab", "scroll": "scroll the page", "read": "read the page",
        "dialog": f"{'accept' if intent.keys == 'accept' else 'dismiss'} the page's dialog",
        "press": f"press {quote(intent.keys, 40)}",
    }
    return texts.get(intent.action, re.sub(r"[^a-z_]", "", intent.action) or "act")


def _describe_element(f: _Facts) -> str:
    assert f.el is not None
    target, intent = _target(f.el), f.intent
    if f.action in ("fill", "type"):
        text = f"{intent.action} {len(intent.text)} characters into {target}"
    elif f.action == "press":
        text = f"press {quote(intent.keys, 40)} in {target}"
    elif f.action == "upload":
        names = ", ".join(quote(_basename(n), 40) for n in intent.files[:5])
        more = f" and {len(intent.files) - 5} more" if len(intent.files) > 5 else ""
        text = f"upload {len(intent.files)} file(s) ({names}{more}) with {target}"
    elif f.action == "download":
        text = f"download {_place(intent.url or f.el.href)} from {target}"
    elif f.action == "select":
        text = f"choose an option in {target}"
    else:
        verb = {"hover": "hover over", "scroll": "scroll to"}.get(f.action, f.action)
        text = f"{verb} {target}"
    return text + _effect(f)


def _effect(f: _Facts) -> str:
    if f.submits and f.form is not None:
        to = ""
        if f.form.action and site_of(f.form.action) != site_of(f.doc):
            to = f" to {_place(f.form.action)}"
        return f" (submits its form{to})"
    if f.href:
        return f" (leads to {_place(f.href)})"
    return ""


def _target(el: Element) -> str:
    kind = el.role if re.fullmatch(r"[a-z]{2,20}", el.role) else ""
    if el.tag == "input" and el.type == "file":
        kind = "file input"
    if not kind:
        kind = el.tag if re.fullmatch(r"[a-z][a-z0-9]{0,9}", el.tag) else "element"
    return f"{kind} {quote(el.name)}" if el.name.strip() else kind


def _host(url: str) -> str:
    u = parse_url(url)
    if u is not None and u.host and u.scheme in ("http", "https"):
        return u.host_display
    return _place(url)


def _page(url: str) -> str:
    """The page an action happens on, by its site."""
    u = parse_url(url) if url and not is_blank(url) else None
    if u is not None and u.scheme in ("http", "https"):
        return site_of(url)
    return _place(url)


def _place(url: str) -> str:
    """A URL as a person should read it: its site, and its path when that says more."""
    if not url or is_blank(url):
        return "a blank page"
    u = parse_url(url)
    if u is None:
        return f"the unreadable address {quote(url, 60)}"
    return _place_of(u, url)


def _place_of(u: Url, url: str) -> str:
    site = site_of(url)
    if u.scheme in ("http", "https", "ws", "wss", "ftp"):
        return site + (f", path {quote(u.path, 50)}," if u.path not in ("", "/") else "")
    if u.scheme == "file":
        return f"the local file {quote(u.path, 60)}"
    if u.scheme in ("blob", "filesystem"):
        inner = f" made by {site_of(u.path)}" if u.inner is not None else ""
        return f"a {u.scheme}: URL{inner}"
    if u.scheme == "about":
        return f"the browser page {quote(url, 40)}"
    if site.endswith(":"):
        return f"a {quote(u.scheme, 30)[1:-1]}: URL"
    return f"the browser page {site}"
