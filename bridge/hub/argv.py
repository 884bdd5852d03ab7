"""The CLI's grammar, from the tool table: argv to (tool, args, options), and help text."""

from __future__ import annotations

import difflib
import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..tools.registry import Param, Tool
from .protocol import TAB, params_of, unknown_tool

PROG = "tabsteward"
WIDTH = 88


@dataclass(frozen=True)
class Options:
    """Global options, accepted anywhere before `--`."""

    json: bool = False
    agent: str | None = None
    tab: str | None = None
    help: bool = False
    browser: str | None = None


@dataclass(frozen=True)
class Parsed:
    tool: str | None
    args: dict[str, Any] = field(default_factory=dict)
    options: Options = Options()


def wants_json(argv: Sequence[str]) -> bool:
    """Whether --json is given, known even when the rest of argv does not parse."""
    for item in argv:
        if item == "--":
            return False
        if item == "--json":
            return True
    return False


def parse(argv: Sequence[str], table: Mapping[str, Tool]) -> Parsed:
    """Split argv into the tool, its typed arguments, and the global options."""
    options, rest, after_dashes = _globals(argv)
    if not rest:
        if options.help:
            return Parsed(None, {}, options)
        raise UsageError("no tool given; nothing was run; `tabsteward --help` lists the tools")
    name = rest[0]
    if name.startswith("-") and after_dashes != 0:
        raise UsageError(f"unknown option {name}; nothing was run; `tabsteward --help` lists "
                         "the global options")
    if name not in table:
        raise unknown_tool(name, table)
    tool = table[name]
    if options.help:
        return Parsed(name, {}, options)
    dashes = max(after_dashes - 1, 0) if after_dashes >= 0 else -1
    raw = _tool_args(tool, rest[1:], dashes)
    if options.tab is not None:
        _store(tool, raw, tool.param(TAB.name) or TAB, options.tab, "--tab")
    return Parsed(name, _typed(tool, raw), options)


def _globals(argv: Sequence[str]) -> tuple[Options, list[str], int]:
    """Global options taken out of argv; the rest, and where `--` was in it (-1: nowhere)."""
    json = help_ = False
    agent = tab = browser = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        item = argv[i]
        i += 1
        if item == "--":
            return Options(json, agent, tab, help_, browser), [*rest, *argv[i:]], len(rest)
        if item == "--json":
            json = True
        elif item in ("-h", "--help"):
            help_ = True
        elif item in ("--agent", "--tab", "--browser") or item.startswith(
                ("--agent=", "--tab=", "--browser=")):
            flag, eq, value = item.partition("=")
            if not eq:
                if i >= len(argv):
                    raise UsageError(f"{flag} needs a value; nothing was run")
                value = argv[i]
                i += 1
            if not value:
                raise UsageError(f"{flag} needs a non-empty value; nothing was run")
            if flag == "--agent":
                agent = value
            elif flag == "--browser":
                browser = value
            else:
                tab = value
        else:
            rest.append(item)
    return Options(json, agent, tab, help_, browser), rest, -1


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _tool_args(tool: Tool, items: Sequence[str], dashes: int) -> dict[str, Any]:
    """Raw (string or bool) values by param name; `dashes` is where `--` was in items."""
    by_flag: dict[str, Param] = {}
    for p in tool.params:
        by_flag[p.flag] = p
        if p.short:
            by_flag["-" + p.short.lstrip("-")] = p
    raw: dict[str, Any] = {}
    values: list[str] = []
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        is_option = (dashes < 0 or i - 1 < dashes) and item.startswith("-") and item != "-" \
            and not _is_number(item)
        if not is_option:
            values.append(item)
            continue
        flag, eq, value = item.partition("=") if item.startswith("--") else (item, "", "")
        param = by_flag.get(flag)
        negated = False
        if param is None and flag.startswith("--no-"):
            param = by_flag.get("--" + flag[5:])
            negated = param is not None and param.type == "bool"
            if not negated:
                param = None
        if param is None:
            raise _unknown_option(tool, flag, by_flag)
        if param.type == "bool":
            if eq:
                raise UsageError(f"{tool.name} {flag} is a switch and takes no value; "
                                 "nothing was run")
            _store(tool, raw, param, not negated, flag)
            continue
        if not eq:
            if i >= len(items):
                raise UsageError(f"{tool.name} {flag} needs a value; nothing was run")
            value = items[i]
            i += 1
        _store(tool, raw, param, value, flag)
    _positionals(tool, raw, values)
    return raw


