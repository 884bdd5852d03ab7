"""Installing, setting up and checking: `install`, `setup`, `doctor`, the extension's zip.

Layer 7: imports any layer below; nothing imports it but the CLI.
"""
