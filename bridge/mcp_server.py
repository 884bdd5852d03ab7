"""The MCP server on stdio: the hub's tools, one for one, each call forwarded to the hub."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from .errors import HubUnavailable, TabstewardError
from .sdk import Tabsteward, ToolInfo

if TYPE_CHECKING:
    import mcp_types
    from mcp.server import Server, ServerRequestContext

log = logging.getLogger(__name__)

NAME = "tabsteward"
INSTRUCTIONS = (
    "Tabsteward drives the person's own browser in background tabs. Take a `snapshot` to "
    "read the page: elements get @N refs (stable across snapshots) that `click`, `fill` and "
    "the other tools take as their target. Actions policy holds wait for the person to "
    "confirm them."
)


def agent_name(client_name: str | None) -> str:
    """Who the hub sees: $TABSTEWARD_AGENT, else the MCP client's own name, else "mcp"."""
    return os.environ.get("TABSTEWARD_AGENT") or client_name or "mcp"


class HubTools:
    """The hub as MCP sees it: its tool list (fetched once) and calls forwarded to it."""

    def __init__(self, autostart: bool) -> None:
        self._client = Tabsteward("mcp", autostart=autostart)
        self._tools: list[ToolInfo] | None = None
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
                self._tools = await self._client.list_tools()
                log.info("offering the hub's %d tools", len(self._tools))
            return self._tools

    async def call(self, tool: str, args: dict[str, Any], agent: str) -> mcp_types.CallToolResult:
        import mcp_types
        try:
            result = await self._client.invoke(tool, args, agent=agent)
        except TabstewardError as exc:
            log.info("%s failed for %s: %s", tool, agent, exc.message)
            return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=exc.message)],
                                            is_error=True)
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=result.text)])

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
        return await hub.call(params.name, params.arguments or {}, agent)

    return Server(NAME, version=_version(), instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(NAME)
    except PackageNotFoundError:
        return "0"


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


def main(autostart: bool | None = None) -> int:
    """Entry point of `tabsteward mcp`; $TABSTEWARD_NO_AUTOSTART=1 keeps it from starting a hub."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="tabsteward mcp: %(levelname)s %(name)s: %(message)s")
    logging.getLogger("tabsteward").setLevel(logging.INFO)
    if autostart is None:
        autostart = os.environ.get("TABSTEWARD_NO_AUTOSTART", "") in ("", "0")
    try:
        asyncio.run(serve(autostart))
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
