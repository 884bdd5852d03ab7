"""One agent tab: its CDP sessions and frames, the page helper in each frame, refs, waits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import (
    ActionTimeout,
    BrowserError,
    CDPError,
    RefNotFound,
    TabError,
    TargetCovered,
    TargetNotInteractable,
    UsageError,
)
from ..policy.intent import Element, Intent
from . import screen
from . import snapshot as snap
from .collect import HOOK_SECRET, SnapshotTaking
from .model import Dialog, Frame, Handle, RefEntry, TabState
from .targets import CssTarget, RefTarget, RoleTarget, Target

if TYPE_CHECKING:
    from ..cdp.connection import CDPConnection

log = logging.getLogger("tabsteward.engine")

PAGE_JS = (Path(__file__).with_name("page.js")).read_text(encoding="utf-8")
HOOK_JS = (Path(__file__).with_name("hook.js")).read_text(encoding="utf-8").replace(
    "__SECRET__", HOOK_SECRET)
WORLD = "tabsteward"
MAX_FRAME_DEPTH = 20
FOCUS_TRIES, FOCUS_WAIT = 10, 0.02  # a frame entered by Tab is told so a moment later
EventPredicate = Callable[[str, dict[str, Any], str | None], bool]


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


@dataclass
class _Waiter:
    predicate: EventPredicate
    future: asyncio.Future[tuple[str, dict[str, Any]]]


class Tab(SnapshotTaking):
    """A page target owned by one agent, attached with a flat CDP session."""

    def __init__(self, conn: CDPConnection, target_id: str, session_id: str, agent: str,
                 tab_id: str) -> None:
        self.conn = conn
        self.target_id = target_id
        self.session_id = session_id
        self.agent = agent
        self.principal: str | None = None  # the paired agent whose policy profile applies
        self.id = tab_id
        self.busy = asyncio.Lock()
        self.state = TabState()
        self.frames: dict[str, Frame] = {target_id: Frame(target_id, session_id, None)}
        self.child_sessions: dict[str, str] = {}  # session id -> OOPIF target (= frame) id
        self.refs: dict[int, RefEntry] = {}
        self._by_key: dict[tuple[int, int], int] = {}
        self._next_ref = 1
        self._next_doc = 1
        self._docs: dict[str, int] = {}  # document token (extension world) -> doc number
        self._owner: dict[str, tuple[str, int]] = {}  # child frame -> (parent frame, local id)
        # sessions whose frame tree was read since Page events began: from then on the
        # events keep self.frames current for them
        self._trees_read: set[str] = set()
        self._events_on: set[str] = set()  # sessions whose Page events are enabled
        self._last_refs: set[int] = set()
        self._last_doc = 0
        self._waiters: list[_Waiter] = []
        self._recording = False
        self.browser: Any = None  # the engine Browser, set by it (downloads go through it)
        self.opener: str | None = None  # the tab whose page opened this one
        self.opened: list[str] = []  # tabs this tab's pages opened
        self.adopting: set[asyncio.Task[None]] = set()  # such tabs still being attached
        self.screening = False  # document requests wait for policy (engine/screen.py)
        self.guarded: Any = None  # the browser's own site rules it has (screen.guard)
        self.chores: set[asyncio.Task[None]] = set()  # its own background tasks

    # -- set-up and events --
    async def init_session(self, session_id: str) -> None:
        """Enable what the engine needs on a page or OOPIF session."""
        send = self.conn.send
        if session_id == self.session_id:  # a new debugger session starts with no pausing
            await screen.guard(self)
            self.screening = screen.wanted(self)
        await asyncio.gather(
            send("Page.enable", session_id=session_id),
            send("Page.setLifecycleEventsEnabled", {"enabled": True}, session_id=session_id),
            send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False,
                                          "flatten": True}, session_id=session_id),
            send("Emulation.setFocusEmulationEnabled", {"enabled": True},
                 session_id=session_id),
            send("Page.addScriptToEvaluateOnNewDocument",
                 {"source": HOOK_JS, "runImmediately": True}, session_id=session_id),
            *([screen.enable(self, session_id, True)] if self.screening else []),
        )
        self._events_on.add(session_id)

    def forget_worlds(self) -> None:
        """After a new debugger session on the tab, our helper worlds must be made again."""
        for frame in self.frames.values():
            frame.world = None
        self._trees_read.clear()  # events may have been missed while it was detached
        self._events_on.clear()

    def owns_session(self, session_id: str | None) -> bool:
        return session_id == self.session_id or session_id in self.child_sessions

    def handle_event(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        """Route one CDP event of this tab's sessions into its state and waiters."""
        st = self.state
        if method == "Tabsteward.requestBlocked":
            screen.blocked(self, params)
        elif method == "Page.frameNavigated":
            frame = params.get("frame", {})
            fid = frame.get("id")
            if isinstance(fid, str):
                known = self.frames.get(fid)
                if known is not None:
                    known.world = None
                else:
                    self.frames[fid] = Frame(fid, session_id or self.session_id,
                                             frame.get("parentId"))
                if fid == self.target_id:
                    st.url = str(frame.get("url", st.url))
                    # frames of the old document are gone with it
                    for other in list(self.frames):
                        if other != fid and self.frames[other].session == self.session_id:
                            del self.frames[other]
        elif method == "Page.navigatedWithinDocument":
            if params.get("frameId") == self.target_id:
                st.url = str(params.get("url", st.url))
        elif method == "Page.frameAttached":
            fid, parent = params.get("frameId"), params.get("parentFrameId")
            if isinstance(fid, str) and fid not in self.frames:
                self.frames[fid] = Frame(fid, session_id or self.session_id,
                                         parent if isinstance(parent, str) else None)
        elif method == "Page.frameDetached":
            fid = params.get("frameId")
            if isinstance(fid, str) and params.get("reason") != "swap":
                self.frames.pop(fid, None)
                self._owner.pop(fid, None)
        elif method == "Page.javascriptDialogOpening":
            st.dialog = Dialog(str(params.get("type", "alert")), str(params.get("message", "")),
                               str(params.get("defaultPrompt", "")), str(params.get("url", "")))
        elif method == "Page.javascriptDialogClosed":
            st.dialog = None
        elif method == "Target.attachedToTarget":
            info = params.get("targetInfo", {})
            child = params.get("sessionId")
            if info.get("type") == "iframe" and isinstance(child, str):
                fid = str(info.get("targetId"))
                self.child_sessions[child] = fid
                known = self.frames.get(fid)
                parent = info.get("parentFrameId") or (known.parent if known else None)
                self.frames[fid] = Frame(fid, child, parent if isinstance(parent, str) else None)
                asyncio.get_running_loop().create_task(self._init_child(child))
        elif method == "Target.detachedFromTarget":
            child = params.get("sessionId")
            if isinstance(child, str) and child in self.child_sessions:
                fid = self.child_sessions.pop(child)
                self._trees_read.discard(child)
                self._events_on.discard(child)
                frame = self.frames.get(fid)
                if frame is not None and frame.session == child:
                    del self.frames[fid]
        elif method == "Fetch.requestPaused":
            screen.paused(self, params, session_id)
        elif method == "Page.frameStartedLoading" and params.get("frameId") == self.target_id:
            st.loading = True
        elif method == "Page.frameStoppedLoading" and params.get("frameId") == self.target_id:
            st.loading = False
        if self._recording:
            st.events.append((method, params))
        for waiter in list(self._waiters):
            if not waiter.future.done() and waiter.predicate(method, params, session_id):
                waiter.future.set_result((method, params))

    async def _init_child(self, session_id: str) -> None:
        try:
            await self.init_session(session_id)
        except BrowserError as exc:
            log.info("child frame session %s not initialised: %s", session_id, exc.message)

    def mark_closed(self, reason: str) -> None:
        self.state.closed = reason
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.set_exception(TabError(f"tab {self.id} closed ({reason})"))

    # -- plumbing --
    def check_open(self) -> None:
        if self.state.closed:
            raise TabError(f"tab {self.id} is closed ({self.state.closed}); nothing was "
                           "done: open a new one with `open URL`")

    def check_no_dialog(self) -> None:
        d = self.state.dialog
        if d is not None:
            raise UsageError(f"a {d.type} dialog is open on tab {self.id} ({d.message!r}); "
                             "nothing was done: answer it first with `dialog accept` or "
                             "`dialog dismiss`")

    async def send(self, method: str, params: dict[str, Any] | None = None,
                   session: str | None = None, timeout: float | None = 30) -> dict[str, Any]:
        self.check_open()
        return await self.conn.send(method, params, session or self.session_id, timeout)

    def expect(self, predicate: EventPredicate) -> asyncio.Future[tuple[str, dict[str, Any]]]:
        """A future for the first event matching predicate from now on."""
        fut: asyncio.Future[tuple[str, dict[str, Any]]] = (
            asyncio.get_running_loop().create_future())
        waiter = _Waiter(predicate, fut)
        self._waiters.append(waiter)
        fut.add_done_callback(lambda _f: self._waiters.remove(waiter))
        return fut

    async def wait_event(self, predicate: EventPredicate, timeout: float,
                         what: str) -> tuple[str, dict[str, Any]]:
        fut = self.expect(predicate)
        try:
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            raise ActionTimeout(f"{what} did not happen within {timeout:g} s") from None
        finally:
            fut.cancel()

    # -- frames and the page helper --
    async def _world(self, frame: Frame, find: bool = True) -> int:
        if frame.world is not None:
            return frame.world
        try:
            res = await self.send("Page.createIsolatedWorld",
                                  {"frameId": frame.id, "worldName": WORLD,
                                   "grantUniveralAccess": False}, session=frame.session)
        except CDPError:
            if not (find and frame.doc and await self._found_again(frame)):
                raise
            return await self._world(frame, find=False)  # its new id's world
        ctx = int(res["executionContextId"])
        if not res.get("tabstewardReady"):  # the extension's world has page.js already
            await self._evaluate_raw(frame, ctx, PAGE_JS)
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
        frame.world = same.world
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

    async def evaluate(self, frame: Frame, expression: str, timeout: float | None = 30) -> Any:
        """Run read-only helper code in our isolated world of `frame`."""
        self.check_no_dialog()
        for attempt in (1, 2):
            ctx = await self._world(frame)
            try:
                return await self._evaluate_raw(frame, ctx, expression, timeout)
            except CDPError as exc:
                gone = "context" in exc.cdp_message.lower()
                if not gone or attempt == 2:
                    raise
                frame.world = None  # the document changed under us: a new world
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
                frame.world = None
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

    # -- resolving targets --
    async def resolve(self, target: Target) -> Handle:
        """Find the element a target names, taking a snapshot first when none was taken."""
        self.check_open()
        if isinstance(target, RefTarget):
            return await self._resolve_ref(target.ref)
        if isinstance(target, RoleTarget):
            return await self._resolve_role(target.role, target.name, target.nth, None)
        return await self._resolve_css(target)

    async def on_live_ref(self, target: Target, expression: Callable[[int], str]
                          ) -> tuple[Handle, Any] | None:
        """For a ref whose element is still in the page, `expression(its local id)` read in
        the same round trip as that check; None when the target must be resolved anew (not
        a ref, its document or helper world gone, its element removed, or no answer)."""
        self.check_open()
        if isinstance(target, RefTarget) and target.ref in self.refs:
            entry = self.refs[target.ref]
            frame = self.frames.get(entry.frame)
            if frame is not None and frame.doc == entry.doc and frame.world is not None:
                found = await self.evaluate(frame, (
                    f"(e => !!e && e.isConnected ? {expression(entry.local)} : null)"
                    f"(__ts.get({entry.local}))"))
                if found is not None:
                    return Handle(frame, entry.local, target.ref), found
        return None

    async def resolve_info(self, target: Target) -> tuple[Handle, dict[str, Any]]:
        """`resolve`, then `info`: for a ref whose element is still there, one round trip to
        the page instead of two (every action on a ref starts here)."""
        live = await self.on_live_ref(target, lambda n: f"__ts.info({n})")
        if live is not None and isinstance(live[1], dict):
            return live
        handle = await self.resolve(target)
        return handle, await self.info(handle)

    async def resolve_placed(self, target: Target, aiming: bool
                             ) -> tuple[Handle, dict[str, Any], dict[str, Any] | None]:
        """`resolve_info`, and in the same round trip where the element is placed for input
        (its `aim` when `aiming`, else its `point`; it is brought into view), unless it is
        disabled: for a ref still there, one call to the page instead of two. The placement
        (None when it was not read) goes to `aim` or `point` as `placed`."""
        def read(n: int) -> str:
            place = self._aim_js(n) if aiming else f"__ts.point({n})"
            return (f"(i => ({{info: i, placed: i && !i.disabled ? {place} : null}}))"
                    f"(__ts.info({n}))")
        live = await self.on_live_ref(target, read)
        if live is not None and isinstance(live[1], dict) and isinstance(live[1].get("info"),
                                                                         dict):
            placed = live[1].get("placed")
            return live[0], live[1]["info"], placed if isinstance(placed, dict) else None
        handle, info = await self.resolve_info(target)
        return handle, info, None

    async def _resolve_ref(self, ref: int) -> Handle:
        if not self.refs:
            await self.collect(interactive=True, viewport=False, scope=None)
        entry = self.refs.get(ref)
        if entry is None:
            raise RefNotFound(f"@{ref} is not a ref of this tab; nothing was done. Take a "
                              "snapshot and use a ref from it")
        frame = self.frames.get(entry.frame)
        if frame is not None and frame.world is None and frame.doc == entry.doc:
            # a new debugger session: a world that outlived the old one keeps its ids
            with contextlib.suppress(BrowserError):
                await self._world(frame)
        if frame is not None and frame.doc == entry.doc and frame.world is not None:
            # a removed node may not be collected yet: only a connected one is the live element
            alive = await self.evaluate(
                frame, f"(e => !!e && e.isConnected)(__ts.get({entry.local}))")
            if alive:
                return Handle(frame, entry.local, ref)
        # stale: the same role and name on the current page
        return await self._resolve_role(entry.role, entry.name, entry.nth, ref)

    async def _resolve_role(self, role: str, name: str, nth: int, stale: int | None) -> Handle:
        lines, _ = await self.collect(interactive=True, viewport=False, scope=None)
        matches = [ln for ln in lines if ln.ref and ln.role == role and ln.name == name]
        what = f"{role} {snap.quote(name)}"
        if len(matches) > nth:
            entry = self.refs[matches[nth].ref]
            return Handle(self.frames[entry.frame], entry.local, matches[nth].ref)
        if stale is not None:
            raise RefNotFound(f"@{stale} ({what}) is gone from the page and no {what} is there "
                              "now; nothing was done. Take a new snapshot")
        raise RefNotFound(f"no {what}{f' nth={nth}' if nth else ''} on the page; nothing was "
                          "done. Take a snapshot to see what is there")

    async def _resolve_css(self, target: CssTarget) -> Handle:
        sel = target.selector
        frames = await self._frame_list()
        frames.sort(key=lambda f: f.id != self.target_id)
        expr = (f"__ts.queryIn({json.dumps(sel)}, {json.dumps(target.within)})"
                if target.within else f"__ts.query({json.dumps(sel)}, 1)")
        for frame in frames:
            try:
                ids = await self.evaluate(frame, expr)
            except BrowserError as exc:
                if "SyntaxError" in exc.message or "not a valid selector" in exc.message:
                    raise UsageError(f"{sel!r} is not a valid CSS selector; nothing was done"
                                     ) from None
                continue
            if ids and len(ids) > 1:
                raise RefNotFound(f"{len(ids)} elements match {sel!r} as near to "
                                  f"{target.within!r}; nothing was done. Take a snapshot")
            if ids:
                info = await self.evaluate(frame, f"__ts.info({int(ids[0])})") or {}
                ref = self._ref_for(frame, int(ids[0]), str(info.get("role") or "generic"),
                                    str(info.get("name") or ""))
                return Handle(frame, int(ids[0]), ref)
        where = f" near {target.within!r}" if target.within else ""
        raise RefNotFound(f"no element matches {sel!r}{where}; nothing was done")

    # -- geometry --
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

    async def _next_frame(self) -> None:
        """Let the page draw once after a scroll: the browser routes input to out-of-process
        frames by the last drawn frame, so a click sent sooner can land on the old layout.
        A page without such frames gets its input straight, hit-tested on its current
        layout: it is not waited for. Nor is a hidden tab (an agent's background tab): it
        draws nothing however long it is given, its timers wait for the browser's once-a-
        second wake-up, and what routes its input is no newer after the wait than before."""
        frame = self.frames[self.target_id]
        ctx = await self._world(frame)
        await self.send("Runtime.evaluate", {
            "expression": "document.hidden || new Promise(r => { requestAnimationFrame(() => "
                          "requestAnimationFrame(r)); setTimeout(r, 200); })",
            "contextId": ctx, "awaitPromise": True}, timeout=10)

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
        if scrolled and self.child_sessions:  # only out-of-process frames need it drawn
            await self._next_frame()

    async def page_rect(self, handle: Handle) -> tuple[float, float, float, float] | None:
        """The element's border box in the page's viewport (x, y, width, height), or None."""
        rect = await self.evaluate(handle.frame, f"__ts.rect({handle.local})")
        if not rect:
            return None
        ox, oy = await self._frame_offset(handle.frame)
        return float(rect[0]) + ox, float(rect[1]) + oy, float(rect[2]), float(rect[3])

    async def point(self, handle: Handle, what: str, placed: dict[str, Any] | None = None
                    ) -> tuple[float, float]:
        """Scroll the element into view and return an uncovered point on it (page coords);
        `placed`: the page's answer already read by `resolve_placed`."""
        aim = await self._place(handle, what, f"__ts.point({handle.local})", placed)
        return aim.x, aim.y

    async def aim(self, handle: Handle, what: str, placed: dict[str, Any] | None = None
                  ) -> Aim:
        """`point`, and what a click there really activates: the element hit at that point,
        walked up to its button, link or control (through a label to the control it names).
        Policy judges a click by that element, not by the one the agent named."""
        return await self._place(handle, what, self._aim_js(handle.local), placed)

    @staticmethod
    def _aim_js(local: int) -> str:
        return f"__ts.aim({local}, {json.dumps(HOOK_SECRET)})"

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
        if err is None:
            await self._reveal_frames(frame, bool(res.get("scrolled")))
        if err == "gone":
            raise RefNotFound(f"{what} is no longer in the page; nothing was done. "
                              "Take a new snapshot")
        if err == "hidden" and res.get("clip"):
            raise TargetNotInteractable(_cut_off(what, str(res["clip"])))
        if err == "hidden":
            raise TargetNotInteractable(f"{what} is not visible (no size or hidden); "
                                        "nothing was done")
        if err == "offscreen":
            raise TargetNotInteractable(f"{what} is outside the visible area even after "
                                        "scrolling; nothing was done")
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
        current = frame
        for _ in range(20):
            if current.id == self.target_id:
                return Aim(x, y, target, target_id, hit_id, also)
            parent, owner_local, dx, dy = await self._step_out(current)
            x, y = x + dx, y + dy
            cover = await self.evaluate(parent, f"__ts.coverOf({owner_local}, {x}, {y})")
            if cover:
                raise TargetCovered(f"{what} is covered by {cover}; nothing was done. Close or "
                                    "move what covers it first", cover=cover)
            current = parent
        return Aim(x, y, target, target_id, hit_id, also)

    async def permit(self, action: str, info: dict[str, Any] | None = None,
                     **facts: Any) -> None:
        """Ask the browser's gate (the hub's policy) whether `action` may run here; returns
        when it may, raises PolicyError when not. Ask before anything reaches the page."""
        gate = getattr(self.browser, "gate", None)
        if gate is not None:
            await screen.follow_policy(self)
            element = Element.from_page(info) if info else None
            await gate(self, Intent(action, self.state.url, element, **facts))

    async def focused_info(self) -> dict[str, Any] | None:
        """The `info` of the element that has keyboard focus, in whichever frame holds it
        (same- or cross-origin), or None when no element has it. Fails, rather than guess,
        when focus is in a frame that does not say what has it."""
        frame = self.frames[self.target_id]
        for _ in range(MAX_FRAME_DEPTH):
            res = await self.evaluate(frame, "__ts.focusedInfo()")
            if not isinstance(res, dict) or "frame" not in res:
                return res if isinstance(res, dict) else None
            frame = await self._focused_child(frame, int(res["frame"]))
        raise TargetNotInteractable("focus is in frames nested too deep to tell what has it; "
                                    "nothing was done")

    async def _focused_child(self, parent: Frame, owner: int) -> Frame:
        """The child frame that the frame element `owner` of `parent` shows. A frame entered
        by Tab learns it has focus a moment after its parent does: wait for that, briefly."""
        child = await self._child_shown_by(parent, owner)
        if child is None:
            raise TargetNotInteractable("focus is in a frame whose document could not be "
                                        "asked what has it; nothing was done")
        for _ in range(FOCUS_TRIES):
            if await self.evaluate(child, "document.hasFocus()"):
                break
            await asyncio.sleep(FOCUS_WAIT)
        return child

    async def _child_shown_by(self, parent: Frame, owner: int) -> Frame | None:
        for refresh in (False, True):
            if refresh:  # a frame not seen yet: read the frame trees again
                await self._frame_list()
            for child in [f for f in self.frames.values() if f.parent == parent.id]:
                if await self._owner_of(child) == (parent.id, owner):
                    return child
        return None

    async def info(self, handle: Handle) -> dict[str, Any]:
        res = await self.evaluate(handle.frame, f"__ts.info({handle.local})")
        if not isinstance(res, dict):
            raise RefNotFound(f"@{handle.ref} is no longer in the page; take a new snapshot")
        return res

    # -- recording what an action changed --
    def start_recording(self) -> None:
        self.state.events = []
        self._recording = True

    def stop_recording(self) -> list[tuple[str, dict[str, Any]]]:
        self._recording = False
        events, self.state.events = self.state.events, []
        return events

    async def wait_load(self, timeout: float, event: str = "load") -> None:
        """Wait until the main frame fires the lifecycle event (load, DOMContentLoaded,
        networkIdle) of its current document. A JavaScript dialog holds the page back: when
        one is (or gets) open this returns, and the caller reports the dialog."""
        deadline = time.monotonic() + timeout
        fut = self.expect(
            lambda m, p, s: (m == "Page.lifecycleEvent" and p.get("name") == event and
                             p.get("frameId") == self.target_id) or
            m == "Page.javascriptDialogOpening")
        ready_task: asyncio.Future[Any] = asyncio.ensure_future(self._ready_state())
        try:
            if self.state.dialog is not None:
                return
            # a dialog opening now blocks the page's script, readyState with it: race them
            await asyncio.wait({ready_task, fut}, return_when=asyncio.FIRST_COMPLETED)
            if fut.done() or self.state.dialog is not None:
                return
            ready = ready_task.result()
            if event == "load" and ready == "complete" and not self.state.loading:
                return
            if event == "DOMContentLoaded" and ready in ("interactive", "complete") and \
                    not self.state.loading:
                return
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await fut
            except TimeoutError:
                raise ActionTimeout(f"the page's {event} event did not happen within "
                                    f"{timeout:g} s") from None
        finally:
            fut.cancel()
            ready_task.cancel()

    async def _ready_state(self) -> str:
        try:
            frame = self.frames[self.target_id]
            return str(await self.evaluate(frame, "document.readyState", timeout=5))
        except (BrowserError, UsageError):
            return "loading"


def _cut_off(what: str, box: str) -> str:
    return (f"{what} is hidden: {box} cuts it off and cannot be scrolled (overflow hidden or "
            "clip); nothing was done")
