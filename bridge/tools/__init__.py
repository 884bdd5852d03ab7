"""The agent-facing tools: one table (name, schema, read-only or mutating, handler) for all
(layer 5 of bridge/LAYERS.md: it may import the goal agent and all below it)."""
