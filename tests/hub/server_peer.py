"""For the local API server's tests: the server on a real Unix socket with a stand-in
executor (echo) instead of the hub, a scenario bounded in time, and a raw client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from hub_env import agent_token
from tabsteward.bridge.hub.server import LocalServer
from tabsteward.bridge.native import framing
from tabsteward.bridge.records import locate

T = TypeVar("T")
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def run(coro: Coroutine[Any, Any, T]) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(30):
            return await coro
    return asyncio.run(bounded())


async def echo(request: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "echo": request}


@contextlib.asynccontextmanager
async def serving(handler: Handler = echo, **kwargs: Any) -> AsyncIterator[LocalServer]:
    server = LocalServer(handler, **kwargs)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


class Peer:
    """A raw client: frames (or any bytes) out, replies in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = framing.Decoder()
        self.got: list[Any] = []

    @classmethod
    async def open(cls) -> Peer:
        return cls(*await asyncio.open_unix_connection(locate.socket_path()))

    def send(self, message: Any) -> None:
        self.writer.write(framing.encode(message))

    async def replies(self, count: int) -> list[Any]:
        while len(self.got) < count:
            data = await self.reader.read(65536)
            assert data, f"connection closed after {len(self.got)} of {count} replies"
            self.decoder.feed(data)
            self.got += self.decoder.messages()
        out, self.got = self.got[:count], self.got[count:]
        return out

    async def closed_by_server(self) -> bool:
        """Read to the end: True once the server has closed the connection."""
        with contextlib.suppress(ConnectionResetError):
            while await self.reader.read(65536):
                pass
        await self.close()
        return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def ping(**extra: Any) -> dict[str, Any]:
    """A ping, which needs no token."""
    return {"op": "ping", **extra}


def tools(**extra: Any) -> dict[str, Any]:
    """A request only a paired agent may make, carrying the test agent's token."""
    return {"op": "tools", "token": agent_token(), **extra}
