"""Chunking of host-to-browser messages: split then join gives the message back, frames fit."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from props import JSON, decode_all, framed, json_body, props
from tabsteward.bridge.native import framing
from tabsteward.bridge.native.chunks import Joiner, split_for_browser

MiB = 1024 * 1024

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                          allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(), inner, max_size=8),
    max_leaves=40,
)


def _body(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _decode_all(frames: list[bytes]) -> list[object]:
    decoder = framing.Decoder()
    for frame in frames:
        decoder.feed(frame)
    return decoder.messages()


def _join(frames: list[bytes]) -> object:
    joiner = Joiner()
    results = [joiner.feed(m) for m in _decode_all(frames)]
    assert all(r is None for r in results[:-1])
    return results[-1]


@pytest.mark.timeout(30)
def test_a_message_under_the_limit_travels_as_one_unchanged_frame() -> None:
    body = _body({"id": 1, "result": "x" * 1000})
    assert split_for_browser(body) == [len(body).to_bytes(4, sys.byteorder) + body]


@pytest.mark.timeout(30)
def test_a_3_mb_message_becomes_chunks_each_under_1_mib_that_join_back() -> None:
    value = {"id": 7, "result": {"nodes": ["é\"\\\n😀" + "a" * 100] * 28_000}}
    body = _body(value)
    assert len(body) > 3 * MiB
    frames = split_for_browser(body, chunk_id=42)
    assert len(frames) >= 3
    assert all(len(f) < MiB for f in frames)
    chunks = _decode_all(frames)
    assert all(c["chunk"]["id"] == 42 and c["chunk"]["count"] == len(frames)  # type: ignore[index]
               for c in chunks)
    assert _join(frames) == value


@pytest.mark.timeout(30)
def test_control_characters_that_json_escapes_six_fold_still_fit() -> None:
    value = "\x01" * (MiB // 2)
    frames = split_for_browser(_body(value))
    assert all(len(f) < MiB for f in frames)
    assert _join(frames) == value


@pytest.mark.timeout(60)
@settings(max_examples=200, deadline=None)
@given(value=json_values, limit=st.integers(min_value=200, max_value=2000),
       chunk_id=st.integers(min_value=0, max_value=2**53))
def test_split_then_join_is_the_original_and_every_frame_is_under_the_limit(
        value: object, limit: int, chunk_id: int) -> None:
    frames = split_for_browser(_body(value), chunk_id=chunk_id, limit=limit)
    assert all(len(f) < limit for f in frames)
    assert _join(frames) == value


@pytest.mark.timeout(30)
def test_interleaved_chunks_of_two_messages_join_separately() -> None:
    a, b = "a" * 5000, "b" * 7000
    fa = split_for_browser(_body(a), chunk_id=1, limit=1000)
    fb = split_for_browser(_body(b), chunk_id=2, limit=1000)
    mixed = [f for pair in zip(fa, fb, strict=False) for f in pair]
    mixed += fa[len(fb):] + fb[len(fa):]
    joiner = Joiner()
    done = [r for r in (joiner.feed(m) for m in _decode_all(mixed)) if r is not None]
    assert sorted(done) == [a, b]  # type: ignore[type-var]


# -- host-to-browser chunks (what tests/native/test_native_chunks.py does not cover) ----

def _messages(frames: list[bytes]) -> list[Any]:
    got, error = decode_all(frames, framing.Decoder())
    assert error is None
    return got


@props(60)
@given(limit=st.integers(150, 3000), delta=st.integers(-3, 3), head=st.text(max_size=30),
       chunk_id=st.integers(0, 10**20 - 1))
def test_a_message_one_byte_short_of_the_limit_is_one_frame_and_one_at_it_is_numbered_chunks(
        limit: int, delta: int, head: str, chunk_id: int) -> None:
    length = limit - framing.HEADER + delta  # of the body; the frame is 4 bytes more
    pad = length - len(json_body(head))
    assume(pad >= 0)
    value = head + "a" * pad
    body = json_body(value)
    frames = split_for_browser(body, chunk_id=chunk_id, limit=limit)
    assert all(len(f) < limit for f in frames)
    if framing.HEADER + len(body) < limit:
        assert frames == [framed(body)]
        return
    chunks = [m["chunk"] for m in _messages(frames)]
    assert [c["index"] for c in chunks] == list(range(len(chunks)))
    assert {(c["id"], c["count"]) for c in chunks} == {(chunk_id, len(chunks))}
    assert all(c["data"] for c in chunks)
    assert json.loads("".join(c["data"] for c in chunks)) == value


@props(3)
@given(delta=st.integers(-2, 2), head=st.text(max_size=8))
def test_at_chromes_one_mib_limit_frames_stay_under_it_and_join_back(
        delta: int, head: str) -> None:
    value = {"id": 1, "result": head}
    pad = framing.NATIVE_TO_BROWSER_MAX - framing.HEADER + delta - len(json_body(value))
    value["result"] = head + "é" * (pad // 2) + "a" * (pad % 2)
    body = json_body(value)
    frames = split_for_browser(body)
    assert all(len(f) < framing.NATIVE_TO_BROWSER_MAX for f in frames)
    assert (len(frames) == 1) == (delta < 0)
    joiner = Joiner()
    joined = [joiner.feed(m) for m in _messages(frames)]
    assert joined == [*[None] * (len(frames) - 1), value]


@props(40)
@given(result=JSON, limit=st.integers(150, 600), data=st.data())
def test_the_chunks_of_a_message_join_back_in_any_order(
        result: Any, limit: int, data: st.DataObject) -> None:
    value = {"id": 9, "result": result}
    messages = _messages(split_for_browser(json_body(value), chunk_id=3, limit=limit))
    joiner = Joiner()
    got = [joiner.feed(m) for m in data.draw(st.permutations(messages))]
    assert got[:-1] == [None] * (len(got) - 1)
    assert got[-1] == value


@props(40)
@given(results=st.lists(JSON, min_size=2, max_size=3), limit=st.integers(150, 600),
       data=st.data())
def test_chunks_of_several_messages_mixed_in_any_order_join_to_each_message_once(
        results: list[Any], limit: int, data: st.DataObject) -> None:
    values = [{"id": i, "result": r} for i, r in enumerate(results)]
    messages = [m for i, v in enumerate(values)
                for m in _messages(split_for_browser(json_body(v), chunk_id=i, limit=limit))]
    joiner = Joiner()
    done = [r for r in map(joiner.feed, data.draw(st.permutations(messages)))
            if r is not None]
    assert sorted(done, key=lambda m: m["id"]) == values


@props(40)
@given(value=JSON, limit=st.integers(1, 148))
def test_a_limit_too_small_for_any_chunk_refuses_a_big_message_and_still_sends_a_small_one(
        value: Any, limit: int) -> None:
    body = json_body(value)
    if framing.HEADER + len(body) < limit:
        assert split_for_browser(body, limit=limit) == [framed(body)]
    else:
        with pytest.raises(framing.FrameError, match="nothing was split"):
            split_for_browser(body, limit=limit)
