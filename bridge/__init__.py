"""Tabsteward's headless side: transports, page engine, hub, and the agent-facing tools."""


def version() -> str:
    """The installed distribution's version (imports importlib.metadata only when asked)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("tabsteward")
    except PackageNotFoundError:
        return "0+unknown"
