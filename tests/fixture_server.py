"""A quiet static server for the fixture pages, on 127.0.0.1 and on 127.0.0.2 (another site).

Pages may write `__OTHER__`: it becomes the other server's origin, so a page on one site can
embed a frame from the other (Chromium puts that frame in its own process). Paths under
`/download/` are served as attachments, so clicking a link to one starts a download. Every
POST is recorded (`Site.posts`), so a test can prove a form was never sent.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

PAGES = Path(__file__).parent / "fixtures" / "pages"
HOSTS = ("127.0.0.1", "127.0.0.2")


def download_body(name: str) -> bytes:
    """What `/download/NAME` serves: deterministic, a few kilobytes."""
    return "".join(f"{name},{i},{i * i}\n" for i in range(400)).encode()


@dataclass(frozen=True)
class Post:
    """One POST a fixture server received."""

    host: str
    path: str
    body: str


POSTS: list[Post] = []  # every POST either server received, oldest first


class _Handler(SimpleHTTPRequestHandler):
    other_origin: ClassVar[str] = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(PAGES), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self) -> None:
        length = min(int(self.headers.get("Content-Length") or 0), 65536)
        body = self.rfile.read(length).decode("utf-8", "replace")
        POSTS.append(Post(str(self.headers.get("Host") or ""), self.path, body))
        reply = b"<!doctype html><title>Received</title><p>order received</p>"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/favicon.ico":
            self.send_response(HTTPStatus.NO_CONTENT)
            self.end_headers()
            return
        if path.startswith("/download/"):
            name = path.rsplit("/", 1)[-1] or "file.bin"
            body = download_body(name)
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if path.endswith(".html"):
            file = (PAGES / path.lstrip("/")).resolve()
            if file.parent == PAGES.resolve() and file.is_file():
                body = file.read_bytes().replace(b"__OTHER__", self.other_origin.encode())
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        super().do_GET()


@dataclass
class Site:
    """The fixture pages on two sites: `url(page)` on 127.0.0.1, `other(page)` on 127.0.0.2."""

    origin: str
    other_origin: str
    servers: list[ThreadingHTTPServer]

    def url(self, page: str) -> str:
        return f"{self.origin}/{page}"

    def other(self, page: str) -> str:
        return f"{self.other_origin}/{page}"

    def posts(self, path: str = "/") -> list[Post]:
        """The POSTs received so far whose path starts with `path`."""
        return [p for p in POSTS if p.path.startswith(path)]

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


def _server(host: str) -> ThreadingHTTPServer:
    handler = type(f"Handler_{host.replace('.', '_')}", (_Handler,), {})
    server = ThreadingHTTPServer((host, 0), handler)
    server.daemon_threads = True
    return server


def start() -> Site:
    """Serve the fixture pages on both hosts, each on a free port, in daemon threads."""
    servers = [_server(host) for host in HOSTS]
    origins = [f"http://{host}:{s.server_address[1]}" for host, s in zip(HOSTS, servers,
                                                                          strict=True)]
    for server, other in zip(servers, reversed(origins), strict=True):
        server.RequestHandlerClass.other_origin = other  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, name=f"fixtures-{other}",
                         daemon=True).start()
    return Site(origins[0], origins[1], servers)
