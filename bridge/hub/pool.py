"""The browsers one hub drives: each connected extension by name, and a fallback browser.

The fallback is the Chromium the hub launches (on first need, when no extension is
connected) or the one `serve --cdp` attached to (at start; losing it stops the hub). An
agent names a browser, or keeps the one it used last, or gets the only one connected.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..errors import BrowserError, UsageError
from ..records.listeners import tell

if TYPE_CHECKING:
    from ..cdp.extension_link import ExtensionLink
    from ..engine.gate import Gate
    from ..engine.session import Browser

log = logging.getLogger("tabsteward.hub")

DEFAULT_IDLE_DETACH = 10.0
ALIVE_WAIT = 3.0  # seconds a connected extension has to show it is alive


class BrowserPool:
    """Browsers by name; `pick` chooses one for an agent's request."""

    def __init__(self, *, primary: Browser | None = None,
                 attach: Callable[[], Awaitable[Browser]] | None = None,
                 launch: Callable[[], Awaitable[Browser]] | None = None,
                 gate: Gate | None = None, idle_detach: float = DEFAULT_IDLE_DETACH) -> None:
        self.primary = primary  # given at start (or being attached): losing it stops the hub
        self._attaching: asyncio.Task[Browser] | None = None
        self._launch = launch
        self._launched: Browser | None = None
        self._launching: asyncio.Task[Browser] | None = None
        self.gate = gate  # policy, asked before every action in each of these browsers
        self.idle_detach = idle_detach
        self.extensions: dict[str, Browser] = {}
        self._installs: dict[str, str] = {}  # extension name -> install id
        self._last: dict[str, Browser] = {}  # agent -> the browser it used last
        # browsers that went away while the hub ran: install id (or "launched") -> (name, why)
        self.disconnected: dict[str, tuple[str, str]] = {}
        self.listeners: list[Callable[[], None]] = []  # told when a browser comes or goes
        self._closing = False
        self.lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        if primary is not None:
            self._keep(primary)
        if attach is not None:  # the hub listens meanwhile; requests wait for it
            self._attaching = asyncio.ensure_future(attach())
            self._attaching.add_done_callback(self._attached)

    def _keep(self, browser: Browser) -> None:
        self.primary = browser
        browser.gate = self.gate
        browser.closed.add_done_callback(self._lose)

    def _lose(self, closed: asyncio.Future[str]) -> None:
        if not self.lost.done():
            self.lost.set_result(_reason(closed))

    def _attached(self, task: asyncio.Task[Browser]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            if not self.lost.done():
                self.lost.set_result(f"could not attach: {getattr(exc, 'message', exc)}")
            return
        self._keep(task.result())

    @property
    def fallback_name(self) -> str:
        return "attached" if self.primary or self._attaching else "launched"

    # -- choosing ------------------------------------------------------------------------
    async def pick(self, agent: str, name: str | None = None) -> Browser:
        """The browser for this request: by name, else the agent's last, else the only one."""
        live = {n: b for n, b in self.extensions.items() if not b.closed.done()}
        if name:
            found = live.get(name) or next(
                (live[n] for n, i in self._installs.items() if n in live and i == name), None)
            if found is None and name in (self.fallback_name, "launched"):
                found = await self._fallback()
            if found is None:
                raise UsageError(f"no browser named {name!r} is connected; nothing was run "
                                 f"(connected: {', '.join(self.names()) or 'none'}; "
                                 "`tabsteward browsers` lists them)")
        else:
            last = self._last.get(agent)
            if last is not None and not last.closed.done():
                found = last
            elif len(live) == 1:
                found = next(iter(live.values()))
            elif live:
                raise UsageError(f"several browsers are connected ({', '.join(sorted(live))});"
                                 " nothing was run: pick one with --browser NAME (or "
                                 "TABSTEWARD_BROWSER)")
            else:
                found = await self._fallback()
        self._last[agent] = found
        return found

    async def _fallback(self) -> Browser:
        if self._attaching is not None:
            return await asyncio.shield(self._attaching)
        if self.primary is not None:
            return self.primary
        if self._launched is not None and not self._launched.closed.done():
            return self._launched
        if self._launch is None:
            raise BrowserError("no browser is connected and this hub launches none; nothing "
                               "was run (install the extension: `tabsteward install`)")
        if self._launching is None or self._launching.done():
            self._launching = asyncio.ensure_future(self._relaunch(self._launched))
            self._launching.add_done_callback(self._took_launched)
        return await asyncio.shield(self._launching)

    def _took_launched(self, task: asyncio.Task[Browser]) -> None:
        """A launch ended: keep its browser, even when the request that asked for it went
        away meanwhile (the next one closes it as the one before, not a stray Chromium)."""
        if task.cancelled():
            return
        if task.exception() is not None:  # its waiters say why; none left: logged here
            log.info("launching a browser failed: %s", task.exception())
            return
        browser = task.result()
        if self._launched is not browser:
            browser.gate = self.gate
            self._launched = browser
            self.disconnected.pop("launched", None)
            browser.closed.add_done_callback(lambda _f: self._gone(browser))
            self._changed()

    async def _relaunch(self, gone: Browser | None) -> Browser:
        """Launch a Chromium, after freeing what the one that went away left (its profile)."""
        assert self._launch is not None
        if gone is not None:
            try:
                await gone.close()
            except Exception:
                log.exception("cleaning up after a launched browser that went away failed "
                              "(its profile folder may be left behind); launching anew")
        return await self._launch()

    def names(self) -> list[str]:
        names = sorted(n for n, b in self.extensions.items() if not b.closed.done())
        return [*names, self.fallback_name]

    def describe(self) -> list[dict[str, Any]]:
        """Every browser, for `tabsteward browsers`."""
        from ..cdp.extension import ExtensionConnection
        rows: list[dict[str, Any]] = []
        for name, browser in sorted(self.extensions.items()):
            conn = browser.conn
            if browser.closed.done() or not isinstance(conn, ExtensionConnection):
                continue
            hello = conn.link.hello
            rows.append({**browser.describe(), "name": name,
                         "install": self._installs.get(name),
                         "profile": hello.profile if hello else "",
                         "stopped": conn.stopped, "connected": True})
        fallback = self.primary or self._launched
        running = fallback is not None and not fallback.closed.done()
        row: dict[str, Any] = (fallback.describe() if running and fallback is not None
                               else {"kind": self.fallback_name, "version": "", "agents": [],
                                     "tabs": 0})
        rows.append({**row, "name": self.fallback_name, "install": None, "profile": "",
                     "stopped": False, "connected": running})
        return rows

    # -- extensions ----------------------------------------------------------------------
    async def add_extension(self, link: ExtensionLink) -> Browser:
        """A browser whose extension just said hello: named, configured, and served."""
        from ..cdp.extension import ExtensionConnection
        from ..engine.session import Browser
        assert link.hello is not None
        for name, known in list(self.extensions.items()):
            conn = known.conn
            if self._installs.get(name) == link.hello.install and \
                    isinstance(conn, ExtensionConnection) and not conn.closed.done():
                if await _answers(conn.link):
                    raise UsageError(
                        f"a second extension link claimed the install id of browser {name!r}, "
                        "whose link is alive and answers; it was refused, and the browser's "
                        "link was left as it was")
                await self._configure(name, link)
                conn.relink(link)  # the same profile, back: its agents keep their tabs
                self.disconnected.pop(link.hello.install, None)
                link.on_hello = lambda hello, b=known: self._renamed(b, hello.name)
                self._renamed(known, link.hello.name)
                return known
        # set up before any agent can use it: its first pages get the hook
        await self._configure(link.hello.name, link)
        conn = ExtensionConnection(link)
        browser = await Browser.over_extension(conn)
        browser.gate = self.gate
        name = self._unique(link.hello.name)
        self.extensions[name] = browser
        self._installs[name] = link.hello.install
        log.info("browser %r connected through the extension (%s, install %s)", name,
                 browser.version, link.hello.install)
        link.on_hello = lambda hello: self._renamed(browser, hello.name)
        browser.closed.add_done_callback(lambda _f: self._gone(browser))
        self.disconnected.pop(link.hello.install, None)
        self._changed()
        return browser

    def _renamed(self, browser: Browser, wanted: str) -> None:
        """The person renamed the browser in the popup (its hello came again)."""
        old = self._name_of(browser)
        if old is None or old == wanted or old.rsplit("-", 1)[0] == wanted:
            return
        install = self._installs.pop(old)
        del self.extensions[old]
        name = self._unique(wanted)
        self.extensions[name] = browser
        self._installs[name] = install
        log.info("browser %r is now called %r", old, name)
        self._changed()

    def _name_of(self, browser: Browser) -> str | None:
        return next((n for n, b in self.extensions.items() if b is browser), None)

    async def _configure(self, name: str, link: ExtensionLink) -> None:
        from ..cdp.extension_link import ExtensionCallError
        from ..engine.collect import HOOK_SECRET
        try:
            await link.call("settings.update", {"idleDetachSeconds": self.idle_detach})
        except (ExtensionCallError, BrowserError) as exc:  # it keeps its own default
            log.info("browser %r kept its idle-detach setting: %s", name, exc)
        # the main-world hook's secret, for the extension to put the hook into each document
        # its agent tabs commit (an older extension: the hook comes with the debugger)
        if link.hello is not None and "hook.key" in link.hello.abilities:
            try:
                await link.call("hook.key", HOOK_SECRET)
            except (ExtensionCallError, BrowserError) as exc:
                log.info("browser %r has no page hook without its debugger: %s", name, exc)

    def _unique(self, wanted: str) -> str:
        name, n = wanted, 2
        while name in self.extensions or name in ("launched", "attached"):
            name, n = f"{wanted}-{n}", n + 1
        return name

    def _gone(self, browser: Browser) -> None:
        why = _reason(browser.closed)
        name = self._name_of(browser)
        if name is not None:
            del self.extensions[name]
            install = self._installs.pop(name, None) or name
            log.info("browser %r disconnected (%s)", name, why)
            if not self._closing:
                self.disconnected[install] = (name, why)
        elif browser is self._launched and not self._closing:
            self.disconnected["launched"] = ("launched", why)
        self._changed()

    def _changed(self) -> None:
        tell(self.listeners, "browser")

    async def close(self) -> None:
        self._closing = True
        browsers = [*self.extensions.values()]
        for task in (self._launching, self._attaching):
            if task is not None and not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        browsers += [b for b in (self.primary, self._launched) if b is not None]
        for browser in browsers:
            try:
                await browser.close()
            except Exception:  # closing one must not keep the others open
                log.exception("closing a browser failed")


async def _answers(link: ExtensionLink) -> bool:
    """Whether an extension link is alive: it answers a call that only reads its settings.
    A restarted service worker's old link is closed, or never answers again."""
    from ..cdp.extension_link import ExtensionCallError
    if link.closed.done():
        return False
    try:
        await link.call("settings.update", {}, timeout=ALIVE_WAIT)
    except ExtensionCallError:
        return True  # it refused, so it is there
    except BrowserError:
        return False
    return True


def _reason(closed: asyncio.Future[str]) -> str:
    if closed.cancelled():
        return "cancelled"
    exc = closed.exception()
    return str(exc) if exc is not None else str(closed.result())
