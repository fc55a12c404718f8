"""The phone page's web server: the live game, read-only, on the local network only; and between games the
phone editor of the family's editions, writable by the one phone holding the editing session.

`PhoneServer` runs aiohttp in a daemon thread with its own asyncio event loop,
beside Kivy's main loop; the app talks to it only through `publish`, `add_move`,
`open_editor`, `close_editor` and `editor_status`, which are safe from any thread.
See docs/web.md.

Routes (GET and HEAD, and POST on the editor's two writing paths; anything else is 405):

- /g/{token}          the phone page (ui/phone.html, the same file for every game)
- /g/{token}/state    the JSON state last published for that token
- /g/{token}/events   server-sent events: the state at once, then every change,
                      and a comment heartbeat every 15 s
- /m/{code}           a one-time download of a game script (then 410 Gone)

The phone editor of the family's editions (issue 43; ui/editor.py does the work), offered by
`open_editor(code, ...)` between games and ended by `close_editor()`:

- /e/{code}                  claims the one editing session: 303 to /edit with the session's
                             cookie (bb_edit: HttpOnly, SameSite=Strict); a second claim is 410
                             (the session's own phone, its cookie sent, is sent to /edit again)
- /edit                      the editor page (ui/editor.html, with its own CSP hashes)
- /edit/api/start            JSON: the page's labels, the language, the sources, the limits
- /edit/api/ruleset?name=N   JSON: {"data", "original"} of a shipped ruleset or an edition
- /edit/api/download?name=N  the edition's TOML file, as an attachment
- /edit/api/save             POST, application/json: {"data", "original", "replace"}
- /edit/api/upload?replace=0|1  POST, text/plain or application/toml: a TOML ruleset file

Every /edit path needs the session's cookie (else 403: a short page, or JSON on the API); the
session lapses `EDIT_IDLE` seconds after its last request (a waiting code as long after it was
offered). A POST must carry an Origin header equal to http://<its Host header> (else 403, and the
body is not read), the Content-Type its path takes (else 415) and at most MAX_EDIT_BODY bytes (else
413), which must come within EDIT_BODY_TIMEOUT seconds (else 408). A refused save or upload is 422
with {"ok": false, "errors": [{"field", "message"}]} and writes nothing. The editor's file work
(saving syncs to disk) runs in the loop's default executor.

An unknown or forgotten token or code is a 404 that says nothing about any game.
Every response carries no-store caching, nosniff, no-referrer and a strict
Content-Security-Policy (a page's inline script and style are allowed by
their SHA-256 hashes; the editor page has its own). There is no CORS: OPTIONS
is 405 like any other method. Requests are rate-limited per client address.

Anyone on the Wi-Fi can connect, so the server holds no connection for free:
a connection must send a whole request within `REQUEST_TIMEOUT` seconds of
opening (or of its previous answer) or it is closed; connections are capped
per address and in all. At a cap a newcomer makes room by closing the oldest
connection that serves nobody (first one that has never had a request with a
game's token answered, then an idle kept-alive one); only when every
connection is busy (an event stream, a request being answered) is it
answered 503 and closed at once. An event stream whose phone stops reading
is ended. Refusals and closings are logged as one short line each (never the
path, which holds the token), at most `LOG_BURST` lines a `LOG_WINDOW`. See
docs/web.md, "Limits".
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import html
import json
import logging
import math
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, Sequence

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from ui.tokens import is_typed_token, secret_token

if TYPE_CHECKING:
    from ui.editor import EditorService

log = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between the comment lines that keep an idle event stream alive
RETRY_MS = 3000  # how soon a browser reconnects a dropped event stream
MAX_STREAMS = 64  # open event streams in all (a Pi serves a table, not a stadium)
MAX_STREAMS_PER_CLIENT = 8  # open event streams from one address
MAX_KEY = 256  # longer tokens or codes are not even compared
# Connections. A family's phones each hold a page and a stream (a browser opens at most six
# connections to one server); a phone that has not sent a whole request in a few seconds is gone.
REQUEST_TIMEOUT = 5.0  # seconds to send a whole request, from opening or from the previous answer
MAX_CONNECTIONS = 128  # open connections in all; with the app's own files far below the unit's LimitNOFILE
MAX_CONNECTIONS_PER_CLIENT = 16  # open connections from one address
STREAM_WRITE_TIMEOUT = 30.0  # seconds an event stream may wait for its phone to read; then it is ended
LISTEN_BACKLOG = 512  # connections the kernel queues for accepting (see _open)
ACCEPT_BATCH = 16  # connections accepted at once, before any of them is read (see _open)
ANSWER_GRACE = 1.0  # seconds a connection whose request has fully arrived is kept while it waits to be answered
NEW_GRACE = 0.5  # seconds a new connection has to send its request before it is closed for room like the others
LINGER = 1.0  # seconds to read the rest of a refused request (its body, or all of it past a cap) before closing
MAX_LINGERING = 16  # connections refused past a cap that may linger at once; the rest are closed at once
LOG_BURST = 10  # refusal lines logged per window; the rest are counted in one line
LOG_WINDOW = 60.0  # seconds
MOVE_FILENAME = "board-banker-game.jsonl"

NOT_FOUND = "Not found.\n"
PAGE_FILE = "phone.html"
# The phone editor (see the module's docstring).
EDIT_IDLE = 15 * 60.0  # seconds an editing session (or a code not yet claimed) lasts after its last request
EDIT_COOKIE = "bb_edit"
MAX_EDIT_BODY = 256 * 1024  # bytes of a save's or an upload's body (ui.editor.MAX_EDIT_BODY)
EDIT_POSTS = {"/edit/api/save": ("application/json",), "/edit/api/upload": ("text/plain", "application/toml")}
EDIT_BODY_TIMEOUT = 30.0  # seconds for a save's or an upload's body to come in (only the session's phone gets that far)
ENDED = "This editing session has ended."  # the 403 page's text when the table gave none


def _load_page(file: str = PAGE_FILE) -> tuple[bytes, str]:
    """A page's bytes and the Content-Security-Policy that allows exactly its inline code. `file` is a
    file of the ui package, or an absolute path."""
    if Path(file).is_absolute():
        text = Path(file).read_text(encoding="utf-8")
    else:
        text = resources.files("ui").joinpath(file).read_text(encoding="utf-8")
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", text, re.S)

    def sha(code: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii") + "'"

    csp = "; ".join([
        "default-src 'none'",
        "script-src " + (" ".join(sha(s) for s in scripts) or "'none'"),
        "style-src " + (" ".join(sha(s) for s in styles) or "'none'"),
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ])
    return text.encode("utf-8"), csp


@dataclass
class _Move:
    script: str | None  # None once downloaded or expired: the game's text is not kept longer than needed
    expires_at: float
    used: bool = False


@dataclass
class _EditSession:
    """The one editing session offered by open_editor: "waiting" for its code to be claimed, "editing" once
    a phone holds its cookie, "ended" when closed, replaced or lapsed."""

    code: str
    labels: dict[str, str]
    service: "EditorService"
    idle: float
    last: float  # clock() time of its last request (or of the offer, while waiting)
    token: str | None = None
    state: str = "waiting"
    saved: list[str] = field(default_factory=list)


class _Stream:
    """One open event stream: the token it follows and the event that wakes it."""

    def __init__(self, token: str, client: str) -> None:
        self.token = token
        self.client = client
        self.wake = asyncio.Event()


BUSY_TEXT = b"Too many connections; try again in a few seconds.\n"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(BUSY_TEXT)).encode() + b"\r\nRetry-After: 5\r\n"
        b"Cache-Control: no-store\r\nConnection: close\r\n\r\n" + BUSY_TEXT)


class _RefusalLog:
    """One short warning a refusal, at most `burst` a `window`; the next line counts the ones left out.

    The lines name the client's address and why, never a path or a header (a path holds a token).
    Called on the server's loop only.
    """

    def __init__(self, clock: Callable[[], float], burst: int = LOG_BURST, window: float = LOG_WINDOW) -> None:
        self.clock = clock
        self.burst = burst
        self.window = window
        self.since = -math.inf
        self.lines = 0
        self.left_out = 0

    def __call__(self, client: str, why: str, verb: str = "refused") -> None:
        if self.allow():
            log.warning("phone server: %s %s: %s", verb, _printable(client), why)

    def allow(self) -> bool:
        """Whether one more line fits in this window's budget (counted either way)."""
        now = self.clock()
        if now - self.since >= self.window:
            if self.left_out:
                log.warning("phone server: %d more refusals and closings in the last %g s were not logged",
                            self.left_out, self.window)
            self.since, self.lines, self.left_out = now, 0, 0
        if self.lines < self.burst:
            self.lines += 1
            return True
        self.left_out += 1
        return False

    def flush(self) -> None:
        """Log the count of the refusals left out so far (when the server stops)."""
        if self.left_out:
            log.warning("phone server: %d more refusals and closings were not logged", self.left_out)
            self.left_out = 0


