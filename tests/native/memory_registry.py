"""The Windows registry (HKCU) in memory, for install and doctor tests on Linux."""

from __future__ import annotations


class MemoryRegistry:
    """HKEY_CURRENT_USER in a dict: the one stand-in, as winreg cannot run here."""

    def __init__(self) -> None:
        self.keys: dict[str, str] = {}

    def get_default(self, key: str) -> str | None:
        return self.keys.get(key)

    def set_default(self, key: str, value: str) -> None:
        self.keys[key] = value

    def delete(self, key: str) -> bool:
        return self.keys.pop(key, None) is not None


class MemoryRunKey:
    """HKCU\\...\\CurrentVersion\\Run's values in a dict (autostart on Windows)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def get(self, name: str) -> str | None:
        return self.values.get(name)

    def set(self, name: str, value: str) -> None:
        self.values[name] = value

    def delete(self, name: str) -> bool:
        return self.values.pop(name, None) is not None
