"""What an action is about to do, as read from the page: the classifier's only input."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Every kind of action the hub gates.
ACTIONS = frozenset({
    "read",          # snapshot, text, screenshot: changes nothing; only the site is checked
    "navigate",      # open / back / forward / reload / tab-new URL: `url` is the destination
    "click",         # click, dblclick: `element`
    "hover", "focus", "scroll", "drag",
    "fill", "type",  # `element`, `text` (never logged; only its length matters here)
    "press",         # `keys`; `element` is the focused element when the keys go to one
    "select", "check", "uncheck",
    "upload",        # `element` is the file input; `files` the paths
    "download",      # `url` when known; `files` the real path it is saved at, `extra` as save
    "save",          # a screenshot or export: `files` its real path; `extra` "folder" (the
                     # agent's own) and "replaces" (non-empty: it replaces a file), "what"
    "eval",          # arbitrary script
    "read_storage",  # cookies, localStorage, sessionStorage
    "tab_open", "tab_close", "tab_select",  # `person_tab`: the tab is not an agent's
    "dialog",        # answering alert/confirm/prompt: `keys` is "accept" or "dismiss"
})

MAX_TEXT = 200  # page-supplied strings are cut to this many characters
MAX_NEAR = 600  # the text around an element (its form's, its container's), cut to this


def _cut(value: Any) -> str:
    return str(value or "")[:MAX_TEXT]


def _box(value: Any) -> tuple[float, float, float, float] | None:
    if not (isinstance(value, list) and len(value) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < 1e6
            for v in value)):
        return None
    x, y, w, h = (float(v) for v in value)
    return (x, y, w, h) if w > 0 and h > 0 else None


@dataclass(frozen=True)
class Form:
    """The form an element belongs to, as the page has it."""

    action: str = ""            # absolute URL the form submits to ("" when none)
    method: str = "get"
    name: str = ""              # its accessible name or name/id attribute
    submit_name: str = ""       # the name of the button that submits it (its default button)
    submit_text: str = ""       # the text that button shows, whatever its name says
    has_password: bool = False  # it holds a password field
    has_payment: bool = False   # it holds card / payment fields
    has_otp: bool = False       # it holds a one-time-code field
    submits: bool = False       # the element itself submits this form (a submit button)


@dataclass(frozen=True)
class Element:
    """The element an action targets: what a person would see and what the page says it is."""

    role: str = ""
    name: str = ""              # accessible name (page text: untrusted, never obeyed)
    text: str = ""              # the text it shows, which its name may hide or contradict
    near: str = ""              # the text around it: its form's, else its small container's
    tag: str = ""
    type: str = ""              # input type attribute
    masked: bool = False        # shown as dots, as a password is (type=password, or by CSS)
    autocomplete: str = ""
    field: str = ""             # name / id attributes, e.g. "cardnumber"
    href: str = ""              # absolute URL a link leads to
    frame_url: str = ""         # URL of the document that holds it ("" when the top page)
    form: Form | None = None
    # where it is in the top page (x, y, width, height in CSS pixels), for a picture of it
    box: tuple[float, float, float, float] | None = None

    @classmethod
    def from_page(cls, info: dict[str, Any]) -> Element:
        """Build from the page's `info` (page.js); every value is cut and typed."""
        form = info.get("form")
        return cls(
            role=_cut(info.get("role")), name=_cut(info.get("name")),
            text=_cut(info.get("text")), near=str(info.get("near") or "")[:MAX_NEAR],
            tag=_cut(info.get("tag")), type=_cut(info.get("type")).lower(),
            masked=info.get("masked") is True,
            autocomplete=_cut(info.get("autocomplete")).lower(),
            field=_cut(info.get("field")), href=str(info.get("href") or "")[:2048],
            frame_url=str(info.get("frameUrl") or "")[:2048],
            form=Form(
                action=str(form.get("action") or "")[:2048],
                method=_cut(form.get("method") or "get").lower(),
                name=_cut(form.get("name")), submit_name=_cut(form.get("submitName")),
                submit_text=_cut(form.get("submitText")),
                has_password=bool(form.get("hasPassword")),
                has_payment=bool(form.get("hasPayment")), has_otp=bool(form.get("hasOtp")),
                submits=bool(form.get("submits")),
            ) if isinstance(form, dict) else None,
            box=_box(info.get("box")) if not info.get("frameUrl") else None,
        )


@dataclass(frozen=True)
class Intent:
    """One action an agent asked for, described from the page, not from the agent's words."""

    action: str
    page_url: str                        # the tab's top-level URL before the action
    element: Element | None = None
    url: str = ""                        # navigate/download destination
    keys: str = ""                       # press: the keys; dialog: accept/dismiss
    text: str = field(default="", repr=False)  # fill/type: never logged nor shown
    files: tuple[str, ...] = ()          # upload: the real paths; download, save: the target
    person_tab: bool = False             # the tab belongs to the person, not an agent
    extra: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown action {self.action!r}")
