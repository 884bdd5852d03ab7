"""Where each browser's program is, per system, to open its extensions page for the person."""

from __future__ import annotations

import ntpath
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

_LINUX: dict[str, tuple[str, ...]] = {
    "chrome": ("google-chrome", "google-chrome-stable"),
    "chromium": ("chromium", "chromium-browser"),
    "edge": ("microsoft-edge", "microsoft-edge-stable"),
    "brave": ("brave-browser", "brave"),
}
_MACOS: dict[str, str] = {
    "chrome": "Google Chrome.app/Contents/MacOS/Google Chrome",
    "chromium": "Chromium.app/Contents/MacOS/Chromium",
    "edge": "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    "brave": "Brave Browser.app/Contents/MacOS/Brave Browser",
}
_WINDOWS: dict[str, str] = {
    "chrome": "Google\\Chrome\\Application\\chrome.exe",
    "chromium": "Chromium\\Application\\chrome.exe",
    "edge": "Microsoft\\Edge\\Application\\msedge.exe",
    "brave": "BraveSoftware\\Brave-Browser\\Application\\brave.exe",
}


def candidates(browser: str, platform: str = sys.platform, home: Path | None = None,
               env: Mapping[str, str] | None = None) -> list[str]:
    """The places (or, on Linux, the command names) `browser`'s program may have."""
    env = os.environ if env is None else env
    if platform == "win32":
        bases = [env.get(v, "") for v in ("PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA")]
        return [ntpath.join(b, _WINDOWS[browser]) for b in bases if b]
    if platform == "darwin":
        home = Path.home() if home is None else home
        return [str(Path(folder) / _MACOS[browser])
                for folder in ("/Applications", home / "Applications")]
    return list(_LINUX[browser])


def find(browser: str, platform: str = sys.platform, home: Path | None = None,
         env: Mapping[str, str] | None = None) -> str | None:
    """The program of `browser` here, or None."""
    env = os.environ if env is None else env
    for place in candidates(browser, platform, home, env):
        if os.path.isabs(place) or ntpath.isabs(place):
            if os.path.isfile(place):
                return place
        else:
            found = shutil.which(place, path=env.get("PATH"))
            if found:
                return found
    return None


def can_show_windows(platform: str = sys.platform,
                     env: Mapping[str, str] | None = None) -> bool:
    """Whether a browser started here could show a window (Linux needs a display)."""
    env = os.environ if env is None else env
    return platform in ("win32", "darwin") or bool(env.get("DISPLAY")
                                                   or env.get("WAYLAND_DISPLAY"))


def open_page(program: str, page: str) -> None:
    """Start the browser with `page` as its argument, detached: a running browser opens it
    in a new tab of its window, else it starts with it."""
    windows = sys.platform == "win32"
    subprocess.Popen([program, page], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, close_fds=True, start_new_session=not windows,
                     creationflags=getattr(subprocess, "DETACHED_PROCESS", 0) if windows else 0)
