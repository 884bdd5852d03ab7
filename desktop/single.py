"""One tray app per person: a second start asks the running one to show itself and exits."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtNetwork import QLocalServer, QLocalSocket
from tabsteward.bridge.paths import ensure_private_dir
from tabsteward.bridge.records import locate

log = logging.getLogger("tabsteward.desktop")

CONNECT_MS = 1000
SHOW = b"show\n"


def path() -> str:
    return os.path.join(os.path.dirname(locate.socket_path()), "desktop.sock")


class SingleInstance:
    """Listens for later starts (`on_show` runs for each); `hand_over` is the later start."""

    def __init__(self) -> None:
        self.path = path()
        self.server: QLocalServer | None = None
        self.on_show: Callable[[], None] | None = None

    def hand_over(self) -> bool:
        """True when another tray app runs and was told to show itself; else this one
        listens from now on."""
        ensure_private_dir(Path(self.path).parent)
        sock = QLocalSocket()
        sock.connectToServer(self.path)
        if sock.waitForConnected(CONNECT_MS):
            sock.write(SHOW)
            sock.waitForBytesWritten(CONNECT_MS)
            sock.disconnectFromServer()
            return True
        QLocalServer.removeServer(self.path)  # a stale socket of a tray app that died
        server = QLocalServer()
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(self.path):
            log.warning("a second start cannot reach this tray app: %s", server.errorString())
            return False
        server.newConnection.connect(self._connected)
        self.server = server
        return False

    def _connected(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(sock.deleteLater)

    def _read(self, sock: QLocalSocket) -> None:
        data = bytes(sock.readAll().data())
        if SHOW.strip() in data and self.on_show is not None:
            log.info("another start of the tray app asked this one to show itself")
            self.on_show()
        sock.disconnectFromServer()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
