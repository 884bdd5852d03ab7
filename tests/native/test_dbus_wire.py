"""The D-Bus wire format of the lean Secret Service reader (bridge/secrets/secret_service.py):
values, signatures and method calls, encoded and decoded on their own, with properties over
any nesting of the types it reads."""

from __future__ import annotations

import string
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabsteward.bridge.secrets.secret_service import (
    decode,
    encode,
    method_call,
    split_type,
    types,
)


def encoded(t: str, value: Any, offset: int = 0) -> bytes:
    buf = bytearray(b"\xaa" * offset)
    encode(buf, t, value)
    return bytes(buf)


@pytest.mark.parametrize(("t", "value"), [
    ("s", "tabsteward"),
    ("s", ""),
    ("s", "agent ü ✓ \U0001f511"),
    ("o", "/org/freedesktop/secrets/session/s1"),
    ("g", "a{o(oayays)}"),
    ("g", ""),
    ("u", 0),
    ("u", 2**32 - 1),
    ("b", True),
    ("b", False),
    ("y", 0),
    ("y", 255),
    ("v", ("s", "plain")),
    ("v", ("ao", ["/a", "/b"])),
    ("v", ("v", ("u", 7))),
    ("a{ss}", {"service": "tabsteward", "username": "agent x"}),
    ("a{ss}", {}),
    ("ao", ["/org/freedesktop/secrets/collection/login/1"]),
    ("ao", []),
    ("a(yv)", [(1, ("o", "/org/freedesktop/DBus")), (8, ("g", "sv")), (5, ("u", 3))]),
    ("a(yv)", []),
    ("(oayays)", ("/s/1", b"", b"tok-123", "text/plain; charset=utf8")),
    ("a{o(oayays)}", {"/i/1": ("/s/1", b"\x00\x01", b"tok", "text/plain"),
                      "/i/2": ("/s/1", b"", b"", "")}),
    ("ay", b"\x00\xff tok-123"),
    ("ay", b""),
])
@pytest.mark.parametrize("offset", [0, 1, 3, 5])
def test_each_type_the_reader_uses_survives_encode_then_decode(
        t: str, value: Any, offset: int) -> None:
    raw = encoded(t, value, offset)
    assert decode(raw, offset, t) == (value, len(raw))


def test_the_two_arguments_of_get_secrets_aoo_round_trip_in_sequence() -> None:
    buf = bytearray()
    args = (["/org/freedesktop/secrets/collection/login/1"], "/org/freedesktop/secrets/s/2")
    for t, value in zip(types("aoo"), args, strict=True):
        encode(buf, t, value)
    items, pos = decode(bytes(buf), 0, "ao")
    session, end = decode(bytes(buf), pos, "o")
    assert (items, session, end) == (*args, len(buf))


@pytest.mark.parametrize(("t", "value", "raw"), [
    pytest.param("s", "hi", b"\x02\0\0\0hi\0", id="a string: length, bytes, NUL"),
    pytest.param("g", "sv", b"\x02sv\0", id="a signature: one length byte"),
    pytest.param("y", 7, b"\x07", id="a byte"),
    pytest.param("b", True, b"\x01\0\0\0", id="a boolean is four bytes"),
    pytest.param("v", ("s", "x"), b"\x01s\0\0\x01\0\0\0x\0", id="a variant pads its value"),
    pytest.param("a{ss}", {"a": "b"},
                 b"\x0e\0\0\0" b"\0\0\0\0" b"\x01\0\0\0a\0" b"\0\0" b"\x01\0\0\0b\0",
                 id="an array's length leaves out the padding to its first entry"),
    pytest.param("a(yv)", [], b"\0" * 8, id="an empty array of structs still pads to 8"),
    pytest.param("ay", b"ab", b"\x02\0\0\0ab", id="a byte array"),
])
def test_values_are_laid_out_as_the_d_bus_specification_says(
        t: str, value: Any, raw: bytes) -> None:
    assert encoded(t, value) == raw


def test_a_value_after_a_byte_is_aligned_to_its_own_size() -> None:
    buf = bytearray(b"\x01")
    encode(buf, "u", 5)
    encode(buf, "y", 2)
    encode(buf, "(s)", ("x",))
    assert bytes(buf) == b"\x01\0\0\0\x05\0\0\0\x02" + b"\0" * 7 + b"\x01\0\0\0x\0"


# Signatures built from the types the reader knows, nested a few levels deep.
_BASIC = st.sampled_from(list("souybg"))


def _containers(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        inner.map(lambda t: "a" + t),
        st.lists(inner, min_size=1, max_size=3).map(lambda ts: "(" + "".join(ts) + ")"),
        st.tuples(st.sampled_from("su"), inner).map(lambda kv: "a{" + kv[0] + kv[1] + "}"),
    )


SIGNATURES = st.recursive(_BASIC | st.just("v"), _containers, max_leaves=6)
VARIANT_SIGNATURES = st.recursive(_BASIC, _containers, max_leaves=3)
TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


