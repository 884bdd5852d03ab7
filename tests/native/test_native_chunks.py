"""Chunking of host-to-browser messages: split then join gives the message back, frames fit."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge import framing
from tabsteward.bridge.nm_chunks import Joiner, split_for_browser

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
