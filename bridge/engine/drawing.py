"""A page drawn once where the browser draws nothing (a hidden background tab): its
rendering steps run, so what a page does as it is scrolled (scroll events, the
IntersectionObserver callbacks of a feed's end or of lazy content) happens as on screen."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from ..errors import BrowserError, PolicyError, TabError
from .tab import Tab

log = logging.getLogger("tabsteward.engine")

FRAME_WAIT = 1.0  # seconds a frame may take to come
# the smallest picture the browser sends of a frame: only its coming counts
TINY = {"format": "jpeg", "quality": 1, "maxWidth": 8, "maxHeight": 8, "everyNthFrame": 1}


async def draw_once(tab: Tab) -> bool:
    """Have the browser draw the tab's page once, hidden or not, and wait for the frame
    (Page.startScreencast: a tab being captured is drawn, and stays hidden to its page);
    whether one came. Where no debugger may come (a read-only profile through the
    extension) nothing is drawn."""
    frame = tab.expect(lambda m, p, s: m == "Page.screencastFrame" and s == tab.session_id)
    started = False
    try:
        await tab.send("Page.startScreencast", TINY)
        started = True
        await asyncio.wait_for(frame, FRAME_WAIT)
        return True
    except (BrowserError, TabError, PolicyError) as exc:
        log.debug("the page was not drawn: %s", exc.message)
        return False
    except TimeoutError:
        log.debug("no frame came within %g s", FRAME_WAIT)
        return False
    finally:
        frame.cancel()
        if started:
            with suppress(BrowserError, TabError, PolicyError):
                await tab.send("Page.stopScreencast")
