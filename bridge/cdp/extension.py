"""The CDP interface over the browser extension: chrome.debugger per tab, Target.* emulated.

The page engine speaks plain CDP with session ids. Here a tab's session id is `tab-N`
(chrome.debugger's {tabId: N}); its child sessions (out-of-process iframes) keep the ids
Chrome gives them and go out as {tabId: N, sessionId}. The few browser-level methods the
engine uses (Browser.getVersion, Target.createTarget/attachToTarget/closeTarget, ...) are
done with chrome.tabs calls (ext_tabs.py), and tab events become Target.* events
(ext_events.py). A tab's target id is its main frame's id, as over plain CDP.

The page helper's world is the extension's own isolated world where the extension can reach
the frame (ext_worlds.py), so its element ids outlive a debugger session; reading a page
is done through chrome.scripting (ext_reader.py), with a debugger attached too (the read
after a click goes in the same message as its input: `Tabsteward.read`), so the debugger
searches for its own context of that world only for what a read cannot do; a tab is
created without attaching it, and opens, reloads and goes back and forward through
chrome.tabs (ext_nav.py). Every agent tab is screened by the browser's own site rules,
debugger or not. The debugger attaches when first needed, for input as the action begins
(ext_attach.py); frames the reader named are found again by their documents then
(engine/frames.py).

A debugger the extension detached because the tab sat idle is re-attached on the next
command, silently. One the person detached (the "is debugging this browser" bar's Cancel,
"stop all agents") fails the next command with a clear error and is re-attached only
when the agent asks again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import BrowserError, CDPError, TabError, TabstewardError, UsageError
from .connection import BARE_WORLD, DEFAULT_TIMEOUT, SESSION_GONE, Answer, Command, not_sent
from .ext_attach import ExtensionAttach
from .ext_detach import cause
from .ext_events import PREFIX, REQUEST_ID, _Tab, session_of
from .ext_nav import HISTORY, Navigator
from .ext_reader import Reader
from .ext_worlds import ExtensionWorlds
from .extension_link import ExtensionCallError, ExtensionLink
from .kept_network import KeptNetwork

log = logging.getLogger("tabsteward.cdp")

# what may go in one debugger.sequence message: input, reads, the barrier
SEQUENCED = ("Input.", "Runtime.evaluate", "Page.enable")
READ = "Tabsteward.read"  # a read of the page helper in a debugger.sequence (background.js)
SEQUENCE_STEPS, SEQUENCE_STEP = 8, 16  # the most debugger.sequence takes (background.js)
# the pauses before asking the reader again for a document that just committed (None: the
# last try)
AHEAD_RETRIES = (0.02, 0.04, None)
RELINK_GRACE = 15.0  # how long a lost link may take to come back (a restarted worker)


def _names_read_context(params: dict[str, Any]) -> bool:
    """Whether a command names a context the reader gave (negative ids are the reader's)."""
    return any(isinstance(v, int) and v < 0
               for v in (params.get("contextId"), params.get("executionContextId")))


class ExtensionConnection(ExtensionAttach):
    """CDP commands and events for the tabs Tabsteward opened through one extension."""

    helper_at_start = False  # the extension's world has the helper (extension/reader.js)
    hears_data = True  # its worker tells an agent tab's data requests (chrome.webRequest)

    def __init__(self, link: ExtensionLink, grace: float = RELINK_GRACE) -> None:
        super().__init__()
        self.link = link
        self.grace = grace
        self.stopped = bool(link.hello and link.hello.stopped)
        self._linked = asyncio.Event()
        self._linked.set()
        self._expire: asyncio.TimerHandle | None = None
        self._tabs: dict[int, _Tab] = {}
        self._by_target: dict[str, int] = {}
        self._children: dict[str, int] = {}
        self._gone: dict[str, asyncio.Future[None]] = {}  # child session -> its detach
        self._groups: dict[str, int] = {}  # agent -> tab group id
        self._shown: list[dict[str, Any]] | None = None  # agents the popup was last told of
        self._tasks: set[asyncio.Task[None]] = set()
        self._worlds = ExtensionWorlds(lambda *a: self.link.call(*a), self._learned)
        self._reader = Reader(lambda *a: self.link.call(*a))
        self._nav = Navigator(lambda *a, **k: self.link.call(*a, **k))
        self._network = KeptNetwork()  # off with the debugger, not after an idle time
        self._unbatched = False  # the extension has no debugger.sequence (an older one)
        # set by the engine: re-enable what a fresh debugger session needs on a tab
        self.reattached: Callable[[str], Awaitable[None]] | None = None
        self._watch(link)

    def _watch(self, link: ExtensionLink) -> None:
        link.on_event(self._on_link_event)
        link.closed.add_done_callback(lambda f: self._link_lost(link, f.result()))

    def relink(self, link: ExtensionLink) -> None:
        """The same browser profile connected again (its service worker restarted, or its
        native host did): carry on over the new link."""
        old, self.link = self.link, link
        if not old.closed.done():
            old.close()
        if self._expire is not None:
            self._expire.cancel()
            self._expire = None
        self.stopped = bool(link.hello and link.hello.stopped)
        self._shown = None
        self._watch(link)
        self._linked.set()
        log.info("the extension link is back")

    def _link_lost(self, link: ExtensionLink, reason: str) -> None:
        """Tabs lose their debugger with the link; wait a while for the extension to come
        back before calling the browser gone."""
        if link is not self.link or self.closed.done():
            return
        self._linked.clear()
        for tab in self._tabs.values():
            self._on_detached(tab.tab_id, "idle")
        if self.grace <= 0:
            self._on_closed(reason)
            return
        self._expire = asyncio.get_running_loop().call_later(self.grace, self._on_closed,
                                                             reason)

    def outlives_sessions(self, context: int) -> bool:
        return self._reader.frame_of(context) is not None

    async def data_pending(self, session_id: str) -> set[str]:
        """The data requests of the tab the worker heard begin and not end (`net.pending`),
        by the ids its DATA_BEGUN events carry; none when it cannot say."""
        tab_id = session_id.removeprefix(PREFIX)
        if not tab_id.isdigit():
            return set()
        try:
            ids = await self.link.call("net.pending", int(tab_id), timeout=5.0)
        except (ExtensionCallError, TabstewardError) as exc:
            log.debug("no pending data requests from the extension: %s", exc)
            return set()
        if not isinstance(ids, list):
            return set()
        return {f"w{i}" for i in ids if isinstance(i, str) and REQUEST_ID.fullmatch(i)}

    # -- the CDP interface ---------------------------------------------------------------
    async def send(self, method: str, params: dict[str, Any] | None = None,
                   session_id: str | None = None,
                   timeout: float | None = DEFAULT_TIMEOUT) -> dict[str, Any]:
        self.check_open(method)
        params = params or {}
        if not self._linked.is_set():
            try:
                async with asyncio.timeout(self.grace):
                    await self._linked.wait()
            except TimeoutError:
                raise BrowserError(f"the browser extension did not come back within "
                                   f"{self.grace:g} s; {method} was not sent") from None
        if session_id is None:
            return await self._browser_level(method, params, timeout)
        tab = self._tab_of_session(session_id)
        if tab is None:
            raise CDPError(method, "Session with given id not found.")
        debuggee: dict[str, Any] = {"tabId": tab.tab_id}
        if session_id != session_of(tab.tab_id):
            debuggee["sessionId"] = session_id
        elif (stepped := await self._history(tab, method, params, timeout)) is not None:
            return stepped
        elif not tab.attached or self._settling(tab):
            if tab.problem is None and tab.target_id and self._reader.can(method, params):
                return await self._reader.send(tab.reader(), method, params)  # no debugger
            if not tab.attached and tab.problem is None and tab.target_id and \
                    method not in HISTORY and self._nav.can(tab.guard, method, tab.acted):
                return await self._nav.send(tab.tab_id, tab.target_id, method, params, timeout)
            await self._reattach(tab, method)  # (or waits for the attach under way)
            params = await self._debugger_context(tab, session_id, method, params, timeout)
        elif _names_read_context(params):  # a world first reached without the debugger
            if tab.problem is None and self._reader.can(method, params):
                # a read: through the reader, as fast, where the debugger would first have
                # to search for that world (Runtime.enable: up to 45 ms on a large page)
                return await self._reader.send(tab.reader(), method, params)
            params = await self._debugger_context(tab, session_id, method, params, timeout)
        if method == "Page.createIsolatedWorld" and \
                str(params.get("frameId")).startswith(f"{tab.target_id}:"):
            # a frame named by the reader, not by the debugger: no world to search for (the
            # engine finds the frame again by its document, if it has one)
            raise CDPError(method, "No frame for given id found")
        helper = method == "Page.createIsolatedWorld" and params.get("worldName") != BARE_WORLD
        if helper and tab.problem is None and \
                params.get("frameId") == tab.target_id and \
                not self._worlds.knows(session_id, tab.target_id) and \
                (ahead := await self._world_ahead(tab, params)):
            return ahead
        if helper:  # the extension's world, where it can
            world = await self._worlds.world(
                tab.tab_id, session_id, str(params.get("frameId")),
                lambda m, p: self.send(m, p, session_id, timeout))
            if world is not None:
                return world
        if method == "Network.enable":
            return await self._network.enable(session_id, params, lambda: self._relay(
                tab, debuggee, session_id, method, params, timeout))
        if method == "Network.disable" and self._network.keeps(session_id):
            return {}  # it stays on while the debugger stays (kept_network.py)
        return await self._relay(tab, debuggee, session_id, method, params, timeout)

    async def sequence(self, steps: list[list[Command]],
                       timeout: float | None = DEFAULT_TIMEOUT, *,
                       hold: int | None = None) -> list[list[Answer]]:
        """As CDPConnection.sequence, in one message to the extension when every command
        is input, a script or Page.enable on one attached tab, on its page's session or (an
        extension able to) its frames' (its worker runs the steps, so they cost one trip
        from the hub instead of one each), and it can hold the rest back on a read's
        answer where asked to; otherwise command by command, as `send` does."""
        commands = [c for step in steps for c in step]
        tab = self._tab_of_session(str(commands[0][2])) if commands else None
        hello = self.link.hello
        abilities = hello.abilities if hello is not None else frozenset()
        if tab is None or self._unbatched or not tab.attached or tab.problem is not None or \
                not self._linked.is_set() or len(steps) > SEQUENCE_STEPS or \
                any(len(step) > SEQUENCE_STEP for step in steps) or any(
                    not self._sends_to(tab, s) or not m.startswith(SEQUENCED)
                    for m, p, s in commands) or \
                (hold is not None and "sequence.holds" not in abilities):
            return await super().sequence(steps, timeout, hold=hold)
        # a world first reached without the debugger: a read of it the extension does as
        # the reader does (no search for the debugger's context), where it can
        reads = "sequence.reads" in abilities
        try:
            sent = [[await self._sequenced(tab, m, p, s, reads, timeout) for m, p, s in step]
                    for step in steps]
        except TabstewardError:  # not found: each command fails or not where `send` would
            return await super().sequence(steps, timeout, hold=hold)
        self.check_open(commands[0][0])
        tab.acted = tab.acted or any(m.startswith("Input.") for m, _, _ in commands)
        page = session_of(tab.tab_id)
        try:
            got = await self.link.call(
                "debugger.sequence", {"tabId": tab.tab_id},
                [[[m, p] if s == page or m == READ else [m, p, s] for m, p, s in step]
                 for step in sent], *(() if hold is None else (hold,)), timeout=timeout)
        except ExtensionCallError as exc:
            if exc.code != UsageError.code:
                raise await self._error(commands[0][0], exc, tab) from None
            self._unbatched = True  # an extension from before debugger.sequence
            return await super().sequence(steps, timeout, hold=hold)
        out: list[list[Answer]] = []
        for step, answers in zip(sent, got if isinstance(got, list) else [], strict=False):
            out.append([await self._answer(tab, m, a) for (m, _, _), a in
                        zip(step, answers if isinstance(answers, list) else [], strict=False)])
        if [len(s) for s in out] != [len(s) for s in steps]:
            raise BrowserError("the browser extension gave a malformed answer to a sequence "
                               "of commands; what was done is not known")
        return out

    async def _sequenced(self, tab: _Tab, method: str, params: dict[str, Any],
                         session_id: str | None, reads: bool, timeout: float | None
                         ) -> Command:
        """A command of a sequence as the extension is sent it: a read of a world first
        reached without the debugger as the reader's (`reads`: the extension can), any
        other command naming such a world with the debugger's context for it."""
        if not _names_read_context(params):
            return method, params, session_id
        if reads and method == "Runtime.evaluate" and \
                (read := self._reader.sequenced(params)) is not None:
            return READ, read, session_id
        return method, await self._debugger_context(tab, str(session_id), method, params,
                                                    timeout), session_id

    def _sends_to(self, tab: _Tab, session_id: str | None) -> bool:
        """Whether the extension's sequence can send to `session_id` of `tab`."""
        if session_id == session_of(tab.tab_id):
            return True
        hello = self.link.hello
        return hello is not None and "sequence.sessions" in hello.abilities and \
            session_id is not None and self._children.get(session_id) == tab.tab_id

    async def _answer(self, tab: _Tab, method: str, answer: Any) -> Answer:
        """One command's answer in a sequence: its result, or the error `send` raises."""
        read = method == READ  # answered as Runtime.evaluate is
        method = "Runtime.evaluate" if read else method
        if not isinstance(answer, dict):
            return not_sent(method)
        if read and "error" not in answer:
            try:
                return self._reader.answered(answer.get("result"))
            except CDPError as exc:
                return exc
        error = answer.get("error")
        if isinstance(error, dict):
            code = error.get("code")
            return await self._error(method, ExtensionCallError(
                "debugger.sendCommand", code if isinstance(code, int) else BrowserError.code,
                str(error.get("message") or "the browser reported an error")[:2000]), tab)
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    async def _relay(self, tab: _Tab, debuggee: dict[str, Any], session_id: str, method: str,
                     params: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """Send a command to the tab's debugger; its answer, or the error as the engine's."""
        # a read does not keep the debugger: it lets go after the last action, not read
        read = (True,) if self._reader.can(method, params) else ()
        tab.acted = tab.acted or method.startswith("Input.") or params.get("userGesture") is True
        try:
            call = self.link.call("debugger.sendCommand", debuggee, method, params, *read,
                                  timeout=timeout)
            result = await (self._unless_gone(session_id, call, method)
                            if "sessionId" in debuggee else call)
        except ExtensionCallError as exc:
            error = await self._error(method, exc, tab)
            if read and not tab.attached and tab.problem is None and "sessionId" not in debuggee:
                # the idle detach came as the read went: read without the debugger
                return await self._reader.send(tab.reader(), method, params)
            raise error from None
        if method == "Page.getNavigationHistory" and isinstance(result, dict) and \
                "sessionId" not in debuggee:
            tab.history.synced(result)
        return result if isinstance(result, dict) else {}

    async def _history(self, tab: _Tab, method: str, params: dict[str, Any],
                       timeout: float | None) -> dict[str, Any] | None:
        """Back and forward without the debugger, from the history the hub kept; None where
        the debugger must do it. A step from that history is taken through chrome.tabs even
        if the debugger attached since (its entry ids are the hub's)."""
        if method == "Page.navigateToHistoryEntry" and int(params.get("entryId", 0)) < 0:
            return await self._nav.step(tab.tab_id, tab.history, int(params["entryId"]),
                                        timeout)
        if method != "Page.getNavigationHistory" or tab.attached or tab.problem is not None \
                or not tab.target_id or not self._nav.can(tab.guard, method, tab.acted):
            return None
        return await self._nav.history(tab.tab_id, tab.history)

    async def _debugger_context(self, tab: _Tab, session_id: str, method: str,
                                params: dict[str, Any], timeout: float | None
                                ) -> dict[str, Any]:
        """A command that names a context read without the debugger and that a read cannot
        do (a remote object, a promise, input into a frame), now that the debugger is
        attached: the same world's context as the debugger knows it."""
        def frame_of(context: int) -> str | None:
            ext = self._reader.frame_of(context)
            return None if ext is None else tab.reader().frame_id(ext)

        async def send(m: str, p: dict[str, Any]) -> dict[str, Any]:
            return await self.send(m, p, session_id, timeout)
        return await self._worlds.carried(tab.tab_id, session_id, method, params, frame_of,
                                          send)

    async def _world_ahead(self, tab: _Tab, params: dict[str, Any]) -> dict[str, Any] | None:
        """The main frame's world in a document the debugger has not searched: the reader's,
        in one trip, where the debugger's search takes three (Runtime.enable, on a large page
        up to 45 ms, before the first input could go); reads of it go through the reader,
        and so does the read in a sequence of input (`_sequenced`). None when the reader
        cannot reach it (about:blank ...). A document the debugger just saw commit may not
        be scriptable yet: it is asked again, shortly, before the debugger searches."""
        for pause in AHEAD_RETRIES:
            try:
                return await self._reader.send(tab.reader(), "Page.createIsolatedWorld",
                                               params)
            except CDPError:
                if pause is None:
                    return None
            await asyncio.sleep(pause)
        return None

    def _learned(self, tab_id: int, ext: int, frame_id: str) -> None:
        tab = self._tabs.get(tab_id)
        if tab is not None and ext != 0:
            tab.frame_ids[ext] = frame_id

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._expire is not None:
            self._expire.cancel()
        self.link.close()
        await super().close()

    async def _error(self, method: str, exc: ExtensionCallError, tab: _Tab) -> TabstewardError:
        text = exc.message
        if text.startswith("{"):
            try:
                body = json.loads(text)
                return CDPError(method, str(body.get("message", text)), body.get("code"))
            except (ValueError, AttributeError):
                pass
        if "not attached" in text or "etached" in text:
            tab.attached = False
            if tab.problem is None and not await self._still_open(tab):
                # the tab closing detaches the debugger before tabs.removed reaches us
                return TabError(f"the tab was closed in the browser; {method} was not done")
            why = cause(tab.problem) if tab.problem else "the debugger was detached from the tab"
            return BrowserError(f"{why}; {method} did not complete")
        if "No tab with" in text:  # it went before the browser's tabs.removed reached us
            return TabError(f"the tab was closed in the browser; {method} was not done")
        return exc.as_error(f"{method} was not done")

    async def _unless_gone(self, session_id: str, call: Awaitable[Any], method: str) -> Any:
        """A child session's command, failed at once if the session detaches first (Chrome
        drops the commands of a frame that moved to another process)."""
        gone = self._gone.get(session_id)
        if gone is None:
            gone = self._gone[session_id] = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(call)
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        task.cancel()
        raise CDPError(method, SESSION_GONE)

    def _child_gone(self, session_id: str) -> None:
        self._network.forget(session_id)
        gone = self._gone.pop(session_id, None)
        if gone is not None and not gone.done():
            gone.set_result(None)

    async def _still_open(self, tab: _Tab) -> bool:
        """Whether the browser still has the tab (False only when it says it does not)."""
        try:
            await self.link.call("tabs.get", tab.tab_id, timeout=5)
        except ExtensionCallError as exc:
            return "No tab with" not in exc.message
        except TabstewardError:
            return True
        return True

    def _forget(self, tab_id: int) -> None:
        tab = self._tabs.pop(tab_id, None)
        if tab is None:
            return
        self._by_target.pop(tab.target_id, None)
        for child in tab.children:
            self._children.pop(child, None)
            self._child_gone(child)
