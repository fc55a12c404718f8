"""The phone server's live game: the phone page (ui/phone.html), the state the app publishes, its event
stream, and the one-time download of a game script.

Routes (GET and HEAD):

- /g/{token}          the phone page (ui/phone.html, the same file for every game)
- /g/{token}/state    the JSON state last published for that token
- /g/{token}/events   server-sent events: the state at once, then every change,
                      and a comment heartbeat every 15 s
- /m/{code}           a one-time download of a game script (then 410 Gone)

An unknown or forgotten token or code is a 404 that says nothing about any game. The page's inline script
and style are allowed by their SHA-256 hashes (its Content-Security-Policy is every answer's but the editor
page's). An event stream whose phone stops reading is ended. See docs/web.md.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from ui.phoneserver.base import ServerBase, find, load_page, log, not_found

HEARTBEAT = 15.0  # seconds between the comment lines that keep an idle event stream alive
RETRY_MS = 3000  # how soon a browser reconnects a dropped event stream
MAX_STREAMS = 64  # open event streams in all (a Pi serves a table, not a stadium)
MAX_STREAMS_PER_CLIENT = 8  # open event streams from one address
STREAM_WRITE_TIMEOUT = 30.0  # seconds an event stream may wait for its phone to read; then it is ended
MOVE_FILENAME = "board-banker-game.jsonl"
PAGE_FILE = "phone.html"


@dataclass
class _Move:
    script: str | None  # None once downloaded or expired: the game's text is not kept longer than needed
    expires_at: float
    used: bool = False


class _Stream:
    """One open event stream: the token it follows and the event that wakes it."""

    def __init__(self, token: str, client: str) -> None:
        self.token = token
        self.client = client
        self.wake = asyncio.Event()


class LiveGame(ServerBase):
    """The phone server's part that serves the live game: `publish()` and `add_move()` feed it (from any
    thread), its handlers answer the phones."""

    # Class attributes, so that a test may shorten them on one server.
    heartbeat: float = HEARTBEAT
    stream_write_timeout: float = STREAM_WRITE_TIMEOUT

    def _setup_live(self, on_moved: Callable[[str], None] | None) -> None:
        self.on_moved = on_moved
        self._page, self._csp = load_page(PAGE_FILE)
        self._states: dict[str, bytes] = {}  # token -> the JSON served (under _lock)
        self._moves: dict[str, _Move] = {}  # under _lock
        self._streams: set[_Stream] = set()  # only touched on the server's loop

    @property
    def streams(self) -> int:
        """How many event streams are open now (phones following a game)."""
        return len(self._streams)

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

    def _add_live_routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/g/{token}", self._page_handler)
        router.add_get("/g/{token}/state", self._state_handler)
        router.add_get("/g/{token}/events", self._events_handler)
        router.add_get("/m/{code}", self._move_handler)

    def _state(self, token: str) -> bytes | None:
        with self._lock:
            key = find(list(self._states), token)
            return None if key is None else self._states[key]

    def _wake_token(self, token: str) -> None:
        for stream in self._streams:
            if stream.token == token:
                stream.wake.set()

    async def _end_streams(self) -> None:
        """Wake every open stream to end (the server is stopping), and give them a second to write their end."""
        for stream in list(self._streams):
            stream.wake.set()
        for _ in range(100):
            if not self._streams:
                break
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ handlers

    async def _page_handler(self, request: web.Request) -> web.StreamResponse:
        if self._state(request.match_info["token"]) is None:
            return not_found()
        return web.Response(body=self._page, content_type="text/html", charset="utf-8")

    async def _state_handler(self, request: web.Request) -> web.StreamResponse:
        body = self._state(request.match_info["token"])
        if body is None:
            return not_found()
        return web.Response(body=body, content_type="application/json", charset="utf-8")

    async def _events_handler(self, request: web.Request) -> web.StreamResponse:
        token_given = request.match_info["token"]
        with self._lock:
            token = find(list(self._states), token_given)
        if token is None:
            return not_found()
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
                except TimeoutError:
                    await send(b": heartbeat\n\n")
                stream.wake.clear()
            await asyncio.wait_for(response.write_eof(), self.stream_write_timeout)
        except TimeoutError:  # the phone stopped reading: end the stream, free the connection
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
            code = find(list(self._moves), request.match_info["code"])
            if code is None:
                return not_found()
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
            except Exception:  # the download happened; the app's bug is logged
                log.exception("on_moved failed")
        return response
