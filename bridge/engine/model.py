"""The plain records a tab keeps: frames, refs, resolved elements, snapshots, its state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fetching import Fetching


@dataclass
class Frame:
    id: str
    session: str
    parent: str | None
    world: int | None = None
    doc: int = 0
    bare: int | None = None  # the world of an error page: no shield there (shield.py)
    guard: int | None = None  # a world of no helper, for the shield where `world` is None
    era: int = 0  # how often its worlds went: a world made across a change is not kept

    def lose_worlds(self) -> None:
        """Its document (or the debugger's session) changed: the worlds made in it went."""
        self.world = None
        self.guard = None
        self.era += 1


@dataclass
class RefEntry:
    doc: int
    frame: str
    local: int
    role: str
    name: str
    nth: int
    # as the last whole-page snapshot showed it: its locator (page.js), and how many
    # elements had its role and name (0: not known, it was not in one)
    loc: str | None = None
    dupes: int = 0


@dataclass
class Handle:
    """A resolved element: the frame it lives in and its id there."""

    frame: Frame
    local: int
    ref: int
    was: int = 0  # the ref named, when the page had replaced that ref's element by this one


@dataclass
class Snapshot:
    text: str
    refs: dict[str, dict[str, Any]]
    url: str
    title: str


@dataclass
class Dialog:
    type: str
    message: str
    default: str
    url: str


@dataclass(frozen=True)
class Stop:
    """A request policy failed before it was sent: what to report, and whether it was the
    tab's own document (or its redirect) rather than a frame's."""

    text: str
    main: bool


@dataclass
class TabState:
    """What the tab reports when asked; kept current by events."""

    url: str = "about:blank"
    title: str = ""
    dialog: Dialog | None = None
    closed: str | None = None
    loading: bool = False
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    stopped: list[Stop] = field(default_factory=list)  # requests policy failed (screen.py)
    fetching: Fetching = field(default_factory=Fetching)  # its data requests in flight
