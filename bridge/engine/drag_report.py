"""What a drag did, read back from the page: the side of the target the item landed on, and
the order of each list it left or joined (cut around the item, with the true count)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SHOWN = 30  # items of a list printed at most, around the dragged item
SIDES = {"x": ("before", "after"), "y": ("above", "below")}


@dataclass(frozen=True)
class ListState:
    """A list as the page helper's `order` read it: its id, the dragged item's index and the
    target's there (-1 when not in it), its items' first words (up to a cap), how many items
    it has, the axis it runs along, whether the dragged element is still in the page, and
    whether it now lies inside the target."""

    list_id: int
    at: int
    other: int = -1
    items: list[str] = field(default_factory=list)
    total: int = 0
    axis: str = "y"
    gone: bool = False
    into: bool = False

    @staticmethod
    def read(raw: Any) -> ListState | None:
        if not isinstance(raw, dict) or not raw.get("list"):
            return None
        items = [str(x) or "(no text)" for x in raw.get("items") or []]
        return ListState(int(raw["list"]), int(raw.get("at", -1)), int(raw.get("other", -1)),
                         items, int(raw.get("total") or len(items)),
                         "x" if raw.get("axis") == "x" else "y", bool(raw.get("gone")),
                         bool(raw.get("into")))


def listing(state: ListState, around: int = -1, shown: int = SHOWN) -> str:
    """The list's items joined by ` | `; a longer one cut to `shown` items around index
    `around` (else from its start), each cut marked with how many items it leaves out."""
    items, total = state.items, state.total
    if total <= shown and len(items) >= total:
        return " | ".join(items)
    first = max(0, min(around - shown // 2, total - shown)) if around >= 0 else 0
    part = items[first:first + shown]
    left_after = total - first - len(part)
    return " | ".join(([f"[+{first} before]"] if first else []) + part +
                      ([f"[+{left_after} more]"] if left_after > 0 else []))


def side_of(state: ListState | None) -> tuple[str, int]:
    """Where the item lies by the target in their shared list: the side and how many items
    stand between them; ('', 0) when they do not share it."""
    if state is None or state.at < 0 or state.other < 0 or state.at == state.other:
        return "", 0
    before, after = SIDES[state.axis]
    return (before if state.at < state.other else after), abs(state.at - state.other) - 1


@dataclass
class DragReport:
    """The sentence saying what a drag did and its list changes, for the agent."""

    did: str
    changes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def report(src: str, dst: str, before: ListState | None, now: ListState | None,
           left: ListState | None) -> DragReport:
    """What became of the dragged item `src` (named as the agent knows it) dropped on `dst`:
    `before` its list before the drag; `now` the list holding it after (with the target's
    index there), or the target's list when the page replaced the element; `left` its first
    list read again when it now lies in another one."""
    moved_lists = now is not None and before is not None and now.list_id != before.list_id
    changed = now is not None and (moved_lists or before is None or now.items != before.items
                                   or now.total != before.total)
    side, between = side_of(now) if changed else ("", 0)
    if side and between:
        out = DragReport(f"dragged {src} onto {dst}; it now lies {between} item"
                         f"{'s' if between > 1 else ''} {side} it")
    elif side:
        out = DragReport(f"dragged {src} {side} {dst}")
    elif now is not None and now.into and moved_lists:
        out = DragReport(f"dragged {src} into {dst}")
    else:
        out = DragReport(f"dragged {src} onto {dst}")
    if now is None or (now.gone and before is None):
        return out
    if now.gone:  # a page that draws its lists anew replaced the element: its list is unknown
        out.changes.append("the page replaced the dragged element; the target's list now "
                           f"reads: {listing(now, now.other)}")
        _put(out, "order", now)
        if left is not None and before is not None and left.items != before.items:
            out.changes.append(f"the list it came from now reads: {listing(left)}")
            _put(out, "order_left", left)
        return out
    if before is None or (before.total < 2 and not moved_lists):
        return out
    if not changed:
        out.changes.append("the list's order did not change")
        return out
    where = f"{now.at + 1} of {now.total}"
    if moved_lists:
        out.changes.append(f"it moved to another list, which now reads: "
                           f"{listing(now, now.at)} (it is {where})")
        if left is not None:
            out.changes.append("the list it left is now empty" if not left.total else
                               f"the list it left now reads: {listing(left)}")
            _put(out, "order_left", left)
    else:
        moved = (" (it is no longer in it)" if now.at < 0 else
                 f" (it moved from {before.at + 1} to {where})" if before.at >= 0 else "")
        out.changes.append(f"the list now reads: {listing(now, now.at)}{moved}")
    _put(out, "order", now)
    return out


def _put(out: DragReport, key: str, state: ListState) -> None:
    """A list's items (all the page read) and its true count, in the tool's data."""
    out.data[key] = state.items
    out.data[key + "_count"] = state.total
    if key == "order" and state.at >= 0:
        out.data["position"] = state.at + 1
