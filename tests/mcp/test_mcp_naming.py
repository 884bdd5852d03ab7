"""The MCP server's pure parts: the agent name it gives the hub and the text it returns."""

from __future__ import annotations

import pytest
from tabsteward.bridge.hub.protocol import DEFAULT_AGENT
from tabsteward.bridge.mcp.server import agent_name, as_printed

pytestmark = pytest.mark.timeout(10)


@pytest.fixture(autouse=True)
def no_agent_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABSTEWARD_AGENT", raising=False)


def test_mcp_calls_act_as_the_clis_default_agent_so_both_see_the_same_tabs() -> None:
    assert agent_name("claude-code") == DEFAULT_AGENT
    assert agent_name(None) == DEFAULT_AGENT


def test_tabsteward_agent_wins_over_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABSTEWARD_AGENT", "night-shift")
    assert agent_name("claude-code") == "night-shift"


def test_text_is_returned_as_the_cli_prints_it() -> None:
    assert as_printed("- button @1") == "- button @1\n"
    assert as_printed("- button @1\n") == "- button @1\n"
    assert as_printed("") == ""
