"""Where input on an element lands: frame offsets, routing, scrolling into view, hit points."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..errors import BrowserError, RefNotFound, TargetCovered, TargetNotInteractable, UsageError
from .collect import HOOK_SECRET
from .drawing import drawn_while, promptly
from .frames import MAX_FRAME_DEPTH, PageFrames
from .model import Frame, Handle, TabState

if TYPE_CHECKING:
    from .tab import Tab

COVER_WAIT = 2.0  # seconds a cover on its way out may take to go (a fade, a hidden tab's timer)
COVER_LOOK = 0.05  # seconds between looks meanwhile
# seconds a cover may stay once the page's animations ended: what takes it away may be a
# timer, which a hidden tab runs at its once-a-second wake-up
AFTER_MOVING = 1.0
STEADY_WAIT = 1.0  # seconds an element the page's animations move may take to stand still
STEADY_LOOK = 0.02  # seconds between looks meanwhile: more than a frame
SHOWN_WAIT = 0.3  # seconds a page an attach showed may take to draw two frames
HOVER_INTENT = 0.5  # seconds a box may wait, once the pointer came, to show what it holds
SHOWN_LOOK = 0.008  # seconds between looks meanwhile: half a frame


At = tuple[float, float]  # a point of an element: CSS pixels from its top-left corner


@dataclass(frozen=True)
class Aim:
    """Where a click on an element goes (page coordinates) and what it activates there: the
    `info` of that element and its id in the element's frame (None and 0 when nothing)."""

    x: float
    y: float
    target: dict[str, Any] | None
    target_id: int
    hit_id: int = 0  # the element hit there, in the element's frame
    also: dict[str, Any] | None = None  # another element on the path the click runs
    local: tuple[float, float] | None = None  # the point in the element's frame



