"""The built-in goal agent: one sentence in, a finished browser task out."""
