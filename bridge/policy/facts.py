"""The facts of one intent, derived once from the page, and page text quoted safely."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote

from .intent import Element, Form, Intent
from .sites import parse_url, site_of
from .words import BUTTON_ROLES, CLICKING, PASTE_MODS, SUBMIT_NAME, TEXT_TYPES, TOGGLE_ROLES

# -- quoting page text --

def quote(text: str, limit: int = 60) -> str:
    """Page text as a quoted, cut, one-line string: no control, format (bidi) or separator
    characters, quotes and backslashes escaped."""
    visible = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    clean = " ".join(visible.split())
    if len(clean) > limit:
        clean = clean[:limit - 1].rstrip() + "…"
    return '"' + clean.replace("\\", "\\\\").replace('"', '\\"') + '"'


def plain(text: str) -> str:
    """Words only: camelCase split apart, punctuation and invisible characters as spaces."""
    split = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return " ".join(re.sub(r"[\W_]+", " ", split).split())


def address(url: str) -> str:
    """The path (and query) of a URL, decoded, for reading words in it."""
    u = parse_url(url)
    if u is None or u.scheme not in ("http", "https"):
        return ""
    query = url.split("?", 1)[1].split("#", 1)[0] if "?" in url else ""
    return unquote(u.path + ("?" + query if query else ""))


# -- the facts of one intent --

@dataclass(frozen=True)
class Facts:
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


def facts_of(intent: Intent) -> Facts:
    el = intent.element
    form = el.form if el is not None else None
    doc = intent.page_url
    if el is not None and el.frame_url and not inherits_origin(el.frame_url):
        doc = el.frame_url
    chords = chords_of(intent.keys) if intent.action == "press" else []
    enter = el is not None and any(key == "enter" for _, key in chords)
    # a click into a text field focuses it: what it is named for happens on submit
    clicks = clicks_element(intent) and not (el is not None and (
        single_line(el) or multi_line(el)))
    activates = clicks or (el is not None and key_activates(el, chords))
    implicit = form is not None and el is not None and implicit_submit(el, chords)
    submits = form is not None and el is not None and (
        implicit or (activates and (form.submits or named_submit(el))))
    typing = intent.action in ("fill", "type") or (el is not None and types_text(chords))
    href = el.href if activates and el is not None else ""
    framed = doc != intent.page_url and site_of(doc) != site_of(intent.page_url)
    return Facts(intent, el, form, doc, framed, activates, enter, implicit, submits, typing,
                  href)


def clicks_element(intent: Intent) -> bool:
    """The action clicks its element: a click, or the click made inside a download, a drag,
    or an upload through anything but a file input (a button that opens a chooser)."""
    el = intent.element
    if intent.action == "upload":
        return el is not None and not (el.tag == "input" and el.type == "file")
    return intent.action in CLICKING


def inherits_origin(url: str) -> bool:
    """about:blank and about:srcdoc frames belong to the page that made them."""
    u = parse_url(url)
    return u is not None and u.scheme == "about" and u.path.lower().startswith(("blank",
                                                                                "srcdoc"))


def chords_of(keys: str) -> list[tuple[frozenset[str], str]]:
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


def types_text(chords: list[tuple[frozenset[str], str]]) -> bool:
    """Keys that put text into a field: characters, space, or a paste."""
    for mods, key in chords:
        if (len(key) == 1 or key == "space") and mods <= {"shift"}:
            return True
        if (mods & PASTE_MODS and key == "v") or (mods == {"shift"} and key == "insert"):
            return True
    return False


def is_link(el: Element) -> bool:
    return el.role == "link" or (bool(el.href) and el.tag in ("a", "area"))


def is_button(el: Element) -> bool:
    return (el.role in BUTTON_ROLES or el.tag in ("button", "summary")
            or (el.tag == "input" and el.type in ("submit", "button", "image", "reset",
                                                   "checkbox", "radio")))


def is_toggle(el: Element) -> bool:
    return el.role in TOGGLE_ROLES or (el.tag == "input" and el.type in ("checkbox", "radio"))


def single_line(el: Element) -> bool:
    if el.tag == "input":
        return el.type in TEXT_TYPES
    if el.tag == "textarea":
        return False
    return el.role in ("searchbox", "combobox", "spinbutton") or \
        (el.role == "textbox" and not el.tag)


def multi_line(el: Element) -> bool:
    return el.tag == "textarea" or (el.role == "textbox" and el.tag not in ("", "input"))


def key_activates(el: Element, chords: list[tuple[frozenset[str], str]]) -> bool:
    """Enter on a link or button, Space on a button, click it as a person would."""
    keys = {key for _, key in chords}
    if "enter" in keys and (is_link(el) or is_button(el)):
        return True
    return "space" in keys and is_button(el)


def implicit_submit(el: Element, chords: list[tuple[frozenset[str], str]]) -> bool:
    """Enter in a one-line field submits its form (in Chrome, Enter in any input that is no
    button does: a checkbox, a date); Control/Meta+Enter in a text area often does too."""
    for mods, key in chords:
        if key != "enter":
            continue
        if single_line(el) or enter_submits_input(el) or (multi_line(el) and mods & PASTE_MODS):
            return True
    return False


def enter_submits_input(el: Element) -> bool:
    """An <input> whose Enter submits its form rather than clicking it."""
    return el.tag == "input" and el.type not in ("submit", "button", "image", "reset", "file",
                                                 "hidden")


def named_submit(el: Element) -> bool:
    """A button inside a form named like one that sends the form."""
    return is_button(el) and not is_toggle(el) and bool(
        SUBMIT_NAME.search(plain(f"{el.name} {el.text}")))

def basename(path: str) -> str:
    return re.split(r"[\\/]", path)[-1]
