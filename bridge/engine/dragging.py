"""Drag and drop as a person does it: press, take hold past the library's threshold, bring
the target into view, glide onto the far half of the target as laid out at each move,
pause, release; HTML5 drags played through Chrome's interception. Reports what the page
shows after it (drag_report.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from ..errors import TargetCovered, TargetError, TargetNotInteractable, UsageError
from . import motion, replies, shield
from .acting import Outcome, describe
from .aiming import Ask, aim_and_ask
from .collect import HOOK_SECRET
from .drag_report import ListState, report
from .drawing import drawn_while
from .model import Frame, Handle
from .placing import Aim
from .pointer import MOUSE, _mouse
from .reporting import replied, report_replied
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
ORDERED = 1.0  # at most this long, a press cut off by a cancellation is let reach the browser


def toward(sx: float, sy: float, tx: float, ty: float, dist: float = START
           ) -> tuple[float, float]:
    """The point `dist` pixels from the start on the way to the target (down, when the
    target is where it starts): far enough to pass a drag threshold, however near it is."""
    span = ((tx - sx) ** 2 + (ty - sy) ** 2) ** 0.5
    if span < 1:
        return sx, sy + dist
    return sx + (tx - sx) / span * dist, sy + (ty - sy) / span * dist


def step(x: float, y: float, tx: float, ty: float, left: int) -> tuple[float, float]:
    """The next point of a hand gliding from (x, y) to (tx, ty) in `left` even moves."""
    return x + (tx - x) / max(1, left), y + (ty - y) / max(1, left)


@dataclass(frozen=True)
class Plan:
    """Where the drop is meant: the target's side (`above` ...; '' when it is not known),
    the target's list and the index the item is wanted at there (0 and -1 without)."""

    side: str = ""
    list_id: int = 0
    want: int = -1