def _positionals(tool: Tool, raw: dict[str, Any], values: list[str]) -> None:
    """Positional values to their params, in order. An optional one before a required one
    (`press [TARGET] KEYS`) takes a value only when enough are left for those after it."""
    params = [p for p in tool.params if p.positional and p.name not in raw]
    if values and not [p for p in tool.params if p.positional]:
        raise UsageError(f"{tool.name} takes no positional arguments, got {values[0]!r}; "
                         f"nothing was run; usage: {usage(tool)}")
    left = list(values)
    for n, p in enumerate(params):
        needed = sum(1 for q in params[n + 1:] if q.required)
        if p.type == "list":
            take = max(0, len(left) - needed) if p.required or len(left) > needed else 0
            if take:
                raw.setdefault(p.name, []).extend(left[:take])
                del left[:take]
        elif left and (p.required or len(left) > needed):
            raw[p.name] = left.pop(0)
    if left:
        raise UsageError(f"{tool.name} got an extra argument {left[0]!r}; nothing was run; "
                         f"usage: {usage(tool)}")


def _store(tool: Tool, raw: dict[str, Any], param: Param, value: Any, flag: str) -> None:
    if param.type == "list":
        raw.setdefault(param.name, []).append(value)
        return
    if param.name in raw:
        raise UsageError(f"{tool.name} got {flag} twice; nothing was run")
    raw[param.name] = value


