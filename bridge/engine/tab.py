"""One agent tab: its CDP sessions, events, targets, waits (frames, placing, locating mixed in)."""

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
    UsageError,
)
from ..policy.intent import Element, Intent
from . import screen
from .collect import HOOK_SECRET
from .frames import PAGE_JS, WORLD
from .locating import Locating, live_call
from .model import Dialog, Frame, Handle, RefEntry, TabState
from .placing import Placing
from .targets import RefTarget, RoleTarget, Target, TextTarget

if TYPE_CHECKING:
    from ..cdp.connection import CDPConnection

log = logging.getLogger("tabsteward.engine")

# the hook (one function, as the extension also runs it) called with the secret: a plain
# script, as the debugger runs it in each new document
HOOK_JS = "(" + (Path(__file__).with_name("hook.js")).read_text(encoding="utf-8").replace(
    "export default function", "function", 1) + f")({json.dumps(HOOK_SECRET)});\n"
EventPredicate = Callable[[str, dict[str, Any], str | None], bool]


@dataclass
class _Waiter:
    predicate: EventPredicate
    future: asyncio.Future[tuple[str, dict[str, Any]]]


class Tab(Placing, Locating):
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
        self._primed: set[str] = set()  # sessions whose documents start with the helper
        self._making: dict[str, asyncio.Task[int]] = {}  # frame id -> its world being made
        # the frame focus was last found in (`focused_info`), and whether the top document
        # watches what an action in another frame changes in it (`watch_top`)
        self.focused_in: Frame | None = None
        self.top_watched = False
        self._last_refs: set[int] = set()
        self._last_doc = 0
        self._behind_modal: set[int] = set()
        self._last_bodies: dict[bool, list[str]] = {}
        self.parts_waited: set[int] = set()
        self._waiters: list[_Waiter] = []
        self._recording = False
        self.browser: Any = None  # the engine Browser, set by it (downloads go through it)
        self.opener: str | None = None  # the tab whose page opened this one
        self.opened: list[str] = []  # tabs this tab's pages opened
        self.adopting: set[asyncio.Task[None]] = set()  # such tabs still being attached
        self.screening = False  # document requests wait for policy (engine/screen.py)
        self.guarded: Any = None  # the browser's own site rules it has (screen.guard)
        self.chores: set[asyncio.Task[Any]] = set()  # its own background tasks
        self.child_inits: set[asyncio.Task[None]] = set()  # frame sessions being enabled

    # -- set-up and events --
    async def init_session(self, session_id: str) -> None:
        """Enable what the engine needs on a page or OOPIF session."""
        send = self.conn.send
        if session_id == self.session_id:  # a new debugger session starts with no pausing
            await screen.guard(self)
            self.screening = screen.needed(self)
        await asyncio.gather(
            send("Page.enable", session_id=session_id),
            send("Page.setLifecycleEventsEnabled", {"enabled": True}, session_id=session_id),
            send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False,
                                          "flatten": True}, session_id=session_id),
            send("Emulation.setFocusEmulationEnabled", {"enabled": True},
                 session_id=session_id),
            # a file chooser the page opens is the agent's to answer (`upload`), never a
            # dialog in front of the person
            send("Page.setInterceptFileChooserDialog", {"enabled": True},
                 session_id=session_id),
            send("Page.addScriptToEvaluateOnNewDocument",
                 {"source": HOOK_JS, "runImmediately": True}, session_id=session_id),
            *([screen.enable(self, session_id, True)] if self.screening else []),
            *([self._prime(session_id)] if self.conn.helper_at_start else []),
        )
        self._events_on.add(session_id)

    async def _prime(self, session_id: str) -> None:
        """Have every document of the session start with the page helper in our world (its
        frames' now too): a read after a load then finds it there, with no call to make
        the world or install the helper first (Page.createIsolatedWorld of the same world
        name answers that world)."""
        try:
            await self.conn.send("Page.addScriptToEvaluateOnNewDocument",
                                 {"source": PAGE_JS, "worldName": WORLD,
                                  "runImmediately": True}, session_id=session_id)
        except CDPError as exc:  # its reads install the helper in their worlds, as before
            log.info("documents of session %s do not start with the page helper: %s",
                     session_id, exc.message)
            return
        self._primed.add(session_id)

    def forget_worlds(self) -> None:
        """After a new debugger session on the tab, our helper worlds must be made again;
        but the main frame's that outlives debugger sessions (the extension's, read through
        chrome.scripting): the first input after an attach does not look for it again."""
        for frame in self.frames.values():
            world = frame.world
            frame.lose_worlds()
            if frame.id == self.target_id and world is not None and \
                    self.conn.outlives_sessions(world):
                frame.world = world
        self._making.clear()  # worlds of the old session: made afresh
        self._trees_read.clear()  # events may have been missed while it was detached
        self._events_on.clear()
        self._primed.clear()

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
                    known.lose_worlds()
                    self._making.pop(fid, None)  # (a world of the document it left)
                else:
                    self.frames[fid] = Frame(fid, session_id or self.session_id,
                                             frame.get("parentId"))
                if fid == self.target_id:
                    st.url = str(frame.get("url", st.url))
                    st.fetching.forget()  # the old document's requests went with it
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
                task = asyncio.get_running_loop().create_task(self._init_child(child))
                self.child_inits.add(task)
                task.add_done_callback(self.child_inits.discard)
        elif method == "Target.detachedFromTarget":
            child = params.get("sessionId")
            if isinstance(child, str) and child in self.child_sessions:
                fid = self.child_sessions.pop(child)
                self._trees_read.discard(child)
                self._events_on.discard(child)
                self._primed.discard(child)
                frame = self.frames.get(fid)
                if frame is not None and frame.session == child:
                    del self.frames[fid]
        elif method == "Fetch.requestPaused":
            screen.paused(self, params, session_id)
        elif method == "Page.frameStartedLoading" and params.get("frameId") == self.target_id:
            st.loading = True
        elif method == "Page.frameStoppedLoading" and params.get("frameId") == self.target_id:
            st.loading = False
        st.fetching.hear(method, params)
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

    async def ready_for(self, method: str) -> None:
        """A tab an agent only read through the extension has no debugger: attached now for
        the input `method` that comes next (with the focus the page is shown to have), and
        its frames' sessions with it. Nothing to do over plain CDP."""
        ensure = getattr(self.conn, "ensure_attached", None)
        if ensure is not None:
            await ensure(self.session_id, method)

    def debugging(self) -> bool:
        """Whether the tab has a debugger now, to draw it with (always over plain CDP; through
        the extension while an action's is not yet let go)."""
        has = getattr(self.conn, "debugging", None)
        return has is None or bool(has(self.session_id))

    def attach_ahead(self, method: str) -> None:
        """Through the extension, start attaching the debugger the input `method` will
        need, beside the look-up and policy's answer that come before the input and need
        none: the first input after an idle detach then waits for the longer of the two,
        not for both. `ready_for` waits for it. Nothing over plain CDP."""
        ahead = getattr(self.conn, "attach_ahead", None)
        if ahead is not None:
            ahead(self.session_id, method)

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

    # -- resolving targets --
    async def resolve(self, target: Target) -> Handle:
        """Find the element a target names, taking a snapshot first when none was taken."""
        self.check_open()
        if isinstance(target, RefTarget):
            return await self._resolve_ref(target.ref)
        if isinstance(target, RoleTarget):
            if target.within is not None:
                return await self._resolve_role_in(target)
            return await self._resolve_role(target.role, target.name, target.nth)
        if isinstance(target, TextTarget):
            return await self._resolve_text(target)
        return await self._resolve_css(target)

    async def on_live_ref(self, target: Target, what: str, *args: Any
                          ) -> tuple[Handle, Any] | None:
        """For a ref whose element is still in the page, the page helper's `live` read
        `what` of it (with `args`) in the same round trip as that check; None when the
        target must be resolved anew (not a ref, its document or helper world gone, its
        element removed, or no answer). One helper call, so it is read without a debugger
        where one is not attached (ext_reader.py)."""
        self.check_open()
        if isinstance(target, RefTarget) and target.ref in self.refs:
            entry = self.refs[target.ref]
            frame = self.frames.get(entry.frame)
            if frame is not None and frame.doc == entry.doc and frame.world is not None:
                found = await self.evaluate(frame, live_call(entry, what, *args))
                if found is not None:
                    return Handle(frame, entry.local, target.ref), found
        return None

    async def resolve_info(self, target: Target) -> tuple[Handle, dict[str, Any]]:
        """`resolve`, then `info`: for a ref whose element is still there, one round trip to
        the page instead of two (every action on a ref starts here)."""
        live = await self.on_live_ref(target, "info")
        if live is not None and isinstance(live[1], dict):
            await self.watch_top(live[0].frame)
            return live
        handle = await self.resolve(target)
        found = await self.info(handle)
        await self.watch_top(handle.frame)
        return handle, found

    async def resolve_placed(self, target: Target, aiming: bool,
                             check: dict[str, Any] | None = None
                             ) -> tuple[Handle, dict[str, Any], dict[str, Any] | None]:
        """`resolve_info`, and in the same round trip where the element is placed for input
        (its `aim` when `aiming`, else its `point`; it is brought into view), unless it is
        disabled or, for a check, already as `check` asks or no toggle (page_info.js
        `live`; nothing will be done): for a ref still there, one call to the page instead
        of two. The placement (None when it was not read) goes to `aim` or `point` as
        `placed`."""
        live = await self.on_live_ref(target, "aim" if aiming else "point", HOOK_SECRET, check)
        if live is not None and isinstance(live[1], dict) and isinstance(live[1].get("info"),
                                                                         dict):
            await self.watch_top(live[0].frame)
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
            # a removed node may not be collected yet: only a connected one is the live
            # element, and only while its card's words still stand around it
            alive = await self.evaluate(frame, live_call(entry, "alive"))
            if alive:
                return Handle(frame, entry.local, ref)
        # stale: the page replaced it (redrew its list), or it went
        return await self._resolve_stale(entry, ref)

    async def permit(self, action: str, info: dict[str, Any] | None = None,
                     **facts: Any) -> None:
        """Ask the browser's gate (the hub's policy) whether `action` may run here; returns
        when it may, raises PolicyError when not. Ask before anything reaches the page."""
        gate = getattr(self.browser, "gate", None)
        if gate is not None:
            await screen.follow_policy(self)
            element = Element.from_page(info) if info else None
            await gate(self, Intent(action, self.state.url, element, **facts))

    async def info(self, handle: Handle) -> dict[str, Any]:
        res = await self.evaluate(handle.frame,
                                  f"__ts.info({handle.local}, {json.dumps(HOOK_SECRET)})")
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

    async def read_url(self) -> str:
        """The main frame's URL as the browser has it now, kept as `state.url` (which events
        keep otherwise: one that never reached us, or came before we listened, leaves it
        behind)."""
        tree = await self.send("Page.getFrameTree")
        url = tree.get("frameTree", {}).get("frame", {}).get("url")
        if isinstance(url, str):
            self.state.url = url
        return self.state.url

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

    async def wait_loaded(self, timeout: float, cap: float) -> bool:
        """Wait for the main frame's load event, as `wait_load` does, but only up to `cap`
        seconds once its document is ready (DOMContentLoaded): whether it loaded (False:
        it was still loading then). ActionTimeout when the document was not even ready
        within `timeout`; returns at once while a dialog holds the page."""
        deadline = time.monotonic() + timeout
        loaded = self.expect(lambda m, p, s: (
            m == "Page.lifecycleEvent" and p.get("name") == "load" and
            p.get("frameId") == self.target_id) or m == "Page.javascriptDialogOpening")
        ready = self.expect(lambda m, p, s: m == "Page.lifecycleEvent" and
                            p.get("name") == "DOMContentLoaded" and
                            p.get("frameId") == self.target_id)
        state: asyncio.Future[Any] = asyncio.ensure_future(self._ready_state())
        try:
            if self.state.dialog is not None:
                return True
            await asyncio.wait({state, loaded}, return_when=asyncio.FIRST_COMPLETED)
            if loaded.done() or self.state.dialog is not None:
                return True
            now = state.result()
            if now == "complete" and not self.state.loading:
                return True
            if now != "interactive":  # (ready is ready, even while images still load)
                done, _ = await asyncio.wait({ready, loaded},
                                             timeout=max(0.0, deadline - time.monotonic()),
                                             return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    raise ActionTimeout(f"the page's DOMContentLoaded event did not happen "
                                        f"within {timeout:g} s")
                if loaded in done:
                    return True
            done, _ = await asyncio.wait({loaded}, timeout=cap)
            return bool(done)
        finally:
            loaded.cancel()
            ready.cancel()
            state.cancel()

    async def _ready_state(self) -> str:
        try:
            frame = self.frames[self.target_id]
            return str(await self.evaluate(frame, "document.readyState", timeout=5))
        except (BrowserError, UsageError):
            return "loading"
