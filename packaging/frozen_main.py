"""The frozen build's entry point: `tabsteward ARGS` as the installed command runs them.

The frozen binary stands in for `python` wherever Tabsteward runs itself with Python, so
the launchers and entries that `install`, `setup` and the hub write work unchanged when
sys.executable is this binary:
  tabsteward -m tabsteward.bridge ARGS               the command (the hub's autostart)
  tabsteward -m tabsteward.bridge.native_host ARGS   the native host (the host's launcher)
  tabsteward -c "import tabsteward.bridge.native_host"   doctor's check of the launcher

A tool command (`tabsteward click @3`) is a small client of the hub, run once per step of
an agent: it imports only what that client needs, and the runtime hooks PyInstaller would
run at every start (Qt's, which loads PySide6; inspect's, multiprocessing's, pkgutil's: 200
ms together) run only before the commands that load what they set up (tabsteward.spec
keeps them in the bundle's rthooks/ folder, in PyInstaller's order).
"""

from __future__ import annotations

import os
import sys

HOST = "tabsteward.bridge.native_host"


def main() -> int:
    args = sys.argv[1:]
    from tabsteward.bridge.cli import LOCAL
    if args[:1] in (["-m"], ["-c"]) or (args[:1] and args[0] in LOCAL):
        run_deferred_hooks()
    if args[:2] == ["-m", "tabsteward.bridge"]:
        args = args[2:]
    elif args[:2] == ["-m", HOST]:
        from tabsteward.bridge import native_host
        return native_host.main([HOST, *args[2:]])
    elif args[:1] == ["-m"]:
        sys.stderr.write(f"error: this frozen Tabsteward runs only tabsteward.bridge and {HOST} "
                         "with -m; nothing was run\n")
        return 2
    elif args[:1] == ["-c"]:
        import importlib
        import re
        found = re.fullmatch(r"import (tabsteward(?:\.\w+)+)", args[1] if len(args) > 1 else "")
        if found is None:
            sys.stderr.write("error: this frozen Tabsteward runs no Python code but "
                             "`-c 'import tabsteward.MODULE'`; nothing was run\n")
            return 2
        importlib.import_module(found[1])
        return 0
    from tabsteward.bridge.cli import main as cli
    return cli(args)


def run_deferred_hooks() -> None:
    """Run the runtime hooks tabsteward.spec took out of the program's start, in order, as
    PyInstaller runs its own (each a script of its own, as __main__)."""
    folder = os.path.join(getattr(sys, "_MEIPASS", ""), "rthooks")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            code = compile(f.read(), path, "exec")
        exec(code, {"__name__": "__main__", "__file__": path})


if __name__ == "__main__":
    sys.exit(main())
