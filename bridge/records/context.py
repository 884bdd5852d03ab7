"""What a request's handler knows of the connection it came on (set by the server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .agents import Agent

# the client connection a request came on: questions it asked are withdrawn when it closes
connection: ContextVar[object | None] = ContextVar("connection", default=None)
# the paired agent whose token the request carries (None: the person's own pairing request)
principal: ContextVar[Agent | None] = ContextVar("principal", default=None)
# the client process on the other end (its pid, from the socket), when the OS tells
peer_pid: ContextVar[int | None] = ContextVar("peer_pid", default=None)
# the one-time code an `answer` request carries (approve, deny), never its argv
code: ContextVar[str] = ContextVar("code", default="")
# sends an interim frame for the request being handled, e.g. {"pending": {...}}
notice: ContextVar[Callable[[dict[str, Any]], Awaitable[None]] | None] = ContextVar(
    "notice", default=None)


async def tell(payload: dict[str, Any]) -> None:
    """Send the current request's client an interim notice (no-op outside a request)."""
    send = notice.get()
    if send is not None:
        await send(payload)
