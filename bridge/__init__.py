"""Tabsteward's headless side: transports, page engine, hub, and the agent-facing tools."""
