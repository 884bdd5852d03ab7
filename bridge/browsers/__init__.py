"""Where browsers, the extension and the desktop's entries are, as data.

Layer 1: imports only layer 0 (bridge/LAYERS.md).
"""
