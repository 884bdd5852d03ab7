"""The tray app on a real X display with a tray host, photographed: run by test_screens.py
as `python screens.py OUTDIR SHOP_URL` with DISPLAY set, private XDG folders and a paired
agent's token; prints what it found as JSON on its last line of stdout."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QLineEdit, QSystemTrayIcon, QWidget
from tabsteward.bridge.hub import main as hub_main
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry
from tabsteward.desktop.app import Desktop, parser
from tabsteward.desktop.icons import COLOURS
from tabsteward.desktop.state import TrayState

BIN = os.path.join(os.path.dirname(sys.executable), "tabsteward")
AGENT_ENV = dict(os.environ)  # with the agent's token, which the hub takes from os.environ
TRAY_AREA = QRect(1280 - 160, 0, 160, 32)  # where trayer sits (tests/xdisplay.py)


async def cli(*args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        BIN, "--agent", "shopper", *args, env=AGENT_ENV, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    out, err = await proc.communicate()
    return proc.returncode or 0, out.decode(), err.decode()


async def until(check: Any, what: str, timeout: float = 20.0) -> None:
    print(f"waiting for {what}", file=sys.stderr, flush=True)
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)


async def settle() -> None:
    """Let Qt lay out and paint what was just shown."""
    for _ in range(5):
        await asyncio.sleep(0.06)


def save(widget: QWidget, path: Path) -> int:
    widget.grab().save(str(path), "PNG")
    return path.stat().st_size


def icon_pixels(image: QImage, state: TrayState) -> int:
    """How many pixels of the tray area have the icon's colour for this state."""
    want = QColor(COLOURS[state])
    found = 0
    for x in range(TRAY_AREA.left(), TRAY_AREA.right()):
        for y in range(TRAY_AREA.top(), TRAY_AREA.bottom()):
            c = image.pixelColor(x, y)
            if abs(c.red() - want.red()) + abs(c.green() - want.green()) + \
                    abs(c.blue() - want.blue()) < 40:
                found += 1
    return found


async def photograph(out: Path, shop: str) -> dict[str, Any]:
    opts = parser().parse_args(["--local-only"])
    running = await hub_main.start(opts, str(out / "hub.log"), console=False)
    desktop = Desktop(running)
    serving = asyncio.ensure_future(running.run())
    found: dict[str, Any] = {}
    try:
        await until(QSystemTrayIcon.isSystemTrayAvailable, "the tray host")
        desktop.tray.show()
        found["tray_available"] = True
        print("the tray host is there", file=sys.stderr, flush=True)
        ApiKeys().add(KeyEntry("work-openai", "openai", "", "gpt-4.1-mini"),
                      "sk-screenshot-not-a-real-key")
        code, _, err = await cli("open", shop)
        assert code == 0, err
        code, snap, err = await cli("snapshot", "-i")
        ref = re.search(r'button "Buy now".*?(@\d+)', snap)
        assert ref, snap
        # the person is typing in a window of their own when the question comes
        editor = QLineEdit()
        editor.setWindowTitle("the person's editor")
        editor.setGeometry(600, 300, 400, 40)
        editor.show()
        editor.activateWindow()
        editor.setFocus()
        await until(lambda: QApplication.focusWidget() is editor, "the editor's focus")
        click = asyncio.ensure_future(cli("click", ref.group(1)))
        panel = desktop.panel
        await until(lambda: panel.current is not None and panel.allow_once.isEnabled(),
                    "the question in the panel")
        await settle()
        found["focus_kept"] = (QApplication.focusWidget() is editor
                               and QApplication.activeWindow() is editor)
        found["picture"] = bool(panel.current and panel.current.image)
        desktop.tray.update()
        await settle()
        screen = QApplication.primaryScreen().grabWindow(0).toImage()
        screen.save(str(out / "screen.png"), "PNG")
        found["icon_pixels"] = icon_pixels(screen, TrayState.WAITING)
        found["icon_visible"] = desktop.tray.icon.isVisible()
        sizes = {"panel.png": save(panel, out / "panel.png")}
        desktop.tray.rebuild()
        desktop.tray.menu.popup(QPoint(900, 40))
        await settle()
        sizes["tray-menu.png"] = save(desktop.tray.menu, out / "tray-menu.png")
        desktop.tray.menu.hide()
        for name, open_window in (("keys", desktop.keys), ("profiles", desktop.profiles),
                                  ("activity", desktop.activity)):
            window = open_window()
            window.resize(max(window.width(), 900), max(window.height(), 560))
            await settle()
            sizes[f"{name}.png"] = save(window, out / f"{name}.png")
            window.hide()
        found["sizes"] = sizes
        editor.close()
        panel.deny.click()
        code, _, err = await click
        found["denied"] = code == 9 and "denied by person (tray)" in err
    finally:
        running.hub.stop("the photographs are taken")
        found["exit"] = await serving
        desktop.close()
    return found


def main() -> int:
    out, shop = Path(sys.argv[1]), sys.argv[2]
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        found = loop.run_until_complete(asyncio.wait_for(photograph(out, shop), 90))
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