def _unknown_option(tool: Tool, flag: str, by_flag: Mapping[str, Param]) -> UsageError:
    close = difflib.get_close_matches(flag, list(by_flag), n=2, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return UsageError(f"{tool.name} has no option {flag}{hint}; nothing was run; "
                      f"usage: {usage(tool)}")


def _typed(tool: Tool, raw: dict[str, Any]) -> dict[str, Any]:
    """Strings turned into the params' types; choices and required params checked."""
    out: dict[str, Any] = {}
    for p in params_of(tool):
        if p.name not in raw:
            if p.required:
                raise UsageError(f"{tool.name} needs {_metavar(p) if p.positional else p.flag}"
                                 f"; nothing was run; usage: {usage(tool)}")
            continue
        value = raw[p.name]
        if p.type == "int":
            out[p.name] = _number(tool, p, value, int)
        elif p.type == "float":
            out[p.name] = _number(tool, p, value, float)
        else:
            for choice in value if isinstance(value, list) else [value]:
                if p.choices is not None and choice not in p.choices:
                    raise UsageError(f"{tool.name} {_label(p)} must be one of "
                                     f"{', '.join(p.choices)}, not {choice!r}; nothing was run")
            out[p.name] = value
    return out


def _number(tool: Tool, param: Param, value: str, kind: type[int] | type[float]) -> Any:
    try:
        number = kind(value)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise UsageError(f"{tool.name} {_label(param)} must be {what}, not {value!r}; "
                         "nothing was run") from None
    if not math.isfinite(number):
        raise UsageError(f"{tool.name} {_label(param)} must be a finite number, not "
                         f"{value!r}; nothing was run")
    return number


# -- help ------------------------------------------------------------------------------

def _metavar(p: Param) -> str:
    name = p.name.upper().replace("-", "_")
    if p.choices is not None and len(",".join(p.choices)) <= 24:
        name = "{" + ",".join(p.choices) + "}"
    return name + "..." if p.type == "list" and p.positional else name


def _label(p: Param) -> str:
    return _metavar(p) if p.positional else p.flag


def _option_names(p: Param) -> str:
    names = (["-" + p.short.lstrip("-")] if p.short else []) + [p.flag]
    text = ", ".join(names)
    if p.type != "bool":
        text += " " + _metavar(p)
    return text


def usage(tool: Tool) -> str:
    parts = [PROG, tool.name]
    for p in tool.params:
        if p.positional:
            parts.append(_metavar(p) if p.required else f"[{_metavar(p)}]")
    for p in tool.params:
        if not p.positional:
            text = "-" + p.short.lstrip("-") if p.short else p.flag
            if p.type != "bool":
                text += " " + _metavar(p)
            parts.append(text if p.required else f"[{text}]")
    return " ".join(parts)


def _rows(rows: list[tuple[str, str]]) -> list[str]:
    """Two columns, the right one wrapped to the width of a terminal."""
    width = min(max((len(a) for a, _ in rows), default=0), 24)
    out = []
    for left, right in rows:
        lines = textwrap.wrap(right, max(WIDTH - width - 4, 30)) or [""]
        if len(left) > width:
            out.append(f"  {left}")
        else:
            out.append(f"  {left:{width}}  {lines.pop(0)}".rstrip())
        out += [f"  {'':{width}}  {line}" for line in lines]
    return out


GLOBAL_HELP = [
    ("--json", "print the result as JSON"),
    ("--agent NAME", "act as agent NAME (default: $TABSTEWARD_AGENT, else 'default')"),
    ("--tab ID", "act on tab ID (from `tabs`) instead of the agent's current tab"),
    ("--browser NAME", "use this connected browser (from `browsers`; default: "
                       "$TABSTEWARD_BROWSER, else the only one)"),
    ("-h, --help", "show this help; `tabsteward TOOL --help` shows a tool's"),
]


def main_help(table: Mapping[str, Tool]) -> str:
    """`tabsteward --help`: every tool with its summary, by group."""
    lines = [f"usage: {PROG} [--json] [--agent NAME] [--tab ID] [--browser NAME] TOOL "
             "[ARGS...]", "",
             "Drive the browser through the Tabsteward hub (started on first use).", ""]
    groups: dict[str, list[Tool]] = {}
    for tool in table.values():
        groups.setdefault(tool.group, []).append(tool)
    for group, tools in groups.items():
        lines.append(f"{group} tools:" if len(groups) > 1 else "tools:")
        lines += _rows([(t.name, t.summary) for t in tools])
        lines.append("")
    lines.append("global options (anywhere before --):")
    lines += _rows(GLOBAL_HELP)
    lines += ["", "other commands:"]
    lines += _rows([(f"{PROG} batch COMMAND... [--help]",
                     "tool commands in order in one process, stopping at a failure"),
                    (f"{PROG} serve [--help]", "run the hub in the foreground"),
                    (f"{PROG} mcp", "an MCP server on stdio, talking to the hub"),
                    (f"{PROG} demo", "an agent session on a bundled page, step by step"),
                    (f"{PROG} skill", "print the guide for coding agents (SKILL.md)"),
                    (f"{PROG} desktop", "the tray app, with the hub inside it"),
                    (f"{PROG} setup", "set Tabsteward up for your browsers and your login"),
                    (f"{PROG} install | uninstall | doctor",
                     "the native host per browser; undo setup; check every link"),
                    (f"{PROG} extension pack", "the extension as a zip for the Web Store"),
                    (f"{PROG} --version", "print the version")])
    return "\n".join(lines) + "\n"


def tool_help(tool: Tool) -> str:
    """`tabsteward TOOL --help`: usage, summary, and every param."""
    lines = [f"usage: {usage(tool)}", "", tool.summary]
    if tool.mutating:
        lines.append("It changes the page or the browser.")
    positional = [p for p in tool.params if p.positional]
    flags = [p for p in tool.params if not p.positional]
    if positional:
        lines += ["", "arguments:"]
        lines += _rows([(_metavar(p), _describe(p)) for p in positional])
    if flags:
        lines += ["", "options:"]
        lines += _rows([(_option_names(p), _describe(p)) for p in flags])
    lines += ["", "global options: --json, --agent NAME, --tab ID, --browser NAME (see "
              "`tabsteward --help`)"]
    return "\n".join(lines) + "\n"


def _describe(p: Param) -> str:
    text = p.help
    extras = []
    if p.required:
        extras.append("required")
    if p.choices is not None and not _metavar(p).startswith("{") \
            and not all(c in text for c in p.choices):
        extras.append(f"one of: {', '.join(p.choices)}")
    if p.default is not None and p.type != "bool" and "default" not in text:
        extras.append(f"default: {p.default}")
    if extras:
        text = f"{text} ({', '.join(extras)})" if text else f"({', '.join(extras)})"
    return text
