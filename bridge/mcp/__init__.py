"""The MCP server on stdio: the hub's tools for MCP clients, over the SDK.

Layer 7: imports the SDK and the layers below; only the `tabsteward` command imports it.
"""
