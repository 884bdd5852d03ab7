"""A page drawn where the browser draws nothing (a hidden background tab): a tab being cast
is drawn, and its rendering steps run, so what a page does as it is scrolled (scroll
events, the IntersectionObserver callbacks of a feed's end or of lazy content) happens as
on screen."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
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


@asynccontextmanager
async def casting(tab: Tab) -> AsyncIterator[None]:
    """The tab cast while inside (Page.startScreencast, the smallest frames): drawn, hidden
    or not, while its page still finds itself hidden."""
    await tab.send("Page.startScreencast", TINY)
    try:
        yield
    finally:
        await _stop(tab)


async def _stop(tab: Tab) -> None:
    with suppress(BrowserError, TabError, PolicyError):
        await tab.send("Page.stopScreencast")


@asynccontextmanager
async def drawn_while(tab: Tab) -> AsyncIterator[None]:
    """Inside, the tab drawn where its browser would not draw it (a background tab of the
    person's browser: cast); a browser that draws its tabs itself is left alone. Best
    effort: a tab that cannot be cast stays as it is."""
    async with AsyncExitStack() as stack:
        if not getattr(tab.browser, "own_windows", True):
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
        await tab.send("Page.startScreencast", TINY)
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
            await _stop(tab)


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
