"""Virtual X displays for the tests that need a screen (Xvfb), and a tray host on one
(trayer), the way a person's desktop has them."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

SETUP = "run `bash packaging/bootstrap.sh test`, which installs it"


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A fresh X display (":N"); a machine without Xvfb fails the test."""
    with xvfb_server() as (display, _):
        yield display


@contextlib.contextmanager
def xvfb_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A fresh X display and its server's process (a test may end the display early)."""
    binary = shutil.which("Xvfb")
    if binary is None:
        pytest.fail(f"Xvfb is missing: {SETUP}", pytrace=False)
    read, write = os.pipe()
    proc = subprocess.Popen([binary, "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()  # Xvfb writes the display number once it listens
    try:
        assert number, "Xvfb did not start"
        yield f":{number}", proc
    finally:
        proc.terminate()
        proc.wait(30)


@contextlib.contextmanager
def tray_host(display: str) -> Iterator[subprocess.Popen[bytes]]:
    """trayer on the display: the system tray a desktop panel gives the person."""
    binary = shutil.which("trayer")
    if binary is None:
        pytest.fail(f"trayer is missing: {SETUP}", pytrace=False)
    proc = subprocess.Popen([binary, "--edge", "top", "--align", "right", "--widthtype",
                             "pixel", "--width", "160", "--height", "32", "--SetDockType",
                             "true", "--tint", "0x303030", "--transparent", "false"],
                            env={**os.environ, "DISPLAY": display},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(30)
