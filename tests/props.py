"""Hypothesis settings, strategies and helpers shared by the property tests, which live
beside the unit tests of the module each covers: arbitrary input is read back exactly, or
refused with the project's own error, and never raises anything else.

The `known_bug` tests each pin one input class that once broke a property (huge numbers,
deep nesting, lone surrogates, ...); they stop at the first failure (no shrinking).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.native import framing


def props(examples: int) -> settings:
    """Few examples, so the file runs in seconds; nothing written to .hypothesis/; no timing
    health check (it would be flaky on a loaded 2-core machine)."""
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def known_bug(examples: int = 5) -> settings:
    """For an input class that once broke a property: stop at the first failure."""
    return settings(max_examples=examples, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate], report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.large_base_example])


# Integers are bounded here: the `known_bug` tests below cover ints of over 4300 digits
# (which Python refuses to read or write) on their own.
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=5),
    max_leaves=20)
# for a field's value, where the shape matters more than the size (and generation is costly)
FIELD = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=5)
# any character at all, lone surrogates included (what a JSON "\udXXX" escape decodes to)
ANY_CHAR = st.characters(exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=90)
C0 = "".join(chr(c) for c in range(0x20)) + "\x7f"


def framed(body: bytes) -> bytes:
    return len(body).to_bytes(framing.HEADER, sys.byteorder) + body


def json_body(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def split_anyhow(stream: bytes, data: st.DataObject) -> list[bytes]:
    """The stream whole, a byte at a time, or cut at arbitrary points."""
    how = data.draw(st.sampled_from(["whole", "bytes", "cuts"]), label="split")
    if how == "whole":
        return [stream]
    if how == "bytes":
        return [stream[i:i + 1] for i in range(len(stream))]
    cuts = sorted(data.draw(st.sets(st.integers(0, len(stream)), max_size=12), label="cuts"))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]


def result_or_error(check: Callable[..., Any], *args: Any) -> tuple[Any, UsageError | None]:
    """What `check` returned, or the UsageError it raised (anything else propagates)."""
    try:
        return check(*args), None
    except UsageError as err:
        return None, err


def decode_all(chunks: list[bytes], decoder: framing.Decoder,
            ) -> tuple[list[Any], framing.FrameError | None]:
    """Messages out of the chunks, up to the first FrameError (which is returned too)."""
    got: list[Any] = []
    for chunk in chunks:
        try:
            decoder.feed(chunk)
        except framing.FrameError as exc:
            return got + decoder.messages(), exc
        got += decoder.messages()
    return got, None
