"""The phone page's web server: the live game, read-only, on the local network only.

`PhoneServer` runs aiohttp in a daemon thread with its own asyncio event loop,
beside Kivy's main loop; the app talks to it only through `publish` and
`add_move`, which are safe from any thread. See docs/web.md.

Routes (GET and HEAD only; anything else is 405):

- /g/{token}          the phone page (ui/phone.html, the same file for every game)
- /g/{token}/state    the JSON state last published for that token
- /g/{token}/events   server-sent events: the state at once, then every change,
                      and a comment heartbeat every 15 s
- /m/{code}           a one-time download of a game script (then 410 Gone)

An unknown or forgotten token is a 404 that says nothing about any game.
Every response carries no-store caching, nosniff, no-referrer and a strict
Content-Security-Policy (the page's inline script and style are allowed by
their SHA-256 hashes). Requests are rate-limited per client address.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import math
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any, Awaitable, Callable, Mapping, Sequence

from aiohttp import web

log = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between the comment lines that keep an idle event stream alive
RETRY_MS = 3000  # how soon a browser reconnects a dropped event stream
MAX_STREAMS = 64  # open event streams in all (a Pi serves a table, not a stadium)
MAX_STREAMS_PER_CLIENT = 8  # open event streams from one address
MAX_KEY = 256  # longer tokens or codes are not even compared
MOVE_FILENAME = "board-banker-game.jsonl"

NOT_FOUND = "Not found.\n"
PAGE_FILE = "phone.html"


def _load_page() -> tuple[bytes, str]:
    """The phone page's bytes and the Content-Security-Policy that allows exactly its inline code."""
    text = resources.files("ui").joinpath(PAGE_FILE).read_text(encoding="utf-8")
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


class _Stream:
    """One open event stream: the token it follows and the event that wakes it."""

    def __init__(self, token: str, client: str) -> None:
        self.token = token
        self.client = client
        self.wake = asyncio.Event()


class PhoneServer:
    """The phone page's server. `start()` serves; `publish()` and `add_move()` feed it; `stop()` ends it."""

    heartbeat: float = HEARTBEAT  # a class attribute, so that a test may shorten it on one server

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
        # Only touched on the server's loop:
        self._hits: dict[str, deque[float]] = {}
        self._streams: set[_Stream] = set()
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

    # ------------------------------------------------------------------ lookups (constant time)

    def _find(self, keys: Sequence[str], wanted: str) -> str | None:
        """The key equal to `wanted`, comparing against every key in constant time (no early exit)."""
        given = wanted.encode("utf-8", "surrogateescape")
        if len(given) > MAX_KEY:
            return None
        found = None
        for key in keys:
            if hmac.compare_digest(key.encode("utf-8", "surrogateescape"), given):
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
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                               handler_cancellation=True)
        self._runner = runner
        await runner.setup()
        port = self._wanted_port
        for host in self.hosts:
            site = web.TCPSite(runner, host, port, reuse_address=True)
            await site.start()
            if port == 0:  # the first address picks a free port; the others bind the same
                port = int(runner.addresses[0][1])
        self._port = port

    async def _close(self) -> None:
        self._stopping = True
        for stream in list(self._streams):
            stream.wake.set()
        # Let the streams write their end before the connections are closed.
        for _ in range(100):
            if not self._streams:
                break
            await asyncio.sleep(0.01)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ middleware and headers

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        client = request.remote or "?"
        wait = self._count(client)
        if wait is not None:
            return web.Response(status=429, text="Too many requests; try again later.\n",
                                headers={"Retry-After": str(wait)})
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="Read-only.\n", headers={"Allow": "GET, HEAD"})
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status == 404:
                return _not_found()
            if exc.status == 405:
                return web.Response(status=405, text="Read-only.\n", headers={"Allow": "GET, HEAD"})
            raise

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
        try:
            await response.prepare(request)
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            sent: bytes | None = None
            while not self._stopping:
                with self._lock:
                    body = self._states.get(token)
                if body is None:  # revoked or deleted: say so (nothing more) and end
                    await response.write(b"event: gone\ndata: {}\n\n")
                    break
                if body != sent:
                    await response.write(b"event: state\ndata: " + body + b"\n\n")
                    sent = body
                try:
                    await asyncio.wait_for(stream.wake.wait(), self.heartbeat)
                except asyncio.TimeoutError:
                    await response.write(b": heartbeat\n\n")
                stream.wake.clear()
            await response.write_eof()
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


def _not_found() -> web.Response:
    """The one 404 for every unknown path, token or code: it says nothing about any game."""
    return web.Response(status=404, text=NOT_FOUND)


__all__ = ["PhoneServer"]
