"""A tab's frames and the page helper in each: worlds, evaluating, frame list, owners, focus."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import (
    BrowserError,
    CDPError,
    RefNotFound,
    TabError,
    TargetNotInteractable,
    UsageError,
)
from .helper_source import compact
from .model import Frame, Handle, RefEntry

if TYPE_CHECKING:
    from ..cdp.connection import CDPConnection

log = logging.getLogger("tabsteward.engine")

# the page helper's files in the order they install (extension/reader.js injects the same)
PAGE_FILES = ("page_elements.js", "page_states.js", "page_values.js", "page_words.js",
              "page_hints.js", "page_pager.js", "page_locators.js", "page_motion.js",
              "page_hits.js", "page_covers.js", "page_scroll.js", "page_hover.js", "page_shown.js",
              "page_dialogs.js", "page_drag.js", "page_tables.js", "page_cards.js",
              "page_invalid.js", "page_said.js", "page_items.js", "page_watch.js", "page_info.js",
              "page_text.js", "page_markdown.js", "page_input.js", "page_walk.js", "page.js")
PAGE_JS = ";\n".join(compact(Path(__file__).with_name(name).read_text(encoding="utf-8"))
                     for name in PAGE_FILES)
WORLD = "tabsteward"
MISSING = "__ts is not defined"  # how V8 says the helper is not in a world
MAX_FRAME_DEPTH = 20
FOCUS_SETTLE, FOCUS_WAIT = 2.0, 0.02  # a frame entered by Tab is told so a moment later


class PageFrames:
    """The frames half of a Tab (tab.py has the sessions, events and targets)."""

    conn: CDPConnection
    target_id: str
    session_id: str
    frames: dict[str, Frame]
    child_sessions: dict[str, str]
    refs: dict[int, RefEntry]
    _docs: dict[str, int]
    _next_doc: int
    _owner: dict[str, tuple[str, int]]
    _trees_read: set[str]
    _events_on: set[str]
    _primed: set[str]  # sessions whose documents start with the helper in our world
    _making: dict[str, asyncio.Task[int]]  # frame id -> its world being made
    chores: set[asyncio.Task[Any]]
    focused_in: Frame | None
    top_watched: bool

    if TYPE_CHECKING:  # provided by Tab
        def check_no_dialog(self) -> None: ...
        async def send(self, method: str, params: dict[str, Any] | None = None,
                       session: str | None = None,
                       timeout: float | None = 30) -> dict[str, Any]: ...

    async def _world(self, frame: Frame, find: bool = True) -> int:
        making = self._making.get(frame.id)
        if frame.world is None and find and making is not None and not making.done():
            # made ahead (`world_ahead`), or for a read that was cancelled since: its end
            await asyncio.wait({making})
        if frame.world is not None:
            return frame.world
        if not find:
            return await self._make_world(frame, find=False)
        # (made now when none was under way, or it failed, or its document went)
        return await asyncio.shield(self._making_world(frame))

    def _making_world(self, frame: Frame) -> asyncio.Task[int]:
        """The frame's world being made, as a task of the tab's own: a read cancelled
        while it waits for it (a look at readyState that a load event won) leaves it to be
        made to its end, and the read after waits for it rather than making another (one
        trip more through the extension: 3 to 10 ms)."""
        making = self._making.get(frame.id)
        if making is None or making.done():
            making = asyncio.get_running_loop().create_task(self._make_world(frame))
            self._making[frame.id] = making
            self.chores.add(making)
            making.add_done_callback(self.chores.discard)
            making.add_done_callback(functools.partial(_unasked, frame.id))
        return making

    async def world_of(self, frame: Frame) -> int:
        """The id of the frame's helper world, made now if it is not (yet, or again)."""
        return await self._world(frame)

    def world_ahead(self, frame_id: str) -> None:
        """Start making the frame's helper world now, in the background (a document just
        committed and its load is awaited): the read that follows finds it made."""
        frame = self.frames.get(frame_id)
        if frame is not None and frame.world is None:
            self._making_world(frame)

    async def _make_world(self, frame: Frame, find: bool = True) -> int:
        era = frame.era
        try:
            res = await self.send("Page.createIsolatedWorld",
                                  {"frameId": frame.id, "worldName": WORLD,
                                   "grantUniveralAccess": False}, session=frame.session)
        except CDPError:
            if not (find and frame.doc and await self._found_again(frame)):
                raise
            # its new id's world (that frame's, when it has one)
            return frame.world if frame.world is not None else \
                await self._make_world(frame, find=False)
        ctx = int(res["executionContextId"])
        # the extension's world has the helper already; so has ours in a document that
        # started with it (`evaluate` installs it where one did not)
        if not res.get("tabstewardReady") and frame.session not in self._primed:
            await self._evaluate_raw(frame, ctx, PAGE_JS)
        # its document went meanwhile: a world of no document it shows (a read in it says
        # so, and makes the new one's); not a world that outlives debugger sessions (the
        # extension's) when only a new session came: one of the document it names, and its
        # reads fail once that one goes
        if frame.era != era and (frame.world is not None or
                                 not self.conn.outlives_sessions(ctx)):
            return ctx
        frame.world = ctx
        # a world that outlives debugger sessions names its document: ids, refs stay
        token = res.get("tabstewardDoc")
        doc = self._docs.get(token) if isinstance(token, str) else None
        if doc is None:
            doc = self._next_doc
            self._next_doc += 1
            if isinstance(token, str):
                self._docs[token] = doc
        frame.doc = doc
        return ctx

    async def _found_again(self, frame: Frame) -> bool:
        """A frame the browser does not know by its id (one the extension named while no
        debugger was attached, which names it its own way, maybe in a session of its own):
        it becomes the frame that shows the same document (page.js's token), if one does,
        so its refs and handles act there."""
        old = frame.id
        frames = [f for f in await self._frame_list() if f is not frame]
        await asyncio.gather(*(self._world(f, find=False) for f in frames if f.world is None),
                             return_exceptions=True)
        same = next((f for f in frames if f.doc == frame.doc and f.world is not None), None)
        if same is None:
            return False
        log.debug("frame %s is frame %s of session %s", old, same.id, same.session)
        frame.id, frame.session, frame.parent = same.id, same.session, same.parent
        frame.world, frame.guard = same.world, same.guard
        self.frames.pop(old, None)
        self.frames[same.id] = frame
        self._owner.pop(old, None)
        for entry in self.refs.values():
            if entry.frame == old:
                entry.frame = same.id
        return True

    async def _evaluate_raw(self, frame: Frame, ctx: int, expression: str,
                            timeout: float | None = 30) -> Any:
        res = await self.send("Runtime.evaluate",
                              {"expression": expression, "contextId": ctx,
                               "returnByValue": True, "awaitPromise": False},
                              session=frame.session, timeout=timeout)
        if "exceptionDetails" in res:
            details = res["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"the page helper failed: {str(text)[:300]}")
        return res.get("result", {}).get("value")

    async def evaluate(self, frame: Frame, expression: str, timeout: float | None = 30,
                       follow: bool = True) -> Any:
        """Run read-only helper code in our isolated world of `frame`; when its document
        went meanwhile, in the new one's (not if `follow` is False: the error then)."""
        self.check_no_dialog()
        for attempt in (1, 2):
            ctx = await self._world(frame)
            try:
                return await self._evaluate_raw(frame, ctx, expression, timeout)
            except CDPError as exc:
                gone = "context" in exc.cdp_message.lower()
                if not gone or attempt == 2 or not follow:
                    raise
                frame.lose_worlds()  # the document changed under us: a new world
            except BrowserError as exc:
                # a world of a primed session whose document did not start with the helper
                # (its code reads __ts first, so nothing of it ran): install it, run again
                if MISSING not in exc.message or attempt == 2:
                    raise
                await self._evaluate_raw(frame, ctx, PAGE_JS)
        raise AssertionError("unreachable")

    async def object_id(self, handle: Handle) -> str:
        """A remote object id for the element (for DOM.* calls)."""
        frame = handle.frame
        for attempt in (1, 2):
            ctx = await self._world(frame)
            try:
                res = await self.send("Runtime.evaluate", {
                    "expression": f"__ts.get({handle.local})", "contextId": ctx},
                    session=frame.session)
                break
            except CDPError as exc:  # a world read without the debugger, which now came
                if "context" not in exc.cdp_message.lower() or attempt == 2:
                    raise
                frame.lose_worlds()
        obj = res.get("result", {})
        if obj.get("subtype") == "null" or "objectId" not in obj:
            raise RefNotFound(f"@{handle.ref} is no longer in the page; take a new snapshot")
        return str(obj["objectId"])

    async def in_every_frame(self, expression: str) -> list[tuple[Frame, Any]]:
        """Evaluate helper code in each frame of the page, the main frame first; frames that
        cannot answer (gone, still loading) are left out."""
        self.check_no_dialog()
        frames = await self._frame_list()
        frames.sort(key=lambda f: f.id != self.target_id)
        results = await asyncio.gather(*(self.evaluate(f, expression) for f in frames),
                                       return_exceptions=True)
        out: list[tuple[Frame, Any]] = []
        for frame, res in zip(frames, results, strict=True):
            if isinstance(res, BaseException):
                if not isinstance(res, BrowserError | UsageError):
                    raise res
                continue
            out.append((frame, res))
        return out

    async def _frame_list(self) -> list[Frame]:
        """Frames of the current document: main session's tree plus OOPIF sessions."""
        sessions = [self.session_id, *self.child_sessions]
        evented = set(self._events_on)  # a tree read before its events began can go stale
        trees = await asyncio.gather(
            *(self.send("Page.getFrameTree", session=s) for s in sessions),
            return_exceptions=True)
        frames: list[Frame] = []
        for session, tree in zip(sessions, trees, strict=True):
            if isinstance(tree, BaseException):
                if session == self.session_id:
                    raise tree
                continue
            if session in evented:
                self._trees_read.add(session)
            stack: list[tuple[dict[str, Any], str | None]] = [(tree.get("frameTree", {}), None)]
            while stack:
                node, parent = stack.pop()
                info = node.get("frame", {})
                fid = info.get("id")
                if not isinstance(fid, str):
                    continue
                parent_id = info.get("parentId") or parent
                if fid in self.child_sessions.values() and session == self.session_id:
                    oopif = self.frames.get(fid)  # drawn by its own session
                    if oopif is not None and parent_id:
                        oopif.parent = parent_id
                else:
                    known = self.frames.get(fid)
                    if known is None or known.session != session:
                        known = Frame(fid, session, parent_id)
                        self.frames[fid] = known
                    elif known.parent is None and parent_id:
                        known.parent = parent_id
                    frames.append(known)
                for child in reversed(node.get("childFrames", []) or []):  # in page order
                    stack.append((child, fid))
        return frames

    async def _owner_of(self, frame: Frame) -> tuple[str, int] | None:
        """(parent frame id, local id of the iframe element) for a child frame."""
        cached = self._owner.get(frame.id)
        if cached is not None:
            parent = self.frames.get(cached[0])
            if parent is not None and parent.world is not None:
                return cached
        parent_frames = [f for f in self.frames.values() if f.id == frame.parent] or \
            [f for f in self.frames.values() if f.session == self.session_id and f.id ==
             self.target_id]
        parent = parent_frames[0] if parent_frames else None
        if parent is None:
            return None
        try:
            owner = await self.send("DOM.getFrameOwner", {"frameId": frame.id},
                                    session=parent.session)
            ctx = await self._world(parent)
            obj = await self.send("DOM.resolveNode", {"backendNodeId": owner["backendNodeId"],
                                                      "executionContextId": ctx},
                                  session=parent.session)
            res = await self.send("Runtime.callFunctionOn", {
                "functionDeclaration": "function(){return __ts.idOf(this)}",
                "objectId": obj["object"]["objectId"], "returnByValue": True},
                session=parent.session)
        except (CDPError, KeyError) as exc:
            log.debug("no owner for frame %s: %s", frame.id, exc)
            return None
        found = (parent.id, int(res["result"]["value"]))
        self._owner[frame.id] = found
        return found


    async def focused_info(self) -> dict[str, Any] | None:
        """The `info` of the element that has keyboard focus, in whichever frame holds it
        (same- or cross-origin; `focused_in` then), or None when no element has it. Fails,
        rather than guess, when focus is in a frame that does not say what has it."""
        top = frame = self.frames[self.target_id]
        for _ in range(MAX_FRAME_DEPTH):
            res = await self.evaluate(frame, "__ts.focusedInfo()")
            if not isinstance(res, dict) or "frame" not in res:
                self.focused_in = frame
                return res if isinstance(res, dict) else None
            owner = int(res["frame"])
            child = await self._child_shown_by(frame, owner)
            if child is None:
                raise TargetNotInteractable("focus is in a frame whose document could not be "
                                            "asked what has it; nothing was done")
            # focus went on past a frame with nothing to focus: ask again from the top
            frame = child if await self._focus_arrives(frame, owner, child) else top
        raise TargetNotInteractable("focus is in frames nested too deep to tell what has it; "
                                    "nothing was done")

    async def watch_top(self, frame: Frame) -> None:
        """For an action in a frame other than the top document's, have the top document
        watch what changes in it meanwhile too (page_info.js `watchAround`: a card field's
        frame enabling the page's Pay button), for `reporting.top_replied` to say."""
        self.top_watched = False
        if frame.id == self.target_id:
            return
        with contextlib.suppress(BrowserError, TabError, UsageError):
            await self.evaluate(self.frames[self.target_id], "__ts.watchAround()",
                                follow=False)
            self.top_watched = True

    async def settle_focus(self) -> None:
        """After a Tab, wait until focus has landed. Tab into (or out of) a frame of another
        process is handed over a moment after the key is answered, and meanwhile no element
        has focus anywhere; a key sent then lands in the page's body and is lost."""
        top = self.frames[self.target_id]
        if all(f.session == top.session for f in self.frames.values()):
            return  # focus moves within one process at once
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FOCUS_SETTLE
        with contextlib.suppress(BrowserError, TargetNotInteractable):
            while await self.focused_info() is None:
                if loop.time() > deadline or not await self.evaluate(top, "document.hasFocus()"):
                    return  # focus left the page (to the browser's own controls)
                await asyncio.sleep(FOCUS_WAIT)

    async def _focus_arrives(self, parent: Frame, owner: int, child: Frame) -> bool:
        """Whether focus, given by `parent` to its frame element `owner`, reaches `child`
        (False when the parent moves it on first). A busy machine can take a while to pass
        it on; after FOCUS_SETTLE the child is asked as it is."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FOCUS_SETTLE
        while not await self.evaluate(child, "document.hasFocus()"):
            if loop.time() > deadline:
                break
            await asyncio.sleep(FOCUS_WAIT)
            res = await self.evaluate(parent, "__ts.focusedInfo()")
            if not (isinstance(res, dict) and res.get("frame") == owner):
                return False
        return True

    async def frame_shown_by(self, handle: Handle) -> Frame | None:
        """The frame an <iframe> element shows (None when it shows none that is known)."""
        return await self._child_shown_by(handle.frame, handle.local)

    async def _child_shown_by(self, parent: Frame, owner: int) -> Frame | None:
        for refresh in (False, True):
            if refresh:  # a frame not seen yet: read the frame trees again
                await self._frame_list()
            for child in [f for f in self.frames.values() if f.parent == parent.id]:
                if await self._owner_of(child) == (parent.id, owner):
                    return child
        return None


def _unasked(frame_id: str, task: asyncio.Task[int]) -> None:
    """A world made for reads that may all have gone: its failure is logged here (a read
    still waiting gets it too, and the next one makes the world again)."""
    if task.cancelled():
        return
    exc = task.exception()
    if isinstance(exc, BrowserError | TabError | UsageError):
        log.debug("the helper world of frame %s was not made: %s", frame_id, exc.message)
    elif exc is not None:
        log.error("making the helper world of frame %s failed", frame_id, exc_info=exc)
