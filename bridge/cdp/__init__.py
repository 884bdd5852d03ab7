"""The DevTools-protocol transport: one async interface, several ways to reach a browser
(layer 2 of bridge/LAYERS.md: it may import the pure cores, stores and plumbing)."""
