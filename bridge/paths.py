"""Where Tabsteward keeps state, sockets and config: the platform's conventions (XDG here)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

APP = "tabsteward"


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def config_dir() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / APP
    return _xdg("XDG_CONFIG_HOME", ".config") / APP


def state_dir() -> Path:
    if sys.platform in ("darwin", "win32"):
        return config_dir()
    return _xdg("XDG_STATE_HOME", ".local/state") / APP


def cache_dir() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home())) / APP / "cache"
    return _xdg("XDG_CACHE_HOME", ".cache") / APP


def data_dir() -> Path:
    """Files installed for the person to use, such as the unpacked extension."""
    if sys.platform == "darwin":
        return config_dir()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home())) / APP
    return _xdg("XDG_DATA_HOME", ".local/share") / APP


def downloads_dir() -> Path:
    """The person's Downloads folder ($XDG_DOWNLOAD_DIR when set, else ~/Downloads)."""
    value = os.environ.get("XDG_DOWNLOAD_DIR")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / "Downloads"


def agent_files_dir(agent: str) -> Path:
    """Where an agent's screenshots, downloads and exports go unless it names another place:
    ~/Downloads/Tabsteward/AGENT (the agent's id, made safe as a folder name)."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", agent).strip("-")[:64] or "agent"
    return downloads_dir() / "Tabsteward" / safe


def ensure_private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if hasattr(os, "getuid"):
        st = path.stat()
        if st.st_uid != os.getuid():
            raise PermissionError(f"{path} belongs to another user; refusing to use it")
        if st.st_mode & 0o077:
            path.chmod(0o700)
    return path
