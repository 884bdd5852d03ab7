"""The async Python SDK: a typed method per tool, over one pipelined connection to the hub
(clients/sdk_connection.py)."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, Self

from .clients.sdk_connection import Connection, Pending, open_socket
from .errors import AuthError, HubUnavailable, TabstewardError, UsageError, from_wire
from .records import locate
from .secrets import credentials
from .tools.registry import Result

__all__ = ["Pending", "Result", "Tabsteward", "ToolInfo"]

log = logging.getLogger(__name__)

Button = Literal["left", "right", "middle"]
Load = Literal["load", "domcontentloaded", "networkidle"]
State = Literal["visible", "hidden", "attached", "detached", "enabled", "disabled", "checked",
                "unchecked"]


@dataclass(frozen=True)
class ToolInfo:
    """One tool as the hub describes it (op `tools`)."""

    name: str
    summary: str
    mutating: bool
    input_schema: dict[str, Any]
    group: str = "core"  # "person": the person's tools (answering approvals), not an agent's

    @classmethod
    def from_wire(cls, entry: Mapping[str, Any]) -> ToolInfo:
        schema = entry.get("inputSchema")
        return cls(name=str(entry["name"]), summary=str(entry.get("summary") or ""),
                   mutating=bool(entry.get("mutating", True)),
                   input_schema=dict(schema) if isinstance(schema, dict) else {"type": "object"},
                   group=str(entry.get("group") or "core"))


def _unpaired(reply: Mapping[str, Any]) -> bool:
    error = reply.get("error")
    details = error.get("details") if isinstance(error, dict) else None
    return isinstance(details, dict) and details.get("unpaired") is True


def _autostart() -> None:
    """Start a hub and return once it listens (blocking; run it in a thread)."""
    try:
        from .clients.autostart import ensure_hub
    except ImportError as exc:
        raise HubUnavailable(f"no hub is running and this install cannot start one ({exc})") \
            from exc
    try:
        ensure_hub()
    except OSError as exc:
        raise HubUnavailable(f"no hub is running and starting one failed: {exc}") from exc


class Tabsteward:
    """A client of the hub: `async with Tabsteward(agent="me") as ts: await ts.open(url)`.

    Calls may run concurrently; they share one connection and are matched by id. A lost
    connection fails the calls in flight with HubUnavailable, and the next call opens a
    new one (starting a hub if `autostart`).
    """

    def __init__(self, agent: str = "sdk", *, autostart: bool = True,
                 cwd: str | None = None, browser: str | None = None,
                 name: str | None = None) -> None:
        self.agent = agent
        # the name it pairs under (default: the program and its project, e.g.
        # "python3 in ~/src/shop"); its token is kept in the OS keyring under this name
        self.name = name
        self.browser = browser or os.environ.get("TABSTEWARD_BROWSER") or None
        self.autostart = autostart
        self.cwd = cwd
        self.hub: dict[str, Any] = {}
        self._conn: Connection | None = None
        self._opening = asyncio.Lock()
        self._closed = False

    @classmethod
    async def connect(cls, agent: str = "sdk", *, autostart: bool = True,
                      cwd: str | None = None, browser: str | None = None,
                      name: str | None = None) -> Self:
        """A connected client; raises HubUnavailable or AuthError when the hub cannot be used
        (an agent not paired yet waits until the person pairs it). `browser` names a
        connected browser (`browsers` lists them; default: the only one)."""
        client = cls(agent, autostart=autostart, cwd=cwd, browser=browser, name=name)
        await client._connection()
        return client

    async def __aenter__(self) -> Self:
        await self._connection()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    async def _connection(self, label: str | None = None) -> Connection:
        """The open connection, opened first if need be; `label` names the call not sent."""
        if self._closed:
            raise UsageError(f"this Tabsteward client is closed; {label or 'nothing'} was not sent")
        async with self._opening:
            if self._conn is None or not self._conn.open:
                try:
                    self._conn = await self._open()
                except (HubUnavailable, AuthError) as exc:
                    if label is None:
                        raise
                    raise type(exc)(f"{label} was not sent: {exc.message}", **exc.details) \
                        from exc
            return self._conn

    async def _open(self) -> Connection:
        """A connection the hub accepts: this agent's token, after pairing it if need be."""
        name = self.name or credentials.identity(self.cwd or os.getcwd())
        try:
            token = await asyncio.to_thread(credentials.load, name)
        except credentials.TokenStoreError as exc:
            raise AuthError(f"{exc}; nothing was sent to the hub") from None
        conn = await self._authenticated(token or "")
        if conn is not None:
            return conn
        if os.environ.get(credentials.ENV_TOKEN, "").strip():
            raise AuthError(f"the hub does not accept the token in {credentials.ENV_TOKEN} "
                            "(revoked, or from another hub); nothing was sent")
        if token:
            await asyncio.to_thread(credentials.forget, name)
        token = await self._pair(name)
        conn = await self._authenticated(token)
        if conn is None:
            raise AuthError("the hub refused the token it just gave; nothing was sent")
        return conn

    async def _pair(self, name: str) -> str:
        """Ask the hub to pair this agent; returns once the person approved (its token)."""
        log.warning("this agent is not paired; asking the person to pair %r", name)
        conn = Connection(*await self._socket(), "")
        try:
            reply = self._checked(await conn.request({"op": "pair", "name": name}, "pairing"))
        finally:
            await conn.close()
        token = str(reply.get("token") or "")
        try:
            await asyncio.to_thread(credentials.save, name, token)
        except credentials.TokenStoreError as exc:
            log.warning("paired, but %s", exc)
        return token

    async def _authenticated(self, token: str) -> Connection | None:
        """A connection whose token the hub accepts, or None when it says: pair first."""
        conn = Connection(*await self._socket(), token)
        try:
            reply = await conn.request({"op": "whoami"}, "`whoami`")
            if _unpaired(reply):
                await conn.close()
                return None
            self.hub = self._checked(reply)
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _socket(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        path = locate.socket_path()
        try:
            return await open_socket(path)
        except HubUnavailable:
            if not self.autostart:
                raise
            log.info("no hub answers at %s; starting one", path)
            await asyncio.to_thread(_autostart)
            try:
                return await open_socket(path)
            except HubUnavailable as exc:
                raise HubUnavailable(f"a hub was started but does not answer at {path}",
                                     socket=path) from exc

    @staticmethod
    def _checked(reply: dict[str, Any]) -> dict[str, Any]:
        if reply.get("ok") is True:
            return reply
        error = reply.get("error")
        raise from_wire(error if isinstance(error, dict)
                        else {"message": "the hub refused the request without saying why"})

    async def ping(self) -> dict[str, Any]:
        """The hub's `ping` reply (version, pid)."""
        conn = await self._connection("`ping`")
        return self._checked(await conn.request({"op": "ping"}, "`ping`"))

    async def list_tools(self) -> list[ToolInfo]:
        """Every tool the hub offers, with its input schema."""
        conn = await self._connection()
        reply = self._checked(await conn.request({"op": "tools"}, "the tool list request"))
        entries = reply.get("tools")
        if not isinstance(entries, list):
            raise TabstewardError("the hub's tool list is not a list; no tools were read")
        return [ToolInfo.from_wire(e) for e in entries if isinstance(e, dict) and "name" in e]

    async def invoke(self, tool: str, args: Mapping[str, Any], *,
                     agent: str | None = None, on_pending: Pending | None = None) -> Result:
        """Run `tool` with `args` exactly as given, as `agent` (default: this client's);
        `on_pending` is told when the call waits for the person (policy asked them)."""
        conn = await self._connection(f"`{tool}`")
        body = {"op": "call", "agent": agent or self.agent, "tool": tool, "args": dict(args),
                "cwd": self.cwd or os.getcwd()}
        if self.browser:
            body["browser"] = self.browser
        reply = self._checked(await conn.request(body, f"`{tool}`", on_pending))
        data = reply.get("result")
        return Result(text=str(reply.get("text") or ""),
                      data=data if isinstance(data, dict) else {})

    async def call(self, tool: str, /, **args: Any) -> Result:
        """Run any tool by name: `await ts.call("click", target="@3")`."""
        return await self.invoke(tool, args)

    async def _run(self, tool: str, **args: Any) -> Result:
        """Run a tool, leaving out arguments given as None (the hub's default applies)."""
        return await self.invoke(tool, {k: v for k, v in args.items() if v is not None})

    # The main tools, typed; names and parameters are the tool table's (tests hold them to it).
    # Arguments left as None are not sent, so the hub's defaults apply. Each tool that
    # changes the page takes `snapshot` (or `interactive`, for `-i`'s lines): its result then
    # also holds the page's snapshot, taken right after it: `data["snapshot"]`.

    async def open(self, url: str, wait: Load | Literal["none"] | None = None,
                   new: bool = False, snapshot: bool = False,
                   interactive: bool = False, delta: bool = False) -> Result:
        """Open url; with `snapshot` (or `interactive`, for `-i`'s lines) the result also
        holds the page's snapshot, taken once it loaded: `data["snapshot"]`."""
        return await self._run("open", url=url, wait=wait, new=new,
                               **_look(snapshot, interactive, delta))

    async def snapshot(self, interactive: bool = False, viewport: bool = False,
                       scope: str | None = None, max_chars: int | None = None,
                       delta: bool = False) -> Result:
        """The page as text; `delta`: only what changed since the last snapshot of its kind."""
        return await self._run("snapshot", interactive=interactive, viewport=viewport,
                               scope=scope, max_chars=max_chars, delta=delta or None)

    async def click(self, target: str, button: Button = "left", count: int = 1,
                    modifiers: Sequence[str] | None = None, *, snapshot: bool = False,
                    interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("click", target=target, button=button, count=count,
                               modifiers=_listed(modifiers), **_look(snapshot, interactive, delta))

    async def dblclick(self, target: str, *, snapshot: bool = False,
                       interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("dblclick", target=target, **_look(snapshot, interactive, delta))

    async def fill(self, target: str, text: str, *, snapshot: bool = False,
                   interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("fill", target=target, text=text,
                               **_look(snapshot, interactive, delta))

    async def type(self, target: str, text: str, *, snapshot: bool = False,
                   interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("type", target=target, text=text,
                               **_look(snapshot, interactive, delta))

    async def press(self, keys: str, target: str | None = None, *, snapshot: bool = False,
                    interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("press", keys=keys, target=target,
                               **_look(snapshot, interactive, delta))

    async def select(self, target: str, values: str | Sequence[str], *,
                     snapshot: bool = False, interactive: bool = False,
                     delta: bool = False) -> Result:
        return await self._run("select", target=target,
                               values=[values] if isinstance(values, str) else list(values),
                               **_look(snapshot, interactive, delta))

    async def check(self, target: str, *, snapshot: bool = False,
                    interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("check", target=target, **_look(snapshot, interactive, delta))

    async def uncheck(self, target: str, *, snapshot: bool = False,
                      interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("uncheck", target=target, **_look(snapshot, interactive, delta))

    async def hover(self, target: str, *, snapshot: bool = False,
                    interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("hover", target=target, **_look(snapshot, interactive, delta))

    async def scroll(self, target: str | None = None, dx: int = 0,
                     dy: int | None = None, *, snapshot: bool = False,
                     interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("scroll", target=target, dx=dx, dy=dy,
                               **_look(snapshot, interactive, delta))

    async def drag(self, target: str, to: str | None = None, *, dx: int | None = None,
                   dy: int | None = None, snapshot: bool = False, interactive: bool = False,
                   delta: bool = False) -> Result:
        """Drag target onto `to`, or by (dx, dy) pixels (a swipe, a splitter moved)."""
        return await self._run("drag", target=target, to=to, dx=dx, dy=dy,
                               **_look(snapshot, interactive, delta))

    async def wait(self, target: str | None = None, *, state: State | None = None,
                   text: str | None = None, url: str | None = None, load: Load | None = None,
                   seconds: float | None = None, timeout: float | None = None,
                   snapshot: bool = False, interactive: bool = False,
                   delta: bool = False) -> Result:
        return await self._run("wait", target=target, state=state, text=text, url=url,
                               load=load, seconds=seconds, timeout=timeout,
                               **_look(snapshot, interactive, delta))

    async def screenshot(self, path: str | None = None, *, target: str | None = None,
                         full: bool = False, overwrite: bool = False) -> Result:
        """Save a picture of the page: by default a new file in the agent's own folder
        (~/Downloads/Tabsteward/AGENT, where a relative path starts too)."""
        return await self._run("screenshot", path=path, target=target, full=full,
                               overwrite=overwrite or None)

    async def download(self, target: str, path: str | None = None, *,
                       overwrite: bool = False) -> Result:
        """Click what starts a download and save the file (by default in the agent's own
        folder, under the name the site gives it)."""
        return await self._run("download", target=target, path=path, overwrite=overwrite or None)

    async def upload(self, target: str, files: str | Sequence[str], *, snapshot: bool = False,
                     interactive: bool = False, delta: bool = False) -> Result:
        """Put files into a file input; paths are read as the hub sees them (this client's
        folder for relative ones), and the real file behind a link is what is sent."""
        return await self._run("upload", target=target,
                               files=[files] if isinstance(files, str) else list(files),
                               **_look(snapshot, interactive, delta))

    async def tabs(self) -> Result:
        return await self._run("tabs")

    async def tab_new(self, url: str | None = None, *, snapshot: bool = False,
                      interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("tab-new", url=url, **_look(snapshot, interactive, delta))

    async def tab_select(self, id: str, *, snapshot: bool = False,
                         interactive: bool = False, delta: bool = False) -> Result:
        return await self._run("tab-select", id=id, **_look(snapshot, interactive, delta))

    async def tab_close(self, id: str | None = None) -> Result:
        return await self._run("tab-close", id=id)

    async def back(self, *, snapshot: bool = False, interactive: bool = False,
                   delta: bool = False) -> Result:
        return await self._run("back", **_look(snapshot, interactive, delta))

    async def forward(self, *, snapshot: bool = False, interactive: bool = False,
                      delta: bool = False) -> Result:
        return await self._run("forward", **_look(snapshot, interactive, delta))

    async def reload(self, *, snapshot: bool = False, interactive: bool = False,
                     delta: bool = False) -> Result:
        return await self._run("reload", **_look(snapshot, interactive, delta))

    async def text(self, target: str | None = None, markdown: bool = False) -> Result:
        """The page's text; with a target (`"@5"`), all that element holds, uncut."""
        return await self._run("text", target=target, markdown=markdown)

    async def eval(self, expression: str) -> Result:
        return await self._run("eval", expression=expression)

    async def run(self, goal: str, *, model: str | None = None, key: str | None = None,
                  start_url: str | None = None, verify_text: str | None = None,
                  max_actions: int | None = None, max_seconds: float | None = None,
                  on_step: Callable[[dict[str, Any]], None] | None = None,
                  verify: Callable[[Tabsteward], Awaitable[bool]] | None = None) -> Result:
        """Hand the built-in goal agent a whole task; `on_step` hears each step as it ends.
        The result's data is the run's summary (status, check, steps, usage). `verify`, your
        own check, runs on the run's final page (this client's current tab is the run's):
        a "done" it does not confirm becomes "unverified"."""
        def told(notice: dict[str, Any]) -> None:
            step = notice.get("progress")
            if on_step is not None and isinstance(step, dict):
                on_step(step)

        args = {"goal": goal, "model": model, "key": key, "start_url": start_url,
                "verify_text": verify_text, "max_actions": max_actions,
                "max_seconds": max_seconds}
        result = await self.invoke("run", {k: v for k, v in args.items() if v is not None},
                                   on_pending=told)
        if verify is not None and result.data.get("status") in ("done", "unverified"):
            confirmed = bool(await verify(self))
            result.data.setdefault("check", {})["hook"] = confirmed
            if not confirmed:
                result.data["status"] = "unverified"
        return result


def _listed(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


def _look(snapshot: bool, interactive: bool, delta: bool) -> dict[str, bool | None]:
    """The snapshot options of a tool that changes the page, sent only when asked for."""
    return {"snapshot": snapshot or None, "interactive": interactive or None,
            "delta": delta or None}