class Placing(PageFrames):
    """The geometry half of a Tab: where its elements are and where a click on them lands."""

    browser: Any  # the engine Browser (set by it): whether the tab draws on its own
    state: TabState
    _shown_count = 0  # the debugger's attaches that waited for a drawn frame (drawnSince)

    async def permit(self, action: str, info: dict[str, Any] | None = None,
                     **facts: Any) -> None:
        raise NotImplementedError  # Tab asks the hub's policy

    async def _step_out(self, frame: Frame) -> tuple[Frame, int, float, float]:
        """One frame up: the parent frame, the iframe element's id there, and where the
        child's viewport starts inside the parent's."""
        owner = await self._owner_of(frame)
        if owner is None:
            raise TargetNotInteractable("cannot place the frame holding the element; "
                                        "nothing was done")
        parent = self.frames[owner[0]]
        off = await self.evaluate(parent, f"__ts.frameOffset({owner[1]})")
        if not off:
            raise TargetNotInteractable("the frame holding the element is gone; "
                                        "nothing was done")
        return parent, owner[1], float(off[0]), float(off[1])

    async def frame_offset(self, frame: Frame) -> tuple[float, float]:
        """Where the frame's viewport starts inside the page's."""
        return await self._frame_offset(frame)

    async def _frame_offset(self, frame: Frame) -> tuple[float, float]:
        x = y = 0.0
        current = frame
        for _ in range(20):
            if current.id == self.target_id:
                return x, y
            current, _, dx, dy = await self._step_out(current)
            x, y = x + dx, y + dy
        return x, y

    async def route(self, handle: Handle, x: float, y: float) -> tuple[str, float, float]:
        """Where mouse input at page point (x, y) on the element goes: the CDP session of the
        element's frame process, and the point in that session's viewport. Input sent to
        the page's session reaches an out-of-process frame through the browser's hit test
        of the last drawn frame, which is stale just after a scroll; its own session is not."""
        session = handle.frame.session
        root = self.frames.get(self.child_sessions.get(session, ""))
        if session == self.session_id or root is None:
            return self.session_id, x, y
        ox, oy = await self._frame_offset(root)
        return session, x - ox, y - oy

    async def next_frame(self) -> None:
        """Let the page draw once (after a scroll): the browser routes input to out-of-
        process frames by the last drawn frame, so a click sent sooner can land on the old
        layout. A page without such frames gets its input straight, hit-tested on its
        current layout: it is not waited for. Nor is a tab whose page says it is hidden:
        its timers wait for the browser's once-a-second wake-up."""
        frame = self.frames[self.target_id]
        ctx = await self._world(frame)
        await self.send("Runtime.evaluate", {
            "expression": "document.hidden || new Promise(r => { requestAnimationFrame(() => "
                          "requestAnimationFrame(r)); setTimeout(r, 200); })",
            "contextId": ctx, "awaitPromise": True}, timeout=10)

    async def drawn_once_shown(self) -> None:
        """Wait until the page, shown by a debugger just attached (focus emulation), drew
        frames. A page loaded in a hidden tab has drawn none, and input sent before it does
        can be lost in part (measured through the extension, other browsers busy: the first
        click after an attach lost its press in about one run in fifteen while the page
        heard its move and release; no click, none said). Two frames counted in the
        helper's world (`drawnSince`), looked at every SHOWN_LOOK, up to SHOWN_WAIT."""
        frame = self.frames.get(self.target_id)
        if frame is None or self.state.dialog is not None:  # (a dialog holds its frames)
            return
        self._shown_count += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHOWN_WAIT
        look = f"__ts.drawnSince({self._shown_count})"
        while await self.evaluate(frame, look, follow=False) is False and \
                loop.time() < deadline:
            await asyncio.sleep(SHOWN_LOOK)

    async def scroll_into_view(self, handle: Handle, what: str) -> None:
        """Scroll the element into view in every box that clips it and in its frame, and each
        frame holding it in its own; fails when a box that cannot scroll cuts it off."""
        res = await self.evaluate(handle.frame, f"__ts.scrollIntoView({handle.local})")
        shown = res if isinstance(res, dict) else {}
        if shown.get("hidden"):
            raise TargetNotInteractable(_cut_off(what, str(shown["hidden"])))
        await self._reveal_frames(handle.frame, bool(shown.get("scrolled")))

    async def _reveal_frames(self, inner: Frame, scrolled: bool) -> None:
        """Scroll each frame holding `inner` into view in its parent (the element inside
        is already in view in `inner`), then let the page draw if anything scrolled."""
        for _ in range(MAX_FRAME_DEPTH):
            if inner.id == self.target_id:
                break
            owner = await self._owner_of(inner)
            if owner is None:
                break
            inner = self.frames[owner[0]]
            res = await self.evaluate(inner, f"__ts.scrollIntoView({owner[1]})")
            if isinstance(res, dict) and res.get("hidden"):
                raise TargetNotInteractable(_cut_off("the frame holding it", str(res["hidden"])))
            scrolled = scrolled or (isinstance(res, dict) and bool(res.get("scrolled")))
        # only out-of-process frames need it drawn, and only a tab that draws on its own (a
        # hidden tab of the person's browser draws for a capture, which the shield asks for
        # when input went astray: shield.py)
        if scrolled and self.child_sessions and (self.browser is None or
                                                 self.browser.own_windows):
            await self.next_frame()

    async def page_rect(self, handle: Handle) -> tuple[float, float, float, float] | None:
        """The element's border box in the page's viewport (x, y, width, height), or None."""
        rect = await self.evaluate(handle.frame, f"__ts.rect({handle.local})")
        if not rect:
            return None
        ox, oy = await self._frame_offset(handle.frame)
        return float(rect[0]) + ox, float(rect[1]) + oy, float(rect[2]), float(rect[3])

    async def point(self, handle: Handle, what: str, placed: dict[str, Any] | None = None,
                    at: At | None = None) -> tuple[float, float]:
        """Scroll the element into view and return an uncovered point on it (page coords);
        `placed`: the page's answer already read by `resolve_placed`; `at`: the point of the
        element asked for (CSS pixels from its top-left corner), there or nowhere."""
        at_js = f", {json.dumps(list(at))}" if at else ""
        aim = await self._place(handle, what, f"__ts.point({handle.local}{at_js})", placed)
        return aim.x, aim.y

    async def aim(self, handle: Handle, what: str, placed: dict[str, Any] | None = None,
                  at: At | None = None) -> Aim:
        """`point`, and what a click there really activates: the element hit at that point,
        walked up to its button, link or control (through a label to the control it names).
        Policy judges a click by that element, not by the one the agent named."""
        return await self._place(handle, what, self._aim_js(handle.local, at), placed)

    async def _hover_over(self, frame: Frame, spot: dict[str, Any]) -> str:
        """Put the pointer over the box around an element that the page shows only then
        (`spot`: page_hits.js `hoverSpot`), once policy allowed hovering it; the box, as
        the page helper describes it."""
        try:
            local, x, y = int(spot["id"]), float(spot["x"]), float(spot["y"])
        except (KeyError, TypeError, ValueError):
            raise BrowserError("the page helper gave no point to hover") from None
        box = Handle(frame, local, 0)
        info = await self.evaluate(frame, f"__ts.info({local}, {json.dumps(HOOK_SECRET)})")
        await self.permit("hover", info if isinstance(info, dict) else None)
        ox, oy = await self._frame_offset(frame)
        session, x, y = await self.route(box, x + ox, y + oy)
        move = {"type": "mouseMoved", "x": x, "y": y}
        await promptly(cast("Tab", self),
                       self.send("Input.dispatchMouseEvent", move, session=session))
        return str(spot.get("what") or "the box around it")

    async def _uncovered(self, frame: Frame, expression: str, res: dict[str, Any]
                         ) -> dict[str, Any]:
        """The element placed again while what covers it may be leaving (a menu or modal
        fading out as it closes, as the action before closed it: the page runs animations
        that end or ran them within AFTER_MOVING, or timers it armed in reply to input are
        still to run), for up to COVER_WAIT: a person waits that long. A hidden tab is
        drawn meanwhile (it would not run its animations); the last answer. A cover on a
        page doing none of this is answered at once, nothing drawn. (Found doing none of it
        just after a look, the page is looked at once more: a timer may have run between
        the two and taken the cover away.)"""
        now = time.monotonic()
        moved = now if res.get("moving") else 0.0  # when the page was last seen animating
        if not moved and not await self._armed(frame):
            return await self._again(frame, expression, res)
        deadline = now + COVER_WAIT
        async with aclosing(self._looks(frame, expression, COVER_LOOK)) as looks:
            async for res in looks:
                now = time.monotonic()
                if res.get("error") != "covered" or now >= deadline:
                    return res
                if res.get("moving"):
                    moved = now
                elif now - moved > AFTER_MOVING and not await self._armed(frame):
                    return await self._again(frame, expression, res)
        return res

    async def _standing(self, frame: Frame, expression: str, res: dict[str, Any]
                        ) -> dict[str, Any]:
        """The element placed again once it stands still, while the page runs animations
        that end: one that moves it (a panel opening above it slides it down) would take it
        from under a press, and the release, landing elsewhere, would click nothing. Looked
        at every STEADY_LOOK until two looks with a frame drawn between them place it alike,
        or no such animation runs, for up to STEADY_WAIT; a hidden tab is drawn meanwhile
        (else its animations stand still until the click draws it, and move it then)."""
        deadline = time.monotonic() + STEADY_WAIT
        async with aclosing(self._looks(frame, expression, STEADY_LOOK)) as looks:
            async for again in looks:
                if again.get("error") or not again.get("moving") or \
                        time.monotonic() >= deadline or _alike(res, again):
                    return again
                res = again
        return res

    async def _coming(self, frame: Frame, expression: str, res: dict[str, Any]
                      ) -> dict[str, Any]:
        """The element placed again while it is not shown yet and the page runs animations
        that end (the box the pointer went over grows to show it, a menu unfolds): looked at
        every STEADY_LOOK until it is shown or none runs, for up to STEADY_WAIT, the tab
        drawn meanwhile; the last answer."""
        deadline = time.monotonic() + STEADY_WAIT
        async with aclosing(self._looks(frame, expression, STEADY_LOOK)) as looks:
            async for res in looks:
                if res.get("error") not in ("hidden", "offscreen") or not res.get("moving") \
                        or time.monotonic() >= deadline:
                    return res
        return res

    async def _looks(self, frame: Frame, expression: str, every: float
                     ) -> AsyncGenerator[dict[str, Any], None]:
        """The element placed again every `every` seconds, the tab drawn meanwhile (a hidden
        one would not run its animations), until the page gives no placing."""
        async with drawn_while(cast("Tab", self)):
            while True:
                await asyncio.sleep(every)
                again = await self.evaluate(frame, expression)
                if not isinstance(again, dict):
                    return
                yield again

    async def _again(self, frame: Frame, expression: str, res: dict[str, Any]
                     ) -> dict[str, Any]:
        again = await self.evaluate(frame, expression)
        return again if isinstance(again, dict) else res

    async def _armed(self, frame: Frame) -> bool:
        """Whether the page has timers to run that it armed in reply to input (hook.js)."""
        due = await self.evaluate(frame, f"__ts.armed({json.dumps(HOOK_SECRET)})")
        return isinstance(due, list) and bool(due) and bool(due[0])

    @staticmethod
    def _aim_js(local: int, at: At | None = None) -> str:
        point = f", {json.dumps(list(at))}" if at else ""
        return f"__ts.aim({local}, {json.dumps(HOOK_SECRET)}{point})"

    async def common_target(self, frame: Frame, down: int, up: int) -> dict[str, Any] | None:
        """The info of what a press on element `down` and a release on `up` (ids in `frame`)
        activate: the browser clicks their nearest common ancestor."""
        found = await self.evaluate(
            frame, f"__ts.commonTarget({down}, {up}, {json.dumps(HOOK_SECRET)})")
        return found if isinstance(found, dict) else None

    async def _place(self, handle: Handle, what: str, expression: str,
                     placed: dict[str, Any] | None = None) -> Aim:
        frame = handle.frame
        # brings it into view in its frame first
        res = placed if placed is not None else await self.evaluate(frame, expression)
        if not isinstance(res, dict):
            raise BrowserError("the page helper gave no point")
        err = res.get("error")
        over = ""
        if err in ("hidden", "offscreen", "covered") and isinstance(res.get("hover"), dict):
            # shown only under the pointer: over its row first, as a person does
            over = await self._hover_over(frame, res["hover"])
            res = await self.evaluate(frame, expression)
            if not isinstance(res, dict):
                raise BrowserError("the page helper gave no point")
            err = res.get("error")
            if err in ("hidden", "offscreen"):  # a menu that opens a moment after the
                # pointer came (a mega menu's hover intent): once the timers it armed ran
                from . import replies  # (at call time: it works on the Tab this is part of)
                await replies.came(cast("Tab", self), frame.id, cap=HOVER_INTENT, data=False)
                res = await self.evaluate(frame, expression)
                if not isinstance(res, dict):
                    raise BrowserError("the page helper gave no point")
                err = res.get("error")
        if err in ("hidden", "offscreen") and res.get("moving"):
            res = await self._coming(frame, expression, res)
            err = res.get("error")
        if err is not None and over:
            what = f"{what}, even with the pointer over {over},"
        if err is None and res.get("moving"):
            res = await self._standing(frame, expression, res)
            err = res.get("error")
        if err == "covered" and isinstance(res.get("away"), dict) and not over:
            # what covers it is held open by the pointer, left over a menu's item by a hover
            # before: the pointer leaves it, as a person's hand moves off, and it may close
            await self._hover_over(frame, res["away"])
            res = await self._uncovered(frame, expression, await self.evaluate(frame, expression))
            err = res.get("error")
        if err == "covered" and not res.get("hover"):
            res = await self._uncovered(frame, expression, res)
            err = res.get("error")
        if err is None:
            await self._reveal_frames(frame, bool(res.get("scrolled")))
        if err == "outside":
            size = res.get("size")
            w, h = size if isinstance(size, list) and len(size) == 2 else ("?", "?")
            raise UsageError(f"the point asked for lies outside {what}, which is {w} by {h} "
                             "pixels (x from its left edge, y from its top); nothing was done")
        if err == "gone":
            raise RefNotFound(f"{what} is no longer in the page; nothing was done. "
                              "Take a new snapshot")
        if err == "hidden" and res.get("folded"):
            raise TargetNotInteractable(
                f"{what} is hidden inside the collapsed {res['folded']}; nothing was done. "
                "Open it first (a click on it)")
        if err == "hidden" and res.get("clip"):
            raise TargetNotInteractable(_cut_off(what, str(res["clip"])))
        if err == "hidden":
            raise TargetNotInteractable(f"{what} is not visible (no size or hidden); "
                                        "nothing was done")
        if err == "offscreen":
            raise TargetNotInteractable(f"{what} is outside the visible area even after "
                                        "scrolling; nothing was done")
        if err == "covered" and res.get("inert") is True:
            raise TargetNotInteractable(f"{what} is in a part of the page made inert: it takes "
                                        "no input (a person finds it greyed out); nothing was "
                                        "done")
        if err == "covered":
            raise TargetCovered(f"{what} is covered by {res.get('cover')}; nothing was done. "
                                "Close or move what covers it first", cover=res.get("cover"))
        if res.get("frame"):
            raise TargetNotInteractable(
                f"a click on {what} would land inside the frame {res['frame']}, whose content "
                "cannot be judged from here; act on the element inside the frame (the "
                "snapshot gives it a ref). Nothing was done")
        # up through the frames holding it: each iframe must be what its page shows there
        x, y = float(res["x"]), float(res["y"])
        activated = res.get("target")
        target = activated if isinstance(activated, dict) else None
        target_id = int(target.get("id") or 0) if target is not None else 0
        hit_id = int(res.get("hit") or 0)
        also = res.get("also") if isinstance(res.get("also"), dict) else None
        local = (x, y)
        current = frame
        for _ in range(20):
            if current.id == self.target_id:
                return Aim(x, y, target, target_id, hit_id, also, local)
            parent, owner_local, dx, dy = await self._step_out(current)
            x, y = x + dx, y + dy
            cover = await self.evaluate(parent, f"__ts.coverOf({owner_local}, {x}, {y})")
            if cover:
                raise TargetCovered(f"{what} is covered by {cover}; nothing was done. Close or "
                                    "move what covers it first", cover=cover)
            current = parent
        return Aim(x, y, target, target_id, hit_id, also, local)


def _cut_off(what: str, box: str) -> str:
    return (f"{what} is hidden: {box} cuts it off and cannot be scrolled (overflow hidden or "
            "clip); nothing was done")


def _alike(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two placings of an element, a frame drawn between them, put the click at the
    same point (within a pixel): with no frame between, or an animation about to start
    (`drawn` None), an animation has not moved it yet."""
    if a.get("drawn") is None or b.get("drawn") is None or a.get("drawn") == b.get("drawn"):
        return False
    try:
        return abs(float(a["x"]) - float(b["x"])) < 1 and abs(float(a["y"]) - float(b["y"])) < 1
    except (KeyError, TypeError, ValueError):
        return False
