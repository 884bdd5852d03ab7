"""Native messaging's wire: length-prefixed JSON frames and chunks of long replies.

Layer 0: imports nothing else of Tabsteward's.
"""
