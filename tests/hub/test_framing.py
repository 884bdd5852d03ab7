"""framing.py's codec under arbitrary input: messages framed back to back come out equal
however the bytes are split, and anything else is a FrameError."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from props import (
    JSON,
    decode_all,
    framed,
    json_body,
    known_bug,
    props,
    split_anyhow,
)
from tabsteward.bridge.native import framing

# -- framing ---------------------------------------------------------------------------

@props(40)
@given(values=st.lists(JSON, min_size=1, max_size=5), data=st.data())
def test_messages_framed_back_to_back_come_out_equal_however_the_bytes_aresplit_anyhow(
        values: list[Any], data: st.DataObject) -> None:
    stream = b"".join(framing.encode(v) for v in values)
    decoder = framing.Decoder()
    got, error = decode_all(split_anyhow(stream, data), decoder)
    assert error is None
    assert got == values
    assert decoder.pending == 0


@props(40)
@given(bodies=st.lists(st.binary(max_size=300), min_size=1, max_size=5), data=st.data())
def test_a_relay_gets_each_frame_body_unchanged_or_stops_at_the_first_that_is_not_utf8(
        bodies: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(len(b).to_bytes(framing.HEADER, sys.byteorder) + b for b in bodies)
    splitter = framing.Splitter()
    got: list[bytes] = []
    error = None
    for chunk in split_anyhow(stream, data):
        try:
            splitter.feed(chunk)
        except framing.FrameError as exc:
            error = exc
            break
        finally:
            got += splitter.bodies()
    good = []
    for body in bodies:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            break
        good.append(body)
    assert got == good
    assert (error is None) == (good == bodies)
    if error is not None:
        assert "not UTF-8" in str(error)
        assert splitter.failed is error


def _garbage_part(kind: str, value: Any, raw: bytes) -> bytes:
    if kind == "frame":
        return framing.encode(value)
    if kind == "body":  # a right length around arbitrary bytes
        return framed(raw)
    return raw


STREAMS = st.lists(
    st.builds(_garbage_part, st.sampled_from(["frame", "body", "raw"]), JSON,
              st.binary(max_size=12)),
    max_size=6).map(b"".join)


@props(50)
@given(stream=STREAMS, max_size=st.one_of(st.just(framing.DEFAULT_MAX), st.integers(0, 64)),
       data=st.data())
def test_arbitrary_bytes_give_messages_or_a_frame_error_the_same_however_they_aresplit_anyhow(
        stream: bytes, max_size: int, data: st.DataObject) -> None:
    whole, whole_error = decode_all([stream], framing.Decoder(max_size))
    decoder = framing.Decoder(max_size)
    got, error = decode_all(split_anyhow(stream, data), decoder)
    assert json.dumps(got) == json.dumps(whole)  # (NaN, which json.loads reads, is no NaN)
    assert (error is None) == (whole_error is None)
    if error is not None:
        assert decoder.failed is error
        for more in (b"", framing.encode(1), stream):
            with pytest.raises(framing.FrameError) as again:
                decoder.feed(more)
            assert again.value is error
        assert decoder.messages() == []


@props(40)
@given(max_size=st.integers(0, 2**20), over=st.integers(1, 2**32))
def test_a_frame_announcing_more_than_the_maximum_is_refused_on_its_header_alone(
        max_size: int, over: int) -> None:
    header = min(max_size + over, 2**32 - 1).to_bytes(framing.HEADER, sys.byteorder)
    decoder = framing.Decoder(max_size)
    for byte in header[:-1]:
        decoder.feed(bytes([byte]))
    with pytest.raises(framing.FrameError, match="over the"):
        decoder.feed(header[-1:])
    assert decoder.messages() == []


@props(60)
@given(value=JSON)
def test_encode_refuses_a_value_one_byte_over_the_maximum_and_a_decoder_takes_it_at_the_maximum(
        value: Any) -> None:
    size = len(json_body(value))
    with pytest.raises(framing.FrameError, match="was not sent"):
        framing.encode(value, max_size=size - 1)
    frame = framing.encode(value, max_size=size)
    assert frame == framed(json_body(value))
    decoder = framing.Decoder(size)
    decoder.feed(frame)
    assert decoder.messages() == [value]


@known_bug()
@given(digits=st.integers(4301, 6000), wrap=st.sampled_from(["{}", "[{}]", '{{"id":{}}}']))
def test_a_frame_holding_a_number_too_long_for_python_is_a_frame_error(
        digits: int, wrap: str) -> None:
    decoder = framing.Decoder()
    with pytest.raises(framing.FrameError):
        decoder.feed(framed(wrap.format("7" * digits).encode()))
    assert decoder.failed is not None


@known_bug()
@given(depth=st.integers(3000, 20000), kind=st.sampled_from(["[]", "{}"]))
def test_a_frame_nested_too_deeply_for_python_is_a_frame_error(depth: int, kind: str) -> None:
    opening = "[" if kind == "[]" else '{"a":'
    body = (opening * depth + "0" + kind[1] * depth).encode()
    with pytest.raises(framing.FrameError):
        framing.Decoder().feed(framed(body))


@known_bug()
@given(before=st.text(max_size=5), surrogate=st.integers(0xD800, 0xDFFF))
def test_whatever_the_decoder_yields_can_be_framed_again_or_is_refused_with_a_frame_error(
        before: str, surrogate: int) -> None:
    decoder = framing.Decoder()
    decoder.feed(framed(json_body(before)[:-1] + f'\\u{surrogate:04x}"'.encode()))
    message, = decoder.messages()
    with contextlib.suppress(framing.FrameError):
        framing.encode({"result": message})


@known_bug()
@given(value=JSON, encoding=st.sampled_from(["utf-16-le", "utf-16-be", "utf-16", "utf-32-le",
                                             "utf-32-be", "utf-32", "utf-8-sig"]))
def test_a_body_that_is_not_utf8_json_is_a_frame_error(value: Any, encoding: str) -> None:
    body = json.dumps(value, ensure_ascii=False).encode(encoding)
    decoder = framing.Decoder()
    refused = False
    try:
        decoder.feed(framed(body))
    except framing.FrameError:
        refused = True
    assert refused, f"a {encoding} body was read as {decoder.messages()!r}"
