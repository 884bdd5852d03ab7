"""The hub's side of an extension link, over a real socket pair: hellos, calls, events, and
malformed or oversized input from the extension's side."""

from __future__ import annotations

import asyncio
import gc
import re
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from props import (
    ANY_TEXT,
    C0,
    FIELD,
    known_bug,
    props,
    result_or_error,
)
from tabsteward.bridge.cdp.extension_link import (
    EVENTS,
    ExtensionCallError,
    ExtensionLink,
    Hello,
    check_hello,
)
from tabsteward.bridge.errors import BrowserError, PolicyError, UsageError
from tabsteward.bridge.native import framing

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


def test_a_hello_says_what_the_extension_can_do_beyond_its_protocol_and_an_old_one_nothing(
        ) -> None:
    assert check_hello({**HELLO, "abilities": ["sequence.sessions"]}).abilities == {
        "sequence.sessions"}
    assert check_hello(HELLO).abilities == frozenset()


@pytest.mark.parametrize(("message", "why"), [
    ({"type": "call"}, "not a hello"),
    ({**HELLO, "protocol": 2}, "speaks protocol 2"),
    ({**HELLO, "install": "x"}, "install id"),
    ({**HELLO, "name": "a\nb"}, "bad name"),
    ({**HELLO, "browser": 5}, "bad browser"),
    ({**HELLO, "abilities": "sequence.sessions"}, "bad abilities"),
    ({**HELLO, "abilities": ["a b"]}, "bad abilities"),
    ({**HELLO, "abilities": [1]}, "bad abilities"),
    ({**HELLO, "abilities": ["x"] * 33}, "bad abilities"),
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


def test_a_call_whose_write_fails_as_the_link_closes_fails_once_and_leaves_no_stray_error(
        ) -> None:
    async def test(link: ExtensionLink, peer: Peer) -> None:
        strays: list[str] = []
        asyncio.get_running_loop().set_exception_handler(
            lambda loop, context: strays.append(str(context.get("message"))))
        writer = link._writer

        class Failing:  # its write waits until the link has closed, then fails
            def write(self, data: bytes) -> None:
                writer.write(data)

            async def drain(self) -> None:
                await link.closed
                raise ConnectionResetError("Connection lost")

            def __getattr__(self, name: str) -> Any:
                return getattr(writer, name)

        link._writer = Failing()  # type: ignore[assignment]
        failing = asyncio.ensure_future(link.call("tabs.remove", 7))
        await next_call(peer)
        peer[1].transport.abort()  # the native host goes
        with pytest.raises(BrowserError, match="may not have been done"):
            await failing
        del failing
        gc.collect()
        await asyncio.sleep(0)
        assert strays == []
    run(test)


def test_a_link_whose_first_message_is_no_hello_does_not_start() -> None:
    with pytest.raises(UsageError, match="not a hello"):
        run(lambda link, peer: asyncio.sleep(0), first=[{"id": 1, "result": None}])


# -- the extension's hello and messages ------------------------------------------------

def mostly(good: Any, other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` three times in four, else something from `other`."""
    return st.integers(0, 3).flatmap(lambda i: st.just(good) if i else other)


HELLOS = st.fixed_dictionaries({
    "type": mostly("hello", FIELD),
    "protocol": mostly(1, FIELD),
    "install": st.from_regex(r"[\w-]{8,64}", fullmatch=True) | FIELD | ANY_TEXT,
}, optional={
    "browser": st.text(max_size=600) | ANY_TEXT | FIELD,
    "name": st.text(max_size=70) | ANY_TEXT | FIELD,
    "profile": st.text(max_size=70) | ANY_TEXT | FIELD,
    "stopped": st.booleans() | FIELD,
    "abilities": st.lists(st.text(max_size=70) | FIELD, max_size=40) | FIELD,
}) | FIELD


@props(70)
@given(message=HELLOS)
def test_a_hello_is_checked_fields_or_a_usage_error_saying_the_link_was_closed(
        message: Any) -> None:
    hello, err = result_or_error(check_hello, message)
    if err is not None:
        assert "link was closed" in err.message
        return
    assert isinstance(message, dict)
    assert message["type"] == "hello"
    assert message["protocol"] == 1
    assert isinstance(hello, Hello)
    assert re.fullmatch(r"[\w-]{8,64}", hello.install)
    assert isinstance(hello.user_agent, str)
    assert len(hello.user_agent) <= 512
    for label in (hello.name, hello.profile):
        assert isinstance(label, str)
        assert len(label) <= 64
        assert label == label.strip()
    assert hello.name
    assert hello.stopped is (message.get("stopped") is True)
    assert hello.abilities == set(message.get("abilities", []))


@known_bug()
@given(start=st.text(st.characters(exclude_characters=C0), min_size=64, max_size=64),
       control=st.sampled_from(sorted(C0)), rest=st.text(max_size=20))
def test_a_hello_with_a_control_character_anywhere_in_a_label_is_refused(
        start: str, control: str, rest: str) -> None:
    with pytest.raises(UsageError, match="bad browser field"):
        check_hello({"type": "hello", "protocol": 1, "install": "0123456789abcdef",
                     "browser": start + control + rest})


class _Sink:
    """The link's end of the socket to the native host, as the link uses it."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.closing = False

    def write(self, data: bytes) -> None:
        self.sent += data

    async def drain(self) -> None:
        return None

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


async def _read_by_link(messages: list[Any],
                        ) -> tuple[ExtensionLink, list[tuple[str, Any]], object]:
    """A link with one call (id 1) in flight reads `messages` then EOF; the link, the events
    its listener saw, and the call's outcome (its result or its exception)."""
    reader = asyncio.StreamReader()
    link = ExtensionLink(reader, _Sink(), framing.Decoder())  # type: ignore[arg-type]
    seen: list[tuple[str, Any]] = []
    link.on_event(lambda name, args: seen.append((name, args)))
    call = asyncio.ensure_future(link.call("tabs.query", {}, timeout=None))
    await asyncio.sleep(0)  # the call is sent and waits for its reply
    reader.feed_data(b"".join(framing.encode(m) for m in messages))
    reader.feed_eof()
    try:
        await link.run()
    finally:  # the link fails the call as it closes; its outcome is always retrieved
        await asyncio.wait([call])
        outcome: object = call.exception() or call.result()
    return link, seen, outcome


HASHABLE = (st.none() | st.booleans() | st.integers()
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10))
EXTENSION_MESSAGES = st.fixed_dictionaries({}, optional={
    "id": st.sampled_from([1, 2, 0, -1]) | FIELD,
    "result": FIELD,
    "error": st.fixed_dictionaries({}, optional={"code": FIELD, "message": FIELD}) | FIELD,
    "event": st.sampled_from(sorted(EVENTS)) | HASHABLE,
    "args": st.lists(FIELD, max_size=3) | FIELD,
    "type": st.just("hello") | FIELD,
    "protocol": st.just(1) | FIELD,
    "install": st.just("0123456789abcdef") | FIELD,
}) | FIELD


def _unhashable_event(message: Any) -> bool:
    return isinstance(message, dict) and isinstance(message.get("event"), list | dict)


@props(30)
@given(messages=st.lists(EXTENSION_MESSAGES.filter(lambda m: not _unhashable_event(m)),
                         max_size=5))
def test_any_message_from_the_extension_is_delivered_or_dropped_and_the_link_stays_up(
        messages: list[Any]) -> None:
    link, seen, outcome = asyncio.run(_read_by_link(messages))
    assert link.closed.result() == "the extension's native host closed the link"
    assert all(name in EVENTS and isinstance(args, list) for name, args in seen)
    assert sum(not isinstance(m, dict) for m in messages) <= link.dropped <= len(messages)
    if isinstance(outcome, BaseException):
        assert isinstance(outcome, ExtensionCallError) or (
            isinstance(outcome, BrowserError) and "went away" in outcome.message)


@known_bug()
@given(name=st.lists(FIELD, max_size=2) | st.dictionaries(st.text(max_size=3), FIELD,
                                                           max_size=2))
def test_an_event_whose_name_is_not_a_string_is_dropped_and_the_link_stays_up(
        name: Any) -> None:
    link, _, _ = asyncio.run(_read_by_link([{"event": name, "args": []}]))
    assert link.dropped == 1
