"""Secrets: agents' tokens, LLM providers and their keys, read from the OS keyring.

Layer 1: imports only layer 0.
"""
