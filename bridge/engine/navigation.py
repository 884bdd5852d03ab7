"""Navigating a tab: open a URL, back and forward, reload."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from ..errors import BrowserError, PolicyError, TabError, UsageError
from . import sent
from .acting import (
    ANSWERS_WAIT,
    LOAD_CAP,
    NAV_TIMEOUT,
    Outcome,
    _report_dialog,
    guarded,
)
from .tab import Tab

log = logging.getLogger("tabsteward.engine")


def with_scheme(url: str) -> str:
    """A typed address as a browser's address bar takes it: local hosts over http, the rest
    over https; URLs with a scheme (and about:, data:, file:) as they are."""
    url = url.strip()
    if "://" in url or url.startswith(("about:", "data:", "file:", "javascript:", "blob:")):
        return url
    host = url.split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0].lower()
    local = host in ("localhost", "[::1]") or host.startswith("127.") or host.endswith(".local")
    return ("http://" if local else "https://") + url


async def navigate(tab: Tab, url: str, wait: str = "load",
                   timeout: float = NAV_TIMEOUT, *, read_after: bool = False) -> Outcome:
    """Open url in the tab and wait for its load (`wait`; a load up to LOAD_CAP once the
    document is ready), and after a load, for the data (fetch, XMLHttpRequest) the page was
    still loading then, as a person waits for a page to fill in before reading it (up to
    ANSWERS_WAIT). `read_after`: the caller reads the page next (`open -i`), so the page
    helper's world is made as the document commits, while its load is awaited (not
    otherwise: an agent that opens again at once would have it made in a document it is
    leaving)."""
    url = with_scheme(url)
    if url.startswith("javascript:"):
        raise PolicyError("javascript: URLs run script; use `eval` where policy allows it. "
                          "Nothing was opened")
    tab.check_no_dialog()
    await tab.permit("navigate", url=url)
    out = Outcome(f"opened {url}", armed=False)  # (no input: nothing armed in reply)
    # the load of this navigation's document, by its loader (a debugger attaching for the
    # navigation replays the lifecycle of the page it leaves); one without a loader (told
    # by the extension, which answers at commit) only after Page.navigate answered
    answered: list[str] = []
    early: list[tuple[str, str]] = []  # (event, loader) of lifecycle events before the answer

    def of_this_load(event: str) -> Callable[[str, dict[str, Any], str | None], bool]:
        def match(m: str, p: dict[str, Any], s: str | None) -> bool:
            if m != "Page.lifecycleEvent" or p.get("frameId") != tab.target_id or \
                    p.get("name") != event:
                return False
            if not answered:
                early.append((event, str(p.get("loaderId", ""))))
                return False
            return bool(p.get("loaderId", answered[0]) == answered[0])
        return match
    loaded = tab.expect(of_this_load(_event(wait)))
    # a load is waited for up to LOAD_CAP once the document is ready: the page can be read
    # and used then, whatever it still loads (a hung image, an ad, a tracker)
    ready = tab.expect(of_this_load("DOMContentLoaded")) if wait == "load" else None
    # a dialog the page opens while loading holds the load back: report it, do not wait
    dialog = tab.expect(lambda m, p, s: m == "Page.javascriptDialogOpening")
    # an open that reads next has the helper's world made as the document commits: the
    # document starts with the helper in it (Tab._prime; through the extension, its
    # worker puts it there), so this only learns the world's id (one that turns out
    # gone is made again by the read)
    parsed = tab.expect(lambda m, p, s: read_after and m == "Page.frameNavigated" and
                        p.get("frame", {}).get("id") == tab.target_id)
    parsed.add_done_callback(
        lambda f: None if f.cancelled() else tab.world_ahead(tab.target_id))
    # the page's data requests: through the extension its worker tells them (no debugger);
    # elsewhere the Network domain does
    listening = [] if tab.conn.hears_data or wait != "load" else await sent.listen(tab)
    tab.start_recording()
    try:
        stopped_before = len(tab.state.stopped)
        going = asyncio.ensure_future(tab.send("Page.navigate", {"url": url}))
        racing: set[asyncio.Future[Any]] = {going, dialog}
        try:
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the action was stopped: so is its request
            going.cancel()
            raise
        if not going.done():  # the page asks first ("Leave site?"): the agent answers it
            _let_finish(tab, going)
            out.did = f"{url} is not opened yet: the page asks before it lets go"
            out.data["url"] = tab.state.url
            _report_dialog(tab, out)
            return out
        res = going.result()
        answered.append(str(res.get("loaderId", "")))
        if answered[0] and (_event(wait), answered[0]) in early:  # loaded before the answer
            loaded = _came_before(loaded)
        if ready is not None and answered[0] and ("DOMContentLoaded", answered[0]) in early:
            ready = _came_before(ready)
        # the page's own document (or its redirect) refused: nothing opened; a frame's
        # refused request is reported below with the rest of the page's load
        page_stops = [stop.text for stop in tab.state.stopped[stopped_before:] if stop.main]
        if page_stops:
            raise PolicyError(f"did not open {url}: {'; '.join(page_stops)}. Nothing was "
                              "loaded from there", url=url)
        if res.get("errorText"):
            raise BrowserError(f"could not open {url}: {res['errorText']}")
        if res.get("loaderId") and wait != "none":
            first = {loaded, dialog}
            if ready is not None:
                first.add(ready)
            done, _ = await asyncio.wait(first, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if done and not done & {loaded, dialog}:  # ready, not loaded: a while more
                done, _ = await asyncio.wait({loaded, dialog}, timeout=LOAD_CAP,
                                             return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    out.changes.append(load_capped(LOAD_CAP))
            elif not done:
                out.changes.append(f"still loading after {timeout:g} s")
            if loaded in done and wait == "load" and \
                    not await sent.data_came(tab, ANSWERS_WAIT):
                # (the data the page was still fetching at its load, and what it led to)
                out.changes.append(f"the page was still loading data after {ANSWERS_WAIT:g} s")
    finally:
        loaded.cancel()
        if ready is not None:
            ready.cancel()
        dialog.cancel()
        parsed.cancel()
        sent.stop_listening(tab, listening)
        tab.stop_recording()
    tab.state.url = url if tab.state.url == "about:blank" else tab.state.url
    out.changes.extend(stop.text for stop in tab.state.stopped[stopped_before:])
    out.data["url"] = tab.state.url
    _report_dialog(tab, out)
    return out


def _came_before(waiting: asyncio.Future[Any]) -> asyncio.Future[Any]:
    """A done future for an event that came before Page.navigate answered (`waiting`, which
    would wait for it again, is dropped)."""
    waiting.cancel()
    came = asyncio.get_running_loop().create_future()
    came.set_result(("Page.lifecycleEvent", {}))
    return came


def load_capped(cap: float) -> str:
    """What an agent is told of a page still loading `cap` seconds after its document was
    ready, when it was not waited for further (it is read and used as it is)."""
    return (f"still loading {cap:g} s after its document was ready (a slow image, frame or "
            "script); not waited for further (`wait --load load` waits for it)")


def _let_finish(tab: Tab, request: asyncio.Future[Any]) -> None:
    """Keep a navigation held by the page's leave question as the tab's chore: it goes on
    if the question is accepted, and ends quietly if it is dismissed or the tab closes."""
    async def settle() -> None:
        try:
            await request
        except (BrowserError, TabError) as exc:
            log.debug("a navigation held by a leave question ended: %s", exc.message)
    task = asyncio.get_running_loop().create_task(settle())
    tab.chores.add(task)
    task.add_done_callback(tab.chores.discard)


def _event(wait: str) -> str:
    return {"load": "load", "domcontentloaded": "DOMContentLoaded",
            "networkidle": "networkIdle"}.get(wait.lower(), "load")


async def history(tab: Tab, delta: int, *, read_after: bool = False) -> Outcome:
    """Back or forward `delta` pages. `read_after`: the caller reads the page once loaded,
    and waits for the data it fetches then, which the tab hears (as for `reload`)."""
    hist = await tab.send("Page.getNavigationHistory")
    index = int(hist["currentIndex"]) + delta
    entries = hist["entries"]
    if not 0 <= index < len(entries):
        raise UsageError(f"no page to go {'back' if delta < 0 else 'forward'} to; "
                         "nothing was done")
    await tab.permit("navigate", url=str(entries[index].get("url", "")))
    out = Outcome("went back" if delta < 0 else "went forward")
    async with _hearing_data(tab, read_after):
        await guarded(tab, tab.send("Page.navigateToHistoryEntry",
                                    {"entryId": entries[index]["id"]}),
                      "history", out, listen=False)
    return out


async def reload(tab: Tab, *, read_after: bool = False) -> Outcome:
    await tab.permit("navigate", url=tab.state.url)
    out = Outcome("reloaded")
    async with _hearing_data(tab, read_after):
        await guarded(tab, tab.send("Page.reload"), "reload", out, listen=False)
    return out


@asynccontextmanager
async def _hearing_data(tab: Tab, needed: bool) -> AsyncIterator[None]:
    """The Network domain on while a page loads, so the tab hears the data requests its new
    document begins (fetching.py) for a read after its load to wait for; switched off after,
    which leaves it on a while (cdp/kept_network.py). Through the extension its worker tells
    them, with no debugger."""
    listening = await sent.listen(tab) if needed and not tab.conn.hears_data else []
    try:
        yield
    finally:
        sent.stop_listening(tab, listening)
