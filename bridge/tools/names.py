"""The tools' names, for the lean CLI to refuse an unknown command without loading the tool
table (a test keeps them equal to the table's)."""

NAMES = frozenset({
    "activity", "agents", "approvals", "approve", "back", "browsers", "check", "click",
    "cookies", "dblclick", "deny", "dialog", "download", "drag", "eval", "fill", "focus",
    "forward", "grants", "hover", "open", "press", "reload", "revoke", "run", "runs",
    "screenshot", "scroll", "select", "snapshot", "storage", "tab-close", "tab-new",
    "tab-select", "tabs", "text", "type", "uncheck", "unpair", "upload", "wait",
})
