"""The local API's schema: what a request may hold, and what the replies look like."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hub_tables import make_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from props import ANY_TEXT, C0, FIELD, SCALARS, known_bug, props, result_or_error
from tabsteward.bridge.errors import AuthError, UsageError
from tabsteward.bridge.hub import protocol
from tabsteward.bridge.records import agents
from tabsteward.bridge.tools.registry import Param, Tool, table

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


# -- hub requests ----------------------------------------------------------------------

FIELDS = sorted(protocol.COMMON | {k for req, opt in protocol.OPS.values() for k in req | opt})
NAMEISH = st.text(st.characters(codec="ascii"), min_size=1, max_size=12) | ANY_TEXT
GOOD = {
    "op": st.sampled_from(sorted(protocol.OPS)),
    "token": st.text(max_size=20),
    "id": st.none() | st.integers() | st.text(max_size=12),
    "tool": st.from_regex(r"[A-Za-z][\w.-]{0,8}", fullmatch=True) | NAMEISH,
    "agent": st.none() | NAMEISH,
    "browser": st.none() | NAMEISH,
    "cwd": st.text(max_size=20).map(lambda s: "/" + s),
    "argv": st.lists(st.text(max_size=10), max_size=4),
    "args": st.dictionaries(st.text(min_size=1, max_size=8),
                            SCALARS | st.lists(SCALARS, max_size=3), max_size=4),
    "name": NAMEISH,
}


@st.composite
def requests(draw: st.DrawFn) -> Any:
    """Mostly objects shaped like one op's request (some fields wrong, missing or extra),
    sometimes arbitrary JSON."""
    if draw(st.integers(0, 9)) == 0:
        return draw(FIELD)
    op = draw(GOOD["op"] | FIELD)
    required, optional = protocol.OPS.get(op, (frozenset(), frozenset())) \
        if isinstance(op, str) else (frozenset(), frozenset())
    keys = set(draw(st.sets(st.sampled_from(sorted(protocol.COMMON | required | optional)))))
    if draw(st.booleans()):
        keys |= required
    if draw(st.integers(0, 4)) == 0:
        keys.add(draw(st.sampled_from(FIELDS) | st.text(max_size=8)))
    message = {k: draw(GOOD.get(k, FIELD) | FIELD) for k in keys}
    message["op"] = op
    return message


def _is_name(value: Any, longest: int = protocol.MAX_NAME) -> bool:
    return (isinstance(value, str) and 0 < len(value) <= longest
            and not any(c in C0 for c in value)
            and not value[0].isspace() and not value[-1].isspace())


def _is_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, bool | int | str)


def _is_pairing_name(value: Any) -> bool:
    return (isinstance(value, str) and 0 < len(value) <= agents.MAX_PAIR_NAME
            and value.isprintable() and value == " ".join(value.split()))


def _is_arg(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) <= protocol.MAX_LIST and all(_is_scalar(x) for x in value)
    return _is_scalar(value)


def _is_id(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= protocol.MAX_ID)


CHECKED = {
    "op": lambda v: v in protocol.OPS,
    "id": _is_id,
    "tool": lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z][\w.-]{0,63}", v),
    "agent": _is_name,
    "browser": _is_name,
    "cwd": lambda v: (isinstance(v, str) and v.startswith("/")
                      and len(v) <= protocol.MAX_PATH and "\0" not in v),
    "argv": lambda v: (isinstance(v, list) and len(v) <= protocol.MAX_ARGV
                       and all(isinstance(x, str) for x in v)),
    "args": lambda v: isinstance(v, dict) and len(v) <= protocol.MAX_ARGS and all(
        isinstance(k, str) and 0 < len(k) <= protocol.MAX_NAME and _is_arg(item)
        for k, item in v.items()),
    "name": _is_pairing_name,
}


@props(80)
@given(message=requests())
def test_any_request_is_refused_with_a_usage_error_or_comes_back_with_only_checked_fields(
        message: Any) -> None:
    out, err = result_or_error(protocol.validate_request, message)
    if err is not None:
        assert re.search("nothing was (done|asked|answered)", err.message)
        return
    required, optional = protocol.OPS[out["op"]]
    assert set(out) <= {"op", "id"} | required | optional
    assert required <= set(out)
    for key, value in out.items():
        assert CHECKED[key](value), (key, value)
    assert protocol.validate_request(out) == out  # a checked request checks as itself


@props(80)
@given(value=FIELD | ANY_TEXT)
def test_agent_names_are_refused_or_short_without_control_characters_or_outer_spaces(
        value: Any) -> None:
    name, err = result_or_error(protocol.agent_name, value)
    if err is not None:
        return
    assert name == value
    assert _is_name(name)


@props(80)
@given(value=FIELD | ANY_TEXT | st.text(max_size=200))
def test_pairing_names_are_refused_or_printable_tidy_and_at_most_80_characters(
        value: Any) -> None:
    name, err = result_or_error(agents.pairing_name, value)
    if err is not None:
        assert "nothing was asked" in err.message
        return
    assert _is_pairing_name(name)


@props(80)
@given(value=FIELD | ANY_TEXT | st.text(min_size=120, max_size=140))
def test_request_ids_are_refused_or_an_integer_or_a_string_of_at_most_128_characters(
        value: Any) -> None:
    rid, err = result_or_error(protocol.request_id, {"id": value})
    if err is not None:
        return
    assert _is_id(rid)
    assert rid == value


NONPRINTABLE = st.characters(categories=["Cc", "Cf", "Cs", "Zs", "Zl", "Zp"],
                             exclude_characters=C0 + " ")
LETTERS = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=5)


@known_bug()
@given(before=LETTERS, odd=NONPRINTABLE, after=LETTERS)
def test_an_agent_name_the_hub_accepts_is_printable(before: str, odd: str, after: str) -> None:
    name, err = result_or_error(protocol.agent_name, before + odd + after)
    if err is not None:
        return
    assert name.isprintable(), name


TOOLS = sorted(table().values(), key=lambda t: t.name)


def _good_value(param: Param) -> st.SearchStrategy[Any]:
    if param.type == "list":
        words = st.sampled_from(param.choices) if param.choices else st.text(max_size=5)
        return st.lists(words, max_size=3)
    if param.choices:
        return st.sampled_from(param.choices)
    return {"str": st.text(max_size=10), "int": st.integers(-10**6, 10**6),
            "float": st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10**30,
                                                                                    10**30),
            "bool": st.booleans()}[param.type]


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[Tool, dict[str, Any]]:
    tool = draw(st.sampled_from(TOOLS))
    params = protocol.params_of(tool)
    args: dict[str, Any] = {}
    for param in params:
        if draw(st.integers(0, 3)) > 0:
            args[param.name] = draw(st.none() | _good_value(param) | FIELD)
    if draw(st.integers(0, 5)) == 0:
        args[draw(st.text(min_size=1, max_size=8))] = draw(FIELD)
    return tool, args


def _is_value_of(param: Param, value: Any) -> bool:
    kind = param.type
    if kind == "list":
        ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
        return ok and all(param.choices is None or x in param.choices for x in value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, float) and math.isfinite(value)
    return isinstance(value, str) and (param.choices is None or value in param.choices)


@props(70)
@given(call=tool_calls())
def test_tool_arguments_are_refused_with_a_usage_error_or_come_back_typed_with_defaults(
        call: tuple[Tool, dict[str, Any]]) -> None:
    tool, args = call
    out, err = result_or_error(protocol.check_args, tool, args)
    if err is not None:
        assert "nothing was run" in err.message
        return
    params = protocol.params_of(tool)
    assert list(out) == [p.name for p in params]
    for param in params:
        if args.get(param.name) is None:
            assert not param.required
            assert out[param.name] == param.default
        else:
            assert _is_value_of(param, out[param.name]), (param, out[param.name])


FLOAT_PARAMS = [(t, p) for t in TOOLS for p in t.params if p.type == "float"]


@known_bug()
@given(target=st.sampled_from(FLOAT_PARAMS), value=st.integers(2**1024, 10**400))
def test_a_number_too_big_for_a_float_argument_is_a_usage_error(
        target: tuple[Tool, Param], value: int) -> None:
    tool, param = target
    request = protocol.validate_request({"op": "call", "tool": tool.name,
                                         "args": {param.name: value}})
    with pytest.raises(UsageError):
        protocol.check_args(tool, request["args"])


BROWSER_KEYS = ("origin", "headers", "referer", "sec-fetch-site", "sec-fetch-mode")


@props(40)
@given(message=st.dictionaries(st.text(max_size=10), FIELD, max_size=4),
       word=st.sampled_from(BROWSER_KEYS), value=FIELD, data=st.data())
def test_a_message_with_an_origin_headers_or_referer_key_in_any_letter_case_is_refused(
        message: dict[str, Any], word: str, value: Any, data: st.DataObject) -> None:
    upper = data.draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    key = "".join(c.upper() if up else c for c, up in zip(word, upper, strict=True))
    with pytest.raises(AuthError, match="web page"):
        protocol.refuse_browser({**message, key: value})


@props(40)
@given(message=st.dictionaries(
    st.text(max_size=16).filter(lambda k: k.lower() not in BROWSER_KEYS), FIELD, max_size=5))
def test_a_message_without_browser_keys_passes_the_browser_check(
        message: dict[str, Any]) -> None:
    protocol.refuse_browser(message)
