"""Attach to a Chromium that already runs, by its DevTools HTTP or WebSocket URL."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

from ..errors import BrowserError, UsageError
from .connection import CDPConnection

log = logging.getLogger("tabsteward.cdp")


def _browser_ws_url(http_url: str) -> str:
    with urllib.request.urlopen(http_url.rstrip("/") + "/json/version", timeout=10) as resp:
        info = json.loads(resp.read())
    url = info.get("webSocketDebuggerUrl") if isinstance(info, dict) else None
    if not isinstance(url, str):
        raise BrowserError(f"{http_url}/json/version has no webSocketDebuggerUrl")
    return url


class WebSocketConnection(CDPConnection):
    """CDP over the browser-level DevTools WebSocket."""

    def __init__(self, ws: ClientConnection) -> None:
        super().__init__()
        self._ws = ws
        self._task = asyncio.get_running_loop().create_task(self._pump())

    @classmethod
    async def attach(cls, url: str) -> WebSocketConnection:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
            raise UsageError(f"--cdp wants a DevTools URL like http://127.0.0.1:9222, "
                             f"not {url!r}")
        ws_url = url
        if parts.scheme in ("http", "https"):
            try:
                ws_url = await asyncio.to_thread(_browser_ws_url, url)
            except (OSError, ValueError, urllib.error.URLError) as exc:
                raise BrowserError(f"no DevTools endpoint answers at {url}: {exc}") from exc
        try:
            ws = await connect(ws_url, max_size=None, ping_interval=None,
                               open_timeout=10, compression=None)
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
            raise BrowserError(f"could not open the DevTools WebSocket {ws_url}: {exc}") from exc
        log.info("attached to %s", ws_url)
        return cls(ws)

    async def _pump(self) -> None:
        reason = "the browser closed the DevTools WebSocket"
        try:
            async for message in self._ws:
                self._on_message(message)
        except websockets.exceptions.ConnectionClosed as exc:
            reason = f"the DevTools WebSocket closed ({exc.rcvd.code if exc.rcvd else 'no code'})"
        finally:
            self._on_closed(reason)

    async def _send_raw(self, text: str) -> None:
        try:
            await self._ws.send(text)
        except websockets.exceptions.ConnectionClosed as exc:
            raise BrowserError("the DevTools WebSocket is closed") from exc

    async def close(self) -> None:
        self._on_closed("closed by Tabsteward")
        await self._ws.close()
        self._task.cancel()
