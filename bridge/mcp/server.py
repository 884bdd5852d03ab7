"""The MCP server on stdio: the hub's tools, one for one, each call forwarded to the hub."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from .. import version
from ..errors import HubUnavailable, TabstewardError
from ..hub.protocol import DEFAULT_AGENT
from ..sdk import Pending, Tabsteward, ToolInfo
from ..tools.registry import PERSON

if TYPE_CHECKING:
    from collections.abc import Coroutine

    import mcp_types
    from mcp.server import Server, ServerRequestContext

log = logging.getLogger(__name__)

NAME = "tabsteward"
INSTRUCTIONS = (
    "Tabsteward drives the person's own browser in background tabs. Take a `snapshot` to "
    "read the page: elements get @N refs (stable across snapshots) that `click`, `fill` and "
    "the other tools take as their target. An action that policy holds waits until the "
    "person allows it in the Tabsteward panel."
)
MAX_AGENT = 64


def agent_name(client_name: str | None) -> str:
    """Who the hub sees: $TABSTEWARD_AGENT, else the CLI's default agent.

    The MCP client's own name is only logged: an agent that mixes `tabsteward` commands and
    MCP calls must find the same tabs through both (the shared benchmark does exactly that).
    """
    chosen = os.environ.get("TABSTEWARD_AGENT")
    if chosen:
        return chosen  # the person's explicit choice: the hub says so if it is refused
    if client_name:
        log.debug("MCP client %r acts as the default agent", client_name[:MAX_AGENT])
    return DEFAULT_AGENT


def as_printed(text: str) -> str:
    """The text as `tabsteward TOOL` prints it (hub/core.py ends it with one newline)."""
    return text if not text or text.endswith("\n") else text + "\n"


class HubTools:
    """The hub as MCP sees it: its tool list (fetched once) and calls forwarded to it."""

    def __init__(self, autostart: bool) -> None:
        self._client = Tabsteward("mcp", autostart=autostart)
        self._tools: list[ToolInfo] | None = None
        self._person_tools: set[str] = set()
        self._lock = asyncio.Lock()
        self._warmup: asyncio.Task[list[ToolInfo]] | None = None

    def warm_up(self) -> None:
        """Connect and fetch the tools now, while the MCP client is still shaking hands."""
        self._warmup = asyncio.get_running_loop().create_task(self._fetch())
        self._warmup.add_done_callback(_log_warmup)

    async def tools(self) -> list[ToolInfo]:
        warmup, self._warmup = self._warmup, None
        if warmup is not None:
            # The first listing reports the warm-up's outcome instead of trying again.
            return await asyncio.shield(warmup)
        return await self._fetch()

    async def _fetch(self) -> list[ToolInfo]:
        async with self._lock:
            if self._tools is None:
                # the person's tools (answering approvals) are not offered to agents
                listed = await self._client.list_tools()
                self._person_tools = {t.name for t in listed if t.group == PERSON}
                self._tools = [t for t in listed if t.group != PERSON]
                log.info("offering the hub's %d tools", len(self._tools))
            return self._tools

    async def call(self, tool: str, args: dict[str, Any], agent: str,
                   on_pending: Pending | None = None) -> mcp_types.CallToolResult:
        import mcp_types
        try:
            try:
                await self._fetch()
            except TabstewardError as exc:
                raise type(exc)(f"`{tool}` was not sent: {exc.message}", **exc.details) \
                    from exc
            if tool in self._person_tools:
                return mcp_types.CallToolResult(content=[mcp_types.TextContent(
                    text=f"{tool} is for the person, not for agents; nothing was done")],
                    is_error=True)
            result = await self._client.invoke(tool, args, agent=agent, on_pending=on_pending)
        except TabstewardError as exc:
            log.info("%s failed for %s: %s", tool, agent, exc.message)
            return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=exc.message)],
                                            is_error=True)
        text = as_printed(result.text)
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=text)])

    async def close(self) -> None:
        if self._warmup is not None:
            self._warmup.cancel()
        await self._client.close()


def _log_warmup(task: asyncio.Task[list[ToolInfo]]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        log.warning("the hub's tools could not be fetched at start: %s", exc)


def to_mcp_tool(info: ToolInfo) -> mcp_types.Tool:
    """A hub tool as an MCP tool: same name and schema; mutating decides the hints."""
    import mcp_types
    schema = dict(info.input_schema)
    schema.setdefault("type", "object")
    return mcp_types.Tool(
        name=info.name, description=info.summary or None, input_schema=schema,
        annotations=mcp_types.ToolAnnotations(read_only_hint=not info.mutating,
                                              destructive_hint=info.mutating))


def waiting(ctx: ServerRequestContext[Any]) -> Pending:
    """Tell the MCP client that a call waits for the person, as progress of the call when
    the client asked for progress (MCP's logging capability is deprecated)."""
    sent: set[asyncio.Task[None]] = set()

    def send(coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        sent.add(task)
        task.add_done_callback(sent.discard)

    def told(pending: dict[str, Any]) -> None:
        step = pending.get("progress")
        done = 0.0
        if isinstance(step, dict):  # a step of the goal agent's run
            done = float(step.get("n") or 0)
            message = (f"step {step.get('n')}: {step.get('op')} {step.get('target')} → "
                       f"{str(step.get('result', ''))[:200]}")
        elif pending.get("timeout") is None:  # the person paused the agents
            message = f"waiting: {pending.get('summary')}"
        else:
            message = (f"waiting for the person to answer {pending.get('id')} (up to "
                       f"{pending.get('timeout')} s): {pending.get('summary')}")
        meta = ctx.meta or {}
        token = meta.get("progress_token", meta.get("progressToken"))
        if isinstance(token, str | int):
            send(ctx.session.send_progress_notification(
                token, done, message=message,
                related_request_id=str(ctx.request_id) if ctx.request_id is not None else None))

    return told


def build_server(hub: HubTools) -> Server[Any]:
    """The low-level MCP server whose tools/list and tools/call go to `hub`."""
    import mcp_types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: mcp_types.PaginatedRequestParams | None
                         ) -> mcp_types.ListToolsResult:
        try:
            tools = await hub.tools()
        except TabstewardError as exc:
            hint = (" Start it with `tabsteward serve`, or open the Tabsteward app."
                    if isinstance(exc, HubUnavailable) else "")
            raise MCPError(code=mcp_types.INTERNAL_ERROR,
                           message=f"Tabsteward listed no tools: {exc.message.rstrip('.')}.{hint}"
                           ) from exc
        return mcp_types.ListToolsResult(tools=[to_mcp_tool(t) for t in tools])

    async def call_tool(ctx: ServerRequestContext[Any],
                        params: mcp_types.CallToolRequestParams) -> mcp_types.CallToolResult:
        client = ctx.session.client_params
        agent = agent_name(client.client_info.name if client is not None else None)
        return await hub.call(params.name, params.arguments or {}, agent, waiting(ctx))

    return Server(NAME, version=version(), instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(autostart: bool = True) -> None:
    """Serve MCP on this process's stdin and stdout until the client closes stdin."""
    from mcp.server.stdio import stdio_server
    hub = HubTools(autostart)
    server = build_server(hub)
    # stdio_server points fds 0 and 1 away from the pipes while it serves, so a hub started
    # from here (autostart) never inherits the MCP channel.
    async with stdio_server() as (read_stream, write_stream):
        hub.warm_up()
        try:
            await server.run(read_stream, write_stream, server.create_initialization_options())
        finally:
            await hub.close()


def _import_mcp() -> None:
    """Import the mcp package, the bulk of the start-up time, with the collector paused.

    Its import allocates hundreds of thousands of long-lived objects; collecting while it
    runs costs about a third of the start, and freezing them afterwards keeps every later
    collection (and the exit) from walking them again.
    """
    gc.disable()
    try:
        import mcp.server.stdio  # noqa: F401
        import mcp_types  # noqa: F401
    finally:
        gc.freeze()
        gc.enable()


def main(autostart: bool | None = None) -> int:
    """Entry point of `tabsteward mcp`; $TABSTEWARD_NO_AUTOSTART=1 keeps it from starting a hub."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="tabsteward mcp: %(levelname)s %(name)s: %(message)s")
    logging.getLogger("tabsteward").setLevel(logging.INFO)
    _import_mcp()
    if autostart is None:
        autostart = os.environ.get("TABSTEWARD_NO_AUTOSTART", "") in ("", "0")
    try:
        asyncio.run(serve(autostart))
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
