"""The local API's schema: what a request may hold, and what the replies look like."""

from __future__ import annotations

from typing import Any

import pytest
from hub_tables import make_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabsteward.bridge.errors import AuthError, UsageError
from tabsteward.bridge.hub import protocol

TOKEN = {"token": "t"}


def test_valid_cli_request_comes_back_without_its_token() -> None:
    req = protocol.validate_request({"op": "cli", "argv": ["tabs"], "cwd": "/tmp", "id": 7,
                                     **TOKEN})
    assert req == {"op": "cli", "argv": ["tabs"], "cwd": "/tmp", "id": 7}


def test_valid_call_request_keeps_agent_and_args() -> None:
    req = protocol.validate_request({"op": "call", "tool": "click", "agent": "Claude Code",
                                     "args": {"target": "@1", "count": 2}, **TOKEN})
    assert req["agent"] == "Claude Code"
    assert req["args"] == {"target": "@1", "count": 2}


@pytest.mark.parametrize("message", [[], "ping", 3, None])
def test_request_that_is_not_an_object_is_refused(message: Any) -> None:
    with pytest.raises(UsageError, match="JSON object"):
        protocol.validate_request(message)


def test_unknown_op_is_refused_naming_the_ops() -> None:
    with pytest.raises(UsageError, match=r"unknown op 'rm'.*ping"):
        protocol.validate_request({"op": "rm", **TOKEN})


def test_unknown_key_is_refused() -> None:
    with pytest.raises(UsageError, match="takes no extra"):
        protocol.validate_request({"op": "ping", "extra": 1, **TOKEN})


def test_key_of_another_op_is_refused() -> None:
    with pytest.raises(UsageError, match="takes no argv"):
        protocol.validate_request({"op": "call", "tool": "x", "argv": [], **TOKEN})


def test_missing_required_key_is_refused() -> None:
    with pytest.raises(UsageError, match="needs cwd"):
        protocol.validate_request({"op": "cli", "argv": [], **TOKEN})


@pytest.mark.parametrize("argv", ["tabs", [1], [None], ["a"] * 1001, ["x" * (8 * 2**20 + 1)]])
def test_argv_must_be_a_bounded_list_of_strings(argv: Any) -> None:
    with pytest.raises(UsageError, match="argv"):
        protocol.validate_request({"op": "cli", "argv": argv, "cwd": "/", **TOKEN})


@pytest.mark.parametrize("cwd", ["relative", "", 5, "/a\0b", "/" + "a" * 5000])
def test_cwd_must_be_an_absolute_path(cwd: Any) -> None:
    with pytest.raises(UsageError, match="cwd"):
        protocol.validate_request({"op": "cli", "argv": [], "cwd": cwd, **TOKEN})


@pytest.mark.parametrize("agent", ["", " lead", "tab\there", "x" * 65, 3])
def test_agent_name_must_be_short_and_printable(agent: Any) -> None:
    with pytest.raises(UsageError, match="agent"):
        protocol.validate_request({"op": "call", "tool": "t", "agent": agent, **TOKEN})


@pytest.mark.parametrize("args", [{"a": {"b": 1}}, {"a": [{"b": 1}]}, {"a": float("nan")},
                                  [1], {"": 1}, {f"k{i}": 1 for i in range(65)}])
def test_args_hold_only_scalars_and_lists_of_them(args: Any) -> None:
    with pytest.raises(UsageError):
        protocol.validate_request({"op": "call", "tool": "t", "args": args, **TOKEN})


def test_only_ping_pair_answer_person_and_shutdown_are_open_to_a_client_without_a_token(
        ) -> None:
    # pair, answer, person and shutdown are open because each waits for the person (or a
    # code only the person sees), never because a token is missing
    open_ops = protocol.OPEN_OPS
    assert open_ops == {"ping", "pair", "answer", "person", "shutdown"}
    assert open_ops <= set(protocol.OPS)
    assert "extension" not in protocol.OPS  # the native host's op is the server's alone


def test_whoami_takes_nothing_but_its_token_and_id() -> None:
    assert protocol.validate_request({"op": "whoami", "id": 2, **TOKEN}) == {"op": "whoami",
                                                                             "id": 2}
    with pytest.raises(UsageError, match="takes no agent"):
        protocol.validate_request({"op": "whoami", "agent": "a", **TOKEN})


