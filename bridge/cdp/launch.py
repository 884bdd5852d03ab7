"""Find and start a Chromium with the quiet flags, speaking CDP over --remote-debugging-pipe."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import shutil
import signal
import tempfile
from pathlib import Path

from ..errors import BrowserError
from .connection import CDPConnection

log = logging.getLogger("tabsteward.cdp")

CANDIDATES = (
    "/usr/lib/chromium/chromium",  # Debian's binary; /usr/bin/chromium is a wrapper
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/opt/google/chrome/chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)

QUIET_FLAGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--disable-popup-blocking",
    "--window-size=1280,720",
)

# a headless browser has no mouse: pages read `(pointer: none)` and `(hover: none)` and hide
# what they show under a desktop pointer (MUI's clear button, menus opened on hover); it is
# told it has one, as the person's desktop browser does
DESKTOP_POINTER = ("--blink-settings=primaryPointerType=4,availablePointerTypes=4,"
                   "primaryHoverType=2,availableHoverTypes=2")

# loopback only: 127.0.0.1, and 127.0.0.2 as a second site (cross-site frames, redirects)
LOCAL_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE 127.0.0.2'


def find_chromium() -> str:
    """The browser binary: $TABSTEWARD_CHROMIUM, else the first known install."""
    env = os.environ.get("TABSTEWARD_CHROMIUM")
    if env:
        if os.access(env, os.X_OK):
            return env
        raise BrowserError(f"TABSTEWARD_CHROMIUM={env} is not an executable file")
    for path in CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError("no Chromium found: install Debian's `chromium` package "
                       "(`apt-get install chromium`) or set TABSTEWARD_CHROMIUM")


def chromium_args(exe: str, user_data_dir: str, headless: bool,
                  local_only: bool, extra: list[str]) -> list[str]:
    args = [exe, "--remote-debugging-pipe", f"--user-data-dir={user_data_dir}", *QUIET_FLAGS]
    if headless:
        args += ["--headless=new", DESKTOP_POINTER]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start as root otherwise
    if local_only:
        args.append(LOCAL_ONLY)
    args.extend(extra)
    args.append("about:blank")
    return args


def _above_nine(fd: int) -> int:
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class _PipeReader(asyncio.Protocol):
    def __init__(self, conn: PipeConnection) -> None:
        self.conn = conn
        self.buf = bytearray()

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            end = self.buf.find(b"\0")
            if end < 0:
                return
            message = bytes(self.buf[:end])
            del self.buf[:end + 1]
            self.conn._on_message(message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn._on_closed("the browser closed its DevTools pipe")


class PipeConnection(CDPConnection):
    """A Chromium this process launched, spoken to over fds 3 (in) and 4 (out)."""

    def __init__(self) -> None:
        super().__init__()
        self.process: asyncio.subprocess.Process | None = None
        self._writer: asyncio.WriteTransport | None = None
        self._reader: asyncio.ReadTransport | None = None
        self._profile: tempfile.TemporaryDirectory[str] | None = None

    @classmethod
    async def launch(cls, *, headless: bool = True, user_data_dir: str | None = None,
                     local_only: bool = False, extra_args: list[str] | None = None,
                     executable: str | None = None) -> PipeConnection:
        conn = cls()
        exe = executable or find_chromium()
        if user_data_dir is None:
            conn._profile = tempfile.TemporaryDirectory(prefix="tabsteward-chromium-")
            user_data_dir = conn._profile.name
        args = chromium_args(exe, user_data_dir, headless, local_only, extra_args or [])
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # the child's ends move above fd 9, so placing them on 3 and 4 cannot clobber them
        # (bash, not sh: dash takes only one-digit fds in redirections)
        to_child_r, from_child_w = (_above_nine(to_child_r), _above_nine(from_child_w))

        # Chromium reads commands on fd 3 and writes replies on fd 4: a shell places them.
        script = f'exec "$0" "$@" 3<&{to_child_r} 4>&{from_child_w}'
        placed = [shutil.which("bash") or "/bin/bash", "-c", script, *args]
        log_path = Path(user_data_dir) / "chromium.log"
        with open(log_path, "ab") as log_file:
            try:
                conn.process = await asyncio.create_subprocess_exec(
                    *placed, stdin=asyncio.subprocess.DEVNULL, stdout=log_file, stderr=log_file,
                    pass_fds=(to_child_r, from_child_w),
                    start_new_session=True)
            except OSError as exc:
                raise BrowserError(f"could not start {exe}: {exc.strerror}") from exc
            finally:
                os.close(to_child_r)
                os.close(from_child_w)
        loop = asyncio.get_running_loop()
        conn._reader, _ = await loop.connect_read_pipe(
            lambda: _PipeReader(conn), os.fdopen(from_child_r, "rb", buffering=0))
        conn._writer, _ = await loop.connect_write_pipe(
            asyncio.Protocol, os.fdopen(to_child_w, "wb", buffering=0))
        try:
            await conn.send("Browser.getVersion", timeout=30)
        except BrowserError as exc:
            await conn.close()
            raise BrowserError(f"Chromium started but did not answer over its pipe "
                               f"(see {log_path}): {exc.message}") from exc
        log.info("launched %s (pid %s)", exe, conn.process.pid)
        return conn

    async def _send_raw(self, text: str) -> None:
        if self._writer is None or self._writer.is_closing():
            raise BrowserError("the browser pipe is closed")
        self._writer.write(text.encode() + b"\0")

    async def close(self) -> None:
        self._on_closed("closed by Tabsteward")
        proc = self.process
        if proc is not None and proc.returncode is None:
            try:
                if self._writer is not None and not self._writer.is_closing():
                    self._writer.write(b'{"id":0,"method":"Browser.close"}\0')
                async with asyncio.timeout(5):
                    await proc.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
        for transport in (self._writer, self._reader):
            if transport is not None:
                transport.close()
        if self._profile is not None:
            self._profile.cleanup()
            self._profile = None
