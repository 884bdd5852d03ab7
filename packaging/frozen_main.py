"""The frozen build's entry point: `tabsteward ARGS` as the installed command runs them.

The frozen binary stands in for `python` wherever Tabsteward runs itself with Python, so
the launchers and entries that `install`, `setup` and the hub write work unchanged when
sys.executable is this binary:
  tabsteward -m tabsteward.bridge ARGS               the command (the hub's autostart)
  tabsteward -m tabsteward.bridge.native_host ARGS   the native host (the host's launcher)
  tabsteward -c "import tabsteward.bridge.native_host"   doctor's check of the launcher
"""

from __future__ import annotations

import importlib
import re
import sys

HOST = "tabsteward.bridge.native_host"


def main() -> int:
    args = sys.argv[1:]
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
        found = re.fullmatch(r"import (tabsteward(?:\.\w+)+)", args[1] if len(args) > 1 else "")
        if found is None:
            sys.stderr.write("error: this frozen Tabsteward runs no Python code but "
                             "`-c 'import tabsteward.MODULE'`; nothing was run\n")
            return 2
        importlib.import_module(found[1])
        return 0
    from tabsteward.bridge.cli import main as cli
    return cli(args)


if __name__ == "__main__":
    sys.exit(main())
