"""The DevTools-protocol transport: one async interface, several ways to reach a browser."""
