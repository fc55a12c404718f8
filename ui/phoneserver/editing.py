"""The phone server's editor: the phone editor of the family's editions (issue 43; ui/editor.py does the
work) and its page (ui/editor.html), offered by `open_editor(code, ...)` between games and ended by
`close_editor()`.

Routes (GET and HEAD, and POST on the two writing paths):

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
(saving syncs to disk) runs in the loop's default executor. See docs/web.md, "The phone editor".
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ui.phoneserver.base import ServerBase, find, load_page, log, not_found
from ui.tokens import secret_token

if TYPE_CHECKING:
    from ui.editor import EditorService

EDIT_IDLE = 15 * 60.0  # seconds an editing session (or a code not yet claimed) lasts after its last request
EDIT_COOKIE = "bb_edit"
MAX_EDIT_BODY = 256 * 1024  # bytes of a save's or an upload's body (ui.editor.MAX_EDIT_BODY)
EDIT_POSTS = {"/edit/api/save": ("application/json",), "/edit/api/upload": ("text/plain", "application/toml")}
EDIT_BODY_TIMEOUT = 30.0  # seconds for a save's or an upload's body to come in (only the session's phone gets that far)
ENDED = "This editing session has ended."  # the 403 page's text when the table gave none


@dataclass
class _EditSession:
    """The one editing session offered by open_editor: "waiting" for its code to be claimed, "editing" once
    a phone holds its cookie, "ended" when closed, replaced or lapsed."""

    code: str
    labels: dict[str, str]
    service: EditorService
    idle: float
    last: float  # clock() time of its last request (or of the offer, while waiting)
    token: str | None = None
    state: str = "waiting"
    saved: list[str] = field(default_factory=list)


class PhoneEditor(ServerBase):
    """The phone server's part that serves the phone editor: `open_editor()`, `close_editor()` and
    `editor_status()` (from any thread), and the handlers of its routes."""

    # A class attribute, so that a test may shorten it on one server.
    edit_body_timeout: float = EDIT_BODY_TIMEOUT
    # The editor page: a file of the ui package (or an absolute path), read when first asked for; while it
    # is missing /edit answers 404 and the absence is logged once.
    EDITOR_PAGE_FILE: str = "editor.html"

    def _setup_editor(self) -> None:
        self._editor: _EditSession | None = None  # under _lock
        self._editor_page: tuple[bytes, str] | None = None  # the page and its CSP, once read
        self._editor_page_missing = False  # its absence has been logged

    def open_editor(self, code: str, page_labels: Mapping[str, str], service: EditorService,
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

    def _add_editor_routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/e/{code}", self._claim_handler)
        router.add_get("/edit", self._editor_handler)
        router.add_get("/edit/api/start", self._start_handler)
        router.add_get("/edit/api/ruleset", self._ruleset_handler)
        router.add_get("/edit/api/download", self._download_handler)
        router.add_post("/edit/api/save", self._save_handler)
        router.add_post("/edit/api/upload", self._upload_handler)

    def _lapse(self, session: _EditSession) -> None:
        """End `session` if it has gone unused for its idle time (called under _lock)."""
        if session.state != "ended" and self.clock() - session.last > session.idle:
            session.state, session.token = "ended", None

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
            if find([session.token], given) is None:
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

    # ------------------------------------------------------------------ handlers

    async def _claim_handler(self, request: web.Request) -> web.StreamResponse:
        with self._lock:
            session = self._editor
            if session is None or find([session.code], request.match_info["code"]) is None:
                return not_found()
            self._lapse(session)
            given = request.cookies.get(EDIT_COOKIE, "")
            if session.state == "editing" and session.token and given and find([session.token], given):
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
                page = await asyncio.get_running_loop().run_in_executor(None, load_page, self.EDITOR_PAGE_FILE)
            except OSError as exc:
                if not self._editor_page_missing:
                    self._editor_page_missing = True
                    log.warning("phone server: the editor page %s cannot be read (%s)", self.EDITOR_PAGE_FILE,
                                exc.strerror or type(exc).__name__)
                return not_found()
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
        except TimeoutError:
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


def _json(value: Any, status: int = 200, close: bool = False) -> web.Response:
    response = web.Response(status=status, content_type="application/json", charset="utf-8",
                            body=json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))
    if close:
        response.force_close()
    return response
