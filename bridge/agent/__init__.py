"""The built-in goal agent: one sentence in, a finished browser task out
(layer 4 of bridge/LAYERS.md: it may import the engine and all below it)."""
