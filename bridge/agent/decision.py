"""The one structured answer per step, checked against the observation before anything runs."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from ..engine.keys import parse_chord
from ..engine.snapshot import quote
from ..errors import UsageError
from .observe import Candidate, Observation

OPS = ("click", "fill", "select", "check", "press", "scroll", "navigate", "wait", "done",
       "blocked")
KEYS = ("op", "ref", "value", "reason", "evidence")
MAX_TEXT = 300

_NULLABLE = {"type": ["string", "null"]}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "op": {"type": "string", "enum": list(OPS)},
        "ref": {**_NULLABLE, "description": "@N from the current page"},
        "value": {**_NULLABLE, "description": "text, option, true/false, key, up/down, URL, "
                                              "seconds"},
        "reason": {"type": "string", "description": "why this step, briefly"},
        "evidence": {**_NULLABLE, "description": "for done: what on the page shows the goal "
                                                 "is met"},
    },
    "required": list(KEYS),
    "additionalProperties": False,
}

EDITABLE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
NEVER_TYPED_INTO = frozenset({"button", "link"})
SELECT_ROLES = frozenset({"combobox", "listbox"})
CHECK_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
_REF = re.compile(r"@?([1-9][0-9]{0,8})")
_SECONDS = re.compile(r"[0-9]{1,2}(?:\.[0-9]{1,3})?")
# control characters, lone surrogates, and line/paragraph separators
_BAD_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


@dataclass(frozen=True)
class Decision:
    """A checked answer: an op, a ref offered by the observation, a typed value or a URL."""

    op: str
    ref: str | None
    value: str | None
    reason: str
    evidence: str | None


class InvalidDecision(UsageError):
    """The model's answer cannot run; the message says why, and is shown to the model."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem}; nothing was done")


def parse(raw: object, obs: Observation) -> Decision:
    """The model's parsed JSON as a Decision, or InvalidDecision saying what was wrong."""
    answer = _fields(raw)
    return _CHECKS[answer.op](answer, obs)


# -- the shape every answer has --

def _fields(raw: object) -> Decision:
    if not isinstance(raw, dict):
        raise InvalidDecision(f"the answer is {_kind(raw)}, not a JSON object with the keys "
                              f"{', '.join(KEYS)}")
    _check_keys(raw)
    op, reason = _string(raw, "op"), _string(raw, "reason")
    ref, value, evidence = (_nullable(raw, k) for k in ("ref", "value", "evidence"))
    if op not in OPS:
        raise InvalidDecision(f"unknown op {_show(op)}; use one of {', '.join(OPS)}")
    for key, text in (("value", value), ("reason", reason), ("evidence", evidence)):
        _check_text(key, text, newline=key == "value" and op == "fill")
    return Decision(op, _ref(ref), _empty_is_null(value, op == "fill"), reason,
                    _empty_is_null(evidence, False))


def _check_keys(raw: dict[Any, Any]) -> None:
    missing = [k for k in KEYS if k not in raw]
    extra = sorted(_show(k) for k in raw if k not in KEYS)
    if extra:
        raise InvalidDecision(f"unexpected key(s) {', '.join(extra[:5])}; the answer has "
                              f"exactly the keys {', '.join(KEYS)}")
    if missing:
        raise InvalidDecision(f"missing key(s) {', '.join(missing)}; the answer has exactly "
                              f"the keys {', '.join(KEYS)}")


def _string(raw: dict[Any, Any], key: str) -> str:
    v = raw[key]
    if not isinstance(v, str):
        raise InvalidDecision(f"{key} is {_kind(v)}, not a string")
    return v


def _nullable(raw: dict[Any, Any], key: str) -> str | None:
    v = raw[key]
    if v is not None and not isinstance(v, str):
        raise InvalidDecision(f"{key} is {_kind(v)}, not a string or null")
    return v


