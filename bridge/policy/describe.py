"""The one line a person reads: what an action really does, to what, on which site."""

from __future__ import annotations

import re

from .facts import Facts, facts_of, quote
from .files import shown_path
from .intent import Element, Intent
from .keystrokes import shown
from .sites import Url, is_blank, parse_url, site_of
from .words import NAVIGATING


def describe(intent: Intent) -> str:
    """One line: what the action really does to which element on which site."""
    f = facts_of(intent)
    on = f" on {page_of(intent.page_url)}"
    if f.action in NAVIGATING:
        return _describe_navigation(f)
    if f.el is None:
        return _describe_bare(f) + on
    where = f" in a frame from {host_of(f.doc)}" if f.framed else ""
    return f"{_describe_element(f)}{where}{on}"


def _describe_navigation(f: Facts) -> str:
    tab = " in a new tab" if f.action == "tab_open" else ""
    if not f.intent.url:
        return f"open a new blank tab (from {page_of(f.intent.page_url)})"
    u = parse_url(f.intent.url)
    if u is not None and u.scheme == "javascript":
        return f"run a javascript: URL on {page_of(f.intent.page_url)}"
    return f"go to {place(f.intent.url)}{tab} from {page_of(f.intent.page_url)}"


def _describe_bare(f: Facts) -> str:
    intent = f.intent
    whose = "the person's" if intent.person_tab else "the agent's"
    texts = {
        "eval": "run script the agent wrote" + (
            f" (SHA-256 {intent.extra['sha256'][:12]})" if intent.extra.get("sha256") else ""),
        "read_storage": "read cookies and storage",
        "download": (f"download {place(intent.url)}" if intent.url else "download a file")
        + _saved_at(intent),
        "save": f"save {quote(intent.extra.get('what') or 'a file', 30)[1:-1]}"
        + _saved_at(intent),
        "tab_close": f"close {whose} tab", "tab_select": f"switch to {whose} tab",
        "tab_open": "open a tab", "scroll": "scroll the page", "read": "read the page",
        "dialog": f"{'accept' if intent.keys == 'accept' else 'dismiss'} the page's dialog",
        "press": f"press {quote(shown(intent.keys.split()), 60)}",
    }
    return texts.get(intent.action, re.sub(r"[^a-z_]", "", intent.action) or "act")


def _describe_element(f: Facts) -> str:
    assert f.el is not None
    target, intent = target_of(f.el), f.intent
    if f.action in ("fill", "type"):
        text = f"{intent.action} {len(intent.text)} characters into {target}"
    elif f.action == "press":
        text = f"press {quote(shown(intent.keys.split()), 60)} in {target}"
    elif f.action == "upload":
        names = ", ".join(shown_path(n) for n in intent.files[:5])
        more = f" and {len(intent.files) - 5} more" if len(intent.files) > 5 else ""
        text = f"upload {len(intent.files)} file(s) ({names}{more}) with {target}"
    elif f.action == "download":
        text = f"download {place(intent.url or f.el.href)} from {target}{_saved_at(intent)}"
    elif f.action == "select":
        text = f"choose an option in {target}"
    else:
        verb = {"hover": "hover over", "scroll": "scroll to"}.get(f.action, f.action)
        text = f"{verb} {target}"
    return text + _effect(f)


def _saved_at(intent: Intent) -> str:
    if not intent.files:
        return ""
    replaces = ", replacing the file there" if intent.extra.get("replaces") else ""
    return f" to {shown_path(intent.files[0])}{replaces}"


def _effect(f: Facts) -> str:
    if f.submits and f.form is not None:
        to = ""
        if f.form.action and site_of(f.form.action) != site_of(f.doc):
            to = f" to {place(f.form.action)}"
        return f" (submits its form{to})"
    if f.href and f.action != "download":
        return f" (leads to {place(f.href)})"
    return ""


def target_of(el: Element) -> str:
    kind = el.role if re.fullmatch(r"[a-z]{2,20}", el.role) else ""
    if el.tag == "input" and el.type == "file":
        kind = "file input"
    if not kind:
        kind = el.tag if re.fullmatch(r"[a-z][a-z0-9]{0,9}", el.tag) else "element"
    return f"{kind} {quote(el.name)}" if el.name.strip() else kind


def element_of(el: Element) -> str:
    """The target as a person would know it: its role and name, and the form it is in."""
    text = target_of(el)
    form = el.form
    if form is not None:
        named = f" {quote(form.name)}" if form.name.strip() else ""
        goes = f", which sends to {place(form.action)}" if form.action else ""
        text += f" in the form{named}{goes}"
    return text


def host_of(url: str) -> str:
    u = parse_url(url)
    if u is not None and u.host and u.scheme in ("http", "https"):
        return u.host_display
    return place(url)


def page_of(url: str) -> str:
    """The page an action happens on, by its site."""
    u = parse_url(url) if url and not is_blank(url) else None
    if u is not None and u.scheme in ("http", "https"):
        return site_of(url)
    return place(url)


def place(url: str) -> str:
    """A URL as a person should read it: its site, and its path when that says more."""
    if not url or is_blank(url):
        return "a blank page"
    u = parse_url(url)
    if u is None:
        return f"the unreadable address {quote(url, 60)}"
    return place_of(u, url)


def place_of(u: Url, url: str) -> str:
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