class _Hand:
    """The pointer while the button is held: where it is, the HTML5 drag it started, and the
    drop point, found anew from the page's layout each time it is used (the drag scrolls
    the target into view, a box may scroll itself while the pointer nears its edge, and a
    sortable list moves its items under the pointer)."""

    def __init__(self, tab: Tab, src: Handle, dst: Handle, dst_what: str, aimed: Aim,
                 plan: Plan, x: float, y: float) -> None:
        self.tab, self.src, self.dst, self.dst_what = tab, src, dst, dst_what
        self.aimed, self.plan = aimed, plan
        self.x, self.y = x, y
        self.html5: dict[str, Any] | None = None
        self.held = False  # whether the page has the button down (a press was sent)
        self._sending: asyncio.Future[None] | None = None

    async def button(self, kind: str, x: float, y: float) -> None:
        """Press ("mousePressed") or release ("mouseReleased") the left button at (x, y). The
        command, once begun, is finished even when the drag is cancelled meanwhile, so that
        `held` stays what the page has: a press the page gets is released exactly once."""
        if self._sending is not None and not self._sending.done():
            # one left on its way by a cancellation goes first (the browser keeps the order
            # commands came in); a browser that does not answer is not waited for long
            await asyncio.wait({self._sending}, timeout=ORDERED)
        pressing = kind == "mousePressed"
        self.held = pressing
        sending = asyncio.ensure_future(_mouse(
            self.tab, kind, x, y, button="left", buttons=1 if pressing else 0, clickCount=1))
        sending.add_done_callback(_seen)
        self._sending = sending
        await asyncio.shield(sending)

    async def move(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        if self.html5 is None:
            await _mouse(self.tab, "mouseMoved", x, y, button="left", buttons=1)
        else:
            await _drag_event(self.tab, "dragOver", x, y, self.html5)

    async def spot(self) -> tuple[float, float]:
        """The drop point in the page's layout now."""
        tab, dst = self.tab, self.dst
        if self.plan.side and self.aimed.hit_id:  # the plan is made in the target's frame
            src = self.src.local if self.src.frame.id == dst.frame.id else 0
            where = await tab.evaluate(dst.frame, (
                f"__ts.dropSpot({dst.local}, {self.aimed.hit_id}, {json.dumps(HOOK_SECRET)},"
                f" {json.dumps(self.plan.side)}, {src})"))
            if isinstance(where, dict):
                ox, oy = await tab.frame_offset(dst.frame)
                return float(where["x"]) + ox, float(where["y"]) + oy
        # out of view, covered there, or in another frame: aimed at anew (into view again)
        again = await tab.aim(dst, self.dst_what)
        if again.target_id != self.aimed.target_id:
            raise TargetNotInteractable(f"{self.dst_what} changed during the drag: a release "
                                        "on it would reach another element")
        return again.x, again.y


@asynccontextmanager
async def _holding(hand: _Hand, what: str, hit: int, first: tuple[float, float]
                   ) -> AsyncIterator[None]:
    """The source pressed (`hit`: the element the press lands on) and taken hold of, toward
    `first`, for the drag's moves and release in the body: with the browser's own drags
    intercepted and every other process's frame shielded while the button is held. However
    the body ends (a failure, or the request cancelled: the agent gave up, the hub timed it
    out, the client went away), the button is not left held in the page; a second
    cancellation while letting go leaves the letting go to finish on its own."""
    tab, src = hand.tab, hand.src
    await tab.send("Input.setInterceptDrags", {"enabled": True})
    # frames of other processes ignore the drag's mouse input (shield.py): one the browser
    # routed there by an out-of-date layout did nothing, and the drag is refused below
    shields = await shield.raise_shields(tab, src.frame.session)
    # listened for from here, where the `finally` below stops listening however it ends
    intercepted = tab.expect(lambda m, p, s: m == "Input.dragIntercepted")
    try:
        shields = await _press(hand, what, shields)
        # only an element the browser drags itself starts an HTML5 drag: wait for one then
        native = await tab.evaluate(src.frame, _NATIVE.format(hit or src.local))
        # take hold while the source is under the pointer: the browser picks the element an
        # HTML5 drag carries, and a library its item, at the first move past its threshold,
        # by what lies under the press point then (a scroll before it would pick another)
        await hand.move(*toward(hand.x, hand.y, *first))
        if native:
            await asyncio.wait({intercepted}, timeout=0.05)
        if intercepted.done():
            hand.html5 = intercepted.result()[1]["data"]
            await _drag_event(tab, "dragEnter", hand.x, hand.y, hand.html5)
        yield
    except BaseException as e:
        if hand.held:
            where = await asyncio.shield(asyncio.ensure_future(_let_go(hand, src)))
            if isinstance(e, TargetError):  # the target changed, went or got covered
                raise type(e)(f"{_cause(e)}; the drag was let go {where}", **e.details) from e
        raise
    finally:
        intercepted.cancel()
        came = await shield.lower_shields(tab, shields)
        await tab.send("Input.setInterceptDrags", {"enabled": False})
    if came:  # the press reached the page (`_press`); its capture keeps the rest there
        raise TargetCovered(f"the browser sent part of the drag of {what} to a frame of "
                            f"{came[0]}; that frame ignored it. What the page did with the "
                            "rest is in its next snapshot")


async def drag(tab: Tab, source: Target, dest: Target) -> Outcome:
    """Press on the source, move, release on the destination. Both ends are put to policy as
    the clicks they may be (a drag that ends where it began is one), before any input.
    The source is pressed and taken hold of where it stands before anything scrolls; only
    then is the target brought into view, and each point after is found in the layout of
    that moment."""
    tab.attach_ahead(MOUSE)
    src, src_info = await tab.resolve_info(source)  # one page call each for a live ref
    dst, dst_info = await tab.resolve_info(dest)
    src_what, dst_what = describe(src, src_info), describe(dst, dst_info)
    grip, moving = await tab.evaluate(
        src.frame, f"[__ts.handleOf({src.local}), __ts.settling({src.local})]")
    if moving:  # the list still slides its items from a drop: a person waits for it
        await asyncio.sleep(float(moving) / 1000 + STEP_PAUSE)
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
    before = ListState.read(await tab.evaluate(src.frame, f"__ts.order({src.local}, 0, 0)"))
    planned = await tab.evaluate(dst.frame, f"__ts.dropSide({dst.local}, {src.local})") if (
        same) else None
    plan = Plan(str(planned["side"]), int(planned["list"]), int(planned["want"])) if (
        isinstance(planned, dict)) else Plan()
    if same:  # both ends in the middle of the window, where a library does not scroll it
        await tab.evaluate(src.frame, f"__ts.frameBoth({src.local}, {dst.local})")
    start = await tab.aim(src, src_what)  # the destination may have scrolled it away
    if start.target_id != first.target_id:
        raise TargetNotInteractable(f"{src_what} moved while the drag was prepared; nothing "
                                    "was done")
    sx, sy = start.x, start.y
    hand = _Hand(tab, src, dst, dst_what, dropping, plan, sx, sy)
    async with _holding(hand, src_what, start.hit_id, (dropping.x, dropping.y)):
        # into view now, as a person scrolls holding it; found where a release drops on it
        # (a library may let the pointer through its items once one is held: `dropSpot`)
        await tab.scroll_into_view(dst, dst_what)
        await hand.spot()
        start_at = before.at if before is not None and before.list_id == plan.list_id else -1
        followed = False  # whether the list moved the item while the pointer moved
        left = STEPS
        while left > 0:
            tx, ty = await hand.spot()
            moved_at = time.monotonic()
            await hand.move(*step(hand.x, hand.y, tx, ty, left))
            # a page that renders slowly (a hidden tab draws about once a second) answers
            # each move late: go straight on to the last point
            slow = time.monotonic() - moved_at > SLOW
            await asyncio.sleep(STEP_PAUSE)
            placed = await _placed(tab, src, plan)
            if plan.want >= 0 and placed == plan.want:
                break  # the list shows it where it is wanted: let go here
            followed = followed or (placed is not None and placed != start_at)
            left = 1 if slow and left > 1 else left - 1
        # a list that did not follow the pointer is not waited for to place the item
        await _hover(hand, plan.want if followed else -1)
        if hand.html5 is not None:  # the element now under the pointer must take the drop
            await _drag_event(tab, "dragOver", hand.x, hand.y, hand.html5)
            await _drag_event(tab, "drop", hand.x, hand.y, hand.html5)
        await hand.button("mouseReleased", hand.x, hand.y)
    await asyncio.sleep(STEP_PAUSE)  # a library's drop handler may run on the next frame
    await _dropped(tab, src)
    # (read before the list is read back: a read of an element starts the record anew)
    found = await replied(tab, src.frame)
    said = report(src_what, dst_what, before, *await _read_back(tab, src, dst, plan, before))
    out = Outcome(said.did, said.changes, said.data)
    report_replied(tab, src.frame, found, out)
    return out


BY_MAX = 10_000  # pixels a drag by an offset may move either way
DROP_WAIT = 1.0  # seconds the timers a page armed in reply to a drop's release are waited for


async def drag_by(tab: Tab, source: Target, dx: int, dy: int) -> Outcome:
    """Press on the source, move the pointer by (dx, dy) as a hand does, and let go there:
    a swipe, a splitter moved, a stroke on a drawing pad. The end must lie in the window
    (nothing scrolls for it) and in the source's document. Both ends are put to policy
    before any input: the source as the drag's start, what lies under the end as what the
    release reaches, and what a click of the two would activate."""
    if not (dx or dy):
        raise UsageError("a drag by 0,0 moves nothing; give a distance (dx or dy). Nothing "
                         "was done")
    if max(abs(dx), abs(dy)) > BY_MAX:
        raise UsageError(f"a drag moves at most {BY_MAX:,} px either way; nothing was done")
    tab.attach_ahead(MOUSE)
    src, info = await tab.resolve_info(source)
    what = describe(src, info)
    if src.frame.id != tab.target_id:
        raise TargetNotInteractable(f"{what} is inside a frame: a drag by a distance starts "
                                    "and ends in the page's own document; nothing was done")
    grip = await tab.evaluate(src.frame, f"__ts.handleOf({src.local})")
    if grip:  # an item with a drag handle is taken by its handle, as a person does
        src = Handle(src.frame, int(grip), src.ref)
    first = await aim_and_ask(tab, src, what, info, Ask("drag"))
    ex, ey = first.x + dx, first.y + dy
    end = await tab.evaluate(src.frame, f"__ts.endOf({ex}, {ey}, {json.dumps(HOOK_SECRET)})")
    if not isinstance(end, dict) or end.get("outside"):
        size = end.get("outside") if isinstance(end, dict) else None
        w, h = size if isinstance(size, list) and len(size) == 2 else ("?", "?")
        raise UsageError(f"a drag of {what} by {dx},{dy} would end at {ex:.0f},{ey:.0f}, "
                         f"outside the window ({w}x{h}); nothing was done")
    if end.get("frame"):
        raise TargetNotInteractable(f"a drag of {what} by {dx},{dy} would end inside the frame "
                                    f"{end['frame']}; nothing was done")
    await tab.permit("drag", end.get("info") if isinstance(end.get("info"), dict) else None)
    if first.hit_id and end.get("hit"):  # a release clicks both ends' nearest common ancestor
        common = await tab.common_target(src.frame, first.hit_id, int(end["hit"]))
        if common is not None and int(common.get("id") or 0) not in (
                first.target_id, int(end.get("target") or 0)):
            await tab.permit("drag", common)
    held = first.hit_id or src.local  # what the hand holds: it moves, if anything does
    before = await tab.evaluate(src.frame, f"[__ts.rect({held}), __ts.paneAt({held})]")
    hand = _Hand(tab, src, src, what, first, Plan(), first.x, first.y)
    async with _holding(hand, what, first.hit_id, (ex, ey)):
        for left in range(STEPS, 0, -1):
            await hand.move(*step(hand.x, hand.y, ex, ey, left))
            await asyncio.sleep(STEP_PAUSE)
        if hand.html5 is not None:
            await _drag_event(tab, "drop", ex, ey, hand.html5)
        await hand.button("mouseReleased", ex, ey)
    await asyncio.sleep(STEP_PAUSE)  # a page's handler of the release may run on the next frame
    await _dropped(tab, src)
    found = await replied(tab, src.frame)  # (before the element's read starts it anew)
    out = _moved_by(what, dx, dy, before, await tab.evaluate(
        src.frame, f"[__ts.rect({held}), __ts.info({src.local}), __ts.paneAt({held})]"), info)
    report_replied(tab, src.frame, found, out)
    return out


def _moved_by(what: str, dx: int, dy: int, before: Any, after: Any,
              info: dict[str, Any]) -> Outcome:
    """What a drag by an offset did: where what the hand held (`before`: its box and where
    its first box stands; `after`: the same, and the dragged element's info) stands now
    against where it stood (a swiped item slid aside, a splitter moved, one that sprang
    back), or, where it stood still, how far what it holds moved (a map's pane), and the
    element's value when it has one that changed (a slider's)."""
    out = Outcome(f"dragged {what} by {dx},{dy}")
    rect, now, pane = after if isinstance(after, list) and len(after) == 3 else (None,) * 3
    was, pane_was = before if isinstance(before, list) and len(before) == 2 else (None, None)
    if not isinstance(rect, list) or not isinstance(was, list):
        out.changes.append("it is no longer in the page")
        return out
    mx, my = round(rect[0] - was[0]), round(rect[1] - was[1])
    px = py = 0  # (what it holds: a map's pane a drag moves while the map stands)
    if isinstance(pane, list) and isinstance(pane_was, list):
        px, py = round(pane[0] - pane_was[0]) - mx, round(pane[1] - pane_was[1]) - my
    out.changes.append(f"it moved by {mx},{my}" if mx or my else
                       f"it stands where it stood; what it holds moved by {px},{py}"
                       if px or py else "it stands where it stood")
    out.data["moved"] = [mx, my]
    if isinstance(now, dict) and now.get("value") != info.get("value") and \
            now.get("value") is not None:
        out.changes.append(f"value now {now['value']!r}")
    return out


async def _read_back(tab: Tab, src: Handle, dst: Handle, plan: Plan,
                     before: ListState | None) -> tuple[ListState | None, ListState | None]:
    """The list holding the dragged item now, with the target's place in it (the target's
    list when the page replaced the element), and the item's first list when it left it."""
    other = dst.local if src.frame.id == dst.frame.id else 0
    now = ListState.read(await tab.evaluate(src.frame, f"__ts.order({src.local}, 0, {other})"))
    if now is None and plan.list_id:  # gone: the page drew its lists anew
        now = ListState.read(await tab.evaluate(
            dst.frame, f"__ts.order({src.local}, {plan.list_id}, {other})"))
    left = None
    if before is not None and now is not None and now.list_id != before.list_id:
        left = ListState.read(await tab.evaluate(
            src.frame, f"__ts.order({src.local}, {before.list_id}, 0)"))
    return now, left


async def _dropped(tab: Tab, src: Handle) -> None:
    """Wait while the list still slides the item to its place, as a person watches a drop
    land: a library may order its items only once that animation ended
    (react-beautiful-dnd), and a hidden tab is drawn meanwhile, or it would never end; then
    for the timers the page armed in reply to the release, up to DROP_WAIT (@hello-pangea/
    dnd's drop moves the card once its 330 ms animation played), and the motion they set
    going."""
    moving = await tab.evaluate(src.frame, f"__ts.settling({src.local})")
    if moving:
        async with drawn_while(tab):
            await asyncio.sleep(float(moving) / 1000 + STEP_PAUSE)
    await replies.came(tab, src.frame.id, cap=DROP_WAIT, data=False)
    await motion.ended(tab, src.frame)


def _cause(e: TargetError) -> str:
    """What went wrong with an end of a drag, without the "nothing was done" its message
    says where it stops an action before any input: the button was pressed here."""
    return e.message.split("; nothing was done")[0]


def _seen(sent: asyncio.Future[None]) -> None:
    """A button command nobody awaits any more (its drag was cancelled): its failure is
    taken, not left to be logged as never retrieved."""
    if not sent.cancelled():
        sent.exception()


async def _let_go(hand: _Hand, src: Handle) -> str:
    """Let go of a drag that cannot go on: an HTML5 drag is cancelled, and the button is
    released on the dragged element where it is now (back in view), so a list that moves
    items on release puts it back; says where."""
    tab = hand.tab
    try:
        if hand.html5 is not None:
            await _drag_event(tab, "dragCancel", hand.x, hand.y, hand.html5)
            hand.html5 = None
        where = "on the dragged element"
        try:
            x, y = await tab.point(src, "the dragged element")
        except Exception:  # noqa: BLE001 - gone or hidden: released where the pointer is
            x, y, where = hand.x, hand.y, "where the pointer was"
        await _mouse(tab, "mouseMoved", x, y, button="left", buttons=1)
        await hand.button("mouseReleased", x, y)
        return f"{where}, and nothing was dropped on the target; the page's next snapshot " \
               "shows what it did"
    except Exception:  # noqa: BLE001 - the tab may be gone: the failure is what is reported
        return "as far as the browser allowed"


async def _press(hand: _Hand, what: str, shields: list[Frame]) -> list[Frame]:
    """Move to the source and press there; a press the browser routed to a shielded frame
    (its layout of the tab out of date) is let go there and made once more after the tab
    drew, then refused, saying nothing was dragged. Returns the shields that are up."""
    tab, src, x, y = hand.tab, hand.src, hand.x, hand.y
    for attempt in (1, 2):
        await _mouse(tab, "mouseMoved", x, y)
        await hand.button("mousePressed", x, y)
        came = await shield.peek(tab, shields)
        if not came:
            return shields
        await hand.button("mouseReleased", x, y)
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


async def _hover(hand: _Hand, want: int) -> None:
    """Stay over the drop point as a hand does, repeating the move (or the dragover the
    browser repeats), and let go once the list shows the element where it is wanted (at
    index `want`; -1 when it joins no list: once the page has been still for a moment).
    Sortable libraries animate, and a pointer held too long over moving items can undo a
    move; the point is found anew each time, as the items move under it."""
    start = time.monotonic()
    last: int | None = None
    still = 0
    while True:
        now = await _placed(hand.tab, hand.src, hand.plan)
        if want >= 0 and now == want:
            return
        still = still + 1 if now == last else 0
        last = now
        elapsed = time.monotonic() - start
        if elapsed >= SETTLE[1] or (want < 0 and still >= 1 and elapsed >= SETTLE[0]):
            return
        x, y = await hand.spot()
        if hand.html5 is None:  # a hand is never quite still: a pixel either way
            x += 1 if int(elapsed / HOVER) % 2 else 0
        await hand.move(x, y)
        await asyncio.sleep(HOVER)


async def _placed(tab: Tab, src: Handle, plan: Plan) -> int | None:
    """The index the dragged element's item has in the target's list now (None without)."""
    if not plan.list_id:
        return None
    now = await tab.evaluate(src.frame, f"__ts.placeIn({src.local}, {plan.list_id})")
    return int(now) if isinstance(now, int | float) else None


async def _drag_event(tab: Tab, kind: str, x: float, y: float, data: dict[str, Any]) -> None:
    await tab.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y, "data": data})
