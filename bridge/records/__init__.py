"""What the hub keeps that every layer reads: its socket, agents, lock, activity log.

Also a request's context and the agents at work. Layer 1: imports only layer 0
(bridge/LAYERS.md).
"""