def _check_text(key: str, text: str | None, *, newline: bool) -> None:
    if text is None:
        return
    if len(text) > MAX_TEXT:
        raise InvalidDecision(f"{key} has {len(text)} characters, over the {MAX_TEXT} allowed")
    for ch in text:
        if ch == "\n" and newline:
            continue
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            where = "; only a fill value may hold line breaks" if ch == "\n" else ""
            raise InvalidDecision(f"{key} holds the control character U+{ord(ch):04X}{where}")


def _ref(ref: str | None) -> str | None:
    """'@12' or '12' as '@12'; '' as null."""
    if not ref:
        return None
    m = _REF.fullmatch(ref.strip())
    if m is None:
        raise InvalidDecision(f"ref {_show(ref)} is not a ref; refs look like @12")
    return f"@{m.group(1)}"


def _empty_is_null(text: str | None, keep_empty: bool) -> str | None:
    return text if text or keep_empty else None


# -- what each op needs --

def _offered(d: Decision, obs: Observation) -> Candidate:
    if d.ref is None:
        raise InvalidDecision(f"{d.op} needs a ref from the current page")
    cand = obs.candidates.get(d.ref)
    if cand is None:
        raise InvalidDecision(f"ref {d.ref} is not offered on the current page; use only refs "
                              "shown in the latest page")
    return cand


def _enabled(d: Decision, obs: Observation) -> Candidate:
    cand = _offered(d, obs)
    if cand.disabled:
        raise InvalidDecision(f"{d.ref} ({cand.role}) is disabled; {d.op} cannot use it")
    return cand


def _no_ref(d: Decision) -> None:
    if d.ref is not None:
        raise InvalidDecision(f"{d.op} takes no ref, but got {d.ref}")


def _no_value(d: Decision) -> None:
    if d.value is not None:
        raise InvalidDecision(f"{d.op} takes no value (value must be null)")


def _needs_value(d: Decision, what: str) -> str:
    if d.value is None:
        raise InvalidDecision(f"{d.op} needs a value: {what}")
    return d.value


def _click(d: Decision, obs: Observation) -> Decision:
    _enabled(d, obs)
    _no_value(d)
    return d


def _fill(d: Decision, obs: Observation) -> Decision:
    cand = _enabled(d, obs)
    editable = cand.role in EDITABLE_ROLES or "editable" in cand.states
    if cand.role in NEVER_TYPED_INTO or not editable:
        raise InvalidDecision(f"fill types into a text field, but {d.ref} is a {cand.role}; "
                              "use click for buttons and links")
    if "readonly" in cand.states:
        raise InvalidDecision(f"{d.ref} ({cand.role}) is read-only; fill cannot type into it")
    _needs_value(d, 'the text to type ("" clears the field)')
    return d


def _select(d: Decision, obs: Observation) -> Decision:
    cand = _enabled(d, obs)
    if cand.role not in SELECT_ROLES:
        raise InvalidDecision(f"select picks an option of a combobox or listbox, but {d.ref} "
                              f"is a {cand.role}")
    _needs_value(d, "the label of the option to pick")
    return d


def _check(d: Decision, obs: Observation) -> Decision:
    cand = _enabled(d, obs)
    if cand.role not in CHECK_ROLES:
        raise InvalidDecision(f"check sets a checkbox, radio, switch or checkable menu item, "
                              f"but {d.ref} is a {cand.role}")
    if d.value not in (None, "true", "false"):
        raise InvalidDecision(f'check takes the value "true", "false" or null, not '
                              f"{_show(d.value)}")
    return replace(d, value=d.value or "true")


def _press(d: Decision, obs: Observation) -> Decision:
    key = _needs_value(d, "a key or chord like Enter, Escape, Control+A")
    try:
        parse_chord(key)
    except UsageError as err:
        raise InvalidDecision(f"press cannot use {_show(key)}: "
                              f"{err.message.removesuffix('; nothing was pressed')}") from None
    if d.ref is not None:
        _enabled(d, obs)
    return d


