"""Taking a tab's snapshot: every frame's rows from the page helper, stitched across frames
into one list of lines, with refs that keep their numbers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter
from typing import TYPE_CHECKING, Any, cast

from ..errors import BrowserError, RefNotFound, TabError, UsageError
from . import delta as deltas
from . import drawing
from . import snapshot as snap
from .frames import PageFrames
from .model import Frame, Handle, RefEntry, Snapshot, TabState
from .targets import card_of

if TYPE_CHECKING:
    from .tab import Tab
    from .targets import Target

log = logging.getLogger("tabsteward.engine")

# one secret per hub: the hook's event names, so pages cannot guess or forge them
HOOK_SECRET = "ts" + secrets.token_hex(8)
# a hidden tab read without a debugger is not drawn (Chrome draws it while one is there,
# late: a frame a click's handler asked for may not have come when the look after it reads,
# so a read with a debugger there draws it until one came: DRAW_WAIT at most, a look every
# DRAW_LOOK)
DRAW_WAIT, DRAW_LOOK = 0.3, 0.02
# a page that shows nothing yet in its first YOUNG ms (its scripts still draw it: Ionic's
# components come by dynamic imports the load does not wait for) is read again every
# EMPTY_LOOK until it shows something, EMPTY_WAIT at most
YOUNG, EMPTY_WAIT, EMPTY_LOOK = 10_000, 2.0, 0.05
# a young page's components not defined yet (page.js) are waited for, once per document,
# asked every PARTS_POLL up to PARTS_WAIT
PARTS_WAIT, PARTS_POLL = 1.0, 0.05
UNDRAWN = ("note: the page waits to be drawn (for an animation frame or a size report), and "
           "this background tab is not drawn while only read: what the page shows once drawn "
           "may be missing here; `screenshot`, or any action, has it drawn")


def _unplaced(by_frame: dict[str, dict[str, Any]],
              children: dict[tuple[str, int], Frame]) -> bool:
    """Whether some iframe in the rows has no frame's rows to show inside it."""
    return any(row[1] == snap.FRAME and len(row) > 4 and (fid, int(row[4])) not in children
               for fid, data in by_frame.items() for row in data.get("rows", []))


