"""The hub's side of an extension link, over a real socket pair: hellos, calls, events, and
malformed or oversized input from the extension's side."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tabsteward.bridge import framing
from tabsteward.bridge.cdp.extension_link import (
    ExtensionCallError,
    ExtensionLink,
    check_hello,
)
from tabsteward.bridge.errors import BrowserError, PolicyError, UsageError

HELLO = {"type": "hello", "protocol": 1, "install": "0b6f2c4e-aaaa-bbbb-cccc-123456789abc",
         "browser": "Mozilla/5.0 Chrome/156.0.0.0", "name": "work", "profile": "Me",
         "stopped": False, "extension": "pmdkjioamememlcdenlknhgmjpdfpajb"}

Peer = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def run(test: Callable[[ExtensionLink, Peer], Awaitable[None]],
        first: list[Any] | None = None) -> None:
    """Run `test` with a started link and the extension's end of its socket."""
    async def go() -> None:
        a, b = socket.socketpair()
        hub_end = await asyncio.open_connection(sock=a)
        ext_end = await asyncio.open_connection(sock=b)
        for message in first if first is not None else [HELLO]:
            ext_end[1].write(framing.encode(message))
        link = ExtensionLink(*hub_end, framing.Decoder())
        try:
            async with asyncio.timeout(20):
                await link.start(timeout=5)
                reading = asyncio.ensure_future(link.run())
                await test(link, ext_end)
                link.close()
                await reading
        finally:
            link.close()
            ext_end[1].close()
            await asyncio.sleep(0)  # let the transports close
    asyncio.run(go())


async def next_call(peer: Peer) -> dict[str, Any]:
    decoder = framing.Decoder()
    while True:
        decoder.feed(await peer[0].read(65536))
        got = decoder.messages()
        if got:
            return dict(got[0])


def test_a_hello_is_checked_and_named_after_the_brand_when_unnamed() -> None:
    hello = check_hello({**HELLO, "name": "", "browser": "Mozilla/5.0 Edg/130.0"})
    assert hello.name == "edge"
    assert hello.profile == "Me"
    assert check_hello(HELLO).name == "work"


@pytest.mark.parametrize(("message", "why"), [
    ({"type": "call"}, "not a hello"),
    ({**HELLO, "protocol": 2}, "speaks protocol 2"),
    ({**HELLO, "install": "x"}, "install id"),
    ({**HELLO, "name": "a\nb"}, "bad name"),
    ({**HELLO, "browser": 5}, "bad browser"),
    ([1, 2], "not a hello"),
])
def test_a_wrong_hello_is_refused_saying_why(message: Any, why: str) -> None:
    with pytest.raises(UsageError, match=why):
        check_hello(message)


def test_calls_are_answered_by_id_and_errors_keep_their_code() -> None:
    async def test(link: ExtensionLink, peer: Peer) -> None:
        ok = asyncio.ensure_future(link.call("tabs.query", {}))
        call = await next_call(peer)
        assert call == {"id": call["id"], "call": "tabs.query", "args": [{}]}
        peer[1].write(framing.encode({"id": call["id"], "result": [{"id": 1}]}))
        assert await ok == [{"id": 1}]
        refused = asyncio.ensure_future(link.call("debugger.attach", {"tabId": 1}))
        call = await next_call(peer)
        peer[1].write(framing.encode({"id": call["id"], "error": {
            "code": 50, "message": "the person stopped all agents"}}))
        with pytest.raises(ExtensionCallError) as caught:
            await refused
        assert caught.value.code == 50
        assert isinstance(caught.value.as_error("nothing was done"), PolicyError)
    run(test)


def test_malformed_messages_are_dropped_and_the_link_stays_up() -> None:
    async def test(link: ExtensionLink, peer: Peer) -> None:
        seen: list[str] = []
        link.on_event(lambda name, args: seen.append(name))
        for junk in ([1, 2], "text", {"event": "nope", "args": []},
                     {"event": "tabs.removed", "args": "not a list"},
                     {"id": 999, "result": 1}, {"what": "ever"},
                     {"type": "hello", "protocol": 7}):
            peer[1].write(framing.encode(junk))
        peer[1].write(framing.encode({"event": "tabs.removed", "args": [3, {}]}))
        pending = asyncio.ensure_future(link.call("tabs.get", 3))
        call = await next_call(peer)
        peer[1].write(framing.encode({"id": call["id"], "result": {"id": 3}}))
        assert await pending == {"id": 3}
        assert seen == ["tabs.removed"]
        assert link.dropped == 7
        assert not link.closed.done()
    run(test)


def test_a_bad_frame_closes_the_link_and_fails_the_calls_in_flight() -> None:
    async def test(link: ExtensionLink, peer: Peer) -> None:
        pending = asyncio.ensure_future(link.call("tabs.query", {}))
        await next_call(peer)
        peer[1].write((200 * 1024 * 1024).to_bytes(4, sys.byteorder) + b"{}")
        with pytest.raises(BrowserError, match="went away"):
            await pending
        assert "bad frame" in await link.closed
        with pytest.raises(BrowserError, match="extension is gone"):
            await link.call("tabs.query", {})
    run(test)


def test_a_link_whose_first_message_is_no_hello_does_not_start() -> None:
    with pytest.raises(UsageError, match="not a hello"):
        run(lambda link, peer: asyncio.sleep(0), first=[{"id": 1, "result": None}])
