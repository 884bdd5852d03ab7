"""Pointer input on an element: click, hover, focus, scroll (drag is in dragging.py)."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..cdp.connection import Command
from ..errors import (
    BrowserError,
    PolicyError,
    TabError,
    TargetCovered,
    TargetError,
    TargetNotInteractable,
    UsageError,
)
from . import keys, motion, replies, sent, shield
from .acting import (
    ANSWERS_WAIT,
    FADING,
    HIDDEN,
    Outcome,
    barrier,
    describe,
    guarded,
    input_then_read,
    read_back,
)
from .aiming import CLICK, Ask, aim_and_ask, reaches
from .drawing import around, promptly
from .locating import card_words
from .model import Frame, Handle
from .placing import At
from .reporting import (
    list_emptied,
    list_opened,
    replied,
    report_invalid,
    report_replied,
    report_said,
)
from .shield import Shield
from .snapshot import quote, shorten
from .tab import Tab
from .targets import Target

BUTTONS = ("left", "right", "middle")
TIP_WAIT = 1.0  # seconds a page may take to show a tooltip under the pointer (its delay)
# seconds a click's reply may take: the timers and frames it armed (a status line set on the
# next frame or a 0 ms timer; not a ripple's 550 ms, which every click of a kit arms), and
# where the clicked element is in a dialog, the start of its closing (Vue's fade, frames on)
REPLY_WAIT = 0.1
CLOSE_WAIT = 0.5
# the roles of what a click passed on by a label focuses (its text field)
FOCUSED_BY_LABEL = ("textbox", "searchbox", "combobox", "spinbutton")
MOUSE = "Input.dispatchMouseEvent"
T = TypeVar("T")


def modifier_mask(modifiers: list[str] | None) -> int:
    mask = 0
    for m in modifiers or []:
        canon = {"Ctrl": "Control", "Cmd": "Meta", "Command": "Meta"}.get(m, m)
        if canon not in keys.MODIFIERS:
            raise UsageError(f"unknown modifier {m!r}; use Control, Shift, Alt or Meta")
        mask |= keys.MODIFIERS[canon]
    return mask


async def _mouse(tab: Tab, kind: str, x: float, y: float, session: str | None = None,
                 **extra: Any) -> None:
    """One mouse event, answered once the page handled it (a move without waiting for a
    frame a hidden tab would not draw: drawing.promptly)."""
    sending = tab.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra},
                       session=session)
    await (promptly(tab, sending) if kind == "mouseMoved" else sending)


async def click(tab: Tab, target: Target, button: str = "left", count: int = 1,
                modifiers: list[str] | None = None, *, ask: Ask = CLICK,
                at: At | None = None) -> Outcome:
    """Click like a person, once policy allowed what the click really activates; `ask` says
    which action the click is part of (a check, a download, an upload through a button);
    `at`: the point of the element to click (CSS pixels from its top-left corner: a legend
    a canvas draws), else one the page helper picks."""
    if button not in BUTTONS:
        raise UsageError(f"button must be one of {', '.join(BUTTONS)}; nothing was clicked")
    if not 1 <= count <= 3:
        raise UsageError("count must be 1, 2 or 3; nothing was clicked")
    mask = modifier_mask(modifiers)
    tab.attach_ahead(MOUSE)
    if at is None:
        handle, info, placed = await tab.resolve_placed(target, aiming=True)
    else:
        (handle, info), placed = await tab.resolve_info(target), None
    out, _ = await _click(tab, handle, info, button, count, mask, ask, placed, at)
    return out


async def _click(tab: Tab, handle: Handle, info: dict[str, Any], button: str, count: int,
                 mask: int, ask: Ask, placed: dict[str, Any] | None = None,
                 at: At | None = None) -> tuple[Outcome, dict[str, Any] | None]:
    """The click on a resolved element; its outcome, and the element's state after it
    (acting.AFTER; None when it was not read: a dialog opened, the page navigated, the
    element went)."""
    what = describe(handle, info)
    if info.get("disabled"):
        raise TargetNotInteractable(f"{what} is disabled; nothing was clicked")
    aim = await aim_and_ask(tab, handle, what, info, ask, placed, at)
    if aim.target_id == handle.local and aim.target and not info.get("name"):
        what = describe(handle, aim.target)  # shown (and so named) once the pointer came
    session, x, y = await tab.route(handle, aim.x, aim.y)
    verb = {1: "clicked", 2: "double-clicked", 3: "triple-clicked"}[count]
    if button == "right":
        verb = "right-clicked"
    note = reaches(handle, aim)
    out = Outcome(f"{verb} {what}{_at_said(at)}{note}")

    # The move and the first press go back to back: in a hidden background tab the
    # renderer holds a lone mouse move until its next frame (about a second), while a press
    # right behind it makes it handle both at once. Each release, and each further press,
    # goes once the event before it was answered, as a person's hand comes up after the
    # page took the press, and once the point shows again what was pressed (`hold`): a
    # press that moved the page (a grid focusing its cell scrolls, then scrolls back) is
    # given the time to put it back, or the release lands on what stood there meanwhile.
    down = {"x": x, "y": y, "button": button, "modifiers": mask}
    presses: list[Command] = [
        (MOUSE, {"type": kind, **down, "clickCount": n}, session)
        for n in range(1, count + 1) for kind in ("mousePressed", "mouseReleased")]
    steps = [[(MOUSE, {"type": "mouseMoved", "x": x, "y": y, "modifiers": mask}, session),
              presses[0]], *([event] for event in presses[1:])]
    fx, fy = aim.local or (aim.x, aim.y)
    hold = f"__ts.stillUnder({handle.local}, {aim.hit_id}, {fx}, {fy})"
    after = await shielded(tab, session, what, "click", lambda up: guarded(
        tab, input_then_read(tab, steps, handle, up, hold), "click", out, barrier=False))
    if after is not None and after.get("connected") is False and info.get("name"):
        anew = await _drawn_anew(tab, handle, info)
        if anew is not None:
            handle, after = anew[0], {**after, **anew[1], "anew": True}
    span = [len(out.changes), 0]  # where the element's own changes stand in the report
    state = _report_state(tab, info, after, out)
    span[1] = len(out.changes)
    if state is not None and state.get("connected") is not False:
        out.recheck = functools.partial(_recheck, tab, handle, info, out, span)
    if state is not None and note and aim.target and \
            aim.target.get("role") in FOCUSED_BY_LABEL:
        # a field a label passes the click on to takes focus, unless the page stopped the
        # click there (an icon in a field's label that opens a calendar): then it did not
        with contextlib.suppress(BrowserError, TabError, TargetError, UsageError):
            if await tab.evaluate(handle.frame, f"__ts.holdsFocus({aim.target_id})",
                                  follow=False) is False:
                out.did = f"{verb} {what}"
    if state is not None:
        report_invalid(tab, handle.frame, state.get("invalid"), out)
        report_said(state.get("said"), out)
        said = state.get("said")
        veiled = isinstance(said, dict) and said.get("veiled") is True and not out.changes
        if out.armed or state.get("inDialog"):
            await _replied_later(tab, handle, out, bool(state.get("inDialog")),
                                 span[0] == span[1], veiled)
    return out, state


async def _drawn_anew(tab: Tab, handle: Handle, info: dict[str, Any]
                      ) -> tuple[Handle, dict[str, Any]] | None:
    """The element the page drew in place of the clicked one, which left (a tree's item
    drawn again with its children): its handle, which keeps the old ref, and its state;
    None when no one element, or several, have its tag, role and name (in the card its
    ref's locator gave, where it gave one: page_info.js `drawnAnew`)."""
    entry = tab.refs.get(handle.ref)
    words = card_words(entry) if entry is not None else None
    args = json.dumps([info.get("tag"), info.get("role"), info.get("name"), words])[1:-1]
    try:
        again = await tab.evaluate(handle.frame, f"__ts.drawnAnew({args})", follow=False)
    except (BrowserError, TabError, UsageError):
        return None
    if not isinstance(again, dict) or not isinstance(again.get("id"), int):
        return None
    tab.drawn_anew(handle.frame, handle.local, again["id"])
    return Handle(handle.frame, again["id"], handle.ref), again


async def _recheck(tab: Tab, handle: Handle, before: dict[str, Any], out: Outcome,
                   span: list[int]) -> None:
    """The element's own changes (at `span` in the report, which it moves) as they are
    now: once the short timers the click armed ran (a sort done in a 0 ms one), and once a
    look waited for what the click set going (a button that said "Applying…" and was
    disabled while the page worked says nothing of that once it is back as it was)."""
    with contextlib.suppress(BrowserError, TabError, TargetError, UsageError):
        again = await read_back(tab, handle)
        if again is not None and again.get("connected") is False and before.get("name"):
            anew = await _drawn_anew(tab, handle, before)
            again = again if anew is None else {**again, **anew[1], "anew": True}
        ended = Outcome("")
        if again is None or _report_state(tab, before, again, ended) is None:
            return
        out.changes[span[0]:span[1]] = ended.changes
        span[1] = span[0] + len(ended.changes)
        if "value" in ended.data:
            out.data["value"] = ended.data["value"]
        report_invalid(tab, handle.frame, again.get("invalid"), out)
        report_said(again.get("said"), out)


async def _replied_later(tab: Tab, handle: Handle, out: Outcome, in_dialog: bool,
                         unchanged: bool = False, veiled: bool = False) -> None:
    """Say what the page said once the timers or frames the click armed in reply ran, within
    REPLY_WAIT (not the data they fetch: a look after the click waits for that): a status
    line set on the next frame, a dialog that opened; and that the dialog the clicked
    element was in closed, where the page starts to close it only then, within CLOSE_WAIT
    (Vue's transition takes two frames to start a fade: Element Plus's message box), or
    once the animations it set going ended (a dialog slid out, then closed: Material's).
    `unchanged`: the element showed no change right after the click; it is read again.
    `veiled`: a veil came over the page and nothing more yet, a modal's backdrop fading in
    before its dialog shows (Bootstrap's, 150 ms): its timers are given CLOSE_WAIT too."""
    try:
        if out.armed:
            await replies.came(tab, out.armed_in,
                               cap=CLOSE_WAIT if in_dialog or veiled else REPLY_WAIT, data=False)
        if in_dialog:
            await closed_later(tab, handle.frame, out)
        found = await replied(tab, handle.frame)
        report_replied(tab, handle.frame, found, out)
        if out.armed and unchanged and out.recheck is not None:  # (the element as a timer
            await out.recheck()  # it armed left it: DataTables' sort in a 0 ms one)
    except (BrowserError, TabError, TargetError, UsageError):
        return


async def closed_later(tab: Tab, frame: Frame, out: Outcome) -> None:
    """Say that the dialog the action's element was in closed, where it went only once the
    animations the action set going ended (a dialog faded or slid out, then hidden)."""
    await motion.ended(tab, frame)
    closed = await tab.evaluate(frame, "__ts.dialogLater()", follow=False)
    if isinstance(closed, dict):
        report_said({"said": [], "closed": closed}, out)


async def shielded(tab: Tab, session: str, what: str, verb: str,
                   send: Callable[[Shield], Awaitable[T]]) -> T:
    """Send mouse input meant for `session`'s frames with every other process's frame
    shielded (shield.py): `send` raises the shield, or has its input's sequence raise it;
    input the browser routed to one of those frames is sent once more after the tab drew,
    and refused the second time, saying that nothing was done."""
    for attempt in (1, 2):
        up = await Shield.ready(tab, session)
        try:
            done = await send(up)
        finally:
            came = await up.down()
        if not came:
            return done
        if attempt == 1:
            await shield.redraw(tab)
    raise TargetCovered(
        f"the browser sent the {verb} on {what} to a frame of {came[0]} that stood there when "
        "this background tab last drew; that frame ignored it, and nothing was done. Try "
        "again, or take a screenshot first (it makes the tab draw)")


GONE = "it is no longer in the page"
LEFT = (GONE, FADING, HIDDEN)


def state_said(change: str) -> bool:
    """Whether a change line is one `_report_state` wrote, the element's own state, or says
    its list or menu came."""
    return change.startswith(("now ", "value now ")) or change in LEFT or list_opened(change)


def opening_said(change: str) -> bool:
    """Whether a change line of a click that opened a list to choose in says only that it
    opened (`state_said`), or another control expanded with it (downshift's toggle): the
    list closes again as the choice is made."""
    return state_said(change) or change.endswith(" now expanded")


def closing_said(change: str) -> bool:
    """Whether a change line of a choice in a list says only that the option went with
    its list, or that the list's options left it: how a choice ends."""
    return change in LEFT or list_emptied(change)


def _report_state(tab: Tab, before: dict[str, Any], after: dict[str, Any] | None,
                  out: Outcome) -> dict[str, Any] | None:
    """Say how the element changed (checked, expanded, value, its words), or that it left
    the page; its state now (None when not read: a dialog opened, the page navigated, the
    element went with its document)."""
    if after is None or tab.state.dialog is not None or "url" in out.data:
        return None
    if after.get("connected") is False:  # a Delete, a Close: what it read is of no page
        out.changes.append(GONE)
        return after
    if after.get("fading") is True:
        out.changes.append(FADING)
        return after
    if after.get("shown") is False and before.get("shown") is True and not after.get("anew"):
        out.changes.append(HIDDEN)
        return after
    if after.get("anew"):  # (in place of the element, one like it: its state is said)
        out.changes.append("it was drawn anew")
    name = after.get("name")
    if isinstance(name, str) and name and before.get("name") and name != before["name"]:
        out.changes.append(f"now named {quote(shorten(name, 80))}")
    # (a list that reuses its items by place: the icon clicked now stands in another's,
    # its first words others; not an item whose count changed: "12 likes")
    holder, was = after.get("holder"), before.get("holder")
    if isinstance(holder, str) and holder and isinstance(was, str) and was and \
            holder.split()[:3] != was.split()[:3]:
        out.changes.append(f"it now stands in {quote(holder)}")
    # (whether it says it opens a list is what it is, no news: a list it keeps shut beside it
    # that shows as it closes is not a change of it)
    gone = set(before.get("states", [])) - set(after.get("states", [])) - {"haspopup"}
    new = set(after.get("states", [])) - set(before.get("states", [])) - {"haspopup"}
    if new or gone:
        out.changes.append("now " + " ".join(sorted(new) or ["not " + s for s in sorted(gone)]))
    if after.get("value") != before.get("value") and after.get("value") is not None:
        # (said once: a choice a click made in another element said as this field's news,
        # by its name or, having none, its role)
        said_beside = f" now {after['value']!r}"
        out.changes[:] = [c for c in out.changes if not (c.startswith('"') and
                                                          c.endswith(said_beside))]
        out.changes.append(f"value now {after['value']!r}")
        out.data["value"] = after["value"]
    return after


async def hover(tab: Tab, target: Target, at: At | None = None) -> Outcome:
    """Move the pointer over the element (`at` a point of it: see `click`)."""
    tab.attach_ahead(MOUSE)
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    await tab.permit("hover", info)
    x, y = await tab.point(handle, what, at=at)
    session, x, y = await tab.route(handle, x, y)
    out = Outcome(f"hovered {what}{_at_said(at)}")

    async def move(up: Shield) -> None:
        await up.up()
        await guarded(tab, _rest(tab, x, y, session), "hover", out)

    tips = await _tooltips(tab, handle)
    await shielded(tab, session, what, "hover", move)
    # what a person sees once the pointer rests (after the delay the page arms for it, and
    # its fading in): the tooltips it brought; the element's own change, a menu a hover
    # opens (Element Plus's dropdown: its trigger now expanded), what else came, as a
    # click's report says them
    await replies.came(tab, handle.frame.id, cap=TIP_WAIT)
    await motion.ended(tab, handle.frame)
    came: list[str] = []
    if tips is not None:
        came = [t for t in await _tooltips(tab, handle, rested=True) or [] if t not in tips]
        if came:
            out.changes.append("shows the tooltip " + ", ".join(quote(t) for t in came))
            out.data["tooltips"] = came
    with contextlib.suppress(BrowserError, TabError, TargetError, UsageError):
        again = await read_back(tab, handle)
        if again is not None and again.get("connected") is not False:
            _report_state(tab, info, again, out)
            said = again.get("said")
            if isinstance(said, dict) and came:  # (a tooltip's words are said as its)
                said = {**said, "shows": None, "came": [
                    c for c in said.get("came") or [] if not (
                        isinstance(c, list) and c and c[0] in came)]}
            report_said(said, out)
    return out


async def _rest(tab: Tab, x: float, y: float, session: str) -> None:
    """The pointer brought to (x, y) and resting there as a hand's does, stirring a pixel:
    a page that waits for a move after the pointer left another element before it opens
    what this one shows (Radix's tooltip, the pointer "in transit" from the last trigger
    until a move lands elsewhere) sees those moves, each after the page ran its due work."""
    for dx in (0, 1, 0):
        await _mouse(tab, "mouseMoved", x + dx, y, session)


def _at_said(at: At | None) -> str:
    return f" at {at[0]:g},{at[1]:g}" if at else ""


async def _tooltips(tab: Tab, handle: Handle, rested: bool = False) -> list[str] | None:
    """The words of the tooltips that show (page_said.js `tooltips`; `rested`: with the
    browser's own, the pointer resting on the element); None unread."""
    call = f"__ts.tooltips({handle.local}, {'true' if rested else 'false'})"
    try:
        got = await tab.evaluate(handle.frame, call, follow=False)
    except (BrowserError, TabError, UsageError):
        return None
    return [str(t) for t in got] if isinstance(got, list) else None


async def focus(tab: Tab, target: Target) -> Outcome:
    handle, info = await tab.resolve_info(target)
    await tab.permit("focus", info)
    obj = await tab.object_id(handle)
    what = describe(handle, info)
    out = Outcome(f"focused {what}")
    try:
        await guarded(tab, tab.send("DOM.focus", {"objectId": obj},
                                    session=handle.frame.session), "focus", out)
    except BrowserError as exc:
        if "not focusable" not in exc.message:
            raise
        # (one a person can tab to, but not now: disabled, hidden, or in an inert part)
        raise TargetNotInteractable(f"{what} cannot take the focus now (disabled, hidden, or "
                                    "in a part of the page made inert); nothing was done"
                                    ) from None
    return out


async def scroll(tab: Tab, target: Target | None, dx: int, dy: int) -> Outcome:
    """Scroll by (dx, dy) as a mouse wheel over the element does (over the page without
    one): the element, or the nearest box around it that can still scroll that way, else
    the page; a page that cannot scroll that way passes it to the box in its middle (an
    app's list pane). With no amount, bring the element into view. Then the page is drawn
    (hidden or not) and the data it fetched for what came into view is awaited, as a
    person sees a feed's next stories come in."""
    if target is None:
        await tab.permit("scroll")

        async def wheel() -> Outcome:
            moved = await tab.evaluate(tab.frames[tab.target_id],
                                       f"__ts.wheel(null, {dx}, {dy})")
            box = str(moved["box"])
            return _scrolled(moved, f"{box} (the page itself cannot scroll that way)" if box
                             else "the page")
        return await _then_drawn(tab, wheel, tab.frames[tab.target_id])
    handle, info = await tab.resolve_info(target)
    await tab.permit("scroll", info)
    what = describe(handle, info)

    async def into_view() -> Outcome:
        await tab.scroll_into_view(handle, what)
        return Outcome(f"scrolled {what} into view")

    async def wheel_on() -> Outcome:
        moved = await tab.evaluate(handle.frame, f"__ts.wheel({handle.local}, {dx}, {dy})")
        if not isinstance(moved, dict):
            raise TargetNotInteractable(f"{what} is gone from the page; nothing was scrolled")
        box = str(moved["box"])
        return _scrolled(moved, what if moved["self"] else f"{box} around {what}" if box
                         else "the page")
    if dx == 0 and dy == 0:
        return await _then_drawn(tab, into_view)
    return await _then_drawn(tab, wheel_on, handle.frame)


async def _then_drawn(tab: Tab, scrolled: Callable[[], Awaitable[Outcome]],
                      frame: Frame | None = None) -> Outcome:
    """The scroll with the page drawn before and after it (drawing.py: a hidden tab draws
    nothing, so its scroll events and IntersectionObserver callbacks would wait for the
    person to look), then the data requests that began meanwhile answered (up to
    ANSWERS_WAIT). The Network domain tells them, in order with the page's other events:
    the debugger comes for the drawing anyway. A wheel's (`frame`, its document's) says
    what it changed then (page_said.js: items a feed added, a box it enabled)."""
    try:
        listening = await sent.listen(tab)
    except PolicyError:  # no debugger for this agent (read-only): scrolled, never drawn
        return await scrolled()
    tab.start_recording()
    try:
        out, drawn = await around(tab, scrolled,
                                  lambda o: not o.did.startswith("nothing scrolled"))
        if drawn:
            await barrier(tab)  # what the page's renderer told before this has come
            if not await sent.data_came(tab, ANSWERS_WAIT):
                out.changes.append(f"the page was still loading data after {ANSWERS_WAIT:g} s")
        if frame is not None and not out.did.startswith("nothing scrolled"):
            report_replied(tab, frame, await replied(tab, frame), out)
    finally:
        sent.stop_listening(tab, listening)
        tab.stop_recording()
    return out


def _scrolled(moved: dict[str, Any], name: str) -> Outcome:
    """The outcome of a wheel's scroll (page_hits.js wheel): what scrolled, and where to."""
    mx, my = moved["moved"]
    x, y = moved["pos"]
    width, height = moved["size"]
    view_w, view_h = moved["view"]
    data = {"x": x, "y": y, "height": height, "width": width, "box": moved["box"]}
    where = f"x={x} of {width} (shows {view_w})" if mx and not my else \
        f"y={y} of {height} (shows {view_h})"
    if not mx and not my:
        return Outcome(f"nothing scrolled: {name} is at its end that way ({where})", data=data)
    return Outcome(f"scrolled {name} to {where}", data=data)
