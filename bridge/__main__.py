"""`python -m tabsteward.bridge ARGS` runs the `tabsteward` command."""

import sys

from .cli import main

sys.exit(main())
