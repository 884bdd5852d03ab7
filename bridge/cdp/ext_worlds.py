"""The page helper's world over the extension: the extension's own isolated world.

Over plain CDP the engine makes its helper world with Page.createIsolatedWorld, and a new
debugger session makes a new one, with new element ids. Over the extension the helper
lives in the extension's isolated world instead, installed by chrome.scripting
(extension/reader.js) in every frame of the tab: that world outlives debugger sessions,
and chrome.scripting reaches it without a debugger. The debugger finds its execution
context among those Runtime.enable reports (type "isolated", the extension's origin).
The answer carries the document's token (`tabstewardDoc`), by which the engine keeps an
element's ref from one debugger session to the next, and `tabstewardReady` (the page
helper is already there). A frame the extension cannot reach (about:blank, a page without
host permission) gets a CDP world, as over plain CDP.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..browsers.extension_ids import allowed_origins
from ..errors import CDPError, TabstewardError
from .extension_link import ExtensionCallError

log = logging.getLogger("tabsteward.cdp")

Send = Callable[[str, dict[str, Any]], Awaitable[Any]]


def is_ours(context: dict[str, Any]) -> bool:
    """Whether an execution context is the extension's isolated world of some frame."""
    aux = context.get("auxData")
    return (isinstance(aux, dict) and aux.get("type") == "isolated"
            and f"{context.get('origin')}/" in allowed_origins())


class ExtensionWorlds:
    """Finds the extension's isolated world of a frame for the debugger, per tab session."""

    def __init__(self, call: Callable[..., Awaitable[Any]],
                 learned: Callable[[int, int, str], None]) -> None:
        self._call = call  # the link's call
        self._learned = learned  # (tab, the extension's frame id, the debugger's frame id)
        self._seen: dict[str, dict[str, int]] = {}  # session -> frame id -> context id
        self._finding: dict[str, asyncio.Future[dict[str, int]]] = {}
        self._tokens: dict[int, dict[str, int]] = {}  # tab -> document token -> frame
        # what this debugger session has learned: the last search's contexts, and the
        # reader's context ids already carried over (session -> reader id -> context id)
        self._known: dict[str, dict[str, int]] = {}
        self._carried: dict[str, dict[int, int]] = {}

    def forget(self, session: str) -> None:
        """A debugger session ended or began: the contexts it knew are not to be trusted."""
        self._known.pop(session, None)
        self._carried.pop(session, None)

    def on_event(self, session: str, method: str, params: dict[str, Any]) -> None:
        """Execution contexts reported while a search has Runtime enabled on `session`; a
        frame's new document, whose world is not the one the last search found."""
        if method == "Page.frameNavigated":
            frame = params.get("frame")
            known = self._known.get(session)
            if known is not None and isinstance(frame, dict):
                known.pop(str(frame.get("id")), None)  # not asked in vain: searched again
            return
        found = self._seen.get(session)
        context = params.get("context")
        if found is None or method != "Runtime.executionContextCreated" or \
                not isinstance(context, dict) or not is_ours(context):
            return
        frame = context["auxData"].get("frameId")
        if isinstance(frame, str) and isinstance(context.get("id"), int):
            found[frame] = context["id"]

    def knows(self, session: str, frame_id: str) -> bool:
        """Whether the last search of the session found the frame's world (its document
        did not change since)."""
        return frame_id in self._known.get(session, {})

    async def world(self, tab_id: int, session: str, frame_id: str,
                    send: Send) -> dict[str, Any] | None:
        """The extension's world in the frame: its context id, document token and
        readiness; None when the extension cannot reach the frame."""
        for fresh in (False, True):
            known = None if fresh else self._known.get(session)
            found = known if known is not None and frame_id in known else \
                await self._contexts(tab_id, session, send, fresh)
            ctx = found.get(frame_id)
            if ctx is None:
                continue  # a frame newer than the last search: inject and look again
            try:
                res = await send("Runtime.evaluate", {
                    "expression": "globalThis.__tsDoc", "contextId": ctx,
                    "returnByValue": True})
            except TabstewardError:
                continue  # its document went: look again
            token = res.get("result", {}).get("value")
            if isinstance(token, str):
                frame = self._tokens.get(tab_id, {}).get(token)
                if frame is not None:
                    self._learned(tab_id, frame, frame_id)
                return {"executionContextId": ctx, "tabstewardDoc": token,
                        "tabstewardReady": True}
        return None

    async def carried(self, tab_id: int, session: str, method: str, params: dict[str, Any],
                      frame_of: Callable[[int], str | None], send: Send) -> dict[str, Any]:
        """`params` with each context read without the debugger (a negative id, whose
        frame `frame_of` gives) replaced by the same world's context for the debugger."""
        for key in ("contextId", "executionContextId"):
            value = params.get(key)
            frame = frame_of(value) if isinstance(value, int) and value < 0 else None
            if frame is None:
                continue
            assert isinstance(value, int)
            ctx = self._carried.get(session, {}).get(value)
            if ctx is None:
                world = await self.world(tab_id, session, frame, send)
                if world is None:
                    raise CDPError(method, "Cannot find context with specified id")
                ctx = int(world["executionContextId"])
                self._carried.setdefault(session, {})[value] = ctx
            params = {**params, key: ctx}
        return params

    async def _contexts(self, tab_id: int, session: str, send: Send,
                        fresh: bool) -> dict[str, int]:
        """One search at a time per session; callers that come while one runs share it."""
        running = self._finding.get(session)
        if running is not None and not fresh:
            return await asyncio.shield(running)
        task = asyncio.ensure_future(self._search(tab_id, session, send))
        task.add_done_callback(_quiet)  # its caller may be gone (cancelled) when it fails
        self._finding[session] = task
        try:
            return await asyncio.shield(task)
        finally:
            if self._finding.get(session) is task and task.done():
                del self._finding[session]

    async def _search(self, tab_id: int, session: str, send: Send) -> dict[str, int]:
        """Inject the helper world where it is missing and, together (one trip less), have
        the debugger report the contexts: a world made while Runtime is enabled is reported
        too, before the reply to Runtime.disable, which is sent once both are done."""
        found: dict[str, int] = {}
        self._seen[session] = found
        try:
            await asyncio.gather(self._inject(tab_id), send("Runtime.enable", {}))
            await send("Runtime.disable", {})
        finally:
            self._seen.pop(session, None)
        self._known[session] = found
        return found

    async def _inject(self, tab_id: int) -> None:
        try:
            frames = await self._call("scripting.inject", tab_id)
        except ExtensionCallError as exc:  # no host permission, about:blank, chrome:// ...
            log.debug("page helper not injected into tab %s: %s", tab_id, exc.message)
        else:
            self._tokens[tab_id] = {
                str(f["doc"]): int(f["frameId"]) for f in frames or []
                if isinstance(f, dict) and isinstance(f.get("frameId"), int) and f.get("doc")}


def _quiet(task: asyncio.Future[Any]) -> None:
    """A search nobody waits for failed: the next one asks again (and says why)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("finding the page helper's worlds failed: %s", task.exception())
