"""The tray icons, drawn (no image files): a shield whose colour and mark say the state."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap

from .state import TrayState

COLOURS = {
    TrayState.IDLE: "#5f6b7a",
    TrayState.WORKING: "#1a73e8",
    TrayState.WAITING: "#e8710a",
    TrayState.DISCONNECTED: "#c5221f",
    TrayState.PAUSED: "#8e8e8e",
}
SIZES = (16, 22, 24, 32, 48, 64)

_cache: dict[TrayState, QIcon] = {}


def icon(state: TrayState) -> QIcon:
    """The icon for a state, drawn once at every tray size."""
    found = _cache.get(state)
    if found is None:
        found = QIcon()
        for size in SIZES:
            found.addPixmap(_draw(state, size))
        _cache[state] = found
    return found


def _draw(state: TrayState, size: int) -> QPixmap:
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = size / 32.0
    shield = QPainterPath()
    shield.moveTo(16 * s, 2 * s)
    shield.lineTo(28 * s, 6 * s)
    shield.cubicTo(28 * s, 18 * s, 23 * s, 26 * s, 16 * s, 30 * s)
    shield.cubicTo(9 * s, 26 * s, 4 * s, 18 * s, 4 * s, 6 * s)
    shield.closeSubpath()
    p.setPen(QPen(QColor("#ffffff"), max(1.0, 1.5 * s)))
    p.setBrush(QBrush(QColor(COLOURS[state])))
    p.drawPath(shield)
    _mark(p, state, s)
    p.end()
    return pix


def _mark(p: QPainter, state: TrayState, s: float) -> None:
    white = QColor("#ffffff")
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(white))
    if state is TrayState.PAUSED:
        p.drawRect(QRectF(11 * s, 10 * s, 3.5 * s, 12 * s))
        p.drawRect(QRectF(17.5 * s, 10 * s, 3.5 * s, 12 * s))
    elif state in (TrayState.WAITING, TrayState.DISCONNECTED):
        p.drawRect(QRectF(14.5 * s, 8 * s, 3 * s, 10 * s))
        p.drawEllipse(QPointF(16 * s, 22.5 * s), 2 * s, 2 * s)
    elif state is TrayState.WORKING:
        for i, x in enumerate((10, 16, 22)):
            p.drawEllipse(QPointF(x * s, 16 * s), (1.6 + 0.4 * i) * s, (1.6 + 0.4 * i) * s)
    else:
        p.drawEllipse(QPointF(16 * s, 15 * s), 4 * s, 4 * s)
