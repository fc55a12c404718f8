"""The phone server's connection gate and its limits: who may connect, for how long, and how often they may
ask.

Anyone on the Wi-Fi can connect, so the server holds no connection for free: a connection must send a whole
request within `REQUEST_TIMEOUT` seconds of opening (or of its previous answer) or it is closed; connections
are capped per address and in all. At a cap a newcomer makes room by closing the oldest connection that
serves nobody (first one that has never had a request with a game's token answered, then an idle kept-alive
one); only when every connection is busy (an event stream, a request being answered) is it answered 503 and
closed at once. Requests are rate-limited per client address. Refusals and closings are logged as one short
line each (never the path, which holds the token), at most `LOG_BURST` lines a `LOG_WINDOW`
(ui/phoneserver/base.py). See docs/web.md, "Limits".

`Gate` is one accepted connection; `Gatekeeper`, a part of `PhoneServer`, counts the connections the gates
admit, makes room, and counts each address's requests.
"""

from __future__ import annotations

import asyncio
import logging
import math
import socket
from collections import deque
from collections.abc import Callable

from aiohttp.http_exceptions import HttpProcessingError

from ui.phoneserver.base import RefusalLog, ServerBase, log

# Connections. A family's phones each hold a page and a stream (a browser opens at most six
# connections to one server); a phone that has not sent a whole request in a few seconds is gone.
REQUEST_TIMEOUT = 5.0  # seconds to send a whole request, from opening or from the previous answer
MAX_CONNECTIONS = 128  # open connections in all; with the app's own files far below the unit's LimitNOFILE
MAX_CONNECTIONS_PER_CLIENT = 16  # open connections from one address
LISTEN_BACKLOG = 512  # connections the kernel queues for accepting (see Gatekeeper._listen)
ACCEPT_BATCH = 16  # connections accepted at once, before any of them is read (see Gatekeeper._listen)
ANSWER_GRACE = 1.0  # seconds a connection whose request has fully arrived is kept while it waits to be answered
NEW_GRACE = 0.5  # seconds a new connection has to send its request before it is closed for room like the others
LINGER = 1.0  # seconds to read the rest of a refused request (its body, or all of it past a cap) before closing
MAX_LINGERING = 16  # connections refused past a cap that may linger at once; the rest are closed at once

BUSY_TEXT = b"Too many connections; try again in a few seconds.\n"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(BUSY_TEXT)).encode() + b"\r\nRetry-After: 5\r\n"
        b"Cache-Control: no-store\r\nConnection: close\r\n\r\n" + BUSY_TEXT)


class ServerLog(logging.Logger):
    """The logger aiohttp's connection handler is given instead of its own.

    aiohttp logs a malformed request with its traceback, whose message quotes the request line
    (and so the token); here that becomes one refusal line naming only the kind of error. Any
    other error (a bug in a handler) goes to the server's log, within the same budget.
    """

    def __init__(self, refused: RefusalLog) -> None:
        super().__init__(log.name + ".connections")
        self.refused = refused

    def handle(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        client = str(record.args[0]) if isinstance(record.args, tuple) and record.args else "?"
        if isinstance(exc, HttpProcessingError):
            self.refused(client, f"a malformed request ({type(exc).__name__}), answered {exc.code or 400}")
        elif record.levelno >= logging.WARNING and self.refused.allow():
            log.handle(record)  # a bug in a handler: its traceback, which holds no path


class Gate(asyncio.Protocol):
    """One accepted connection: admitted (making room if need be) or refused at once past the caps,
    and if admitted handed to aiohttp's handler.

    Every callback is passed on unchanged, so the handler sees an ordinary connection; the gate
    counts the connection while it is open and knows whether it is serving anyone: `answering`
    while the server's middleware answers a request on it (an event stream for all its life),
    `arrived` when a whole request head has come in and waits to be answered, `trusted` once a
    request on it has been answered with a game (a status below 400).
    """

    def __init__(self, keeper: Gatekeeper, make_handler: Callable[[], asyncio.Protocol]) -> None:
        self.keeper = keeper
        self.make_handler = make_handler
        self.handler: asyncio.Protocol | None = None
        self.transport: asyncio.Transport  # set when the connection is made
        self.lingering: asyncio.Transport | None = None  # a refused connection, until it closes
        self.client = "?"
        self.counted = False  # in the keeper's counts (from admission until closed or evicted)
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
        why = self.keeper._admit(self)
        if why is not None:
            self._refuse(transport)
            self.keeper._refused(self.client, f"{why}, answered 503")
            return
        self.handler = self.make_handler()
        self.handler.connection_made(transport)

    def idle(self, now: float) -> bool:
        """Whether closing this connection would cut off nobody: no request being answered, none
        arrived and waiting, no event stream."""
        return not self.answering and (self.arrived is None or now - self.arrived > ANSWER_GRACE)

    def evict(self) -> None:
        """Close this idle connection to make room for a newcomer; it stops counting at once."""
        self.keeper._release(self)
        self.transport.close()

    def _refuse(self, transport: asyncio.Transport) -> None:
        """Answer 503 and close. Closing with the request unread would reset the connection, and the
        client might lose the answer, so a few refused connections linger for up to LINGER seconds,
        reading and dropping what comes, until the client closes its side."""
        transport.write(BUSY)
        if self.keeper._lingering >= MAX_LINGERING or not transport.can_write_eof():
            transport.close()
            return
        self.lingering = transport
        self.keeper._lingering += 1
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
            self.keeper._lingering -= 1
        if self.counted:
            self.keeper._release(self)
        handler, self.handler = self.handler, None
        if handler is not None:
            handler.connection_lost(exc)


class Gatekeeper(ServerBase):
    """The phone server's part that keeps its limits: the open connections, counted by address and in all
    (room made at a cap), and each address's requests within the rate window."""

    # Class attributes, so that a test may shorten them on one server.
    request_timeout: float = REQUEST_TIMEOUT
    max_connections: int = MAX_CONNECTIONS
    max_connections_per_client: int = MAX_CONNECTIONS_PER_CLIENT

    def _setup_gate(self, rate_limit: int, rate_window: float) -> None:
        self.rate_limit = rate_limit
        self.rate_window = rate_window
        # Only touched on the server's loop:
        self._hits: dict[str, deque[float]] = {}
        self._open_from: dict[str, int] = {}  # client address -> connections open now
        self._gates: dict[asyncio.BaseTransport, Gate] = {}  # the admitted connections, oldest first
        self._lingering = 0  # refused connections not closed yet (see Gate._refuse)

    @property
    def connections(self) -> int:
        """How many connections are open now (each past the caps is closed at once and not counted,
        and one closed to make room stops counting at once)."""
        return sum(self._open_from.values())

    async def _listen(self, host: str, port: int, handlers: Callable[[], asyncio.Protocol]) -> asyncio.Server:
        """Listen on `host` and `port`, each accepted connection passing through a `Gate` to `handlers`."""
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: Gate(self, handlers), host, port, reuse_address=True,
                                          backlog=ACCEPT_BATCH)
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
        return server

    def _admit(self, gate: Gate) -> str | None:
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

    def _release(self, gate: Gate) -> None:
        """Stop counting `gate` (closed, or closed to make room)."""
        gate.counted = False
        self._gates.pop(gate.transport, None)
        left = self._open_from.get(gate.client, 0) - 1
        if left > 0:
            self._open_from[gate.client] = left
        else:
            self._open_from.pop(gate.client, None)

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
