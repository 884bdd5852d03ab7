"""Drag and drop as a person does it: press, move past the library's threshold, glide onto
the far half of the target, pause, release; HTML5 drags played through Chrome's interception.
Reports where the element landed and the list's new order."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from ..errors import TargetCovered, TargetNotInteractable
from . import shield
from .acting import Outcome, describe
from .aiming import Ask, aim_and_ask
from .collect import HOOK_SECRET
from .model import Frame, Handle
from .pointer import _mouse
from .tab import Tab
from .targets import Target

STEPS = 8  # moves between the start and the drop: sortable libraries follow the pointer
STEP_PAUSE = 0.016  # a frame between moves, so timers and animations keep up
HOVER = 0.05  # over the drop point, the pointer stays and the browser repeats its dragover
# hovering lasts at most SETTLE[1]; over a list that did not follow the pointer (it places
# the item on release, if at all), at least SETTLE[0] and until one pause changed nothing
SETTLE = (HOVER, 0.6)
START = 6.0  # pixels moved first: past a library's drag threshold
SLOW = 0.25  # a move answered later than this: the page draws slowly, fewer moves follow


def glide(sx: float, sy: float, tx: float, ty: float, steps: int = STEPS
          ) -> list[tuple[float, float]]:
    """The points a hand passes from a little past the start to the target, in order."""
    dist = max(1.0, ((tx - sx) ** 2 + (ty - sy) ** 2) ** 0.5)
    ux, uy = (tx - sx) / dist, (ty - sy) / dist
    first = (sx + ux * min(START, dist / 2), sy + uy * min(START, dist / 2))
    return [first] + [(first[0] + (tx - first[0]) * k / steps,
                       first[1] + (ty - first[1]) * k / steps) for k in range(1, steps + 1)]


def order_change(before: list[Any] | None, after: list[Any] | None) -> str | None:
    """What became of the list's order: `the list now reads: A | B | C`, or that it did not
    change; None when the element is in no list of two or more."""
    if not before or not after or len(before[2]) < 2:
        return None
    items = [str(x) or "(no text)" for x in after[2]]
    if before[2] == after[2]:
        return "the list's order did not change"
    moved = ""
    if isinstance(before[1], int) and isinstance(after[1], int) and before[1] >= 0 <= after[1]:
        moved = f" (it moved from {before[1] + 1} to {after[1] + 1} of {len(items)})"
    return "the list now reads: " + " | ".join(items) + moved


async def drag(tab: Tab, source: Target, dest: Target) -> Outcome:
    """Press on the source, move, release on the destination. Both ends are put to policy as
    the clicks they may be (a drag that ends where it began is one), before any input."""
    src, src_info = await tab.resolve_info(source)  # one page call each for a live ref
    dst, dst_info = await tab.resolve_info(dest)
    src_what, dst_what = describe(src, src_info), describe(dst, dst_info)
    grip = await tab.evaluate(src.frame, f"__ts.handleOf({src.local})")
    if grip:  # an item with a drag handle is taken by its handle, as a person does
        src = Handle(src.frame, int(grip), src.ref)
    first = await aim_and_ask(tab, src, src_what, src_info, Ask("drag"))
    dropping = await aim_and_ask(tab, dst, dst_what, dst_info, Ask("drag"))
    same = src.frame.id == dst.frame.id
    if same and first.hit_id and dropping.hit_id:
        # the release clicks the two ends' nearest common ancestor: a button holding both
        common = await tab.common_target(src.frame, first.hit_id, dropping.hit_id)
        if common is not None and int(common.get("id") or 0) not in (first.target_id,
                                                                       dropping.target_id):
            await tab.permit("drag", common)
    before = await tab.evaluate(src.frame, f"__ts.order({src.local}, 0)")
    list_id = int(before[0]) if isinstance(before, list) else 0
    # where the element is wanted: the place the target holds in the same list
    there = await tab.evaluate(dst.frame, f"__ts.order({dst.local}, {list_id})") if (
        same and list_id) else None
    want = int(there[1]) if isinstance(there, list) and there[1] != before[1] else -1
    start = await tab.aim(src, src_what)  # the destination may have scrolled it
    if start.target_id != first.target_id:
        raise TargetNotInteractable(f"{src_what} moved while the drag was prepared; nothing "
                                    "was done")
    sx, sy = start.x, start.y
    intercepted = tab.expect(lambda m, p, s: m == "Input.dragIntercepted")
    await tab.send("Input.setInterceptDrags", {"enabled": True})
    side = "onto"
    # frames of other processes ignore the drag's mouse input (shield.py): one the browser
    # routed there by an out-of-date layout did nothing, and the drag is refused below
    shields = await shield.raise_shields(tab, src.frame.session)
    came: list[str] = []
    try:
        shields = await _press(tab, src, src_what, shields, sx, sy)
        end = await tab.aim(dst, dst_what)
        if end.target_id != dropping.target_id:  # let go where it was allowed: the source
            await _mouse(tab, "mouseReleased", sx, sy, button="left", buttons=0, clickCount=1)
            raise TargetNotInteractable(f"{dst_what} moved before the drag; the mouse was "
                                        "let go where it was pressed and nothing was dropped")
        tx, ty = end.x, end.y
        spot = await tab.evaluate(dst.frame, f"__ts.dropSpot({dst.local}, {src.local}, "
                                  f"{end.hit_id}, {json.dumps(HOOK_SECRET)})") if (
                                      same and end.hit_id) else None
        if isinstance(spot, dict):
            ox, oy = await tab.frame_offset(dst.frame)
            tx, ty, side = float(spot["x"]) + ox, float(spot["y"]) + oy, str(spot["side"])
        html5: dict[str, Any] | None = None
        # only an element the browser drags itself starts an HTML5 drag: wait for one then
        native = await tab.evaluate(src.frame, _NATIVE.format(start.hit_id or src.local))
        path = glide(sx, sy, tx, ty)
        start_at = int(before[1]) if isinstance(before, list) else -1
        followed = False  # whether the list moved the item while the pointer moved
        i = 0
        while i < len(path):
            x, y = path[i]
            moved_at = time.monotonic()
            if html5 is None:
                await _mouse(tab, "mouseMoved", x, y, button="left", buttons=1)
                if i == 0 and native:  # the first move starts the HTML5 drag
                    await asyncio.wait({intercepted}, timeout=0.05)
                if intercepted.done():
                    html5 = intercepted.result()[1]["data"]
                    await _drag_event(tab, "dragEnter", x, y, html5)
            else:
                await _drag_event(tab, "dragOver", x, y, html5)
            # a page that renders slowly (a hidden tab draws about once a second) answers
            # each move late: go straight on to the last point
            slow = time.monotonic() - moved_at > SLOW
            await asyncio.sleep(STEP_PAUSE)
            placed = await _placed(tab, src, list_id) if want >= 0 else None
            if placed == want:
                tx, ty = x, y  # the list shows it where it is wanted: let go here
                break
            followed = followed or (placed is not None and placed != start_at)
            i = len(path) - 1 if slow and 0 < i < len(path) - 1 else i + 1
        # a list that did not follow the pointer is not waited for to place the item
        await _hover(tab, src, list_id, want if followed else -1, tx, ty, html5)
        if html5 is not None:  # the element now under the pointer must take the drop first
            await _drag_event(tab, "dragOver", tx, ty, html5)
            await _drag_event(tab, "drop", tx, ty, html5)
        await _mouse(tab, "mouseReleased", tx, ty, button="left", buttons=0, clickCount=1)
    finally:
        intercepted.cancel()
        came = await shield.lower_shields(tab, shields)
        await tab.send("Input.setInterceptDrags", {"enabled": False})
    if came:  # the press reached the page (`_press`); its capture keeps the rest there
        raise TargetCovered(f"the browser sent part of the drag of {src_what} to a frame of "
                            f"{came[0]}; that frame ignored it. What the page did with the "
                            "rest is in its next snapshot")
    out = Outcome(f"dragged {src_what} {side} {dst_what}")
    if isinstance(before, list):
        await asyncio.sleep(STEP_PAUSE)  # a library's drop handler may run on the next frame
        after = await tab.evaluate(src.frame, f"__ts.order({src.local}, {list_id})")
        said = order_change(before, after if isinstance(after, list) else None)
        if said:
            out.changes.append(said)
            out.data["order"] = after[2]
    return out


async def _press(tab: Tab, src: Handle, what: str, shields: list[Frame], x: float,
                 y: float) -> list[Frame]:
    """Move to the source and press there; a press the browser routed to a shielded frame
    (its layout of the tab out of date) is let go there and made once more after the tab
    drew, then refused, saying nothing was dragged. Returns the shields that are up."""
    for attempt in (1, 2):
        await _mouse(tab, "mouseMoved", x, y)
        await _mouse(tab, "mousePressed", x, y, button="left", buttons=1, clickCount=1)
        came = await shield.peek(tab, shields)
        if not came:
            return shields
        await _mouse(tab, "mouseReleased", x, y, button="left", buttons=0, clickCount=1)
        await shield.lower_shields(tab, shields)
        if attempt == 2:
            break
        await shield.redraw(tab)
        shields = await shield.raise_shields(tab, src.frame.session)
    raise TargetCovered(f"the browser sent the press on {what} to a frame of {came[0]} that "
                        "stood there when this background tab last drew; that frame ignored "
                        "it, and nothing was dragged. Try again")


# whether a press on the element would start the browser's own drag: it or an ancestor is
# draggable (draggable=true, or by default a link or an image), across shadow roots
_NATIVE = ("(e => {{ for (; e; e = e.parentElement || e.getRootNode().host) "
           "if (e.draggable) return true; return false; }})(__ts.get({}))")


async def _hover(tab: Tab, src: Handle, list_id: int, want: int, x: float, y: float,
                 html5: dict[str, Any] | None) -> None:
    """Stay over the drop point as a hand does, repeating the move (or the dragover the
    browser repeats), and let go once the list shows the element where it is wanted (at
    index `want`; -1 when it joins no list: once the page has been still for a moment).
    Sortable libraries animate, and a pointer held too long over moving items can undo a
    move."""
    start = time.monotonic()
    last: int | None = None
    still = 0
    while True:
        now = await _placed(tab, src, list_id)
        if want >= 0 and now == want:
            return
        still = still + 1 if now == last else 0
        last = now
        elapsed = time.monotonic() - start
        if elapsed >= SETTLE[1] or (want < 0 and still >= 1 and elapsed >= SETTLE[0]):
            return
        if html5 is not None:
            await _drag_event(tab, "dragOver", x, y, html5)
        else:  # a hand is never quite still: a pixel either way, so the page sees it move
            still_x = x + (1 if int(elapsed / HOVER) % 2 else 0)
            await _mouse(tab, "mouseMoved", still_x, y, button="left", buttons=1)
        await asyncio.sleep(HOVER)


async def _placed(tab: Tab, src: Handle, list_id: int) -> int | None:
    """The index the dragged element's item has in its list now (None without a list)."""
    if not list_id:
        return None
    now = await tab.evaluate(src.frame, f"__ts.order({src.local}, {list_id})")
    return int(now[1]) if isinstance(now, list) else None


async def _drag_event(tab: Tab, kind: str, x: float, y: float, data: dict[str, Any]) -> None:
    await tab.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y, "data": data})
