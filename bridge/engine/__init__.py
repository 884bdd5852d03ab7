"""The page engine: tabs, snapshots with stable @refs, and actions, over any CDP transport."""