def _printable(text: str) -> str:
    """An address for a log line: short, and nothing that could start a line of its own."""
    return "".join(c if c.isprintable() else "?" for c in text[:64])


class _ServerLog(logging.Logger):
    """The logger aiohttp's connection handler is given instead of its own.

    aiohttp logs a malformed request with its traceback, whose message quotes the request line
    (and so the token); here that becomes one refusal line naming only the kind of error. Any
    other error (a bug in a handler) goes to this module's log, within the same budget.
    """

    def __init__(self, refused: _RefusalLog) -> None:
        super().__init__(__name__ + ".connections")
        self.refused = refused

    def handle(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        client = str(record.args[0]) if isinstance(record.args, tuple) and record.args else "?"
        if isinstance(exc, HttpProcessingError):
            self.refused(client, f"a malformed request ({type(exc).__name__}), answered {exc.code or 400}")
        elif record.levelno >= logging.WARNING and self.refused.allow():
            log.handle(record)  # a bug in a handler: its traceback, which holds no path


class _Gate(asyncio.Protocol):
    """One accepted connection: admitted (making room if need be) or refused at once past the caps,
    and if admitted handed to aiohttp's handler.

    Every callback is passed on unchanged, so the handler sees an ordinary connection; the gate
    counts the connection while it is open and knows whether it is serving anyone: `answering`
    while the server's middleware answers a request on it (an event stream for all its life),
    `arrived` when a whole request head has come in and waits to be answered, `trusted` once a
    request on it has been answered with a game (a status below 400).
    """

    def __init__(self, server: "PhoneServer", make_handler: Callable[[], asyncio.Protocol]) -> None:
        self.server = server
        self.make_handler = make_handler
        self.handler: asyncio.Protocol | None = None
        self.transport: asyncio.Transport  # set when the connection is made
        self.lingering: asyncio.Transport | None = None  # a refused connection, until it closes
        self.client = "?"
        self.counted = False  # in the server's counts (from admission until closed or evicted)
        self.trusted = False
        self.answering = 0
        self.arrived: float | None = None  # when a whole request head arrived, until it is answered
        self.opened = 0.0  # the loop's time when it was accepted
        self.tail = b""  # the last bytes received, to find a head's end across reads

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.client = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.transport = transport
        self.opened = asyncio.get_running_loop().time()
        why = self.server._admit(self)
        if why is not None:
            self._refuse(transport)
            self.server._refused(self.client, f"{why}, answered 503")
            return
        self.handler = self.make_handler()
        self.handler.connection_made(transport)

    def idle(self, now: float) -> bool:
        """Whether closing this connection would cut off nobody: no request being answered, none
        arrived and waiting, no event stream."""
        return not self.answering and (self.arrived is None or now - self.arrived > ANSWER_GRACE)

    def evict(self) -> None:
        """Close this idle connection to make room for a newcomer; it stops counting at once."""
        self.server._release(self)
        self.transport.close()

    def _refuse(self, transport: asyncio.Transport) -> None:
        """Answer 503 and close. Closing with the request unread would reset the connection, and the
        client might lose the answer, so a few refused connections linger for up to LINGER seconds,
        reading and dropping what comes, until the client closes its side."""
        transport.write(BUSY)
        if self.server._lingering >= MAX_LINGERING or not transport.can_write_eof():
            transport.close()
            return
        self.lingering = transport
        self.server._lingering += 1
        transport.write_eof()
        asyncio.get_running_loop().call_later(LINGER, transport.close)

    def data_received(self, data: bytes) -> None:
        if self.handler is None:
            return
        if self.arrived is None and not self.answering:
            seen = self.tail + data
            if b"\r\n\r\n" in seen or b"\n\n" in seen:
                self.arrived = asyncio.get_running_loop().time()
            self.tail = seen[-3:]
        self.handler.data_received(data)

    def answer_started(self) -> None:
        self.answering += 1
        self.arrived, self.tail = None, b""

    def answer_ended(self, status: int) -> None:
        self.answering -= 1
        if status < 400:
            self.trusted = True

    def eof_received(self) -> bool | None:
        if self.lingering is not None:
            self.lingering.close()
            return None
        return self.handler.eof_received() if self.handler is not None else None

    def pause_writing(self) -> None:
        if self.handler is not None:
            self.handler.pause_writing()

    def resume_writing(self) -> None:
        if self.handler is not None:
            self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.lingering is not None:
            self.lingering = None
            self.server._lingering -= 1
        if self.counted:
            self.server._release(self)
        handler, self.handler = self.handler, None
        if handler is not None:
            handler.connection_lost(exc)


class PhoneServer:
    """The phone page's server. `start()` serves; `publish()` and `add_move()` feed it; `stop()` ends it."""

    # Class attributes, so that a test may shorten them on one server.
    heartbeat: float = HEARTBEAT
    request_timeout: float = REQUEST_TIMEOUT
    stream_write_timeout: float = STREAM_WRITE_TIMEOUT
    max_connections: int = MAX_CONNECTIONS
    max_connections_per_client: int = MAX_CONNECTIONS_PER_CLIENT
    edit_body_timeout: float = EDIT_BODY_TIMEOUT
    # The editor page: a file of the ui package (or an absolute path), read when first asked for; while it
    # is missing /edit answers 404 and the absence is logged once.
    EDITOR_PAGE_FILE: str = "editor.html"

    def __init__(self, hosts: Sequence[str], port: int = 8080, *, rate_limit: int = 120,
                 rate_window: float = 60.0, on_moved: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if isinstance(hosts, str):
            hosts = [hosts]
        if not hosts:
            raise ValueError("PhoneServer needs at least one address to listen on")
        self.hosts = list(dict.fromkeys(hosts))
        self._wanted_port = port
        self.rate_limit = rate_limit
        self.rate_window = rate_window
        self.on_moved = on_moved
        self.clock = clock
        self._page, self._csp = _load_page()
        self._lock = threading.Lock()
        self._states: dict[str, bytes] = {}  # token -> the JSON served
        self._moves: dict[str, _Move] = {}
        self._editor: _EditSession | None = None  # under _lock
        self._editor_page: tuple[bytes, str] | None = None  # the page and its CSP, once read
        self._editor_page_missing = False  # its absence has been logged
        # Only touched on the server's loop:
        self._hits: dict[str, deque[float]] = {}
        self._streams: set[_Stream] = set()
        self._open_from: dict[str, int] = {}  # client address -> connections open now
        self._gates: dict[asyncio.BaseTransport, _Gate] = {}  # the admitted connections, oldest first
        self._lingering = 0  # refused connections not closed yet (see _Gate._refuse)
        self._refused = _RefusalLog(clock)
        self._servers: list[asyncio.AbstractServer] = []
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._port = 0

    # ------------------------------------------------------------------ the app's side (any thread)

    @property
    def port(self) -> int:
        """The port bound (after start(); port=0 picks a free one)."""
        return self._port

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def streams(self) -> int:
        """How many event streams are open now (phones following a game)."""
        return len(self._streams)

    @property
    def connections(self) -> int:
        """How many connections are open now (each past the caps is closed at once and not counted,
        and one closed to make room stops counting at once)."""
        return sum(self._open_from.values())

    def start(self) -> None:
        """Bind every host (only those) and serve from a daemon thread; return once listening.

        Raises OSError when an address cannot be bound (nothing is left listening then).
        """
        if self.running:
            raise RuntimeError("the phone server is already running")
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()
        self._stopping = False

        def serve() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._open())
            except BaseException as exc:  # noqa: BLE001 - handed to start()'s caller
                failure.append(exc)
                try:
                    loop.run_until_complete(self._close())
                finally:
                    loop.close()
                    ready.set()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                try:
                    loop.run_until_complete(loop.shutdown_asyncgens())
                finally:
                    loop.close()

        thread = threading.Thread(target=serve, name="phone-server", daemon=True)
        self._loop = loop
        self._thread = thread
        thread.start()
        ready.wait()
        if failure:
            self._loop = self._thread = None
            thread.join()
            exc = failure[0]
            if isinstance(exc, OSError):
                raise exc
            raise OSError(f"the phone server could not start: {exc}") from exc

    def stop(self) -> None:
        """End every open stream and connection, and the thread. Safe to call more than once."""
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is None or thread is None:
            return
        if thread.is_alive() and not loop.is_closed():
            try:
                done = asyncio.run_coroutine_threadsafe(self._close(), loop)
                done.result(timeout=10)
            except Exception:  # noqa: BLE001 - stopping anyway
                log.exception("the phone server did not close cleanly")
            try:
                loop.call_soon_threadsafe(loop.stop)
            except RuntimeError:
                pass  # already closed
        thread.join(timeout=10)

    def publish(self, token: str, state: Mapping[str, Any] | None) -> None:
        """Serve `state` (as JSON) for `token` from now on; None forgets the token (then 404)."""
        body = None if state is None else json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with self._lock:
            if body is None:
                self._states.pop(token, None)
            else:
                self._states[token] = body
        self._call(self._wake_token, token)

    def add_move(self, code: str, script: str, expires_at: float) -> None:
        """Offer `script` once at /m/{code} until `expires_at` (clock() time)."""
        with self._lock:
            self._moves[code] = _Move(script, expires_at)

    def open_editor(self, code: str, page_labels: Mapping[str, str], service: "EditorService",
                    idle: float = EDIT_IDLE) -> None:
        """Offer one editing session, claimable once at /e/{code} (see the module's docstring). Any
        previous code and session end at once. `page_labels` are the page's texts in the table's language
        (ui.editor_page.editor_labels); `service` does the work (ui.editor.EditorService)."""
        with self._lock:
            self._editor = _EditSession(code, dict(page_labels), service, idle, self.clock())

    def close_editor(self) -> None:
        """End the editing session (the touchscreen's Done, or a game starting): its phone is refused from
        now on and its code is a used link."""
        with self._lock:
            if self._editor is not None:
                self._editor.state, self._editor.token = "ended", None

    def editor_status(self) -> dict[str, Any]:
        """{"state": "waiting" | "editing" | "ended", "saved": [the titles saved this session, oldest first]}
        ("ended" also when no session was ever offered)."""
        with self._lock:
            session = self._editor
            if session is None:
                return {"state": "ended", "saved": []}
            self._lapse(session)
            return {"state": session.state, "saved": list(session.saved)}

    def _lapse(self, session: _EditSession) -> None:
        """End `session` if it has gone unused for its idle time (called under _lock)."""
        if session.state != "ended" and self.clock() - session.last > session.idle:
            session.state, session.token = "ended", None

    # ------------------------------------------------------------------ lookups (constant time)

    def _find(self, keys: Sequence[str], wanted: str) -> str | None:
        """The key equal to `wanted`, comparing against every key in constant time (no early exit). A key of
        the kind a person types (ui/tokens.py: lower case only) also answers to `wanted` typed in capitals; a
        key made before (mixed case) only to itself."""
        given = wanted.encode("utf-8", "surrogateescape")
        if len(given) > MAX_KEY:
            return None
        folded = wanted.lower().encode("utf-8", "surrogateescape")
        found = None
        for key in keys:
            stored = key.encode("utf-8", "surrogateescape")
            exact = hmac.compare_digest(stored, given)
            typed = hmac.compare_digest(stored, folded) and is_typed_token(key)
            if exact or typed:
                found = key
        return found

    def _state(self, token: str) -> bytes | None:
        with self._lock:
            key = self._find(list(self._states), token)
            return None if key is None else self._states[key]

    # ------------------------------------------------------------------ the server's loop

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass  # the loop closed meanwhile: nobody is listening

    def _wake_token(self, token: str) -> None:
        for stream in self._streams:
            if stream.token == token:
                stream.wake.set()

    async def _open(self) -> None:
        app = web.Application(middlewares=[self._guard])
        app.on_response_prepare.append(self._headers)
        app.router.add_get("/g/{token}", self._page_handler)
        app.router.add_get("/g/{token}/state", self._state_handler)
        app.router.add_get("/g/{token}/events", self._events_handler)
        app.router.add_get("/m/{code}", self._move_handler)
        app.router.add_get("/e/{code}", self._claim_handler)
        app.router.add_get("/edit", self._editor_handler)
        app.router.add_get("/edit/api/start", self._start_handler)
        app.router.add_get("/edit/api/ruleset", self._ruleset_handler)
        app.router.add_get("/edit/api/download", self._download_handler)
        app.router.add_post("/edit/api/save", self._save_handler)
        app.router.add_post("/edit/api/upload", self._upload_handler)
        # keepalive_timeout bounds both the wait for a request's last header byte and an idle
        # keep-alive connection: aiohttp arms it when the connection opens and after each answer.
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                               handler_cancellation=True, keepalive_timeout=self.request_timeout,
                               lingering_time=LINGER, logger=_ServerLog(self._refused))
        self._runner = runner
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        loop = asyncio.get_running_loop()
        port = self._wanted_port
        for host in self.hosts:
            server = await loop.create_server(lambda: _Gate(self, handlers), host, port, reuse_address=True,
                                              backlog=ACCEPT_BATCH)
            self._servers.append(server)
            # asyncio accepts up to its `backlog` connections at once and passes the same number to
            # listen(). Accepted at once, a flood's connections would make room among themselves before
            # a phone's request, accepted with them, has been read; so the batch stays small. A full
            # listen queue drops a phone's connection for TCP's retry a second later; so the kernel's
            # queue is made long (Linux caps it at net.core.somaxconn, 4096 by default).
            for listening in server.sockets:
                raw = socket.socket(fileno=listening.fileno())  # the same socket, not a copy
                try:
                    raw.listen(LISTEN_BACKLOG)
                finally:
                    raw.detach()
            if port == 0:  # the first address picks a free port; the others bind the same
                port = int(server.sockets[0].getsockname()[1])
        self._port = port

    def _admit(self, gate: _Gate) -> str | None:
        """Count a new connection; None if it may stay, else why it may not.

        At a cap (its address's first, then the total) room is made by closing the oldest idle
        connection (see `_make_room`); the newcomer is refused only when none is idle.
        """
        client = gate.client
        if (self._open_from.get(client, 0) >= self.max_connections_per_client
                and not self._make_room(client)):
            return "too many connections from one address"
        if self.connections >= self.max_connections and not self._make_room(None):
            return "too many connections in all"
        self._open_from[client] = self._open_from.get(client, 0) + 1
        self._gates[gate.transport] = gate
        gate.counted = True
        return None

    def _make_room(self, client: str | None) -> bool:
        """Close the oldest idle connection (from `client`, or from anyone). False if every one is busy.

        The order: first those that have never had a game answered, then kept-alive ones between
        requests, then those opened less than NEW_GRACE ago that have not sent a whole request yet (a
        phone's new connection, whose request may still be on its way: without this, a flood's own
        kept-alive connections would leave a phone's new one the first to go).
        """
        now = asyncio.get_running_loop().time()
        victim = kept = new = None
        for gate in self._gates.values():  # oldest first
            if (client is None or gate.client == client) and gate.idle(now):
                if gate.trusted:
                    kept = kept or gate
                elif now - gate.opened < NEW_GRACE:
                    new = new or gate
                else:
                    victim = gate
                    break
        victim = victim or kept or new
        if victim is None:
            return False
        victim.evict()
        why = "a kept-alive connection" if victim.trusted else "a connection that had not asked for a game"
        self._refused(victim.client, f"{why}, closed to make room", verb="closed")
        return True

    def _release(self, gate: _Gate) -> None:
        """Stop counting `gate` (closed, or closed to make room)."""
        gate.counted = False
        self._gates.pop(gate.transport, None)
        left = self._open_from.get(gate.client, 0) - 1
        if left > 0:
            self._open_from[gate.client] = left
        else:
            self._open_from.pop(gate.client, None)

    async def _close(self) -> None:
        self._stopping = True
        for stream in list(self._streams):
            stream.wake.set()
        # Let the streams write their end before the connections are closed.
        for _ in range(100):
            if not self._streams:
                break
            await asyncio.sleep(0.01)
        self._refused.flush()
        servers, self._servers = self._servers, []
        for server in servers:
            server.close()  # no new connections; the runner closes the open ones
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ middleware and headers

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        client = request.remote or "?"
        gate = None if request.transport is None else self._gates.get(request.transport)
        if gate is not None:
            gate.answer_started()  # not closed to make room until the answer has been written
        status = 500
        try:
            response = await self._answer(request, handler, client)
            status = response.status
            if status >= 400:
                self._refused(client, f"{REFUSALS.get(status, 'an error')}, answered {status}")
            try:  # aiohttp would do both next (a second call does nothing), with the gate not busy
                await response.prepare(request)
                await response.write_eof()
            except ConnectionError:
                pass  # the client went away; aiohttp sees the same when it tries
        finally:
            if gate is not None:
                gate.answer_ended(status)
        return response

    async def _answer(self, request: web.Request,
                      handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                      client: str) -> web.StreamResponse:
        wait = self._count(client)
        if wait is not None:
            return web.Response(status=429, text="Too many requests; try again later.\n",
                                headers={"Retry-After": str(wait)})
        if request.method == "POST" and request.path in EDIT_POSTS:
            refusal = self._check_post(request)
            if refusal is not None:
                refusal.force_close()  # the body is not read
                return refusal
        elif request.method not in ("GET", "HEAD"):
            return _read_only(request.path)
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status == 404:
                return _not_found()
            if exc.status == 405:
                return _read_only(request.path)
            raise

    def _check_post(self, request: web.Request) -> web.Response | None:
        """Refuse a write before its body is read: another origin (403), a wrong Content-Type (415), a body
        too large by its Content-Length (413). None: go on."""
        origin = request.headers.get("Origin")
        host = request.headers.get("Host")
        if origin is None or host is None or origin.lower() != f"http://{host}".lower():
            return web.Response(status=403, text="Forbidden.\n")
        wanted = EDIT_POSTS[request.path]
        charset = request.charset
        if request.content_type not in wanted or (charset is not None and charset.lower() not in ("utf-8", "utf8")):
            return web.Response(status=415, text="Unsupported content type.\n",
                                headers={"Accept": ", ".join(wanted)})
        length = request.content_length
        if length is not None and length > MAX_EDIT_BODY:
            return web.Response(status=413, text="Too large.\n")
        return None

    def _count(self, client: str) -> int | None:
        """Count one request from `client`; None if allowed, else the seconds until it would be."""
        now = self.clock()
        hits = self._hits.get(client)
        if hits is None:
            if len(self._hits) > 1000:  # forget quiet clients now and then
                for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.rate_window]:
                    del self._hits[key]
            hits = self._hits[client] = deque()
        while hits and hits[0] <= now - self.rate_window:
            hits.popleft()
        if len(hits) >= self.rate_limit:
            return max(1, math.ceil(hits[0] + self.rate_window - now))
        hits.append(now)
        return None

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        h = response.headers
        h["Cache-Control"] = "no-store"
        h["X-Content-Type-Options"] = "nosniff"
        h["Referrer-Policy"] = "no-referrer"
        h["X-Frame-Options"] = "DENY"
        if "Content-Security-Policy" not in h:  # the editor page sets its own
            h["Content-Security-Policy"] = self._csp
        h["Server"] = "Board Banker"

    # ------------------------------------------------------------------ handlers

    async def _page_handler(self, request: web.Request) -> web.StreamResponse:
        if self._state(request.match_info["token"]) is None:
            return _not_found()
        return web.Response(body=self._page, content_type="text/html", charset="utf-8")

    async def _state_handler(self, request: web.Request) -> web.StreamResponse:
        body = self._state(request.match_info["token"])
        if body is None:
            return _not_found()
        return web.Response(body=body, content_type="application/json", charset="utf-8")

    async def _events_handler(self, request: web.Request) -> web.StreamResponse:
        token_given = request.match_info["token"]
        with self._lock:
            token = self._find(list(self._states), token_given)
        if token is None:
            return _not_found()
        client = request.remote or "?"
        if (len(self._streams) >= MAX_STREAMS
                or sum(s.client == client for s in self._streams) >= MAX_STREAMS_PER_CLIENT):
            return web.Response(status=429, text="Too many open streams.\n", headers={"Retry-After": "30"})
        headers = {"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
        if request.method == "HEAD":
            return web.Response(headers=headers)
        response = web.StreamResponse(headers=headers)  # chunked on HTTP/1.1, until closed on 1.0
        stream = _Stream(token, client)
        self._streams.add(stream)

        async def send(data: bytes) -> None:
            await asyncio.wait_for(response.write(data), self.stream_write_timeout)

        try:
            await response.prepare(request)
            await send(f"retry: {RETRY_MS}\n\n".encode())
            sent: bytes | None = None
            while not self._stopping:
                with self._lock:
                    body = self._states.get(token)
                if body is None:  # revoked or deleted: say so (nothing more) and end
                    await send(b"event: gone\ndata: {}\n\n")
                    break
                if body != sent:
                    await send(b"event: state\ndata: " + body + b"\n\n")
                    sent = body
                try:
                    await asyncio.wait_for(stream.wake.wait(), self.heartbeat)
                except asyncio.TimeoutError:
                    await send(b": heartbeat\n\n")
                stream.wake.clear()
            await asyncio.wait_for(response.write_eof(), self.stream_write_timeout)
        except asyncio.TimeoutError:  # the phone stopped reading: end the stream, free the connection
            self._refused(client, "an event stream that was not being read, ended")
            if request.transport is not None:
                request.transport.abort()
        except (ConnectionError, RuntimeError):
            pass  # the phone went away
        finally:
            self._streams.discard(stream)
        return response

    async def _move_handler(self, request: web.Request) -> web.StreamResponse:
        now = self.clock()
        with self._lock:
            code = self._find(list(self._moves), request.match_info["code"])
            if code is None:
                return _not_found()
            move = self._moves[code]
            if move.used or now >= move.expires_at:
                move.script = None
                return web.Response(status=410, text="This link has been used or has expired.\n")
            script = move.script
            if request.method == "GET":  # HEAD looks without using the link up
                move.used = True
                move.script = None
        response = web.Response(text=script or "", content_type="text/plain", charset="utf-8",
                                headers={"Content-Disposition": f'attachment; filename="{MOVE_FILENAME}"'})
        if request.method == "HEAD":
            return response
        await response.prepare(request)
        await response.write_eof()
        if self.on_moved is not None:
            try:
                self.on_moved(code)
            except Exception:  # noqa: BLE001 - the download happened; the app's bug is logged
                log.exception("on_moved failed")
        return response

    # ------------------------------------------------------------------ the phone editor

    def _session(self, request: web.Request) -> _EditSession | None:
        """The editing session whose cookie `request` carries, refreshed; None if it has none, or the
        session has ended or lapsed."""
        given = request.cookies.get(EDIT_COOKIE, "")
        with self._lock:
            session = self._editor
            if session is None:
                return None
            self._lapse(session)
            if session.state != "editing" or session.token is None or not given:
                return None
            if self._find([session.token], given) is None:
                return None
            session.last = self.clock()
            return session

    def _ended(self, request: web.Request) -> web.Response:
        """403 for a request without the session: a short page in the table's language, or JSON on the API."""
        with self._lock:
            session = self._editor
            labels = session.labels if session is not None else {}
            language = session.service.language if session is not None else "en"
        text = labels.get("ended") or ENDED
        if request.path.startswith("/edit/api/"):  # a POST's body is not read: the connection closes
            return _json({"ok": False, "ended": True, "message": text}, status=403, close=request.method == "POST")
        page = ("<!doctype html>\n<html lang=\"" + html.escape(language) + "\"><head><meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                "<title>Board Banker</title></head>\n<body><p>" + html.escape(text) + "</p></body></html>\n")
        return web.Response(status=403, text=page, content_type="text/html", charset="utf-8")

    async def _claim_handler(self, request: web.Request) -> web.StreamResponse:
        with self._lock:
            session = self._editor
            if session is None or self._find([session.code], request.match_info["code"]) is None:
                return _not_found()
            self._lapse(session)
            given = request.cookies.get(EDIT_COOKIE, "")
            if session.state == "editing" and session.token and given and self._find([session.token], given):
                session.last = self.clock()  # the session's own phone opened the code again: back to its editor
                return web.Response(status=303, headers={"Location": "/edit"})
            if session.state != "waiting":
                return web.Response(status=410, text="This link has been used or has expired.\n")
            if request.method != "GET":  # HEAD looks without claiming
                return web.Response(status=204)
            session.token = secret_token()  # a cookie, never shown (ui/tokens.py)
            session.state, session.last = "editing", self.clock()
            token = session.token
        response = web.Response(status=303, headers={"Location": "/edit"})
        response.set_cookie(EDIT_COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    async def _editor_handler(self, request: web.Request) -> web.StreamResponse:
        if self._session(request) is None:
            return self._ended(request)
        page = self._editor_page
        if page is None:
            try:
                page = await asyncio.get_running_loop().run_in_executor(None, _load_page, self.EDITOR_PAGE_FILE)
            except OSError as exc:
                if not self._editor_page_missing:
                    self._editor_page_missing = True
                    log.warning("phone server: the editor page %s cannot be read (%s)", self.EDITOR_PAGE_FILE,
                                exc.strerror or type(exc).__name__)
                return _not_found()
            self._editor_page = page
        body, csp = page
        return web.Response(body=body, content_type="text/html", charset="utf-8",
                            headers={"Content-Security-Policy": csp})

    async def _start_handler(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        if session is None:
            return self._ended(request)
        service = session.service
        sources = await self._work(service.sources)
        return _json({"labels": session.labels, "language": service.language, "sources": sources,
                      "limits": service.limits()})

    async def _ruleset_handler(self, request: web.Request) -> web.StreamResponse:
        from ui.editor import EditorRefusal

        session = self._session(request)
        if session is None:
            return self._ended(request)
        try:
            found = await self._work(session.service.ruleset, request.query.get("name", ""))
        except EditorRefusal as exc:
            return _json(exc.result(), status=404)
        return _json(found)

    async def _download_handler(self, request: web.Request) -> web.StreamResponse:
        from ui.editor import EditorRefusal

        session = self._session(request)
        if session is None:
            return self._ended(request)
        try:
            filename, body = await self._work(session.service.download, request.query.get("name", ""))
        except EditorRefusal as exc:
            return _json(exc.result(), status=404)
        return web.Response(body=body, content_type="application/toml", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def _save_handler(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        if session is None:
            return self._ended(request)
        body = await self._body(request)
        if isinstance(body, web.Response):
            return body
        return self._saved(session, await self._work(session.service.save_body, body))

    async def _upload_handler(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        if session is None:
            return self._ended(request)
        replace = request.query.get("replace", "0")
        if replace not in ("0", "1"):
            return _json({"ok": False, "errors": [{"field": "replace", "message": "replace must be 0 or 1"}]},
                         status=422, close=True)
        body = await self._body(request)
        if isinstance(body, web.Response):
            return body
        return self._saved(session, await self._work(session.service.upload_body, body, replace == "1"))

    def _saved(self, session: _EditSession, result: dict[str, Any]) -> web.Response:
        if not result.get("ok"):
            return _json(result, status=422)
        with self._lock:
            session.saved.append(str(result.get("title", "")))
        return _json(result)

    async def _body(self, request: web.Request) -> bytes | web.Response:
        """The request's body, read within `edit_body_timeout`; 413 past MAX_EDIT_BODY (the connection is then
        closed, the rest not read), 408 when it does not come in time."""
        chunks = bytearray()

        async def read() -> bool:
            while True:
                chunk = await request.content.read(MAX_EDIT_BODY + 1 - len(chunks))
                if not chunk:
                    return True
                chunks.extend(chunk)
                if len(chunks) > MAX_EDIT_BODY:
                    return False

        try:
            whole = await asyncio.wait_for(read(), self.edit_body_timeout)
        except asyncio.TimeoutError:
            response = web.Response(status=408, text="The request took too long.\n")
            response.force_close()
            return response
        if not whole:
            response = web.Response(status=413, text="Too large.\n")
            response.force_close()
            return response
        return bytes(chunks)

    async def _work(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in the loop's default executor: the editor's calls read and sync files."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


REFUSALS = {
    403: "an editor request without the editing session, or a write from another origin",
    404: "an unknown page, game or link",
    405: "a request that is not GET or HEAD (or POST on the editor's writing paths)",
    408: "an editor request whose body did not come in time",
    410: "a used or expired link",
    413: "an editor request whose body is too large",
    415: "an editor request of the wrong content type",
    422: "an edition the editor refused",
    429: "too many requests or streams from one address",
}


def _json(value: Any, status: int = 200, close: bool = False) -> web.Response:
    response = web.Response(status=status, content_type="application/json", charset="utf-8",
                            body=json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))
    if close:
        response.force_close()
    return response


def _read_only(path: str = "") -> web.Response:
    """405 for anything but GET and HEAD (POST on the editor's writing paths); the connection is closed (no
    body of it is read)."""
    allow = "POST" if path in EDIT_POSTS else "GET, HEAD"
    response = web.Response(status=405, text="Read-only.\n", headers={"Allow": allow})
    response.force_close()
    return response


def _not_found() -> web.Response:
    """The one 404 for every unknown path, token or code: it says nothing about any game."""
    return web.Response(status=404, text=NOT_FOUND)


__all__ = ["PhoneServer"]
