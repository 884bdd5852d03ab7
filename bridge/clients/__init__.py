"""Talking to the hub: the lean client, starting a hub, the SDK's wire, the person's words.

Layer 7: imports layers 0 to 6; the command, the SDK, the native host, setup and the demo
import it.
"""
