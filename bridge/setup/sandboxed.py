"""Browsers installed from Snap or Flatpak: their sandbox cannot start a native host.

A Snap- or Flatpak-confined browser runs only programs inside its sandbox, so it cannot
start Tabsteward's native host, and its extension never reaches the hub (KeePassXC and
Bitwarden say the same of theirs). `doctor` reports each one found and `install` skips it,
both with the words made here. Finding them is a function of paths only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .install import LABELS

# the system's root: tests point it at a fake install layout
SYSTEM_ROOT = Path("/")
# snap name -> browser (the Snap Store has no Chrome or Edge)
SNAPS: dict[str, str] = {"chromium": "chromium", "brave": "brave"}
# Flatpak application id -> browser
FLATPAKS: dict[str, str] = {
    "com.google.Chrome": "chrome",
    "com.google.ChromeDev": "chrome",
    "org.chromium.Chromium": "chromium",
    "io.github.ungoogled_software.ungoogled_chromium": "chromium",
    "com.microsoft.Edge": "edge",
    "com.brave.Browser": "brave",
}
_VENDOR_PACKAGES = {"chrome": "Google Chrome", "chromium": "Chromium", "edge": "Microsoft Edge",
                    "brave": "Brave"}


@dataclass(frozen=True)
class Sandboxed:
    """One confined browser install: which browser, `Snap` or `Flatpak`, and what shows it."""

    browser: str
    kind: str
    where: Path

    @property
    def name(self) -> str:
        return f"{LABELS[self.browser]} from {self.kind} ({self.where})"

    @property
    def why(self) -> str:
        return (f"{self.kind} confines {LABELS[self.browser]} to its sandbox, which cannot "
                "start Tabsteward's native host outside it, so the extension there can never "
                "reach the hub")

    @property
    def fix(self) -> str:
        if self.browser == "chromium":
            other = ("Chromium from your distribution's own packages (Debian: `apt install "
                     "chromium`; on Ubuntu that name installs the Snap), or Google Chrome, "
                     "Edge or Brave from the vendor's .deb/.rpm")
        else:
            other = (f"{_VENDOR_PACKAGES[self.browser]} from the vendor's .deb/.rpm (or from "
                     "your distribution's packages)")
        return (f"use {other}, load Tabsteward's extension there and run `tabsteward "
                "install` again")

    def line(self) -> str:
        """The one sentence install and doctor both print."""
        return f"{self.name}: {self.why}; fix: {self.fix}"

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "browser": self.browser, "kind": self.kind,
                "where": str(self.where), "why": self.why, "fix": self.fix}


def _snaps(root: Path, home: Path) -> list[Sandboxed]:
    found: list[Sandboxed] = []
    for snap, browser in SNAPS.items():
        for place in (root / "snap" / snap, root / "snap" / "bin" / snap,
                      root / "var" / "lib" / "snapd" / "snaps" / f"{snap}.snap",
                      home / "snap" / snap):
            if place.exists():
                found.append(Sandboxed(browser, "Snap", place))
                break
    return found


def _flatpaks(root: Path, home: Path, env: Mapping[str, str]) -> list[Sandboxed]:
    xdg = env.get("XDG_DATA_HOME", "")
    user = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    found: list[Sandboxed] = []
    for app, browser in FLATPAKS.items():
        for place in (root / "var" / "lib" / "flatpak" / "app" / app,
                      user / "flatpak" / "app" / app, home / ".var" / "app" / app):
            if place.is_dir():
                found.append(Sandboxed(browser, "Flatpak", place))
                break
    return found


def find(platform: str = sys.platform, home: Path | None = None,
         env: Mapping[str, str] | None = None, root: Path | None = None) -> list[Sandboxed]:
    """The Snap and Flatpak browser installs on this machine (Linux only)."""
    if not platform.startswith("linux"):
        return []
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    root = SYSTEM_ROOT if root is None else root
    return _snaps(root, home) + _flatpaks(root, home, env)
