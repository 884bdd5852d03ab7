"""Native messaging's wire: length-prefixed JSON frames and the chunks of long replies.

Layer 0: imports nothing of Tabsteward's but bridge.errors.
"""
