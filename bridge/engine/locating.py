"""Finding the one element a locator names: role and name, role and name in a card, the
words it shows, CSS."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..errors import BrowserError, RefNotFound, TabError, UsageError
from . import snapshot as snap
from .collect import HOOK_SECRET, SnapshotTaking
from .model import Frame, Handle, RefEntry
from .targets import CssTarget, RoleTarget, TextTarget, card_of, parse

CSS_COUNTED = 20  # a CSS target's matches counted before it is refused as "20 or more"
TEXT_FOUND = 50  # a text target's matches read from each frame
YOUNG_MS = 2000  # a document this young may still draw what a locator names (a lazy loader)
LOOK_EVERY = 0.1  # s between looks meanwhile
T = TypeVar("T")


class Locating(SnapshotTaking):
    """The locator half of a Tab: the element a role, a card's words or a CSS selector names,
    read from the tab's snapshot lines and its frames' documents."""

    async def _found_later(self, look: Callable[[bool], Awaitable[T]],
                           found: Callable[[T], bool]) -> T:
        """What `look` finds (given whether to wait for the timers the page armed as it
        loaded or in reply to input first): at once; else once those ran (what a page draws
        a moment later); else, in a young document, as it draws (a hidden tab's timers go
        uncounted), looked at again until it is found or YOUNG_MS old."""
        got = await look(False)
        if found(got):
            return got
        got = await look(True)
        while not found(got) and await self._age_ms() < YOUNG_MS:
            await asyncio.sleep(LOOK_EVERY)
            got = await look(False)
        return got

    async def _age_ms(self) -> float:
        """How long ago the main frame's document began (YOUNG_MS when it cannot say)."""
        try:
            age = await self.evaluate(self.frames[self.target_id], "performance.now()")
        except (BrowserError, TabError, UsageError):
            return YOUNG_MS
        return float(age) if isinstance(age, int | float) else YOUNG_MS

    async def _resolve_role(self, role: str, name: str, nth: int) -> Handle:
        async def look(settle: bool) -> list[snap.Line]:
            lines, _ = await self.collect(interactive=True, viewport=False, scope=None,
                                          settle=settle)
            return [ln for ln in lines if ln.ref and ln.role == role and ln.name == name]
        matches = await self._found_later(look, lambda m: len(m) > nth)
        what = f"{role} {snap.quote(name)}"
        if len(matches) > nth:
            entry = self.refs[matches[nth].ref]
            return Handle(self.frames[entry.frame], entry.local, matches[nth].ref)
        if not matches:  # a line with no ref (a heading, a row, a card): the full snapshot's
            found = await self._resolve_line(role, name, nth)
            if found is not None:
                return found
        raise RefNotFound(f"no {what}{f' nth={nth}' if nth else ''} in the page's snapshot "
                          "(none shown, actionable or not); nothing was done. Take a snapshot "
                          "to see what is there")

    async def _resolve_stale(self, entry: RefEntry, ref: int) -> Handle:
        """The element that took the place of a ref's element the page replaced (a list
        drawn anew), found only where it cannot be another: by the locator the snapshot
        showed for it (a card's words, an id, a link's address) when it had one, else by
        its role and name when those named it alone then and do now, or when as many
        elements have them as then (the same list drawn again: the nth of them). A list
        that changed (an item deleted, added or moved) could put another element at its
        place: that is refused, and nothing is done."""
        what = f"{entry.role} {snap.quote(entry.name)}"
        gone = f"@{ref} ({what}) is gone from the page"
        self._same_document(entry, ref, what)
        if entry.loc:
            target = parse("loc=" + entry.loc)
            try:
                handle = await self.resolve(target)
            except RefNotFound as exc:
                finds = "several elements" if "must name one" in exc.message else "nothing"
                raise RefNotFound(f"{gone}, and its locator {entry.loc} finds {finds} now; "
                                  "nothing was done. Take a new snapshot") from None
            self._same_document(entry, ref, what)
            return await self._in_its_spot(entry, ref, handle, gone)
        lines, _ = await self.collect(interactive=True, viewport=False, scope=None)
        self._same_document(entry, ref, what)
        matches = [ln for ln in lines if ln.ref and ln.role == entry.role and
                   ln.name == entry.name]
        if not matches:
            raise RefNotFound(f"{gone} and no {what} is there now; nothing was done. Take a "
                              "new snapshot")
        then = entry.dupes or 1  # (0: no whole snapshot counted them; as if it was alone)
        if len(matches) != then or entry.nth >= len(matches):
            was = f"it was {_among(entry.nth, then)}, and " if entry.dupes else ""
            raise RefNotFound(
                f"{gone}: {was}{len(matches)} {'is' if len(matches) == 1 else 'are'} there "
                "now, so which one took its place cannot be told; nothing was done. Take a "
                "new snapshot and use a ref from it")
        found = self.refs[matches[entry.nth].ref]
        return await self._in_its_spot(entry, ref, Handle(
            self.frames[found.frame], found.local, matches[entry.nth].ref), gone)

    async def _in_its_spot(self, entry: RefEntry, ref: int, handle: Handle,
                           gone: str) -> Handle:
        """The element found in place of a ref's, refused where it stands elsewhere than
        the ref's stood (a toast's Close that came as the dialog whose Close it was went)."""
        if not await self._same_spot(entry, handle.frame.id, handle.local):
            raise RefNotFound(f"{gone}, and the one like it stands elsewhere (another dialog, "
                              "popup or message); nothing was done. Take a new snapshot")
        return _in_place_of(handle, ref)

    def _same_document(self, entry: RefEntry, ref: int, what: str) -> None:
        """Refuse a ref of a document its frame no longer shows (the tab went to another
        page, reloaded, or a frame loaded anew): what took its place there is another page's
        element, however alike (a "Delete" on the next page deletes something else)."""
        frame = self.frames.get(entry.frame)
        if frame is not None and frame.doc and frame.doc != entry.doc:
            where = "the tab" if frame.parent is None else "its frame"
            raise RefNotFound(f"@{ref} ({what}) was on an earlier page: {where} has loaded "
                              "another since (a navigation or a reload); nothing was done. "
                              "Take a new snapshot and use a ref from it")

    async def _resolve_line(self, role: str, name: str, nth: int) -> Handle | None:
        """The nth line of the full snapshot this role and name locate (a line with no ref
        too: `heading "Attachments"`, `row "row1"`), given a ref; None when there is none."""
        lines, _ = await self.collect(interactive=False, viewport=False, scope=None)
        found = [ln for ln in lines if ln.kind != snap.TEXT and ln.role == role and
                 (ln.ref or ln.at) and snap.names_line(ln, name)]
        if len(found) <= nth:
            return None
        line = found[nth]
        if line.ref:
            entry = self.refs[line.ref]
            return Handle(self.frames[entry.frame], entry.local, line.ref)
        assert line.at is not None
        frame = self.frames[line.at[0]]
        return Handle(frame, line.at[1], self._ref_for(frame, line.at[1], role, line.name))

    async def _resolve_role_in(self, target: RoleTarget) -> Handle:
        """`ROLE "NAME" in "WORDS"`: of the elements of that role and name, the one whose
        card says WORDS (page.js groups them by card as it does a CSS locator's matches)."""
        async def look(settle: bool) -> list[tuple[Frame, int]]:
            lines, _ = await self.collect(interactive=True, viewport=False, scope=None,
                                          settle=settle)
            by_frame: dict[str, list[int]] = {}
            for ln in lines:
                if ln.ref and ln.role == target.role and ln.name == target.name:
                    entry = self.refs[ln.ref]
                    by_frame.setdefault(entry.frame, []).append(entry.local)
            got: list[tuple[Frame, int]] = []
            for fid, locals_ in by_frame.items():
                frame = self.frames[fid]
                ids = await self.evaluate(frame, f"__ts.pickIn({json.dumps(locals_)}, "
                                                 f"{json.dumps(target.within)})")
                got += [(frame, int(i)) for i in ids or []]
            return got
        found = await self._found_later(look, bool)
        what = f"{target.role} {snap.quote(target.name)} in {snap.quote(target.within or '')}"
        if len(found) > 1:
            raise RefNotFound(f"{len(found)} elements are {what}; nothing was done: a target "
                              "must name one element. Take a snapshot and use its ref or "
                              "locator")
        if not found:
            raise RefNotFound(f"no {what} on the page; nothing was done. Take a snapshot to "
                              "see what is there")
        frame, local = found[0]
        return Handle(frame, local, self._ref_for(frame, local, target.role, target.name))

    async def _resolve_text(self, target: TextTarget) -> Handle:
        """The element that shows the words (page_locators.js byText), in any of the page's
        frames: the nth of them when nth is given, else the only one (several are refused,
        as a CSS target's are, naming the first few)."""
        found, shown = await self._matching(
            f"__ts.byText({json.dumps(target.words)}, {json.dumps(target.within)}, "
            f"{TEXT_FOUND})", lambda exc: None, again=True)
        what = f"text {snap.quote(target.words)}" + (
            f" in {snap.quote(target.within)}" if target.within else "")
        if target.nth is not None:
            if target.nth >= len(found):
                raise RefNotFound(f"no {what} nth={target.nth}: {len(found)} shown on the "
                                  "page; nothing was done")
            return await self._handle_of(*found[target.nth])
        if len(found) > 1:
            raise RefNotFound(
                f"{len(found)} elements show {what} ({', '.join(shown[:3])}"
                f"{', ...' if len(found) > 3 else ''}); nothing was done: a target must name "
                'one element. Add nth=N (0 is the first) or in "WORDS OF ITS CARD", or use a ref')
        if not found:
            raise RefNotFound(f"no shown element has the {what}; nothing was done. Take a "
                              "snapshot to see what is there")
        return await self._handle_of(*found[0])

    async def _resolve_css(self, target: CssTarget) -> Handle:
        """The one element a CSS target matches in all the page's frames (their shadow roots
        too). Several are refused, as Playwright's strict mode does: nothing is done to the
        first of them by chance."""
        sel = target.selector

        def invalid(exc: BrowserError) -> None:
            if "SyntaxError" in exc.message or "not a valid selector" in exc.message:
                raise UsageError(f"{sel!r} is not a valid CSS selector; nothing was done"
                                 ) from None
        found, shown = await self._matching(
            f"__ts.queryIn({json.dumps(sel)}, {json.dumps(target.within)})" if target.within
            else f"__ts.query({json.dumps(sel)}, {CSS_COUNTED})", invalid, again=True)
        where = f" near {target.within!r}" if target.within else ""
        if len(found) > 1:
            many = f"{len(found)}{' or more' if len(found) >= CSS_COUNTED else ''}"
            raise RefNotFound(
                f"{many} elements match {sel!r}{where} on the page ({', '.join(shown[:3])}"
                f"{', ...' if len(found) > 3 else ''}); nothing was done: a target must name "
                "one element. Use its ref from a snapshot, or a selector only it matches")
        if not found:
            raise RefNotFound(f"no element matches {sel!r}{where}; nothing was done")
        return await self._handle_of(*found[0])

    async def _matching(self, query: str, failed: Callable[[BrowserError], None],
                        again: bool = False) -> tuple[list[tuple[Frame, int]], list[str]]:
        """The elements a page helper query (JavaScript giving element ids) finds in every
        frame, the main frame's first, and the first few of each described; `failed` hears
        a frame's error (and may raise), else that frame (going away) is passed over.
        `again`: where none is found, asked once more once the timers the page armed as it
        loaded or in reply ran (what it draws a moment later)."""
        async def look(settle: bool) -> tuple[list[tuple[Frame, int]], list[str]]:
            if settle:
                await self._load_timers_run()
            return await self._matching_now(query, failed)
        if not again:
            return await look(False)
        return await self._found_later(look, lambda got: bool(got[0]))

    async def _matching_now(self, query: str, failed: Callable[[BrowserError], None]
                            ) -> tuple[list[tuple[Frame, int]], list[str]]:
        frames = await self._frame_list()
        frames.sort(key=lambda f: f.id != self.target_id)
        expr = (f"(ids => ({{ids, shown: ids.slice(0, 3).map(i => __ts.describe(__ts.get(i)))"
                f"}}))({query})")
        found: list[tuple[Frame, int]] = []
        shown: list[str] = []
        for frame in frames:
            try:
                res = await self.evaluate(frame, expr)
            except BrowserError as exc:
                failed(exc)
                continue
            ids = res.get("ids") if isinstance(res, dict) else None
            found += [(frame, int(i)) for i in ids or []]
            shown += [str(d) for d in res.get("shown") or []] if ids else []
        return found, shown

    async def _handle_of(self, frame: Frame, local: int) -> Handle:
        """A found element's handle, with the ref its role and name give it."""
        info = await self.evaluate(frame,
                                   f"__ts.info({local}, {json.dumps(HOOK_SECRET)})") or {}
        ref = self._ref_for(frame, local, str(info.get("role") or "generic"),
                            str(info.get("name") or ""))
        return Handle(frame, local, ref)


def _among(nth: int, count: int) -> str:
    """Where an element stood among those of its role and name: "the only one", "the 2nd of
    4"."""
    if count <= 1:
        return "the only one"
    n = nth + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} of {count}"


def _in_place_of(handle: Handle, ref: int) -> Handle:
    """The element found for a ref whose element the page replaced, saying which ref it
    stands in for (action reports name both)."""
    if handle.ref != ref:
        handle.was = ref
    return handle


def card_words(entry: RefEntry) -> str | None:
    """The words of the card a ref's locator placed it in (`button "Edit" in "Ada"`), if
    it had them."""
    return card_of(entry.loc)


def live_call(entry: RefEntry, what: str, secret: str | None = None,
              check: dict[str, Any] | None = None) -> str:
    """The page helper's `live` read of a ref's element (page_input.js), its card's words
    checked too (a list that reuses its elements for other entries)."""
    words = card_words(entry)
    args: list[Any] = [entry.local, what]
    if secret is not None or check is not None or words is not None:
        args += [secret, check]
    if words is not None:
        args.append(words)
    return f"__ts.live({json.dumps(args)[1:-1]})"
