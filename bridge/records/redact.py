"""Known secret values and obvious secret patterns replaced by `[redacted]` in text and data.

Where each applies (the rule in the README's security section): what the hub records
(activity log, hub log, goal transcripts, the person's questions) passes through
`REDACTOR`, which knows every value typed into a password, card or one-time-code field;
what an agent gets back passes through `PATTERNS`, which knows no typed value, so a page's
own words reach the agent as they are.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, quote_plus

MARK = "[redacted]"
MIN_LENGTH = 4  # shorter values ("1234" is the shortest kept) would redact ordinary words
MAX_VALUES = 1000
MAX_DEPTH = 100
TRIE_DEPTH = 40

# Dict keys whose string values are secrets whatever they hold (compared case-insensitively,
# with "-" read as "_").
SECRET_KEYS = frozenset({"password", "passwd", "passphrase", "secret", "client_secret",
                         "api_key", "apikey", "access_token", "refresh_token", "token",
                         "authorization", "cookie", "set_cookie"})

# `Authorization: Bearer <token>` (also `=`, quoted JSON keys, Basic and Token schemes):
# the scheme stays, the credential goes.
_AUTH = re.compile(r"""(?i)(\bauthorization["']?\s*[:=]\s*["']?(?:bearer|basic|token)\s+)"""
                   r"[A-Za-z0-9._~+/=-]{8,}")
# An `sk-` API key: counted only when its body mixes upper case, lower case and digits, as
# generated keys do, so a URL slug such as sk-the-best-trails-of-2024 stays readable.
_SK = re.compile(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}")
# GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
_GITHUB = re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})")


def _looks_generated(body: str) -> bool:
    return (any(c.isupper() for c in body) and any(c.islower() for c in body)
            and any(c.isdigit() for c in body))


def _sk(match: re.Match[str]) -> str:
    return MARK if _looks_generated(match.group(0)[3:]) else match.group(0)


