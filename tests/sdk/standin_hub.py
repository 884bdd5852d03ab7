"""A stand-in hub for SDK and MCP tests: a real Unix socket speaking framing.py, canned replies.

Like the real hub it answers `ping` and `pair` to anyone and everything else only to a paired
agent's token: TOKEN, which the tests' environment gives the client in TABSTEWARD_TOKEN."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tabsteward.bridge.native import framing

TOKEN = "stand-in-token"  # the paired agent's
AGENT = "tests"  # the id and name the paired agent has

TOOLS: list[dict[str, Any]] = [
    {"name": "open", "summary": "Open a URL in the agent's tab.", "mutating": True,
     "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}},
                     "required": ["url"], "additionalProperties": False}},
    {"name": "snapshot", "summary": "Read the page with @N refs.", "mutating": False,
     "inputSchema": {"type": "object",
                     "properties": {"interactive": {"type": "boolean", "default": False},
                                    "max_chars": {"type": "integer"}},
                     "required": [], "additionalProperties": False}},
    {"name": "click", "summary": "Click an element.", "mutating": True,
     "inputSchema": {"type": "object", "properties": {"target": {"type": "string"}},
                     "required": ["target"], "additionalProperties": False}},
]

Reply = Callable[[dict[str, Any]], Awaitable[None]]
CallHandler = Callable[[dict[str, Any], Reply], Awaitable[None]]


@dataclass
class Paths:
    """A short private folder with the hub's socket, as `locate` finds it, and the
    environment of a client that is the paired agent."""

    root: str
    socket: str
    env: dict[str, str] = field(default_factory=dict)


@contextmanager
def hub_paths() -> Iterator[Paths]:
    """A fresh folder under /tmp (socket paths stay far below 107 characters); its
    environment carries the paired agent's token."""
    root = tempfile.mkdtemp(prefix="ts", dir="/tmp")
    try:
        run = os.path.join(root, "run")
        home = os.path.join(root, "home")
        os.mkdir(run, 0o700)
        os.mkdir(home, 0o700)
        socket = os.path.join(run, "hub.sock")
        env = {"XDG_RUNTIME_DIR": run, "HOME": home, "TABSTEWARD_SOCKET": socket,
               "XDG_STATE_HOME": os.path.join(home, "state"),
               "XDG_CONFIG_HOME": os.path.join(home, "config"), "TABSTEWARD_TOKEN": TOKEN}
        yield Paths(root=root, socket=socket, env=env)
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def answer_text(request: dict[str, Any], reply: Reply) -> None:
    """The default call handler: echo the call back as text and data."""
    await reply({"ok": True, "text": f"{request['tool']} done",
                 "result": {"tool": request["tool"], "args": request.get("args", {})}})


class StandinHub:
    """Answers ping, pair, whoami and tools itself; hands every call to `on_call`, which
    replies or not. `paired` are the tokens it accepts; a pairing adds one."""

    def __init__(self, paths: Paths, tools: list[dict[str, Any]] | None = None,
                 on_call: CallHandler = answer_text) -> None:
        self.paths = paths
        self.tools = TOOLS if tools is None else tools
        self.on_call = on_call
        self.requests: list[dict[str, Any]] = []
        self.paired = {TOKEN}
        self.arrived = asyncio.Condition()
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._senders: list[Reply] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> StandinHub:
        self._server = await asyncio.start_unix_server(self._serve, self.paths.socket)
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        await self.drop_connections()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    async def drop_connections(self) -> None:
        """Close every client connection, as a hub that dies would."""
        writers, self._writers = self._writers, []
        for writer in writers:
            writer.close()
        for writer in writers:
            await writer.wait_closed()

    async def send_all(self, message: dict[str, Any]) -> None:
        """Send one message on every open connection (a reply to no request, say)."""
        for send in list(self._senders):
            await send(message)

    async def wait_for_calls(self, count: int) -> list[dict[str, Any]]:
        """Block until `count` call requests have arrived; return them."""
        async with self.arrived:
            await self.arrived.wait_for(lambda: len(self.calls) >= count)
        return self.calls

    @property
    def calls(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r.get("op") == "call"]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        decoder = framing.Decoder()

        async def send(message: dict[str, Any]) -> None:
            if not writer.is_closing():
                writer.write(framing.encode(message))
                await writer.drain()

        self._senders.append(send)
        try:
            while chunk := await reader.read(65536):
                decoder.feed(chunk)
                for request in decoder.messages():
                    async with self.arrived:
                        self.requests.append(request)
                        self.arrived.notify_all()
                    task = asyncio.create_task(self._answer(request, send, writer))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        except ConnectionResetError:
            return
        finally:
            self._senders.remove(send)
            writer.close()

    async def _answer(self, request: dict[str, Any], send: Reply,
                      writer: asyncio.StreamWriter) -> None:
        rid = request.get("id")

        async def reply(body: dict[str, Any]) -> None:
            await send({"id": rid, **body})

        if request.get("op") == "ping":
            await reply({"ok": True, "version": "0-standin", "pid": os.getpid()})
        elif request.get("op") == "pair":  # the person approves at once
            token = f"stand-in-paired-{len(self.paired)}"
            self.paired.add(token)
            await reply({"ok": True, "token": token, "agent": AGENT, "name": request["name"]})
        elif request.get("token") not in self.paired:
            await reply({"ok": False, "error": {
                "code": 3, "type": "AuthError", "details": {"unpaired": True},
                "message": "this agent is not paired with the hub; nothing was done"}})
            writer.close()  # as the real hub does
        elif request.get("op") == "whoami":
            await reply({"ok": True, "version": "0-standin", "pid": os.getpid(),
                         "agent": AGENT, "name": AGENT})
        elif request.get("op") == "tools":
            await reply({"ok": True, "tools": self.tools})
        elif request.get("op") == "call":
            await self.on_call(request, reply)
        else:
            await reply({"ok": False, "error": {"code": 2, "type": "UsageError",
                                                "message": "unknown op; nothing was done"}})
