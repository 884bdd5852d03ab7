"""The hub: the local API server, the per-agent sessions, and `tabsteward serve`
(layer 6 of bridge/LAYERS.md: it may import the tool table and all below it)."""