class SnapshotTaking(PageFrames):
    """The snapshot half of a Tab (tab.py has the sessions and targets, frames.py the frames)."""

    state: TabState
    browser: Any  # the engine's Browser (tab.py)
    _by_key: dict[tuple[int, int], int]
    _next_ref: int
    _last_refs: set[int]
    _last_doc: int
    _behind_modal: set[int]  # the refs shown before a modal dialog made the page inert
    _last_bodies: dict[bool, list[str]]  # the last whole-page snapshot's lines, by -i or not
    parts_waited: set[int]  # documents whose components were waited for (`_parts_defined`)

    if TYPE_CHECKING:  # provided by Tab
        async def resolve(self, target: Target) -> Handle: ...

    def ref_of(self, frame: Frame, local: int, role: str, name: str) -> int:
        """The ref of an element the page named by its id (a new ref when it had none)."""
        return self._ref_for(frame, local, role, name)

    def drawn_anew(self, frame: Frame, was: int, now: int) -> None:
        """The page drew element `now` in place of `was`, which left (its tag, role and name):
        the new one takes the old one's ref, as a person sees the same item."""
        ref = self._by_key.get((frame.doc, was))
        if ref is not None and (frame.doc, now) not in self._by_key:
            del self._by_key[(frame.doc, was)]
            self._repoint(ref, frame.doc, frame.id, now)

    def _repoint(self, ref: int, doc: int, frame_id: str, local: int) -> None:
        """Ref `ref` names element `local` of that frame's document `doc` from now on."""
        entry = self.refs.get(ref)
        if entry is not None:
            self._by_key.pop((entry.doc, entry.local), None)
            entry.frame, entry.local = frame_id, local
        self._by_key[(doc, local)] = ref

    def _ref_for(self, frame: Frame, local: int, role: str, name: str) -> int:
        key = (frame.doc, local)
        ref = self._by_key.get(key)
        if ref is None:
            ref = self._next_ref
            self._next_ref += 1
            self._by_key[key] = ref
        old = self.refs.get(ref)
        if old is not None and (old.role, old.name) == (role, name):
            old.frame, old.local = frame.id, local
        else:
            self.refs[ref] = RefEntry(frame.doc, frame.id, local, role, name, 0)
        return ref

    async def collect(self, *, interactive: bool, viewport: bool, scope: Handle | None,
                      settle: bool = False) -> tuple[list[snap.Line], dict[str, Any]]:
        """Rows of every frame (or of one scoped subtree), stitched into one list of lines.
        `settle`: read once the timers the page armed as it loaded or in reply to input have
        run (page.js)."""
        self.check_no_dialog()
        flag = {True: "true", False: "false"}
        opts_js = (f"{{hook:'{HOOK_SECRET}',interactive:{flag[interactive]},"
                   f"viewport:{flag[viewport]}" + (f",scope:{scope.local}" if scope else "") +
                   (",settle:true" if settle else "") + "}")
        by_frame: dict[str, dict[str, Any]] = {}
        guessed = False
        if scope is not None:
            frames = [scope.frame]
            res = await self._frame_rows(scope.frame, opts_js)
            if res.get("error") == "scope":
                raise RefNotFound(f"@{scope.ref} is no longer in the page; take a new snapshot")
            by_frame[scope.frame.id] = res
        else:
            frames, guessed = await self._rows_of_every_frame(opts_js, by_frame)
            if by_frame.get(self.target_id, {}).get("loading"):
                await self._load_timers_run()
                return await self.collect(interactive=interactive, viewport=viewport,
                                          scope=None)
            if by_frame.get(self.target_id, {}).get("parts") and await self._parts_defined():
                return await self.collect(interactive=interactive, viewport=viewport,
                                          scope=None)
        children: dict[tuple[str, int], Frame] = {}
        if scope is None:
            children = await self._children_of(frames, by_frame)
            if guessed and _unplaced(by_frame, children):
                # events had not told of a frame yet: ask for the trees, read what was new
                frames = await self._frame_list()
                await self._rows_into(by_frame, [f for f in frames if f.id not in by_frame],
                                      opts_js)
                children = await self._children_of(frames, by_frame)
        lines: list[snap.Line] = []
        root = scope.frame if scope else self.frames[self.target_id]
        first_new = self._next_ref
        self._stitch(root, by_frame, children, 0 if interactive else 1, lines, set(), 0)
        if scope is None and not viewport:
            await self._kept_in_place(lines, first_new)
        if scope is None:
            shared = snap.shared_locs([(ln.loc, self.refs[ln.ref].frame) for ln in lines
                                       if ln.ref and ln.loc])
            for ln in lines:
                if ln.loc in shared:
                    ln.loc = None  # its role and name (and nth=) name it on the whole page
        if scope is None and not viewport:  # for a ref whose element the page replaces
            seen: dict[tuple[str, str], int] = {}
            for ln in lines:
                if ln.ref:
                    entry = self.refs[ln.ref]
                    entry.nth = seen.get((ln.role, ln.name), 0)
                    entry.loc = ln.loc
                    seen[(ln.role, ln.name)] = entry.nth + 1
            for ln in lines:
                if ln.ref:
                    self.refs[ln.ref].dupes = seen[(ln.role, ln.name)]
        page = by_frame.get(root.id, {})
        return lines, page

    async def _kept_in_place(self, lines: list[snap.Line], first_new: int) -> None:
        """An element the page drew anew in place of one like it takes that one's ref, as a
        person sees the same item (a list a filter redraws whole): the only element of its
        role and name (and card) that came in its document since the last whole snapshot
        (its ref `first_new` or later), where the only one that left is, and has left its
        document (not one a popup or a dialog covers now: a banner's "Reject All" under the
        preferences' own, a step button under a dropdown)."""
        shown = {ln.ref for ln in lines if ln.ref}
        # (by its card too, where it is in one: each row's like control apart, and never
        # another row's, a row put at the end as one was deleted)
        came: dict[tuple[int, str, str, str | None], list[snap.Line]] = {}
        for ln in lines:
            if ln.ref and ln.ref >= first_new:
                came.setdefault((self.refs[ln.ref].doc, ln.role, ln.name, card_of(ln.loc)),
                                []).append(ln)
        if not came:
            return
        left: dict[tuple[int, str, str, str | None], list[int]] = {}
        for ref in self._last_refs - shown:
            entry = self.refs.get(ref)
            if entry is not None and ref < first_new:
                left.setdefault((entry.doc, entry.role, entry.name, card_of(entry.loc)),
                                []).append(ref)
        pairs = [(new[0], old[0]) for key, new in came.items()
                 if len(new) == 1 and len(old := left.get(key, [])) == 1 and new[0].ref]
        for line, ref in pairs:
            new = self.refs[line.ref or 0]
            if await self._still_there(self.refs[ref]) or \
                    not await self._same_spot(self.refs[ref], new.frame, new.local):
                continue
            drawn = self.refs.pop(line.ref or 0)
            self._repoint(ref, drawn.doc, drawn.frame, drawn.local)
            line.ref = ref

    async def _still_there(self, entry: RefEntry) -> bool:
        """Whether a ref's element is still in its document (unread: taken as there)."""
        frame = self.frames.get(entry.frame)
        if frame is None or frame.doc != entry.doc:
            return False
        try:
            return await self.evaluate(
                frame, f"(e => !!e && e.isConnected)(__ts.get({entry.local}))",
                follow=False) is not False
        except (BrowserError, TabError, UsageError):
            return True

    async def _same_spot(self, was: RefEntry, frame_id: str, local: int) -> bool:
        """Whether a ref's element the page took out and the element `local` of frame
        `frame_id` that came stand in a like place (page_info.js `sameSpot`): a dialog's
        Close and a toast's that came as it went do not (unread: taken as so)."""
        frame = self.frames.get(frame_id)
        if frame is None or was.frame != frame_id:
            return was.frame == frame_id
        try:
            return await self.evaluate(frame, f"__ts.sameSpot({was.local}, {local})",
                                       follow=False) is not False
        except (BrowserError, TabError, UsageError):
            return True

    async def _parts_defined(self) -> bool:
        """Wait (up to PARTS_WAIT, once per document) for the components of the page not
        defined yet to be (a kit's loader defines each as its code comes); whether it
        waited."""
        main = self.frames[self.target_id]
        if main.doc in self.parts_waited:
            return False
        self.parts_waited.add(main.doc)
        deadline = asyncio.get_running_loop().time() + PARTS_WAIT
        while asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(PARTS_POLL)
            left = await self.evaluate(main, "__ts.undefinedParts()", follow=False)
            if not left:
                break
        return True

    async def _load_timers_run(self) -> None:
        """Wait (up to LOAD_TIMERS_WAIT) for the timers the page armed as it loaded or in
        reply to the last input, to draw what it shows a moment later, and for the data they
        fetch (replies.py)."""
        from . import replies  # (at call time: replies.py works on the Tab this is part of)
        await replies.came(cast("Tab", self), cap=replies.LOAD_TIMERS_WAIT)

    def known_frames(self) -> list[Frame] | None:
        """The frames events say the page has, once every session's tree was read (else
        None): a guess that saves the tree queries, for callers that can check it."""
        sessions = {self.session_id, *self.child_sessions}
        if not sessions <= self._trees_read:
            return None
        return [f for f in self.frames.values() if f.session in sessions]

    async def _rows_of_every_frame(self, opts_js: str,
                                   by_frame: dict[str, dict[str, Any]]
                                   ) -> tuple[list[Frame], bool]:
        """Every frame's rows into by_frame; the frames they came from, and whether those
        were only the ones events told of (no tree was read)."""
        main = self.frames[self.target_id]
        known = self.known_frames()
        if known is not None:  # the frames events told of: one round for all of them
            await self._rows_into(by_frame, known, opts_js)
            return known, True
        if len(self.frames) == 1 and not self.child_sessions:
            # no subframe known: the walk alone, and the frame tree only if it met one
            by_frame[main.id] = await self._frame_rows(main, opts_js)
            met = any(row[1] == snap.FRAME for row in by_frame[main.id].get("rows", []))
            frames = await self._frame_list() if met else [main]
        else:  # the main frame's walk and the frame-tree query travel together
            by_frame[main.id], frames = await asyncio.gather(self._frame_rows(main, opts_js),
                                                             self._frame_list())
        await self._rows_into(by_frame, [f for f in frames if f.id != main.id], opts_js)
        return frames, False

    async def _rows_into(self, by_frame: dict[str, dict[str, Any]], frames: list[Frame],
                         opts_js: str) -> None:
        """The rows of frames into by_frame, together; a subframe that cannot answer (gone,
        still loading) is left out, the main frame's failure is raised."""
        results = await asyncio.gather(*(self._frame_rows(f, opts_js) for f in frames),
                                       return_exceptions=True)
        for f, got in zip(frames, results, strict=True):
            if isinstance(got, BaseException):
                if not isinstance(got, Exception) or f.id == self.target_id:
                    raise got
                log.debug("frame %s not snapshotted: %s", f.id, got)
                continue
            by_frame[f.id] = got

    async def _children_of(self, frames: list[Frame], by_frame: dict[str, dict[str, Any]]
                           ) -> dict[tuple[str, int], Frame]:
        """(parent frame id, iframe element's local id) -> the frame it holds."""
        placed = [f for f in frames if f.id != self.target_id and f.id in by_frame]
        owners = await asyncio.gather(*(self._owner_of(f) for f in placed))
        return {owner: f for f, owner in zip(placed, owners, strict=True) if owner is not None}

    async def _frame_rows(self, frame: Frame, opts_js: str) -> dict[str, Any]:
        # one JSON string rather than a tree of values: much cheaper to carry over every
        # hop (the extension's worker, the native host), and no slower over plain CDP
        text = await self.evaluate(frame, f"JSON.stringify(__ts.snapshot({opts_js}))")
        try:
            res = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            res = None
        if not isinstance(res, dict):
            raise BrowserError("the page helper returned no snapshot")
        res["_doc"] = frame.doc
        return res

    def _stitch(self, frame: Frame, by_frame: dict[str, dict[str, Any]],
                children: dict[tuple[str, int], Frame], step: int, out: list[snap.Line],
                seen: set[str], base: int) -> None:
        """frame's lines into out, each child frame's under its iframe's line (`step` deeper:
        1, or 0 in -i, whose lines are indented only under containers)."""
        data = by_frame.get(frame.id)
        if data is None or frame.id in seen:
            return
        seen.add(frame.id)
        for row in data.get("rows", []):
            depth = int(row[0]) + base
            kind = int(row[1])
            if kind == snap.TEXT:
                out.append(snap.Line(depth, kind, name=str(row[3])))
                continue
            role, name = str(row[2]), str(row[3])
            local = int(row[4]) if len(row) > 4 else 0
            ref = self._ref_for(frame, local, role, name) if local and kind in (
                snap.REF, snap.FRAME, snap.ROW) else 0
            if kind == snap.ROW:  # a table row: its cells, or how many rows were left out
                extra = row[8] if len(row) > 8 else None
                spot = int(row[9]) if len(row) > 9 and not ref else 0
                out.append(snap.Line(depth, kind, role, name, ref, str(row[5] or ""),
                                     cells=[str(c) for c in extra] if isinstance(extra, list)
                                     else None, loc=row[7],
                                     more=extra if isinstance(extra, int) else 0,
                                     at=(frame.id, spot) if spot else None))
                continue
            left = row[9] if len(row) > 9 else (0, 0)
            if kind == snap.FRAME:
                out.append(snap.Line(depth, kind, role, name, ref, name_left=int(left[0])))
                child = children.get((frame.id, local))
                if child is not None:
                    self._stitch(child, by_frame, children, step, out, seen, depth + step)
                continue
            out.append(snap.Line(depth, kind, role, name, ref,
                                 str(row[5]) if len(row) > 5 and row[5] else "",
                                 row[6] if len(row) > 6 else None,
                                 row[7] if len(row) > 7 else None,
                                 row[8] if len(row) > 8 else None,
                                 name_left=int(left[0]), value_left=int(left[1]),
                                 hint=str(row[10]) if len(row) > 10 and row[10] else None,
                                 error=str(row[11]) if len(row) > 11 and row[11] else None,
                                 at=(frame.id, local) if local and not ref else None))

    async def _drawn_for_reading(self) -> bool:
        """A page waiting for a frame its background tab does not draw, drawn while it
        waits (up to DRAW_WAIT) where a debugger is up already (an action's: a modal a click
        opened mounts on its next animation frame); False where none is, as reading
        attaches none, or where the browser draws the tab itself."""
        tab = cast("Tab", self)
        if drawing.draws_itself(tab) or not tab.debugging():
            return False
        loop = asyncio.get_running_loop()
        main = self.frames[self.target_id]
        async with drawing.drawn_while(tab):
            start = loop.time()
            while loop.time() < start + DRAW_WAIT:
                await asyncio.sleep(DRAW_LOOK)
                with contextlib.suppress(BrowserError, TabError, UsageError):
                    waited = await self.evaluate(main, "__ts.owed()")
                    # a frame came since it was drawn (a page that animates for ever asks
                    # for the next at once)
                    if not isinstance(waited, (int, float)) or \
                            waited < (loop.time() - start) * 1000:
                        break
        return True

    async def _shown_at_last(self, interactive: bool, lines: list[snap.Line],
                             page: dict[str, Any]) -> tuple[list[snap.Line], dict[str, Any]]:
        """A young page that shows nothing yet read again until it shows something
        (EMPTY_WAIT at most); as it was where it is older, or a blank page."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + EMPTY_WAIT
        while not lines and float(page.get("age") or YOUNG) < YOUNG and \
                not str(page.get("url", "")).startswith(("about:", "data:")) and \
                loop.time() < deadline:
            await asyncio.sleep(EMPTY_LOOK)
            lines, page = await self.collect(interactive=interactive, viewport=False,
                                             scope=None)
        return lines, page

    async def frame_drawn(self) -> None:
        """Let the page draw its next frame, as a page that says its new state only then
        needs (FAST's elements): drawn for it in a background tab that draws none
        (`_drawn_for_reading`), else its next frame waited for (`next_frame`)."""
        tab = cast("Tab", self)
        with contextlib.suppress(BrowserError, TabError, UsageError):
            if await self.evaluate(self.frames[self.target_id], "__ts.owed()") and \
                    await self._drawn_for_reading():
                return
        await tab.next_frame()

    async def undrawn_note(self) -> str | None:
        """UNDRAWN when the page waits for a frame its tab does not draw (a background tab
        of the person's browser read without a debugger; page.js `undrawn`), else None:
        for what reads the page without a snapshot (`text`, a `wait` that timed out)."""
        if self.browser is None or self.browser.own_windows:
            return None  # a browser that draws its tabs itself
        try:
            waits = await self.evaluate(self.frames[self.target_id], "__ts.undrawn()")
        except (BrowserError, TabError, UsageError, KeyError):
            return None
        return UNDRAWN if waits is True else None

    async def snapshot(self, *, interactive: bool = False, viewport: bool = False,
                       scope: Target | None = None, max_chars: int | None = None,
                       delta: bool = False) -> Snapshot:
        """The page as text. `delta`: only the lines that changed since the last whole-page
        snapshot of the same kind (-i or not) of this document (all of it when there is
        none)."""
        if delta and (scope is not None or viewport):
            raise UsageError("--delta compares whole-page snapshots: it does not go with "
                             "--scope or --viewport; no snapshot taken")
        scope_handle = await self.resolve(scope) if scope is not None else None
        lines, page = await self.collect(interactive=interactive, viewport=viewport,
                                         scope=scope_handle, settle=scope_handle is None)
        if scope_handle is None and not lines and not viewport:
            lines, page = await self._shown_at_last(interactive, lines, page)
        if page.get("owed") and await self._drawn_for_reading():
            lines, page = await self.collect(interactive=interactive, viewport=viewport,
                                             scope=scope_handle, settle=False)
        if scope_handle is not None or viewport:
            # a locator's nth counts the whole page: number same-named elements on all of it
            whole, _ = await self.collect(interactive=True, viewport=False, scope=None)
            counts = Counter((w.role, w.name) for w in whole if w.ref)
            locs = {w.ref: w.loc for w in whole if w.ref}  # unique on the whole page
            for ln in lines:
                if ln.ref:
                    ln.nth = self.refs[ln.ref].nth
                    ln.dupes = counts[(ln.role, ln.name)]
                    ln.loc = locs.get(ln.ref, ln.loc)
        main_doc = self.frames[self.target_id].doc
        current = {ln.ref for ln in lines if ln.ref}
        same_doc = self._last_doc == main_doc
        modal = page.get("modal") is True
        if not same_doc:
            self._last_bodies, self._behind_modal = {}, set()
        # what a modal dialog hid and its closing shows again is no new part of the page
        new = current - self._last_refs - (set() if modal else self._behind_modal) \
            if same_doc else set()
        if scope_handle is None and not viewport:
            if modal and not self._behind_modal:
                self._behind_modal = self._last_refs if same_doc else set()
            elif not modal:
                self._behind_modal = set()
            self._last_refs, self._last_doc = current, main_doc
        elif same_doc:
            self._last_refs |= current
        notes = []
        if self.state.dialog:
            d = self.state.dialog
            notes.append(f"dialog: {d.type} {snap.quote(d.message)} is open")
        if page.get("modal") is True:
            notes.append("note: a modal dialog is open; the page behind it takes no input")
        if page.get("truncated"):
            notes.append("note: the page is very large; the walk stopped early")
        if page.get("undrawn") is True:
            notes.append(UNDRAWN)
        url = str(page.get("url", self.state.url))
        title = str(page.get("title", ""))
        self.state.title = title
        budget = scope_handle is not None and max_chars is None
        built = snap.build(lines, title=title, url=url, new_refs=new, interactive=interactive,
                           max_chars=snap.SCOPE_CHARS if budget else max_chars, notes=notes,
                           budget=budget)
        text = built.text
        if scope_handle is None and not viewport:
            shown = text.split("\n")
            at = snap.HEADER_LINES + len(notes)
            head, body = shown[:at], shown[at:]
            before = self._last_bodies.get(interactive)
            self._last_bodies[interactive] = body
            kind = "snapshot -i" if interactive else "snapshot"
            if delta and before is None:
                text = "\n".join([*head, f"note: no earlier {kind} of this page to compare "
                                  "with: all of it", *body])
            elif delta and before is not None:
                changed, gone, came = deltas.delta(before, body)
                text = "\n".join([*head, deltas.summary(gone, came, len(body), kind),
                                  *changed])
        return Snapshot(text, built.refs, url, title)