def values_for(t: str) -> st.SearchStrategy[Any]:
    """Values of D-Bus type t, as `decode` gives them back."""
    if t in ("s", "o"):
        return TEXT
    if t == "g":
        return st.text(string.ascii_letters + "(){}", max_size=12)
    if t == "u":
        return st.integers(0, 2**32 - 1)
    if t == "y":
        return st.integers(0, 255)
    if t == "b":
        return st.booleans()
    if t == "v":
        return VARIANT_SIGNATURES.flatmap(lambda s: values_for(s).map(lambda v: (s, v)))
    if t == "ay":
        return st.binary(max_size=12)
    if t.startswith("a{"):
        key, value = types(t[2:-1])
        return st.dictionaries(values_for(key), values_for(value), max_size=3)
    if t.startswith("a"):
        return st.lists(values_for(t[1:]), max_size=3)
    return st.tuples(*(values_for(sub) for sub in types(t[1:-1])))


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data(), t=SIGNATURES, offset=st.integers(0, 7))
def test_any_nested_value_of_strings_dicts_and_lists_round_trips(
        data: st.DataObject, t: str, offset: int) -> None:
    value = data.draw(values_for(t), label="value")
    raw = encoded(t, value, offset)
    assert decode(raw, offset, t) == (value, len(raw))


@settings(max_examples=200, deadline=None, database=None)
@given(attributes=st.dictionaries(TEXT, TEXT, max_size=6))
def test_any_search_attributes_round_trip_as_a_string_dict(attributes: dict[str, str]) -> None:
    raw = encoded("a{ss}", attributes)
    assert decode(raw, 0, "a{ss}") == (attributes, len(raw))


@settings(max_examples=200, deadline=None, database=None)
@given(parts=st.lists(SIGNATURES, max_size=4))
def test_types_splits_any_run_of_complete_types_back_into_them(parts: list[str]) -> None:
    assert types("".join(parts)) == parts


@pytest.mark.parametrize(("sig", "first", "rest"), [
    ("s", "s", ""),
    ("sv", "s", "v"),
    ("a{ss}", "a{ss}", ""),
    ("aoo", "ao", "o"),
    ("a(yv)u", "a(yv)", "u"),
    ("(oayays)", "(oayays)", ""),
    ("a{o(oayays)}s", "a{o(oayays)}", "s"),
    ("aa{sa(ov)}y", "aa{sa(ov)}", "y"),
    ("((s)(ay))o", "((s)(ay))", "o"),
])
def test_split_type_takes_the_first_complete_type(sig: str, first: str, rest: str) -> None:
    assert split_type(sig) == (first, rest)


def test_types_lists_each_complete_type_of_a_signature() -> None:
    assert types("") == []
    assert types("oa{o(oayays)}sv") == ["o", "a{o(oayays)}", "s", "v"]
    assert types("aoo") == ["ao", "o"]
    assert types("(ays)a(yv)") == ["(ays)", "a(yv)"]


@pytest.mark.parametrize("sig", [
    "(ss",
    "a{ss",
    "a(y(v)",
    "s(o",
    "a",
    ")s",
    "(s}",
])
def test_an_unbalanced_signature_is_a_value_error(sig: str) -> None:
    with pytest.raises(ValueError, match="signature"):
        types(sig)


def test_an_unsupported_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not supported"):
        encode(bytearray(), "d", 1.5)
    with pytest.raises(ValueError, match="not supported"):
        decode(b"\0" * 8, 0, "d")


def test_a_method_call_has_a_header_whose_fields_decode_back() -> None:
    path, iface = "/org/freedesktop/secrets", "org.freedesktop.Secret.Service"
    attributes = {"service": "tabsteward", "username": "agent x"}
    msg = method_call(7, path, iface, "SearchItems", "org.freedesktop.secrets", "a{ss}",
                      (attributes,))
    assert msg[:4] == b"l\x01\x00\x01"  # little-endian, method call, no flags, version 1
    body_len, serial, fields_len = struct.unpack_from("<III", msg, 4)
    assert serial == 7
    fields, end = decode(msg, 12, "a(yv)")
    assert end == 16 + fields_len
    assert dict(fields) == {1: ("o", path), 2: ("s", iface), 3: ("s", "SearchItems"),
                            6: ("s", "org.freedesktop.secrets"), 8: ("g", "a{ss}")}
    body_at = end + (-end) % 8
    assert len(msg) == body_at + body_len
    assert decode(msg, body_at, "a{ss}") == (attributes, len(msg))


def test_a_method_call_without_arguments_has_no_signature_and_no_body() -> None:
    msg = method_call(1, "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello",
                      "org.freedesktop.DBus", "", ())
    body_len, serial, _ = struct.unpack_from("<III", msg, 4)
    fields, end = decode(msg, 12, "a(yv)")
    assert (body_len, serial) == (0, 1)
    assert 8 not in dict(fields)
    assert len(msg) == end + (-end) % 8
    assert len(msg) % 8 == 0


def test_a_method_call_with_more_arguments_than_its_signature_is_refused() -> None:
    with pytest.raises(ValueError, match="longer"):
        method_call(1, "/p", "i.f", "M", "d.e", "s", ("one", "two"))
