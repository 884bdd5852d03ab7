"""A page drawn where the browser draws nothing (a hidden background tab): a tab being cast
is drawn, and its rendering steps run, so what a page does as it is scrolled (scroll
events, the IntersectionObserver callbacks of a feed's end or of lazy content) happens as
on screen."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import BrowserError, PolicyError, TabError

if TYPE_CHECKING:
    from .tab import Tab

log = logging.getLogger("tabsteward.engine")
T = TypeVar("T")

FRAME_WAIT = 1.0  # seconds a frame may take to come
SETTLE = 0.12  # seconds a page may take to put back what input moved (settle)
SETTLE_LOOK = 0.016  # seconds between looks meanwhile: about a frame
HELD = 0.03  # seconds input may take to be answered before the tab is made to draw for it
# the smallest picture the browser sends of a frame: only its coming counts
TINY = {"format": "jpeg", "quality": 1, "maxWidth": 8, "maxHeight": 8, "everyNthFrame": 1}


# After a click or a key, Blink holds back the page's other tasks (its timers, a form's
# submission, a fetch's answer) until the page's next frame, or 50 ms: a hidden tab draws
# none, so every reply to input waited the whole 50 ms (measured through the extension: a
# log-in form's submission began 51 ms after the click, with a 0 ms timer armed by the
# submit). A hidden tab whose page replies to such input (it armed timers, asked for a
# navigation, or began requests) is cast for a moment once the input was answered
# (`for_input`): its next frame comes at once, and the page goes on. Input the page does
# not reply to is left alone: a cast costs the renderer a few ms.
INPUT_CAST = 0.02  # seconds a hidden tab stays cast
REPLIED = ("click", "press", "type")  # actions of clicks and keys (acting.guarded's `what`)


@dataclass
class _Cast:
    """Who keeps a tab cast: `casting` and `around` while inside, or else input's lease."""

    holders: int = 0
    until: float = 0.0  # loop time the lease ends
    lease: asyncio.Task[None] | None = None
    ended: asyncio.Event | None = None  # set: the lease ends now


_casts: weakref.WeakKeyDictionary[Tab, _Cast] = weakref.WeakKeyDictionary()


def _cast_of(tab: Tab) -> _Cast:
    cast = _casts.get(tab)
    if cast is None:
        cast = _casts[tab] = _Cast()
    return cast


async def _hold(tab: Tab) -> None:
    """Cast the tab for one more holder, afresh: input's lease ends first, and is let end
    rather than cancelled (a start cut short made the next one fail, and a redraw with it)."""
    cast = _cast_of(tab)
    lease = cast.lease
    if lease is not None:
        assert cast.ended is not None
        cast.ended.set()
        await asyncio.wait({lease})
    cast.holders += 1
    try:
        await tab.send("Page.startScreencast", TINY)
    except BaseException:
        cast.holders -= 1
        raise


async def _release(tab: Tab) -> None:
    """One holder less; the cast stops with the last."""
    cast = _cast_of(tab)
    cast.holders = max(0, cast.holders - 1)
    if cast.holders == 0:
        await _stop(tab)


@asynccontextmanager
async def casting(tab: Tab) -> AsyncIterator[None]:
    """The tab cast while inside (Page.startScreencast, the smallest frames): drawn, hidden
    or not, while its page still finds itself hidden."""
    await _hold(tab)
    try:
        yield
    finally:
        await _release(tab)


async def _stop(tab: Tab) -> None:
    with suppress(BrowserError, TabError, PolicyError):
        await tab.send("Page.stopScreencast")


def draws_itself(tab: Tab) -> bool:
    """Whether the browser draws the tab on its own (a headless browser's tab, or one with
    a window of its own): no cast needed."""
    return tab.browser is None or getattr(tab.browser, "own_windows", True)


def for_input(tab: Tab) -> None:
    """The page replies to a click or a key just answered: a tab the browser does not draw
    is cast for INPUT_CAST from now (`REPLIED` above says why), unless it is cast already.
    Best effort: a tab that cannot be cast replies as it would have."""
    if draws_itself(tab):
        return
    cast = _cast_of(tab)
    if cast.holders:
        return
    loop = asyncio.get_running_loop()
    cast.until = loop.time() + INPUT_CAST
    if cast.lease is None:
        cast.ended = asyncio.Event()
        cast.lease = loop.create_task(_leased(tab, cast, cast.ended))
        tab.chores.add(cast.lease)
        cast.lease.add_done_callback(tab.chores.discard)


