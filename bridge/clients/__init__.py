"""Talking to the hub: the lean client, starting a hub, the SDK's connection, the person's

commands. Layer 7: imports layers 0-6; the SDK, the MCP server and the CLI import it.
"""
