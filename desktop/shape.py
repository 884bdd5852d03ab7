"""The tray icon's drawing as data (no Qt): a shield with a mark, on a 32-unit square.

desktop/icons.py paints it with Qt for the tray; desktop/icon_files.py writes it as the
SVG and PNGs of the menu entry, so every icon of Tabsteward comes from this one source.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import TrayState

GRID = 32.0
OUTLINE = "#ffffff"
OUTLINE_WIDTH = 1.5  # in grid units; never thinner than one pixel
MARK = "#ffffff"
COLOURS = {
    TrayState.IDLE: "#5f6b7a",
    TrayState.WORKING: "#1a73e8",
    TrayState.WAITING: "#e8710a",
    TrayState.DISCONNECTED: "#c5221f",
    TrayState.PAUSED: "#8e8e8e",
}
APP_STATE = TrayState.IDLE  # the menu entry's icon is the tray's at rest

# the shield's outline: M(ove), L(ine), C(ubic: two control points, then the end), Z (close)
SHIELD: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("M", (16, 2)),
    ("L", (28, 6)),
    ("C", (28, 18, 23, 26, 16, 30)),
    ("C", (9, 26, 4, 18, 4, 6)),
    ("Z", ()),
)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float


Mark = Rect | Ellipse


def marks(state: TrayState) -> tuple[Mark, ...]:
    """The white mark inside the shield that says the state."""
    if state is TrayState.PAUSED:
        return (Rect(11, 10, 3.5, 12), Rect(17.5, 10, 3.5, 12))
    if state in (TrayState.WAITING, TrayState.DISCONNECTED):
        return (Rect(14.5, 8, 3, 10), Ellipse(16, 22.5, 2, 2))
    if state is TrayState.WORKING:
        return tuple(Ellipse(x, 16, 1.6 + 0.4 * i, 1.6 + 0.4 * i)
                     for i, x in enumerate((10, 16, 22)))
    return (Ellipse(16, 15, 4, 4),)


def _n(value: float) -> str:
    return f"{value:g}"


def svg(state: TrayState = APP_STATE) -> str:
    """The icon as a standalone SVG document (viewBox 0 0 32 32)."""
    path = " ".join(op + (" " + " ".join(_n(v) for v in args) if args else "")
                    for op, args in SHIELD)
    parts = [f'<path d="{path}" fill="{COLOURS[state]}" stroke="{OUTLINE}" '
             f'stroke-width="{_n(OUTLINE_WIDTH)}" stroke-linejoin="bevel"/>']
    for mark in marks(state):
        if isinstance(mark, Rect):
            parts.append(f'<rect x="{_n(mark.x)}" y="{_n(mark.y)}" width="{_n(mark.w)}" '
                         f'height="{_n(mark.h)}" fill="{MARK}"/>')
        else:
            parts.append(f'<ellipse cx="{_n(mark.cx)}" cy="{_n(mark.cy)}" rx="{_n(mark.rx)}" '
                         f'ry="{_n(mark.ry)}" fill="{MARK}"/>')
    body = "\n  ".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(GRID)}" height="{_n(GRID)}" '
            f'viewBox="0 0 {_n(GRID)} {_n(GRID)}">\n  {body}\n</svg>\n')
