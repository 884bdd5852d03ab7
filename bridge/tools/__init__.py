"""The agent-facing tools: one table (name, schema, read-only or mutating, handler) for all."""