async def _leased(tab: Tab, cast: _Cast, ended: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    try:
        try:
            await tab.send("Page.startScreencast", TINY)
        except (BrowserError, TabError, PolicyError) as exc:
            log.debug("the tab was not cast for its input: %s", exc.message)
            return
        try:
            while not ended.is_set() and (left := cast.until - loop.time()) > 0:
                with suppress(TimeoutError):
                    await asyncio.wait_for(ended.wait(), left)
        finally:
            if not cast.holders:
                await _stop(tab)
    finally:
        cast.lease = None


@asynccontextmanager
async def drawn_while(tab: Tab) -> AsyncIterator[None]:
    """Inside, the tab drawn where its browser would not draw it (a background tab of the
    person's browser: cast); a browser that draws its tabs itself is left alone. Best
    effort: a tab that cannot be cast stays as it is."""
    async with AsyncExitStack() as stack:
        if not draws_itself(tab):
            try:
                await stack.enter_async_context(casting(tab))
            except (BrowserError, TabError, PolicyError) as exc:
                log.debug("the tab was not cast: %s", exc.message)
        yield


def _frame(tab: Tab) -> asyncio.Future[tuple[str, dict[str, Any]]]:
    return tab.expect(lambda m, p, s: m == "Page.screencastFrame" and s == tab.session_id)


async def around(tab: Tab, act: Callable[[], Awaitable[T]],
                 changed: Callable[[T], bool]) -> tuple[T, bool]:
    """`act` with the tab drawn once before it (what the page watches, such as where its
    feed's end stood, is then up to date) and, when `changed` says it changed the page,
    once after it; what it returned, and whether the frame after it came. Where no
    debugger may come (a read-only profile through the extension) nothing is drawn."""
    first = _frame(tab)
    cast = drawn = False
    try:
        await _hold(tab)
        cast = True
        _, params = await asyncio.wait_for(first, FRAME_WAIT)
        # the next frame comes once this one is acknowledged
        await tab.send("Page.screencastFrameAck", {"sessionId": params.get("sessionId")})
        drawn = True
    except (BrowserError, TabError, PolicyError) as exc:
        log.debug("the page was not drawn: %s", exc.message)
    except TimeoutError:
        log.debug("no frame came within %g s", FRAME_WAIT)
    finally:
        first.cancel()
    after = _frame(tab)
    try:
        result = await act()
        if drawn and changed(result):
            try:
                await asyncio.wait_for(after, FRAME_WAIT)
                return result, True
            except TimeoutError:
                log.debug("no frame came within %g s of the change", FRAME_WAIT)
        return result, False
    finally:
        after.cancel()
        if cast:
            await _release(tab)


async def settle(tab: Tab, done: Callable[[], Awaitable[bool]]) -> None:
    """Give the page up to SETTLE seconds (as long as a person's finger rests on a button)
    until `done` says it settled: a tab that draws on its own draws meanwhile; a hidden one
    is cast, so that its rendering steps run (scroll events, animation frames)."""
    async with drawn_while(tab):
        end = asyncio.get_running_loop().time() + SETTLE
        while asyncio.get_running_loop().time() < end:
            await asyncio.sleep(SETTLE_LOOK)
            if await done():
                return
        log.debug("the page did not settle within %g s", SETTLE)


async def promptly(tab: Tab, sending: Awaitable[T]) -> T:
    """Input the renderer answers once it handled it (a lone mouse move), answered without
    waiting for a frame the tab would not draw: a hidden tab holds such a move until its
    next frame (measured: about a second), and one cast draws at once."""
    task = asyncio.ensure_future(sending)
    try:
        return await asyncio.wait_for(asyncio.shield(task), HELD)
    except TimeoutError:
        pass
    try:
        async with casting(tab):
            return await task
    except (BrowserError, TabError, PolicyError) as exc:
        if task.done():
            raise
        log.debug("the tab was not cast for its input: %s", exc.message)
        return await task
