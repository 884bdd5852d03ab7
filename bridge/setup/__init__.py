"""Installing, setting up and checking: `install`, `setup`, `doctor`, the extension zip.

Layer 7: imports any layer below; only the `tabsteward` command imports it.
"""
