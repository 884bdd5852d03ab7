"""Tabsteward's tray app: the person's window onto the hub (PySide6 + qasync)
(layer 8 of bridge/LAYERS.md: it may import the hub and all below it)."""
