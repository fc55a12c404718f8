"""`PhoneServer`: the phone server's parts joined (the connection gate, the live game, the editor), its
thread and event loop, and the middleware every request passes through.

Every request is counted against its address's rate limit (429 past it), then must be GET or HEAD, or POST
on the editor's two writing paths (anything else is 405, OPTIONS included: there is no CORS). Every response
carries no-store caching, nosniff, no-referrer and a strict Content-Security-Policy (the phone page's, or the
editor page's own). A refusal (a status of 400 or more) is logged as one short line, never with the path.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Sequence

from aiohttp import web

from ui.phoneserver.base import log, not_found
from ui.phoneserver.editing import EDIT_POSTS, PhoneEditor
from ui.phoneserver.gate import LINGER, Gatekeeper, ServerLog
from ui.phoneserver.live import LiveGame

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


class PhoneServer(Gatekeeper, LiveGame, PhoneEditor):
    """The phone page's server. `start()` serves; `publish()` and `add_move()` feed it; `stop()` ends it.

    Its parts: `Gatekeeper` (ui/phoneserver/gate.py), `LiveGame` (live.py) and `PhoneEditor` (editing.py);
    each one's limits are class attributes there, which a test may shorten on one server.
    """

    def __init__(self, hosts: Sequence[str], port: int = 8080, *, rate_limit: int = 120,
                 rate_window: float = 60.0, on_moved: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if isinstance(hosts, str):
            hosts = [hosts]
        if not hosts:
            raise ValueError("PhoneServer needs at least one address to listen on")
        super().__init__(clock)
        self._setup_gate(rate_limit, rate_window)
        self._setup_live(on_moved)
        self._setup_editor()
        self.hosts = list(dict.fromkeys(hosts))
        self._wanted_port = port
        self._servers: list[asyncio.AbstractServer] = []
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
            except BaseException as exc:  # handed to start()'s caller
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
            except Exception:  # stopping anyway
                log.exception("the phone server did not close cleanly")
            try:
                loop.call_soon_threadsafe(loop.stop)
            except RuntimeError:
                pass  # already closed
        thread.join(timeout=10)

    # ------------------------------------------------------------------ the server's loop

    async def _open(self) -> None:
        app = web.Application(middlewares=[self._guard])
        app.on_response_prepare.append(self._headers)
        self._add_live_routes(app.router)
        self._add_editor_routes(app.router)
        # keepalive_timeout bounds both the wait for a request's last header byte and an idle
        # keep-alive connection: aiohttp arms it when the connection opens and after each answer.
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                               handler_cancellation=True, keepalive_timeout=self.request_timeout,
                               lingering_time=LINGER, logger=ServerLog(self._refused))
        self._runner = runner
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        port = self._wanted_port
        for host in self.hosts:
            server = await self._listen(host, port, handlers)
            self._servers.append(server)
            if port == 0:  # the first address picks a free port; the others bind the same
                port = int(server.sockets[0].getsockname()[1])
        self._port = port

    async def _close(self) -> None:
        self._stopping = True
        await self._end_streams()  # they write their end before the connections are closed
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
                return not_found()
            if exc.status == 405:
                return _read_only(request.path)
            raise

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        h = response.headers
        h["Cache-Control"] = "no-store"
        h["X-Content-Type-Options"] = "nosniff"
        h["Referrer-Policy"] = "no-referrer"
        h["X-Frame-Options"] = "DENY"
        if "Content-Security-Policy" not in h:  # the editor page sets its own
            h["Content-Security-Policy"] = self._csp
        h["Server"] = "Board Banker"


def _read_only(path: str = "") -> web.Response:
    """405 for anything but GET and HEAD (POST on the editor's writing paths); the connection is closed (no
    body of it is read)."""
    allow = "POST" if path in EDIT_POSTS else "GET, HEAD"
    response = web.Response(status=405, text="Read-only.\n", headers={"Allow": allow})
    response.force_close()
    return response


__all__ = ["PhoneServer"]
