"""Tabsteward's tray app: the person's window onto the hub (PySide6 + qasync)."""