def _scroll(d: Decision, obs: Observation) -> Decision:
    if d.value not in (None, "up", "down"):
        raise InvalidDecision(f'scroll takes the value "up" or "down", not {_show(d.value)}')
    if d.ref is not None:
        _offered(d, obs)
    elif d.value is None:
        raise InvalidDecision('scroll needs a value ("up" or "down") or a ref to bring into '
                              "view")
    return d


def _navigate(d: Decision, obs: Observation) -> Decision:
    _no_ref(d)
    problem = url_problem(_needs_value(d, "an http(s) URL"))
    if problem:
        raise InvalidDecision(f"navigate cannot go to {_show(d.value)}: {problem}")
    return d


def _wait(d: Decision, obs: Observation) -> Decision:
    _no_ref(d)
    if d.value is None:
        return replace(d, value="1")
    if not _SECONDS.fullmatch(d.value) or not 0.5 <= float(d.value) <= 10:
        raise InvalidDecision(f"wait takes seconds from 0.5 to 10 as text (or null for 1), "
                              f"not {_show(d.value)}")
    return d


def _done(d: Decision, obs: Observation) -> Decision:
    _no_ref(d)
    _no_value(d)
    if d.evidence is None or not d.evidence.strip():
        raise InvalidDecision("done needs evidence: what on the page shows the goal is met")
    return d


def _blocked(d: Decision, obs: Observation) -> Decision:
    _no_ref(d)
    _no_value(d)
    if not d.reason.strip():
        raise InvalidDecision("blocked needs a reason: why the goal cannot be reached")
    return d


_CHECKS: dict[str, Callable[[Decision, Observation], Decision]] = {
    "click": _click, "fill": _fill, "select": _select, "check": _check, "press": _press,
    "scroll": _scroll, "navigate": _navigate, "wait": _wait, "done": _done,
    "blocked": _blocked,
}


def url_problem(url: str) -> str | None:
    """Why url is not a plain http(s) address to open, or None when it is one."""
    if any(ch.isspace() for ch in url):
        return "a URL has no spaces"
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "it is not a URL"
    if parts.scheme.lower() not in ("http", "https"):
        return "only http and https URLs are opened"
    if not host:
        return "the URL has no host"
    if "@" in parts.netloc:
        return "a URL may not carry credentials"
    return None


# -- words for people --

def describe(decision: Decision, obs: Observation) -> str:
    """One human line, like `click button "Search" (@12)`."""
    return _WORDS[decision.op](decision, _target(decision.ref, obs))


def _target(ref: str | None, obs: Observation) -> str:
    if ref is None:
        return ""
    cand = obs.candidates.get(ref)
    if cand is None:
        return ref
    return f"{cand.role} {quote(cand.name)} ({ref})" if cand.name else f"{cand.role} ({ref})"


def _q(text: str | None) -> str:
    return quote(text or "")


_WORDS: dict[str, Callable[[Decision, str], str]] = {
    "click": lambda d, t: f"click {t}",
    "fill": lambda d, t: f"fill {t} with {_q(d.value)}",
    "select": lambda d, t: f"select {_q(d.value)} in {t}",
    "check": lambda d, t: f"{'uncheck' if d.value == 'false' else 'check'} {t}",
    "press": lambda d, t: f"press {d.value}" + (f" in {t}" if t else ""),
    "scroll": lambda d, t: f"scroll {t} into view" if t else f"scroll {d.value}",
    "navigate": lambda d, t: f"navigate to {d.value}",
    "wait": lambda d, t: f"wait {d.value or '1'} s",
    "done": lambda d, t: f"done: {_q(d.evidence)}",
    "blocked": lambda d, t: f"blocked: {_q(d.reason)}",
}


def _kind(v: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
             list: "a list", dict: "an object", type(None): "null"}
    return names.get(type(v), type(v).__name__)


def _show(v: object) -> str:
    """A short, one-line rendering of something the model sent."""
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."
