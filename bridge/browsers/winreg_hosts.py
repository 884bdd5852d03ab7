"""Windows registration of native hosts: HKCU keys per browser, written through a Registry."""

from __future__ import annotations

import sys
from typing import Protocol

# HKEY_CURRENT_USER\<vendor>\NativeMessagingHosts\<host>, default value = manifest path
VENDOR_KEYS: dict[str, str] = {
    "chrome": "Software\\Google\\Chrome",
    "chromium": "Software\\Chromium",
    "edge": "Software\\Microsoft\\Edge",
    "brave": "Software\\BraveSoftware\\Brave-Browser",
}
HIVE = "HKCU"
NOT_WINDOWS = "the Windows registry exists only on Windows; nothing was changed in it"


class Registry(Protocol):
    """The few HKEY_CURRENT_USER operations registration needs; keys are HKCU-relative."""

    def get_default(self, key: str) -> str | None:
        """The key's default value, or None when the key (or its value) is missing."""

    def set_default(self, key: str, value: str) -> None:
        """Create the key if needed and set its default value."""

    def delete(self, key: str) -> bool:
        """Delete the key (it has no subkeys); whether it existed."""


def host_key(browser: str, host: str) -> str:
    """The HKCU-relative key that registers `host` for `browser`."""
    return f"{VENDOR_KEYS[browser]}\\NativeMessagingHosts\\{host}"


def shown(key: str) -> str:
    """The key as a person would type it into regedit."""
    return f"{HIVE}\\{key}"


def register(registry: Registry, browser: str, host: str, manifest_path: str) -> str:
    """Point `browser` at the manifest; the key written is returned."""
    key = host_key(browser, host)
    registry.set_default(key, manifest_path)
    return key


def unregister(registry: Registry, browser: str, host: str) -> str | None:
    """Remove `browser`'s key for `host`; the key removed, or None when there was none."""
    key = host_key(browser, host)
    return key if registry.delete(key) else None


def registered(registry: Registry, browser: str, host: str) -> str | None:
    """The manifest path `browser` finds for `host`, or None when not registered."""
    return registry.get_default(host_key(browser, host))


class WinRegistry:
    """The real HKEY_CURRENT_USER, through winreg (imported on Windows only)."""

    def get_default(self, key: str) -> str | None:
        if sys.platform == "win32":
            import winreg
            try:
                with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key) as handle:
                    value, _kind = winreg.QueryValueEx(handle, "")
            except FileNotFoundError:
                return None
            return value if isinstance(value, str) else None
        raise OSError(NOT_WINDOWS)

    def set_default(self, key: str, value: str) -> None:
        if sys.platform == "win32":
            import winreg
            with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, key, 0,
                                    winreg.KEY_SET_VALUE) as handle:
                winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)
            return
        raise OSError(NOT_WINDOWS)

    def delete(self, key: str) -> bool:
        if sys.platform == "win32":
            import winreg
            try:
                winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)
            except FileNotFoundError:
                return False
            return True
        raise OSError(NOT_WINDOWS)
