"""What `tabsteward setup` writes for the tray app, as pure functions of paths: the autostart
entry of each system (an XDG .desktop file, a LaunchAgent plist, an HKCU Run value), the
Linux menu entry and where its icons go.
"""

from __future__ import annotations

import ntpath
import os
import plistlib
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import UsageError

APP_ID = "tabsteward"  # the .desktop files' and the icon's name
LAUNCH_AGENT = "com.tabsteward.tray"  # the LaunchAgent's label and plist name
RUN_KEY = "Software\\Microsoft\\Windows\\CurrentVersion\\Run"
RUN_VALUE = "Tabsteward"
NAME = "Tabsteward"
COMMENT = "Lets your AI agents use this browser in background tabs, with you in charge"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256)
# characters that make the Desktop Entry spec require an Exec argument to be quoted
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def program(executable: str = sys.executable, frozen: bool | None = None) -> list[str]:
    """The words that run the `tabsteward` command with this installation: the frozen
    binary itself, else this Python with `-m tabsteward.bridge`."""
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    return [executable] if frozen else [executable, "-m", "tabsteward.bridge"]


def tray_command(executable: str = sys.executable, frozen: bool | None = None,
                 windows: bool = False) -> list[str]:
    """The tray app's command line; on Windows with pythonw.exe (or the frozen build's
    tabstewardw.exe), so no console window opens."""
    words = program(executable, frozen)
    if windows:
        head, tail = ntpath.split(words[0])
        windowless = {"python.exe": "pythonw.exe", "tabsteward.exe": "tabstewardw.exe"}
        if tail.lower() in windowless:
            words[0] = ntpath.join(head, windowless[tail.lower()])
    return [*words, "desktop"]


# -- Linux: XDG desktop entries --------------------------------------------------------------

def exec_argument(word: str) -> str:
    """One argument of a desktop entry's Exec key, quoted and escaped as the Desktop Entry
    spec says (the quoting rule, then the string rule: a backslash becomes four)."""
    if "\n" in word or "\r" in word or "\0" in word:
        raise UsageError(f"the path {word!r} holds a line break, which a desktop entry cannot "
                         "hold; nothing was written")
    text = word.replace("%", "%%")
    if not text or any(c in _RESERVED for c in text):
        for c in ("\\", '"', "`", "$"):
            text = text.replace(c, "\\" + c)
        text = f'"{text}"'
    return text.replace("\\", "\\\\")


def desktop_entry(command: Sequence[str], autostart: bool) -> str:
    """A desktop entry that runs `command`: the menu entry, or the autostart one."""
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        f"Name={NAME}",
        "GenericName=Browser agent steward",
        f"Comment={COMMENT}",
        "Exec=" + " ".join(exec_argument(w) for w in command),
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Network;",
        "Keywords=agent;browser;AI;tray;",
        "StartupNotify=false",
    ]
    if autostart:
        lines.append("X-GNOME-Autostart-enabled=true")
    return "\n".join(lines) + "\n"


def _xdg(env: Mapping[str, str], var: str, home: Path, fallback: str) -> Path:
    value = env.get(var, "")
    return Path(value) if os.path.isabs(value) else home / fallback


def linux_autostart_path(home: Path, env: Mapping[str, str]) -> Path:
    return _xdg(env, "XDG_CONFIG_HOME", home, ".config") / "autostart" / f"{APP_ID}.desktop"


def linux_menu_path(home: Path, env: Mapping[str, str]) -> Path:
    return _xdg(env, "XDG_DATA_HOME", home, ".local/share") / "applications" / \
        f"{APP_ID}.desktop"


def linux_icon_paths(home: Path, env: Mapping[str, str]) -> dict[str, Path]:
    """Where the menu icon goes in the person's hicolor theme: 'svg' and one per PNG size."""
    theme = _xdg(env, "XDG_DATA_HOME", home, ".local/share") / "icons" / "hicolor"
    found = {"svg": theme / "scalable" / "apps" / f"{APP_ID}.svg"}
    for size in PNG_SIZES:
        found[str(size)] = theme / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    return found


# -- macOS: a LaunchAgent ----------------------------------------------------------------------

def launch_agent_path(home: Path) -> Path:
    return home / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT}.plist"


def launch_agent(command: Sequence[str]) -> str:
    """The LaunchAgent that starts `command` when the person logs in (to the GUI session)."""
    return plistlib.dumps({
        "Label": LAUNCH_AGENT,
        "ProgramArguments": list(command),
        "RunAtLoad": True,
        "ProcessType": "Interactive",
        "LimitLoadToSessionType": "Aqua",
    }).decode("utf-8")


# -- Windows: a Run value ----------------------------------------------------------------------

def run_value(command: Sequence[str]) -> str:
    """The HKCU Run value's data: the command line, each word quoted as Windows splits it."""
    return subprocess.list2cmdline(list(command))


def shown_run_value() -> str:
    return f"HKCU\\{RUN_KEY}\\{RUN_VALUE}"
