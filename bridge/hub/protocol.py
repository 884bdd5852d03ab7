"""The local API's messages: requests checked against their schema, replies built (no I/O)."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import AuthError, TabstewardError, UsageError
from ..records.agents import pairing_name
from ..tools.registry import Param, Tool

DEFAULT_AGENT = "default"

MAX_TOKEN = 256
MAX_NAME = 64
MAX_PATH = 4096
MAX_ID = 128
MAX_ARGV = 1000
MAX_ARGS = 64
MAX_LIST = 1000
MAX_TEXT = 8 * 1024 * 1024
MAX_INT = 2**53  # numbers beyond what JSON peers hold exactly are refused

# Keys every request may carry, and the keys each op adds (required ones in the tuple's
# first set, optional ones in its second).
COMMON = frozenset({"op", "token", "id"})
OPS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "ping": (frozenset(), frozenset()),
    "whoami": (frozenset(), frozenset()),
    "tools": (frozenset(), frozenset()),
    "shutdown": (frozenset(), frozenset()),
    "call": (frozenset({"tool"}), frozenset({"args", "agent", "cwd", "browser"})),
    "cli": (frozenset({"argv", "cwd"}), frozenset({"agent", "browser"})),
    "pair": (frozenset({"name"}), frozenset()),
    "answer": (frozenset({"argv", "cwd"}), frozenset({"code"})),
    "person": (frozenset({"argv", "cwd"}), frozenset()),
}
# ops that need no token: a ping says only that a hub runs; a pairing asks the person;
# an answer (approve, deny) proves itself with the code shown for that answer; the person's
# other commands wait until the person confirms them (a code, or the tray's button); and
# shutdown is asked of the person the same way
OPEN_OPS = frozenset({"ping", "pair", "answer", "person", "shutdown"})
MAX_CODE = 64

_AGENT = re.compile(r"[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]{0,62}[^\s\x00-\x1f\x7f])?")
_TOOL = re.compile(r"[A-Za-z][\w.-]{0,63}")
_ORIGIN = {"origin", "headers", "sec-fetch-site", "sec-fetch-mode", "referer"}


def refuse_browser(message: Mapping[str, Any]) -> None:
    """Refuse anything a web page or browser sent: no browser sends `origin` to the hub."""
    for key in message:
        if isinstance(key, str) and key.lower() in _ORIGIN:
            raise AuthError(f"requests carrying an {key!r} field come from a web page and are "
                            "refused; nothing was done")


def validate_request(message: Any) -> dict[str, Any]:
    """The request, schema-checked; the token is dropped (the server has checked it)."""
    if not isinstance(message, dict):
        raise UsageError("a request must be a JSON object; nothing was done")
    op = message.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise UsageError(f"unknown op {_show(op)} (ops: {', '.join(OPS)}); nothing was done")
    required, optional = OPS[op]
    allowed = COMMON | required | optional
    extra = sorted(str(k) for k in message if k not in allowed)
    if extra:
        raise UsageError(f"op {op} takes no {', '.join(extra)} (it takes: "
                         f"{', '.join(sorted(allowed))}); nothing was done")
    missing = sorted(k for k in required if k not in message)
    if missing:
        raise UsageError(f"op {op} needs {', '.join(missing)}; nothing was done")
    out: dict[str, Any] = {"op": op}
    if "id" in message:
        out["id"] = request_id(message)
    if "tool" in message:
        out["tool"] = _name(message["tool"], "tool", _TOOL)
    if "agent" in message and message["agent"] is not None:
        out["agent"] = agent_name(message["agent"])
    if "browser" in message and message["browser"] is not None:
        out["browser"] = _name(message["browser"], "browser", _AGENT)
    if "cwd" in message:
        out["cwd"] = _cwd(message["cwd"])
    if "argv" in message:
        out["argv"] = _argv(message["argv"])
    if "args" in message:
        out["args"] = _args(message["args"])
    if "name" in message:
        out["name"] = pairing_name(message["name"])
    if "code" in message:
        code = message["code"]
        if not isinstance(code, str) or len(code) > MAX_CODE:
            raise UsageError(f"code must be a string of at most {MAX_CODE} characters; "
                             "nothing was answered")
        out["code"] = code
    return out


def request_id(message: Mapping[str, Any]) -> int | str | None:
    """The request's `id` when it is one a reply may echo, else None."""
    rid = message.get("id")
    if rid is None:
        return None
    if isinstance(rid, bool) or not isinstance(rid, int | str):
        raise UsageError("id must be a string or an integer; nothing was done")
    if isinstance(rid, str) and len(rid) > MAX_ID:
        raise UsageError(f"id is over {MAX_ID} characters; nothing was done")
    return rid


def agent_name(value: Any) -> str:
    """An agent's name, checked: 1 to 64 printable characters, no space at either end."""
    return _name(value, "agent", _AGENT)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _name(value: Any, what: str, pattern: re.Pattern[str]) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value) or not value.isprintable():
        raise UsageError(f"{what} must be a name of 1 to {MAX_NAME} printable characters, "
                         f"not {_show(value)}; nothing was done")
    return value


def _cwd(value: Any) -> str:
    if not isinstance(value, str) or not value.startswith("/") or len(value) > MAX_PATH \
            or "\0" in value:
        raise UsageError("cwd must be an absolute path; nothing was done")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{what} must be a string, not {type(value).__name__}; "
                         "nothing was done")
    if len(value) > MAX_TEXT:
        raise UsageError(f"{what} is over {MAX_TEXT} characters; nothing was done")
    return value