def test_pair_request_keeps_its_name_with_spaces_tidied() -> None:
    req = protocol.validate_request({"op": "pair", "name": "  Claude   Code in ~/shop "})
    assert req == {"op": "pair", "name": "Claude Code in ~/shop"}


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "bell\x07", 3, None])
def test_pair_name_must_be_short_and_printable(name: Any) -> None:
    with pytest.raises(UsageError, match="name"):
        protocol.validate_request({"op": "pair", "name": name})


@pytest.mark.parametrize("rid", [True, 1.5, [1], "x" * 129])
def test_request_id_must_be_a_short_string_or_integer(rid: Any) -> None:
    with pytest.raises(UsageError, match="id"):
        protocol.validate_request({"op": "ping", "id": rid, **TOKEN})


@pytest.mark.parametrize("key", ["origin", "Origin", "headers", "Referer"])
def test_request_with_browser_origin_field_is_refused(key: str) -> None:
    with pytest.raises(AuthError, match="web page"):
        protocol.refuse_browser({"op": "ping", key: "https://evil.example", **TOKEN})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


# timing health checks would make this flaky on a loaded 2-core machine
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["op", "token", "id", "tool", "args", "agent", "cwd",
                                        "argv", "x"]), json_values, max_size=6))
def test_any_json_object_is_accepted_or_refused_with_a_usage_error(message: Any) -> None:
    failure: UsageError | None = None
    try:
        protocol.validate_request(message)
    except UsageError as err:
        failure = err
    assert failure is None or "nothing was done" in failure.message


# -- tool arguments --------------------------------------------------------------------

def test_check_args_fills_defaults_and_the_implicit_tab() -> None:
    echo = make_table()["echo"]
    assert protocol.check_args(echo, {"text": "hi"}) == {
        "text": "hi", "times": 1, "ratio": None, "loud": None, "mode": None, "tags": None,
        "tab": None}


def test_check_args_accepts_whole_floats_for_ints_and_ints_for_floats() -> None:
    echo = make_table()["echo"]
    out = protocol.check_args(echo, {"text": "hi", "times": 3.0, "ratio": 2, "tab": "t2"})
    assert (out["times"], out["ratio"], out["tab"]) == (3, 2.0, "t2")
    assert isinstance(out["ratio"], float)


@pytest.mark.parametrize(("args", "match"), [
    ({}, "needs argument text"),
    ({"text": "a", "bogus": 1}, "has no argument bogus"),
    ({"text": 5}, "must be a string"),
    ({"text": "a", "times": True}, "whole number"),
    ({"text": "a", "times": 2.5}, "whole number"),
    ({"text": "a", "loud": "yes"}, "true or false"),
    ({"text": "a", "mode": "wild"}, "one of plain, fancy"),
    ({"text": "a", "tags": "one"}, "list of strings"),
])
def test_check_args_refuses_what_the_params_do_not_allow(args: dict[str, Any],
                                                         match: str) -> None:
    with pytest.raises(UsageError, match=match) as info:
        protocol.check_args(make_table()["echo"], args)
    assert "nothing was run" in info.value.message


def test_unknown_tool_error_suggests_close_names() -> None:
    err = protocol.unknown_tool("snapsot", make_table())
    assert "did you mean snapshot" in err.message


def test_tool_schema_is_json_schema_with_required_params_and_tab() -> None:
    schema = protocol.tool_schema(make_table()["echo"])
    assert schema["name"] == "echo"
    assert schema["mutating"] is False
    props = schema["inputSchema"]["properties"]
    assert props["times"] == {"type": "integer", "description": "how often", "default": 1}
    assert props["mode"]["enum"] == ["plain", "fancy"]
    assert props["tags"]["type"] == "array"
    assert props["tab"]["type"] == "string"
    assert schema["inputSchema"]["required"] == ["text"]
    assert schema["inputSchema"]["additionalProperties"] is False


def test_error_reply_carries_the_wire_error() -> None:
    reply = protocol.error_reply(UsageError("bad; nothing was done"))
    assert reply == {"ok": False, "error": {"code": 2, "type": "UsageError",
                                            "message": "bad; nothing was done"}}