# Each pattern with the lower-case text one of whose needles a match must contain (a quick
# test that spares the regex scan of nearly every text).
_PATTERNS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str],
                       tuple[str, ...]], ...] = (
    (_AUTH, r"\1" + MARK, ("authorization",)),
    (_SK, _sk, ("sk-",)),
    (_GITHUB, MARK, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
)


def _forms(value: str) -> set[str]:
    """The value as typed and as it shows up in URLs and JSON text."""
    forms = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    with contextlib.suppress(UnicodeEncodeError):  # a lone surrogate has no URL form
        forms |= {quote(value, safe=""), quote_plus(value)}
    return {f for f in forms if len(f) >= MIN_LENGTH}


def _trie(words: set[str]) -> str:
    """One regex matching any of `words`, the longest where several match, shaped as a
    trie so that each position of a text costs one branch per character, not per word."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here
    return _branch(root, 0)


def _branch(node: dict[str, Any], depth: int) -> str:
    if depth >= TRIE_DEPTH:  # deeper branching than real secrets have: a flat alternation
        return _flat(_suffixes(node))
    alternatives = []
    for ch, child in sorted(node.items()):
        if not ch:
            continue
        chain = ch
        while len(child) == 1 and "" not in child:  # a run with no branch: one literal
            (next_ch, child), = child.items()
            chain += next_ch
        alternatives.append(re.escape(chain) + _branch(child, depth + 1))
    if not alternatives:
        return ""
    body = alternatives[0] if len(alternatives) == 1 else f"(?:{'|'.join(alternatives)})"
    return f"(?:{body})?" if "" in node else body


def _suffixes(node: dict[str, Any]) -> list[str]:
    out: list[str] = []
    stack: list[tuple[str, dict[str, Any]]] = [("", node)]
    while stack:
        prefix, at = stack.pop()
        for ch, child in at.items():
            if ch:
                stack.append((prefix + ch, child))
            else:
                out.append(prefix)
    return out


def _flat(suffixes: list[str]) -> str:
    ordered = sorted(suffixes, key=lambda s: (-len(s), s))  # longest first
    return f"(?:{'|'.join(map(re.escape, ordered))})"


class Redactor:
    """Secret values the hub has seen (a typed password, a token) and the patterns of
    obvious secrets; `text` and `data` return copies with each replaced by `[redacted]`.

    Values are remembered in the order added; past `max_values` the oldest is forgotten
    (with `max_values=0`, none is remembered: the patterns alone).
    """

    def __init__(self, max_values: int = MAX_VALUES) -> None:
        self.max_values = max_values
        self._values: dict[str, None] = {}  # insertion-ordered set
        self._pattern: re.Pattern[str] | None = None
        self._stale = False
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def add(self, value: str) -> None:
        """Remember `value` as a secret (values shorter than 4 characters are ignored)."""
        if not isinstance(value, str) or len(value) < MIN_LENGTH or self.max_values <= 0:
            return
        with self._lock:
            if value in self._values:
                self._values[value] = self._values.pop(value)  # now the newest
                return
            self._values[value] = None
            while len(self._values) > self.max_values:
                del self._values[next(iter(self._values))]
            self._stale = True

    def forget(self, value: str) -> None:
        """Stop redacting `value` (for a secret that was withdrawn)."""
        with self._lock:
            if value in self._values:
                del self._values[value]
                self._stale = True

    def _known(self) -> re.Pattern[str] | None:
        with self._lock:
            if self._stale:
                forms: set[str] = set()
                for value in self._values:
                    forms |= _forms(value)
                self._pattern = re.compile(_trie(forms)) if forms else None
                self._stale = False
            return self._pattern

    def text(self, s: str) -> str:
        """`s` with every known secret and every obvious secret pattern replaced."""
        known = self._known()
        if known is not None:
            s = known.sub(MARK, s)
        lower = s.lower()
        for pattern, replacement, needles in _PATTERNS:
            if any(needle in lower for needle in needles):
                s = pattern.sub(replacement, s)
        return s

    def data(self, obj: Any) -> Any:
        """A redacted copy of `obj`: strings anywhere in dicts, lists and tuples (keys too);
        the string value of a key such as `password` or `token` is replaced whole, and
        containers nested deeper than 100 levels are replaced by `[redacted]`."""
        if not self._might_hold(obj):
            return obj
        return self._data(obj, MAX_DEPTH)

    def _might_hold(self, obj: Any) -> bool:
        """False when `obj` holds nothing to redact: its strings (keys and numbers too) are
        searched once, joined, instead of one pass each (a big snapshot has thousands)."""
        parts: list[str] = []
        stack: list[tuple[Any, int]] = [(obj, MAX_DEPTH)]
        while stack:
            item, depth = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, int | float) and not isinstance(item, bool):
                parts.append(str(item))
            elif isinstance(item, dict | list | tuple):
                if depth <= 0:
                    return True  # the walk cuts it off
                if isinstance(item, dict):
                    for key, value in item.items():
                        if isinstance(value, str) and value and _secret_key(key):
                            return True
                        stack.append((key, depth - 1))
                        stack.append((value, depth - 1))
                else:
                    stack.extend((x, depth - 1) for x in item)
        flat = "\0".join(parts)
        known = self._known()
        if known is not None and known.search(flat):
            return True
        lower = flat.lower()
        return any(needle in lower for _, _, needles in _PATTERNS for needle in needles)

    def _data(self, obj: Any, depth: int) -> Any:
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, int | float) and not isinstance(obj, bool):
            shown = str(obj)  # a number that is a known secret (a PIN, a card number)
            return obj if self.text(shown) == shown else MARK
        if not isinstance(obj, dict | list | tuple):
            return obj
        if depth <= 0:
            return MARK
        if isinstance(obj, dict):
            out: dict[Any, Any] = {}
            for key, value in obj.items():
                name = self.text(key) if isinstance(key, str) else key
                if isinstance(value, str) and value and _secret_key(key):
                    out[name] = MARK
                else:
                    out[name] = self._data(value, depth - 1)
            return out
        items = [self._data(v, depth - 1) for v in obj]
        return items if isinstance(obj, list) else tuple(items)


def _secret_key(key: Any) -> bool:
    return isinstance(key, str) and key.lower().replace("-", "_") in SECRET_KEYS


REDACTOR = Redactor()
"""The process-wide redactor of records: the hub adds every secret an agent types, and
everything it logs, writes down or shows the person passes through it."""

PATTERNS = Redactor(max_values=0)
"""Obvious secret patterns only: what the hub returns to an agent passes through it. A value
an agent typed is not among them: the agent has it, and the pages it reads afterwards keep
their words ("The tiger is asleep." after typing the password tiger)."""
