"""policy.toml as it is now: re-read when it changes, the last good one kept after a bad edit."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..errors import UsageError
from . import writer
from .profile_reader import load
from .profiles import Config, default_path

log = logging.getLogger("tabsteward.hub")

Stamp = tuple[int, int, int]  # (mtime_ns, size, inode) of the file last read
_UNCHECKED: Stamp = (-1, -1, -1)  # the file could not even be looked at


class ConfigFile:
    """The Config of one policy.toml, re-read when a cheap os.stat says it changed. A wrong
    edit leaves the last good Config in use and says why in `error`; a missing file means the
    built-in defaults. Made from a file that is wrong already, it raises UsageError."""

    def __init__(self, path: Path | None = None) -> None:
        self._given = path
        self.path = path if path is not None else default_path()
        self.error: str | None = None  # why the file on disk is not the one in use
        try:
            self._stamp = _stamp_of(self.path)
        except OSError:
            self._stamp = _UNCHECKED  # load() says why it cannot read the file
        self._config = load(self.path)

    def current(self) -> Config:
        """The config in use, after re-reading the file if it changed since the last look."""
        try:
            stamp = _stamp_of(self.path)
        except OSError as exc:
            self._refuse(_UNCHECKED, f"{self.path}: could not be checked "
                         f"({exc.strerror or type(exc).__name__})")
            return self._config
        if stamp != self._stamp:
            self._reload(stamp)
        return self._config

    def save(self, config: Config) -> Config:
        """Write `config` to the file (see writer.save) and use it from now on; the config as
        read back. On failure nothing changes, on disk or here."""
        saved = writer.save(config, self._given)
        self._config, self._stamp, self.error = saved, _stamp_of(self.path), None
        return saved

    def _reload(self, stamp: Stamp | None) -> None:
        try:
            config = load(self.path)
        except UsageError as exc:
            self._refuse(stamp, exc.message)
            return
        if self.error:
            log.info("%s is usable again; its policy is in use", self.path)
        self._config, self._stamp, self.error = config, stamp, None

    def _refuse(self, stamp: Stamp | None, why: str) -> None:
        """Keep the config in use; warn once for each change of the file."""
        if stamp != self._stamp or self.error is None:
            log.warning("%s (the policy in use stays as it was)", why)
        self._stamp, self.error = stamp, why


def _stamp_of(path: Path) -> Stamp | None:
    """How the file looks on disk now; None when there is none."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
