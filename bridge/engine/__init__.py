"""The page engine: tabs, snapshots with stable @refs, and actions, over any CDP transport
(layer 3 of bridge/LAYERS.md: it may import cdp and all below it)."""
