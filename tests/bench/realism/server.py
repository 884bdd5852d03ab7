"""The realism pages on 127.0.0.1: each run of a task gets its own values, and the server
keeps what the page reported (clicks, orders, logins), which is how a task is checked."""

from __future__ import annotations

import html
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

PAGES = Path(__file__).resolve().parent / "pages"
SLOT = re.compile(r"\{\{(\w+)\}\}")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript",
         ".svg": "image/svg+xml"}


class Runs:
    """Each run's values (what its pages show) and records (what its pages reported)."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, str]] = {}
        self.records: dict[str, list[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def add(self, run: str, values: dict[str, str]) -> None:
        with self.lock:
            self.values[run] = values
            self.records[run] = []

    def record(self, run: str, event: dict[str, Any]) -> None:
        with self.lock:
            if run in self.records:
                self.records[run].append(event)

    def seen(self, run: str) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.records.get(run, []))


def render(page: str, values: dict[str, str]) -> str:
    """The page with its slots filled; values whose name ends in _html go in as markup."""
    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        value = values.get(name, "")
        return value if name.endswith("_html") else html.escape(value)
    return SLOT.sub(fill, page)


def _handler(runs: Runs) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _send(self, code: int, body: bytes, kind: str = "text/plain",
                  headers: dict[str, str] | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            run = parse_qs(url.query).get("run", [""])[0]
            name = url.path.rsplit("/", 1)[-1]
            file = PAGES / name
            if not re.fullmatch(r"[\w.-]+", name) or not file.is_file():
                return self._send(404, b"not found")
            body = file.read_text("utf-8")
            if url.path.startswith("/p/"):
                values = dict(runs.values.get(run, {}), run=run)
                if name == "account.html" and f"s{run}=1" not in self.headers.get("Cookie", ""):
                    return self._send(303, b"", headers={"Location": f"/p/login.html?run={run}"})
                body = render(body, values)
            self._send(200, body.encode(), TYPES.get(file.suffix, "text/plain"))

        def do_POST(self) -> None:
            url = urlsplit(self.path)
            run = parse_qs(url.query).get("run", [""])[0]
            data = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
            if url.path == "/record":
                try:
                    event = json.loads(data)
                except ValueError:
                    return self._send(400, b"bad json")
                runs.record(run, event if isinstance(event, dict) else {"value": event})
                return self._send(204, b"")
            if url.path == "/login":
                form = {k: v[0] for k, v in parse_qs(data.decode()).items()}
                values = runs.values.get(run, {})
                ok = form.get("user") == values.get("user") and \
                    form.get("password") == values.get("pw")
                runs.record(run, {"login": ok})
                if ok:
                    return self._send(303, b"", headers={
                        "Location": f"/p/account.html?run={run}",
                        "Set-Cookie": f"s{run}=1; Path=/; HttpOnly"})
                return self._send(200, b"<title>Sign in failed</title><h1>Wrong password</h1>",
                                  "text/html")
            self._send(404, b"not found")
    return Handler


class RealismServer:
    """The server in a thread; `url(page, run)` is where a task's agent starts."""

    def __init__(self) -> None:
        self.runs = Runs()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.runs))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> RealismServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, page: str, run: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/p/{page}?run={run}"
