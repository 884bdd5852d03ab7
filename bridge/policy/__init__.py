"""Policy: what each agent may do, the classifier that rates actions, and remembered grants
(layer 1 of bridge/LAYERS.md: it may import only plumbing)."""
