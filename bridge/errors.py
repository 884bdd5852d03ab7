"""The one exception hierarchy of Tabsteward, with the numeric codes shared on the wire.

    TabstewardError                 code 1   anything Tabsteward refuses or fails to do
    ├── UsageError                  code 2   the request itself is wrong (arguments, schema)
    ├── AuthError                   code 3   the caller is not allowed to talk to the hub
    ├── HubUnavailable              code 4   no hub answers and none could be started
    ├── BrowserError                code 10  the browser or the DevTools link failed
    │   └── CDPError                code 11  a DevTools command returned an error
    ├── TargetError                 code 20  the element an action names cannot be used
    │   ├── RefNotFound             code 21  no element matches the ref, locator or selector
    │   ├── TargetCovered           code 22  another element covers every visible point
    │   └── TargetNotInteractable   code 23  the element is hidden, disabled or the wrong kind
    ├── TabError                    code 30  the tab is gone or not the agent's
    ├── ActionTimeout               code 40  a wait ran out before its condition held
    └── PolicyError                 code 50  policy refused the action (eval behind a flag)

Messages say what did not happen and what to do; they never echo internals of the peer.
"""

from __future__ import annotations

from typing import Any, ClassVar


class TabstewardError(Exception):
    """Base of every error Tabsteward reports; `code` travels on the wire."""

    code: ClassVar[int] = 1
    exit_code: ClassVar[int] = 1

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "type": type(self).__name__,
                               "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class UsageError(TabstewardError):
    code = 2
    exit_code = 2


class AuthError(TabstewardError):
    code = 3
    exit_code = 3


# approve and deny refuse a code given as an argument, and say why
CODE_NOT_ON_COMMAND_LINE = (
    "the one-time code is never taken from the command line: any process on this machine "
    "can read a command line (ps, /proc/PID/cmdline), and one that saw it could answer in "
    "your place. Nothing was answered. Run `tabsteward approve ID` (or `deny ID`) and type "
    "the code when asked, or give it on stdin: `tabsteward approve ID < file`")


def code_on_command_line(argv: list[str]) -> bool:
    """Whether a command line tries to carry a one-time code (`--code`, `--code=...`)."""
    for word in argv:
        if word == "--":
            return False
        if word == "--code" or word.startswith("--code="):
            return True
    return False


class HubUnavailable(TabstewardError):
    code = 4
    exit_code = 4


class BrowserError(TabstewardError):
    code = 10
    exit_code = 5


class CDPError(BrowserError):
    code = 11

    def __init__(self, method: str, message: str, cdp_code: int | None = None) -> None:
        super().__init__(f"{method} failed: {message}", method=method, cdp_code=cdp_code)
        self.method = method
        self.cdp_message = message


class TargetError(TabstewardError):
    code = 20
    exit_code = 6


class RefNotFound(TargetError):
    code = 21


class TargetCovered(TargetError):
    code = 22


class TargetNotInteractable(TargetError):
    code = 23


class TabError(TabstewardError):
    code = 30
    exit_code = 7


class ActionTimeout(TabstewardError):
    code = 40
    exit_code = 8


class PolicyError(TabstewardError):
    code = 50
    exit_code = 9


_BY_NAME: dict[str, type[TabstewardError]] = {
    cls.__name__: cls
    for cls in (TabstewardError, UsageError, AuthError, HubUnavailable, BrowserError,
                TargetError, RefNotFound, TargetCovered, TargetNotInteractable, TabError,
                ActionTimeout, PolicyError)
}


def from_wire(error: dict[str, Any]) -> TabstewardError:
    """Rebuild the error a hub reported (unknown types become the base class)."""
    cls = _BY_NAME.get(str(error.get("type")), TabstewardError)
    details = error.get("details") or {}
    err = cls(str(error.get("message", "the hub reported an error")),
              **(details if isinstance(details, dict) else {}))
    return err
