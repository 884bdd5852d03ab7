"""The options of `install`, `uninstall` and `doctor`: --browser, --user-data-dir, --json."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import TabstewardError, UsageError
from .install import BROWSERS

OPTIONS = "--browser NAME (repeatable), --user-data-dir DIR, --json, --help"


@dataclass(frozen=True)
class Options:
    browsers: tuple[str, ...] = ()
    user_data_dir: Path | None = None
    json: bool = False
    help: bool = False


def parse(argv: Sequence[str], command: str, undone: str) -> Options:
    """The options in argv; UsageError saying `undone` (e.g. "nothing was installed")."""
    browsers: list[str] = []
    user_data_dir: Path | None = None
    as_json = show_help = False
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name in ("--browser", "--user-data-dir"):
            what = "NAME" if name == "--browser" else "DIR"
            if not eq:
                if i + 1 >= len(words) or words[i + 1].startswith("-"):
                    raise UsageError(f"{name} needs a value ({name} {what}); {undone}")
                i += 1
                value = words[i]
            if not value:
                raise UsageError(f"{name} needs a value ({name} {what}); {undone}")
            if name == "--browser":
                if value not in BROWSERS:
                    raise UsageError(f"unknown browser {value!r} (known: "
                                     f"{', '.join(BROWSERS)}); {undone}")
                if value not in browsers:
                    browsers.append(value)
            elif user_data_dir is not None:
                raise UsageError(f"--user-data-dir is given twice; {undone}")
            else:
                user_data_dir = Path(value).expanduser()
        elif word == "--json":
            as_json = True
        elif word in ("-h", "--help"):
            show_help = True
        elif word.startswith("-"):
            raise UsageError(f"unknown option {word!r} for `tabsteward {command}` (options: "
                             f"{OPTIONS}); {undone}")
        else:
            raise UsageError(f"unexpected argument {word!r} for `tabsteward {command}` "
                             f"(browsers go after --browser); {undone}")
        i += 1
    if user_data_dir is not None and len(browsers) != 1:
        raise UsageError(f"--user-data-dir needs exactly one --browser (given "
                         f"{len(browsers)}), since each browser keeps its own folder; {undone}")
    return Options(tuple(browsers), user_data_dir, as_json, show_help)


def wants_json(argv: Sequence[str]) -> bool:
    """Whether --json is among the words, for reporting a usage error in JSON."""
    return "--json" in argv


def report_error(err: TabstewardError, as_json: bool) -> int:
    """Say why a setup command did nothing (as JSON on stdout with --json); its exit code."""
    if as_json:
        sys.stdout.write(json.dumps({"ok": False, "error": err.to_wire()}) + "\n")
    else:
        sys.stderr.write(f"error: {err.message}\n")
    return err.exit_code
