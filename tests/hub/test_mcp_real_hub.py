"""A real MCP client session against `tabsteward mcp`, a real hub and a real Chromium."""

from __future__ import annotations

import asyncio
import json
import re
import sys

import fixture_server
import pytest
from hub_env import Hub
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import Implementation, TextContent

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def mcp_session(hub: Hub, scenario: object) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tabsteward.bridge", "mcp"], cwd=hub.env["HOME"],
        env={**hub.env, "TABSTEWARD_NO_AUTOSTART": "1"})

    async def main() -> None:
        async with Client(stdio_client(params),
                          client_info=Implementation(name="pytest-agent", version="1")) as c:
            await scenario(c)  # type: ignore[operator]

    asyncio.run(asyncio.wait_for(main(), 120))


def text_of(result: object) -> str:
    content = result.content  # type: ignore[attr-defined]
    assert len(content) == 1
    assert isinstance(content[0], TextContent)
    return str(content[0].text)


PERSON_TOOLS = {"approvals", "approve", "deny", "grants", "revoke", "agents", "unpair",
                "activity"}


def test_mcp_tools_carry_the_cli_verbs_and_read_only_hints(hub: Hub) -> None:
    async def scenario(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {"open", "snapshot", "click", "fill", "tabs"} <= set(tools)
        assert not PERSON_TOOLS & set(tools)  # the person's tools are not offered to agents
        assert tools["snapshot"].annotations.read_only_hint is True
        assert tools["click"].annotations.destructive_hint is True
        assert "interactive" in tools["snapshot"].input_schema["properties"]
        assert tools["open"].input_schema["required"] == ["url"]

    mcp_session(hub, scenario)


def test_mcp_snapshot_is_the_cli_snapshot_and_a_ref_from_it_clicks(
        hub: Hub, site: fixture_server.Site) -> None:
    opened = hub.cli("open", site.url("form.html"))
    assert opened.returncode == 0, opened.stderr
    cli_text = hub.cli("snapshot", "-i").stdout
    refs = json.loads(hub.cli("snapshot", "-i", "--json").stdout)["refs"]
    submit = next(r for r, info in refs.items() if info["name"] == "Create account")

    async def scenario(client: Client) -> None:
        shot = await client.call_tool("snapshot", {"interactive": True})
        assert not shot.is_error
        assert text_of(shot) == cli_text
        filled = await client.call_tool("fill", {"target": "#email", "text": "mcp@example.org"})
        assert "value now 'mcp@example.org'" in text_of(filled)
        clicked = await client.call_tool("click", {"target": submit})
        assert not clicked.is_error, text_of(clicked)
        waited = await client.call_tool("wait", {"text": "submitted mcp@example.org"})
        assert not waited.is_error, text_of(waited)

    mcp_session(hub, scenario)


def test_mcp_text_of_a_ref_is_the_whole_value_its_snapshot_line_cut(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("longtext.html")).returncode == 0
    refs = json.loads(hub.cli("snapshot", "--json").stdout)["refs"]
    log = next(r for r, info in refs.items() if info["name"] == "Output")

    async def scenario(client: Client) -> None:
        shot = await client.call_tool("snapshot", {"scope": log})
        assert text_of(shot).rstrip().endswith('" [+1,200 chars]')
        whole = await client.call_tool("text", {"target": log})
        assert not whole.is_error, text_of(whole)
        body = text_of(whole).split("\n", 2)[2]
        assert body.startswith(refs[log]["value"][:100])
        assert body.rstrip().endswith("DONE")
        assert len(body) > 1400

    mcp_session(hub, scenario)


def test_mcp_reports_a_bad_ref_as_a_tool_error(hub: Hub, site: fixture_server.Site) -> None:
    hub.cli("open", site.url("form.html"))

    async def scenario(client: Client) -> None:
        result = await client.call_tool("click", {"target": "@9999"})
        assert result.is_error
        assert "nothing was done" in text_of(result)
        malformed = await client.call_tool("click", {"target": 12})
        assert malformed.is_error

    mcp_session(hub, scenario)


def test_mcp_refuses_to_call_the_persons_tools(hub: Hub) -> None:
    async def scenario(client: Client) -> None:
        for name in sorted(PERSON_TOOLS):
            result = await client.call_tool(name, {})
            assert result.is_error
            assert text_of(result) == f"{name} is for the person, not for agents; nothing " \
                                      "was done"

    mcp_session(hub, scenario)


def test_mcp_open_with_interactive_returns_the_snapshot_whose_refs_act_at_once(
        hub: Hub, site: fixture_server.Site) -> None:
    async def scenario(client: Client) -> None:
        opened = await client.call_tool("open", {"url": site.url("form.html"),
                                                 "interactive": True})
        assert not opened.is_error, text_of(opened)
        first, _, shot = text_of(opened).partition("\n")
        assert first == f"opened {site.url('form.html')}"
        again = await client.call_tool("snapshot", {"interactive": True})
        assert shot == text_of(again)
        submit = re.search(r'button "Create account" (@\d+)', shot)
        assert submit, shot
        clicked = await client.call_tool("click", {"target": submit.group(1)})
        assert not clicked.is_error, text_of(clicked)
        malformed = await client.call_tool("open", {"url": site.url("form.html"),
                                                    "snapshot": "full"})
        assert malformed.is_error
        assert "snapshot" in text_of(malformed)
        assert "nothing was run" in text_of(malformed)

    mcp_session(hub, scenario)
