"""A tab's session history as the extension sees it, so back and forward need no debugger.

The hub keeps the main frame's entries from chrome.webNavigation's commits (ext_nav.py
feeds them). It answers the engine's Page.getNavigationHistory only while the page agrees:
as many entries as `history.length`, and the same URLs around the current one as the
page's own Navigation API lists (its same-origin run). A commit it cannot place (a client
redirect that may have replaced the entry, a frame's own navigation, a page's history.go
it cannot tell the way of) makes it unsure: the debugger answers then, and its answer
sets the entries again. Its entry ids are negative, so a step it gave is never taken for
one of the debugger's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

BACK_FORWARD = "forward_back"


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


def entry_id(index: int) -> int:
    return -1 - index


def index_of(entry: int) -> int:
    return -1 - entry


@dataclass
class History:
    """The main frame's session history of one tab."""

    entries: list[str] = field(default_factory=lambda: ["about:blank"])
    index: int = 0
    known: bool = True
    initial: bool = True  # nothing loaded yet but the new tab's blank page
    going: int = 0  # the step (back -1, forward 1) we started, until it commits

    def heard(self, kind: str, details: Any) -> bool:
        """One of the extension's `nav.event`s of the tab; whether a new document came."""
        if not isinstance(details, dict):
            return False
        url = str(details.get("url", ""))
        if kind == "committed":
            qualifiers = details.get("qualifiers")
            self.committed(url, str(details.get("transition", "")),
                           [str(q) for q in qualifiers] if isinstance(qualifiers, list) else [])
            return True
        if kind == "inPlace":
            qualifiers = details.get("qualifiers")
            self.same_document(url, isinstance(qualifiers, list) and BACK_FORWARD in qualifiers)
        elif kind == "frame":
            self.frame_entry()
        return False

    def committed(self, url: str, transition: str, qualifiers: list[str]) -> None:
        """The main frame committed a new document."""
        if self.initial and url == "about:blank":
            return  # a new tab's own blank page: still its initial entry
        if self.going:
            self.index += self.going
            self.going = 0
        elif BACK_FORWARD in qualifiers:
            self.index = self._step_to(url)
        elif transition == "reload":
            pass
        elif "client_redirect" in qualifiers:
            self.known = False  # a page's own redirect may replace its entry, or not
        else:
            self._push(url)
        self.initial = False
        self._set(url)

    def same_document(self, url: str, stepped: bool = False) -> None:
        """The main frame changed its URL in place: a step back or forward within its
        document (`stepped`, or ours), else a fragment, pushState or replaceState, taken as
        a new entry (`agrees` finds out a replacement)."""
        self.initial = False
        if self.going:
            self.index += self.going
            self.going = 0
        elif stepped:
            self.index = self._step_to(url)
        else:
            self._push(url)
            return
        self._set(url)

    def frame_entry(self) -> None:
        """A frame navigated on its own (a new entry the hub does not keep)."""
        self.known = False

    def synced(self, answer: dict[str, Any]) -> None:
        """The debugger's own Page.getNavigationHistory answer."""
        entries = answer.get("entries")
        index = answer.get("currentIndex")
        if isinstance(entries, list) and isinstance(index, int) and 0 <= index < len(entries):
            self.entries = [str(e.get("url", "")) if isinstance(e, dict) else "" for e in entries]
            self.index, self.known, self.initial, self.going = index, True, False, 0

    def agrees(self, length: Any, run: Any, run_index: Any) -> bool:
        """Whether the entries match what the page says: `history.length`, and its
        Navigation API's same-origin entries (`run`) with the current one at `run_index`
        (None where the page has no Navigation API)."""
        if not self.known or self.going or length != len(self.entries):
            return False
        if run is None:
            return True
        if not isinstance(run, list) or not isinstance(run_index, int):
            return False
        start, end = self.index - run_index, self.index - run_index + len(run)
        if start < 0 or self.entries[start:end] != [str(u) for u in run]:
            return False
        # the run is all the same-origin entries there: its neighbours are of other origins
        return all(_origin(self.entries[i]) != _origin(self.entries[self.index])
                   for i in (start - 1, end) if 0 <= i < len(self.entries))

    def answer(self) -> dict[str, Any]:
        """As Page.getNavigationHistory answers."""
        return {"currentIndex": self.index, "entries": [
            {"id": entry_id(i), "url": url, "userTypedURL": url, "title": "",
             "transitionType": "other"} for i, url in enumerate(self.entries)]}

    def _step_to(self, url: str) -> int:
        """Where a back or forward the page made landed: the one neighbour with that URL."""
        near = [i for i in (self.index - 1, self.index + 1)
                if 0 <= i < len(self.entries) and self.entries[i] == url]
        if len(near) != 1:
            self.known = False
            return self.index
        return near[0]

    def _push(self, url: str) -> None:
        self.entries = [*self.entries[:self.index + 1], url]
        self.index = len(self.entries) - 1

    def _set(self, url: str) -> None:
        if 0 <= self.index < len(self.entries):
            self.entries[self.index] = url
        else:
            self.known = False
