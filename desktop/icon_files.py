"""The menu entry's icon files, drawn from desktop/shape.py: the SVG (no Qt needed) and
PNGs painted by the tray's own painter (Qt, without a QGuiApplication)."""

from __future__ import annotations

from . import shape


def svg() -> bytes:
    return shape.svg(shape.APP_STATE).encode("utf-8")


def png(size: int) -> bytes:
    """The app icon as a size x size PNG, as the tray draws it."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from .icons import image
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    saved = image(shape.APP_STATE, size).save(buffer, "PNG")  # type: ignore[call-overload]
    if not saved:
        raise OSError(f"Qt could not encode the {size} px icon as PNG")
    buffer.close()
    return bytes(data.data())
