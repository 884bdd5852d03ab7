"""The tray icons, drawn (no image files) from desktop/shape.py: a shield whose colour and
mark say the state."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QIcon,
    QImage,
    QPaintDevice,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
)

from . import shape
from .shape import COLOURS as COLOURS
from .state import TrayState

SIZES = (16, 22, 24, 32, 48, 64)

_cache: dict[TrayState, QIcon] = {}


def icon(state: TrayState) -> QIcon:
    """The icon for a state, drawn once at every tray size."""
    found = _cache.get(state)
    if found is None:
        found = QIcon()
        for size in SIZES:
            pix = QPixmap(size, size)
            pix.fill(Qt.GlobalColor.transparent)
            paint(pix, state, size)
            found.addPixmap(pix)
        _cache[state] = found
    return found


def image(state: TrayState, size: int) -> QImage:
    """The icon as an image (needs no QGuiApplication, unlike a pixmap)."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    paint(img, state, size)
    return img


def paint(device: QPaintDevice, state: TrayState, size: int) -> None:
    """Draw shape.py's shield and mark for `state` onto a size x size device."""
    p = QPainter(device)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = size / shape.GRID
    outline = QPainterPath()
    for op, a in shape.SHIELD:
        if op == "M":
            outline.moveTo(a[0] * s, a[1] * s)
        elif op == "L":
            outline.lineTo(a[0] * s, a[1] * s)
        elif op == "C":
            outline.cubicTo(*(v * s for v in a))
        else:
            outline.closeSubpath()
    p.setPen(QPen(QColor(shape.OUTLINE), max(1.0, shape.OUTLINE_WIDTH * s)))  # bevel joins
    p.setBrush(QBrush(QColor(COLOURS[state])))
    p.drawPath(outline)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(QColor(shape.MARK)))
    for mark in shape.marks(state):
        if isinstance(mark, shape.Rect):
            p.drawRect(QRectF(mark.x * s, mark.y * s, mark.w * s, mark.h * s))
        else:
            p.drawEllipse(QPointF(mark.cx * s, mark.cy * s), mark.rx * s, mark.ry * s)
    p.end()
