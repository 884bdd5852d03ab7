"""Keep the hub's memory (one-time codes, tokens, typed secrets) from other processes of the
same user: on Linux the hub makes itself non-dumpable, so they cannot read /proc/PID/mem,
attach a debugger or take a core dump. Root (CAP_SYS_PTRACE) still can."""

from __future__ import annotations

import ctypes
import logging
import sys

log = logging.getLogger("tabsteward.hub")

PR_SET_DUMPABLE = 4
PR_GET_DUMPABLE = 3


def non_dumpable() -> bool:
    """Make this process non-dumpable (Linux); whether it now is. Elsewhere nothing is done:
    macOS's PT_DENY_ATTACH would also kill the process under a debugger and hide its crash
    reports, and Windows keeps another user's processes out by default (see SECURITY.md)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the C library Python already runs on
        if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")
        return bool(libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0)
    except (OSError, AttributeError) as exc:
        log.warning("could not make the hub non-dumpable (%s): other processes of this user "
                    "may read its memory", exc)
        return False
