"""The local API server: a user-only Unix socket, a token, framed JSON requests run as tasks."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import AuthError, TabstewardError, UsageError
from ..native import framing, handoff
from ..records import context, locate
from ..records.agents import Agent, Agents
from ..records.lock import HubRunning
from ..records.lock import take as take_lock
from . import protocol
from .strangers import Strangers

log = logging.getLogger("tabsteward.hub")

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
# serves a browser extension's connection: reader, writer, decoder, messages already decoded
ExtensionHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, framing.Decoder,
                             list[Any]], Awaitable[None]]

# A frame starts with its length; these would announce frames of 500+ MB, far over the
# limit, so a connection starting with one of them is an HTTP client, i.e. a browser.
HTTP_STARTS = (b"GET ", b"POST", b"PUT ", b"HEAD", b"OPTI", b"DELE", b"PATC", b"CONN",
               b"TRAC", b"PRI ")
_REFUSAL = b"web pages may not talk to the Tabsteward hub\n"
FORBIDDEN = (b"HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n"
             b"Content-Length: %d\r\n\r\n%s" % (len(_REFUSAL), _REFUSAL))
MAX_INFLIGHT = 64
IDLE_SECONDS = 10.0  # a connection without a token, with nothing to do, is closed after it
MAX_SOCKET_PATH = 107
CLOSE_GRACE = 5.0


class LocalServer:
    """Accepts connections on the socket and runs each authenticated request as a task.

    `handler` gets the schema-checked request without its token and returns the reply;
    the server adds the request's `id` to it.
    """

    def __init__(self, handler: Handler, *, socket_path: str | None = None,
                 token_path: str | None = None, max_frame: int = framing.DEFAULT_MAX,
                 log_path: str = "the hub log",
                 extension_handler: ExtensionHandler | None = None,
                 on_disconnect: Callable[[object], None] | None = None,
                 agents: Agents | None = None) -> None:
        self.handler = handler
        self.agents = agents if agents is not None else Agents()  # whose tokens are good
        self.on_disconnect = on_disconnect  # a client went away: withdraw what it asked
        self.extension_handler = extension_handler
        self.log_path = log_path
        self.socket_path = socket_path or locate.socket_path()
        self.token_path = token_path or os.path.join(os.path.dirname(self.socket_path),
                                                     "hub.token")
        self.max_frame = max_frame
        self.token = secrets.token_urlsafe(32)
        self._server: asyncio.Server | None = None
        self._lock_fd: int | None = None
        self._socket_id: tuple[int, int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # requests
        self._connections: dict[asyncio.StreamWriter, asyncio.Task[Any]] = {}
        self.strangers = Strangers()  # connections that have shown no token yet
        self.idle_seconds = IDLE_SECONDS

    # -- start and stop ----------------------------------------------------------------
    async def start(self, lock: int | None = None) -> None:
        """Take the hub lock (or use `lock`, taken by `claim`), write the token, then listen;
        HubRunning if a hub is live."""
        size = len(os.fsencode(self.socket_path))
        if size > MAX_SOCKET_PATH:
            raise TabstewardError(f"the socket path {self.socket_path} is {size} bytes, over "
                                  f"the {MAX_SOCKET_PATH} a Unix socket allows; the hub did not "
                                  "start (point XDG_RUNTIME_DIR or TABSTEWARD_SOCKET at a "
                                  "shorter folder)")
        fd = take_lock(self.socket_path) if lock is None else lock
        try:
            if _answers(self.socket_path):
                raise HubRunning(f"a hub already answers on {self.socket_path}; this one "
                                 "did not start")
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.socket_path)  # stale: no hub holds the lock
            self._write_token()
            sock = self._bind()
            self._server = await asyncio.start_unix_server(self._serve, sock=sock)
        except BaseException:
            self._remove_files()
            os.close(fd)
            raise
        self._lock_fd = fd
        log.info("listening on %s", self.socket_path)

    def _write_token(self) -> None:
        tmp = f"{self.token_path}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # left by a crashed process that had our pid
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, self.token.encode("ascii") + b"\n")
        finally:
            os.close(fd)
        os.replace(tmp, self.token_path)

    def _bind(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            old = os.umask(0o177)
            try:
                sock.bind(self.socket_path)
            finally:
                os.umask(old)
            os.chmod(self.socket_path, 0o600)
            st = os.stat(self.socket_path)
            self._socket_id = (st.st_dev, st.st_ino)
            sock.listen(128)
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        return sock

    def _remove_files(self) -> None:
        """Remove the socket and token files, but only while they are still this hub's."""
        with contextlib.suppress(FileNotFoundError):  # already gone: nothing to remove
            st = os.stat(self.socket_path)
            if self._socket_id == (st.st_dev, st.st_ino):
                os.unlink(self.socket_path)
        with contextlib.suppress(FileNotFoundError, UnicodeDecodeError):
            with open(self.token_path, encoding="ascii") as f:
                ours = f.read().strip() == self.token
            if ours:
                os.unlink(self.token_path)

    async def close(self, grace: float = CLOSE_GRACE,
                    then: Callable[[], Awaitable[None]] | None = None) -> None:
        """Stop accepting, let running requests finish (cancel them after `grace` s), run
        `then` (connections are still open), close every connection and remove the files."""
        if self._server is not None:
            self._server.close()
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=grace)
            for task in pending:
                task.cancel()
            if pending:
                log.warning("%d request(s) still running at shutdown were cancelled",
                            len(pending))
                await asyncio.wait(pending)
        if then is not None:
            await then()
        for writer in list(self._connections):
            writer.close()  # each connection's reader sees EOF and its handler ends
        if self._connections:
            await asyncio.wait(set(self._connections.values()), timeout=grace)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        self._remove_files()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        log.info("stopped listening on %s", self.socket_path)

    @property
    def open_connections(self) -> int:
        return len(self._connections)

    # -- connections ---------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections[writer] = task
        pid = _peer_pid(writer)
        self.strangers.admit(writer, pid)
        context.connection.set(writer)  # the requests' tasks copy it
        context.peer_pid.set(pid)
        send_lock = asyncio.Lock()
        mine: set[asyncio.Task[None]] = set()
        try:
            try:
                head = await asyncio.wait_for(reader.readexactly(framing.HEADER),
                                              self.idle_seconds)
            except (asyncio.IncompleteReadError, TimeoutError):
                return
            if head.startswith(HTTP_STARTS):
                log.warning("refused an HTTP request on the hub socket (a browser or web page)")
                writer.write(FORBIDDEN)
                await writer.drain()
                return
            await self._read_requests(reader, writer, head, send_lock, mine)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            log.debug("a connection dropped: %s", exc)
        finally:
            if mine and self.on_disconnect is not None:
                self.on_disconnect(writer)  # its questions to the person are withdrawn
            if mine:  # requests admitted before the end still answer
                await asyncio.wait(set(mine))
            self._connections.pop(writer, None)
            self.strangers.drop(writer)
            writer.close()

    async def _read_requests(self, reader: asyncio.StreamReader,
                             writer: asyncio.StreamWriter, data: bytes,
                             send_lock: asyncio.Lock, mine: set[asyncio.Task[None]]) -> None:
        """Admit requests until EOF, a refused request or a bad frame."""
        decoder = framing.Decoder(self.max_frame)
        first = True
        while data:
            failure: framing.FrameError | None = None
            try:
                decoder.feed(data)
            except framing.FrameError as exc:
                failure = exc
            batch = decoder.messages()
            for i, message in enumerate(batch):
                if isinstance(message, dict) and message.get("op") == "extension":
                    await self._hand_over(message, reader, writer, decoder, batch[i + 1:],
                                          send_lock, not mine and first)
                    return
                first = False
                if not await self._admit(message, writer, send_lock, mine):
                    return
            if failure is not None:
                log.warning("closed a connection that sent a bad frame: %s", failure)
                err = UsageError(f"{failure}; nothing was done and the connection is closed")
                await self._send(writer, send_lock, protocol.error_reply(err))
                return
            while len(mine) >= MAX_INFLIGHT:
                await asyncio.wait(set(mine), return_when=asyncio.FIRST_COMPLETED)
            data = await self._next(reader, writer, mine)

    async def _next(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    mine: set[asyncio.Task[None]]) -> bytes:
        """The connection's next bytes; b"" (the end) when a connection without a token
        stays idle (no request of its own running) for idle_seconds."""
        if writer not in self.strangers:
            return await reader.read(65536)
        reading = asyncio.ensure_future(reader.read(65536))
        try:
            while not reading.done():
                if mine:  # a pairing or a question waits for the person: not idle
                    await asyncio.wait({reading, *mine}, return_when=asyncio.FIRST_COMPLETED)
                    continue
                await asyncio.wait({reading}, timeout=self.idle_seconds)
                if not reading.done():
                    log.info("closed a connection without a token, idle %g s",
                             self.idle_seconds)
                    return b""
            return reading.result()
        finally:
            if not reading.done():
                reading.cancel()

    async def _hand_over(self, message: dict[str, Any], reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter, decoder: framing.Decoder,
                         rest: list[Any], send_lock: asyncio.Lock, first: bool) -> None:
        """The native host's connection: once authenticated, it carries the extension
        protocol, not requests."""
        try:
            self._authenticate(message)
            if not first:
                raise UsageError("op extension must be a connection's first message; nothing "
                                 "was done and the connection is closed")
            if self.extension_handler is None:
                raise UsageError("this hub serves no browser extension; nothing was done")
        except TabstewardError as err:
            log.warning("refused an extension connection: %s", err.message)
            await self._send(writer, send_lock, protocol.error_reply(err))
            return
        self.strangers.drop(writer)  # the native host's, with the host token
        if message.get(handoff.OFFER) is True and handoff.CAN and not rest:
            await self._take_pipes(writer, send_lock, self.extension_handler)
            return
        if message.get(handoff.OFFER) is True:  # (a host that sent more is relaying already)
            await self._send(writer, send_lock, handoff.RELAY)
        log.info("a browser extension connected")
        await self.extension_handler(reader, writer, decoder, rest)

    async def _take_pipes(self, writer: asyncio.StreamWriter, send_lock: asyncio.Lock,
                          serve: ExtensionHandler) -> None:
        """Serve the extension on Chrome's own pipes, which the native host hands over
        (native/handoff.py): no process relays its frames. The host's socket stays open,
        unread, until the link ends."""
        transport = writer.transport
        assert isinstance(transport, asyncio.ReadTransport)
        transport.pause_reading()  # the byte carrying the pipes is read below, with them
        conn = writer.get_extra_info("socket")
        try:
            with socket.socket(fileno=os.dup(conn.fileno())) as sock:
                await self._send(writer, send_lock, handoff.SEND)
                read_end, write_end = await handoff.receive(sock)
            pipes = await handoff.open_pipes(read_end, write_end, framing.HEADER + 65536)
        except (handoff.HandoffError, OSError) as exc:
            log.warning("refused an extension connection: its native host offered Chrome's "
                        "pipes and %s; nothing was relayed", exc)
            return
        log.info("a browser extension connected (on Chrome's pipes)")
        try:
            await serve(pipes.reader, pipes.writer, framing.Decoder(framing.DEFAULT_MAX), [])
        finally:
            pipes.close()

    def _authenticate(self, message: dict[str, Any]) -> Agent | None:
        """Who sent it: a paired agent (its token), or None for the native host (the host
        token in the file) and for the open ops (ping, and pair, where the person decides).
        Anything else is refused."""
        protocol.refuse_browser(message)
        op = message.get("op")
        if op in protocol.OPEN_OPS:
            return None
        given = message.get("token")
        if not isinstance(given, str) or not 0 < len(given) <= protocol.MAX_TOKEN:
            raise AuthError("the request carries no token; nothing was done and the "
                            "connection is closed (an agent pairs first: op pair)",
                            unpaired=True)
        if op == "extension":
            if hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                   self.token.encode("ascii")):
                return None
            raise AuthError(f"the native host's token is wrong; nothing was done and the "
                            f"connection is closed (it reads it from {self.token_path})")
        agent = self.agents.verify(given)
        if agent is None:
            raise AuthError("this agent is not paired with the hub, or its pairing was "
                            "revoked; nothing was done and the connection is closed. It "
                            "must pair again (op pair), and the person approve it",
                            unpaired=True)
        return agent

    async def _admit(self, message: Any, writer: asyncio.StreamWriter, send_lock: asyncio.Lock,
                     mine: set[asyncio.Task[None]]) -> bool:
        """Check one request and start its task; False when the connection must close."""
        rid: int | str | None = None
        try:
            if not isinstance(message, dict):
                raise UsageError("a request must be a JSON object; nothing was done and the "
                                 "connection is closed")
            with contextlib.suppress(UsageError):
                rid = protocol.request_id(message)
            principal = self._authenticate(message)
        except TabstewardError as err:
            log.warning("refused a request: %s", err.message)
            await self._send(writer, send_lock, _with_id(protocol.error_reply(err), rid))
            return False
        try:
            request = protocol.validate_request(message)
        except UsageError as err:
            await self._send(writer, send_lock, _with_id(protocol.error_reply(err), rid))
            return True
        if principal is not None:
            self.strangers.drop(writer)  # a paired agent's: no longer capped as idle
        task = asyncio.create_task(self._run(request, writer, send_lock, principal))
        for tasks in (mine, self._tasks):
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        self.strangers.busy(writer, True)
        task.add_done_callback(lambda _: self.strangers.busy(writer, bool(mine)))
        return True

    async def _run(self, request: dict[str, Any], writer: asyncio.StreamWriter,
                   send_lock: asyncio.Lock, principal: Agent | None) -> None:
        rid = request.pop("id", None)
        context.principal.set(principal)

        async def notify(payload: dict[str, Any]) -> None:
            await self._send(writer, send_lock, _with_id(payload, rid))

        context.notice.set(notify)
        try:
            reply = await self.handler(request)
        except TabstewardError as err:
            reply = protocol.error_reply(err)
        except Exception:
            log.exception("the request handler failed on op %s", request.get("op"))
            reply = protocol.error_reply(protocol.internal_error(
                str(request.get("op")), self.log_path))
        await self._send(writer, send_lock, _with_id(reply, rid))

    async def _send(self, writer: asyncio.StreamWriter, send_lock: asyncio.Lock,
                    reply: dict[str, Any]) -> None:
        try:
            frame = framing.encode(reply, self.max_frame)
        except framing.FrameError as exc:
            err = TabstewardError(f"the reply is too big to send ({exc}); the request ran but "
                                  "its result was not sent")
            frame = framing.encode(_with_id(protocol.error_reply(err), reply.get("id")))
        except (TypeError, ValueError):
            log.exception("a reply could not be turned into JSON")
            err = protocol.internal_error("the reply", self.log_path)
            frame = framing.encode(_with_id(protocol.error_reply(err), reply.get("id")))
        async with send_lock:
            if writer.is_closing():
                log.debug("a reply was dropped: its connection is closed")
                return
            try:
                writer.write(frame)
                await writer.drain()
            except ConnectionError as exc:
                log.debug("a reply was dropped: %s", exc)


def _peer_pid(writer: asyncio.StreamWriter) -> int | None:
    """The client's pid, as the kernel reports it for a Unix socket (Linux)."""
    sock = writer.get_extra_info("socket")
    option = getattr(socket, "SO_PEERCRED", None)
    if sock is None or option is None:
        return None
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    except OSError:
        return None
    pid = int(struct.unpack("3i", creds)[0])
    return pid or None


def _with_id(reply: dict[str, Any], rid: Any) -> dict[str, Any]:
    return reply if rid is None else {**reply, "id": rid}


def _answers(path: str) -> bool:
    """Whether something accepts connections on the Unix socket at `path`."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(path)
    except (FileNotFoundError, ConnectionRefusedError):
        return False
    except OSError as exc:
        log.debug("probing %s: %s", path, exc)
        return False
    finally:
        probe.close()
    return True
