"""What the hub keeps and where it listens, for every layer: its socket, paired agents,

its lock, the activity log, a request's context. Layer 1: imports only layer 0.
"""
