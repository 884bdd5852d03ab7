"""Agents' tokens, LLM providers and their keys, kept in the OS keyring.

Layer 1: imports only layer 0 (bridge/LAYERS.md).
"""
