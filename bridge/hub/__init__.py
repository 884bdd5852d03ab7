"""The hub: the local API server, the per-agent sessions, and `tabsteward serve`."""
