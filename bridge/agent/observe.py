"""What the model sees of the page at one step: capped snapshot text and the refs it may name."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import UsageError

# an element line of the snapshot: `- ROLE "NAME" @N ...`; only this ref is the element's own
# (a ref-like word inside a name, a text line or the title is page text, never a ref)
_ELEMENT = re.compile(r'[ ]*- [^ ]+(?: "(?:[^"\\]|\\.)*")? (@[1-9][0-9]*)(?= |$)')
_REF_KEY = re.compile(r"@[1-9][0-9]*")


@dataclass(frozen=True)
class Candidate:
    """One element of the page the model may name by its ref."""

    ref: str
    role: str
    name: str
    states: tuple[str, ...]
    value: str | None

    @property
    def disabled(self) -> bool:
        return "disabled" in self.states


@dataclass(frozen=True)
class Observation:
    """The page at one step: text shown to the model, the refs it may name, and what was cut."""

    url: str
    title: str
    text: str
    candidates: dict[str, Candidate]
    digest: str  # sha256 of url and text: equal digests mean the page did not change
    cut_candidates: int  # well-formed refs of the snapshot that are not offered
    cut_chars: int  # characters of the snapshot text left out


def observe(url: str, title: str, snapshot_text: str, refs: Mapping[str, object], *,
            max_candidates: int = 250, max_chars: int = 12000) -> Observation:
    """Cut the snapshot to max_chars on a line boundary and offer at most max_candidates refs:
    the first in page order, enabled ones before disabled ones. A ref that is not offered
    (cut, over the cap, malformed in the table) loses its @N in the text, so every ref the
    text shows is one the model may name."""
    if max_candidates < 0 or max_chars < 1:
        raise UsageError("max_candidates must be 0 or more and max_chars 1 or more; "
                         "nothing was observed")
    kept = cut_lines(snapshot_text, max_chars)
    table = _table(refs)
    order = _refs_in_order(kept, table)
    chosen = _choose(order, table, max_candidates)
    text = _drop_refs(kept, chosen)
    candidates = {ref: table[ref] for ref in order if ref in chosen}
    return Observation(url, title, text, candidates, digest(url, text),
                       len(table) - len(candidates), len(snapshot_text) - len(kept))


def digest(url: str, text: str) -> str:
    """sha256 hex of the URL and the observed text (a newline between them)."""
    return hashlib.sha256(f"{url}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


def cut_lines(text: str, max_chars: int) -> str:
    """The longest run of whole lines from the start that fits in max_chars."""
    if len(text) <= max_chars:
        return text
    end = text.rfind("\n", 0, max_chars + 1)
    return text[:end] if end > 0 else ""


def _table(refs: Mapping[str, object]) -> dict[str, Candidate]:
    out: dict[str, Candidate] = {}
    for key, info in refs.items():
        cand = _candidate(key, info)
        if cand is not None:
            out[cand.ref] = cand
    return out


def _candidate(key: object, info: object) -> Candidate | None:
    """The refs-table entry as a Candidate, or None when it is malformed."""
    if not isinstance(key, str) or not _REF_KEY.fullmatch(key) or not isinstance(info, Mapping):
        return None
    role, name = info.get("role"), info.get("name", "")
    states, value = info.get("states", []), info.get("value")
    if not isinstance(role, str) or not role or not isinstance(name, str):
        return None
    if not isinstance(states, list | tuple) or not all(isinstance(s, str) for s in states):
        return None
    if value is not None and not isinstance(value, str):
        return None
    return Candidate(key, role, name, tuple(states), value)


def _refs_in_order(text: str, table: Mapping[str, Candidate]) -> list[str]:
    """Refs of the table in the order their element lines appear in the text."""
    order: list[str] = []
    seen: set[str] = set()
    for line in text.split("\n"):
        m = _ELEMENT.match(line)
        if m and m.group(1) in table and m.group(1) not in seen:
            seen.add(m.group(1))
            order.append(m.group(1))
    return order


def _choose(order: list[str], table: Mapping[str, Candidate], cap: int) -> set[str]:
    enabled = [r for r in order if not table[r].disabled]
    disabled = [r for r in order if table[r].disabled]
    return set((enabled + disabled)[:cap])


def _drop_refs(text: str, chosen: set[str]) -> str:
    """The text with the @N of every element line whose ref is not offered taken out."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = _ELEMENT.match(line)
        if m and m.group(1) not in chosen:
            lines[i] = line[:m.start(1) - 1] + line[m.end(1):]
    return "\n".join(lines)
