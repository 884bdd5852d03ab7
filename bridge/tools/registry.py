"""The tool table's types: a tool's parameters, its handler, and what a handler returns.

Every surface (CLI, MCP, SDK) is generated from these objects; nothing else lists tools.
This module imports nothing heavy: the CLI and the MCP server read the same table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ..engine.session import AgentSession

ParamType = Literal["str", "int", "float", "bool", "list"]
PERSON = "person"  # the group of the person's tools, which MCP does not offer to agents


@dataclass(frozen=True)
class Param:
    """One argument: positional on the CLI when `positional`, else `--name` (and `short`)."""

    name: str
    type: ParamType = "str"
    help: str = ""
    required: bool = False
    positional: bool = False
    short: str | None = None
    default: Any = None
    choices: tuple[str, ...] | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass
class Result:
    """What a tool did: terse text for people and agents, data for --json and the SDK."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Call:
    """One tool call as a handler sees it: the agent's session in the browser it picked,
    the caller's folder, and the hub (for the few tools about the hub itself)."""

    picked: AgentSession | None
    cwd: str
    hub: Any = None

    @property
    def session(self) -> AgentSession:
        if self.picked is None:
            raise TypeError("this tool was registered with browser=False; it has no session")
        return self.picked

    def path(self, value: str) -> str:
        """A path argument, made absolute against the caller's working folder."""
        import os.path
        expanded = os.path.expanduser(value)
        return os.path.normpath(os.path.join(self.cwd, expanded))


Handler = Callable[[Call, dict[str, Any]], Awaitable[Result]]


@dataclass(frozen=True)
class Tool:
    name: str
    summary: str
    params: tuple[Param, ...]
    mutating: bool
    handler: Handler
    group: str = "core"
    browser: bool = True  # False: the tool is about the hub, and picks no browser
    open: bool = False  # answers with a one-time code (approve, deny): no pairing, no confirm

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None


_TABLE: dict[str, Tool] = {}


def tool(name: str, summary: str, *params: Param, mutating: bool,
         group: str = "core", browser: bool = True,
         open: bool = False) -> Callable[[Handler], Handler]:
    """Register the decorated handler as tool `name`."""

    def register(handler: Handler) -> Handler:
        if name in _TABLE:
            raise ValueError(f"tool {name} is registered twice")
        _TABLE[name] = Tool(name, summary, tuple(params), mutating, handler, group, browser,
                            open)
        return handler
    return register


def table() -> dict[str, Tool]:
    """All tools, by name, in registration order (importing the tool modules first)."""
    from . import catalog  # noqa: F401  (registers every tool)
    return _TABLE