def _argv(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise UsageError("argv must be a list of strings; nothing was done")
    if len(value) > MAX_ARGV:
        raise UsageError(f"argv has over {MAX_ARGV} items; nothing was done")
    return [_text(item, "each argv item") for item in value]


def _scalar(value: Any, what: str) -> Any:
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UsageError(f"{what} must be a finite number; nothing was done")
        return value
    return _text(value, what)


def _args(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UsageError("args must be a JSON object; nothing was done")
    if len(value) > MAX_ARGS:
        raise UsageError(f"args has over {MAX_ARGS} keys; nothing was done")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > MAX_NAME:
            raise UsageError(f"argument name {_show(key)} is not a name; nothing was done")
        if isinstance(item, list):
            if len(item) > MAX_LIST:
                raise UsageError(f"argument {key} has over {MAX_LIST} items; "
                                 "nothing was done")
            out[key] = [_scalar(x, f"each item of argument {key}") for x in item]
        else:
            out[key] = _scalar(item, f"argument {key}")
    return out


# -- tool arguments --------------------------------------------------------------------

def unknown_tool(name: str, names: Iterable[str]) -> UsageError:
    """The error for a tool name that is not in the table, suggesting close names."""
    close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return UsageError(f"unknown tool {name!r}{hint}; nothing was run; `tabsteward --help` "
                      "lists the tools")


# Every tool takes `tab` (the CLI's global --tab): the tab to act on instead of the agent's
# current one. Tools read it as args["tab"]; one that declares its own `tab` param wins.
TAB = Param("tab", help="act on this tab (an id from `tabs`) instead of the agent's "
                        "current one")


def params_of(tool: Tool) -> tuple[Param, ...]:
    """The tool's params, with the implicit `tab` when it does not declare one."""
    return tool.params if tool.param(TAB.name) else (*tool.params, TAB)


def check_args(tool: Tool, args: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments checked against the tool's params (names, types, choices, required),
    with every param not given set to its default."""
    params = params_of(tool)
    names = {p.name for p in params}
    unknown = sorted(k for k in args if k not in names)
    if unknown:
        takes = ", ".join(p.name for p in params)
        raise UsageError(f"{tool.name} has no argument {', '.join(unknown)} (it takes: "
                         f"{takes}); nothing was run")
    out: dict[str, Any] = {}
    for param in params:
        value = args.get(param.name)
        if value is None:
            if param.required:
                raise UsageError(f"{tool.name} needs argument {param.name}; nothing was run")
            out[param.name] = param.default
            continue
        out[param.name] = coerce(tool.name, param, value)
    return out


def coerce(tool: str, param: Param, value: Any) -> Any:
    """One JSON value as the param's type; UsageError when it is not one."""
    kind = param.type
    where = f"{tool} argument {param.name}"
    if kind == "list":
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise UsageError(f"{where} must be a list of strings; nothing was run")
        for item in value:
            _check_choice(where, param, item)
        return list(value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise UsageError(f"{where} must be true or false; nothing was run")
        return value
    if kind == "int":
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(f"{where} must be a whole number; nothing was run")
        if abs(value) > MAX_INT:
            raise UsageError(f"{where} is out of range; nothing was run")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                abs(value) > MAX_INT:
            raise UsageError(f"{where} must be a number within range; nothing was run")
        return float(value)
    if not isinstance(value, str):
        raise UsageError(f"{where} must be a string; nothing was run")
    _check_choice(where, param, value)
    return value


def _check_choice(where: str, param: Param, value: str) -> None:
    if param.choices is not None and value not in param.choices:
        raise UsageError(f"{where} must be one of {', '.join(param.choices)}, not {value!r}; "
                         "nothing was run")


# -- replies ---------------------------------------------------------------------------

def ok_reply(**fields: Any) -> dict[str, Any]:
    return {"ok": True, **fields}


def error_reply(err: TabstewardError) -> dict[str, Any]:
    return {"ok": False, "error": err.to_wire()}


def internal_error(what: str, log_path: str) -> TabstewardError:
    """What the peer learns of an unexpected failure: where to look, never the details."""
    return TabstewardError(f"internal error in {what}; nothing more was done; see the hub log "
                           f"at {log_path}")


_JSON_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}


def param_schema(param: Param) -> dict[str, Any]:
    """One param as JSON Schema."""
    schema: dict[str, Any]
    if param.type == "list":
        item: dict[str, Any] = {"type": "string"}
        if param.choices is not None:
            item["enum"] = list(param.choices)
        schema = {"type": "array", "items": item}
    else:
        schema = {"type": _JSON_TYPES[param.type]}
        if param.choices is not None:
            schema["enum"] = list(param.choices)
    if param.help:
        schema["description"] = param.help
    if param.default is not None:
        schema["default"] = param.default
    return schema


def tool_schema(tool: Tool) -> dict[str, Any]:
    """One tool as the `tools` op lists it (MCP builds its tool list from this)."""
    return {
        "name": tool.name,
        "summary": tool.summary,
        "mutating": tool.mutating,
        "group": tool.group,
        "inputSchema": {
            "type": "object",
            "properties": {p.name: param_schema(p) for p in params_of(tool)},
            "required": [p.name for p in tool.params if p.required],
            "additionalProperties": False,
        },
    }
