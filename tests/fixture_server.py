"""A quiet static server for the fixture pages, on 127.0.0.1 and on 127.0.0.2 (another site).

Pages may write `__OTHER__`: it becomes the other server's origin, so a page on one site can
embed a frame from the other (Chromium puts that frame in its own process). Paths under
`/download/` are served as attachments, so clicking a link to one starts a download.

Every request is recorded (`Site.requests`: host, method, path, body) so that an attack test
can prove a page sent nothing: a POST is answered "received" and goes nowhere else.
`/redirect?to=URL` answers 302 to URL. `/slow?ms=N` answers an empty image after N ms (at
most 5000): a page that embeds one fires its load event that much later. Any other file with
`?ms=N` is answered that much later too (an app's bundle that takes its time to come).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar, NamedTuple
from urllib.parse import parse_qs

PAGES = Path(__file__).parent / "fixtures" / "pages"
HOSTS = ("127.0.0.1", "127.0.0.2")


def download_body(name: str) -> bytes:
    """What `/download/NAME` serves: deterministic, a few kilobytes."""
    return "".join(f"{name},{i},{i * i}\n" for i in range(400)).encode()


class Request(NamedTuple):
    """One request a fixture server received."""

    host: str
    method: str
    path: str
    body: bytes


class _Handler(SimpleHTTPRequestHandler):
    other_origin: ClassVar[str] = ""
    requests: ClassVar[list[Request]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(PAGES), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def _record(self, body: bytes = b"") -> None:
        self.requests.append(Request(self.server.server_address[0], self.command, self.path,
                                     body))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._record(self.rfile.read(length))
        body = b"<!doctype html><title>Received</title><p>received</p>"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._record()
        path, _, query = self.path.partition("?")
        if path == "/redirect":
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", parse_qs(query).get("to", ["/"])[0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        time.sleep(min(5000, int(parse_qs(query).get("ms", ["0"])[0])) / 1000)
        if path == "/slow":
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
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
    requests: list[Request] = field(default_factory=list)  # both servers', in order

    def posts(self, path: str = "/") -> list[Request]:
        """Every POST either server received whose path starts with `path`."""
        return [r for r in self.requests if r.method == "POST" and r.path.startswith(path)]

    def received(self, host: str, path: str) -> list[Request]:
        """The requests `host` received for `path` (the query aside)."""
        return [r for r in self.requests if r.host == host and r.path.split("?")[0] == path]

    def url(self, page: str) -> str:
        return f"{self.origin}/{page}"

    def other(self, page: str) -> str:
        return f"{self.other_origin}/{page}"

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


def _server(host: str, requests: list[Request]) -> ThreadingHTTPServer:
    handler = type(f"Handler_{host.replace('.', '_')}", (_Handler,), {"requests": requests})
    server = ThreadingHTTPServer((host, 0), handler)
    server.daemon_threads = True
    return server


def start() -> Site:
    """Serve the fixture pages on both hosts, each on a free port, in daemon threads."""
    requests: list[Request] = []
    servers = [_server(host, requests) for host in HOSTS]
    origins = [f"http://{host}:{s.server_address[1]}" for host, s in zip(HOSTS, servers,
                                                                          strict=True)]
    for server, other in zip(servers, reversed(origins), strict=True):
        server.RequestHandlerClass.other_origin = other  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, name=f"fixtures-{other}",
                         daemon=True).start()
    return Site(origins[0], origins[1], servers, requests)
