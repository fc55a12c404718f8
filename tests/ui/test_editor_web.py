"""The phone editor's routes (ui/phoneserver/editing.py with ui/editor.py) against a real PhoneServer on loopback and aiohttp's
client: claiming the one session, the cookie, lapsing and closing, saving (and its refusals, named by field),
downloading and uploading, and the guards on writes (Origin, Content-Type, size, methods). The editions folder
is a temporary XDG_DATA_HOME. The editor page is a small page file written here (B's ui/editor.html is tested
by tests/ui/test_editor_page.py), so that its own CSP hashes are checked."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import socket
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from multidict import CIMultiDictProxy
from test_web import Clock  # the injected clock of the phone server's tests

from banker.editions import list_editions
from banker.ruleset import editions_dir, load_ruleset, ruleset_from_data
from ui import editor
from ui.editor import EditorService
from ui.i18n import Translator
from ui.phoneserver import base, editing
from ui.phoneserver.editing import EDIT_COOKIE
from ui.web import PhoneServer

CODE = "Qk7vX2mN9pL4sT8wR1cY5b"  # a code as the app made them before ui/tokens.py (secrets.token_urlsafe(16)): still served
LABELS = {"ended": "Sesja edycji się zakończyła.", "language": "pl", "save": "Zapisz"}
PAGE_SCRIPT = "document.title = 'editor';"
PAGE_STYLE = "body { font-family: sans-serif; }"
PAGE = (f"<!doctype html><html><head><style>{PAGE_STYLE}</style></head>"
        f"<body><p>editor</p><script>{PAGE_SCRIPT}</script></body></html>")


# ---------------------------------------------------------------------- a phone: aiohttp's client


@dataclass
class Answer:
    status: int
    headers: CIMultiDictProxy[str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


def call(server: PhoneServer, method: str, path: str, *, cookie: str | None = None,
         headers: Mapping[str, str] | None = None, body: bytes | None = None,
         content_type: str | None = None, origin: str | bool | None = True) -> Answer:
    """One request. `origin` True sends the server's own Origin, a string that one, None or False none;
    `content_type` None sends no Content-Type at all; `cookie` is the session cookie's value."""
    async def go() -> Answer:
        sent: dict[str, str] = dict(headers or {})
        if origin is True:
            sent["Origin"] = f"http://127.0.0.1:{server.port}"
        elif isinstance(origin, str):
            sent["Origin"] = origin
        if cookie is not None:
            sent["Cookie"] = f"{EDIT_COOKIE}={cookie}"
        if content_type is not None:
            sent["Content-Type"] = content_type
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=10),
                                         skip_auto_headers=("Content-Type",)) as session:
            async with session.request(method, f"http://127.0.0.1:{server.port}{path}", headers=sent,
                                       data=body, allow_redirects=False) as response:
                return Answer(response.status, response.headers, await response.read())

    return asyncio.run(go())


def claim(server: PhoneServer, code: str = CODE) -> str:
    """Claim the editing session at /e/{code}; the cookie's value."""
    answer = call(server, "GET", f"/e/{code}")
    assert answer.status == 303, answer
    assert answer.headers["Location"] == "/edit"
    set_cookie = answer.headers["Set-Cookie"]
    for part in ("HttpOnly", "SameSite=Strict", "Path=/"):
        assert part.lower() in set_cookie.lower(), set_cookie
    name, _, rest = set_cookie.partition("=")
    assert name == EDIT_COOKIE
    value = rest.split(";")[0]
    assert len(value) >= 40
    return value


def save(server: PhoneServer, cookie: str | None, payload: Any, **kw: Any) -> Answer:
    return call(server, "POST", "/edit/api/save", cookie=cookie, body=json.dumps(payload).encode(),
                content_type="application/json", **kw)


def folder_files() -> dict[str, bytes]:
    where = editions_dir()
    if not where.exists():
        return {}
    return {p.name: p.read_bytes() for p in sorted(where.iterdir())}


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "editor.html"
    path.write_text(PAGE, encoding="utf-8")
    return path


@pytest.fixture
def make(data_home: Path, page_file: Path) -> Iterator[Callable[..., PhoneServer]]:
    """A started server with an editor offered at CODE (unless offer=False), the page from `page_file`."""
    servers: list[PhoneServer] = []

    def factory(offer: bool = True, language: str = "pl", idle: float = editing.EDIT_IDLE, **kw: Any) -> PhoneServer:
        kw.setdefault("rate_limit", 10_000)
        server = PhoneServer(["127.0.0.1"], 0, **kw)
        server.EDITOR_PAGE_FILE = str(page_file)
        server.start()
        servers.append(server)
        if offer:
            server.open_editor(CODE, LABELS, EditorService(tr=Translator(language)), idle=idle)
        return server

    yield factory
    for server in servers:
        server.stop()


def classic_as(name: str, title: str) -> dict[str, Any]:
    data = load_ruleset("classic").source_data()
    data["name"], data["title"] = name, title
    return data


def sha(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode() + "'"


# ---------------------------------------------------------------------- the session


def test_the_bounds_agree() -> None:
    assert editing.MAX_EDIT_BODY == editor.MAX_EDIT_BODY == 256 * 1024
    assert editing.EDIT_IDLE == 15 * 60


def test_the_first_phone_claims_the_session_and_a_second_claim_is_410(make: Callable[..., PhoneServer]) -> None:
    server = make()
    assert server.editor_status() == {"state": "waiting", "saved": []}
    assert call(server, "HEAD", f"/e/{CODE}").status == 204  # looking does not claim
    cookie = claim(server)
    assert server.editor_status()["state"] == "editing"
    again = call(server, "GET", f"/e/{CODE}")
    assert again.status == 410 and "Set-Cookie" not in again.headers
    back = call(server, "GET", f"/e/{CODE}", cookie=cookie)  # the same phone scans the code again
    assert back.status == 303 and back.headers["Location"] == "/edit" and "Set-Cookie" not in back.headers
    assert call(server, "GET", f"/e/{CODE}", cookie="x" * 43).status == 410  # a made-up cookie is nobody's
    assert call(server, "GET", "/e/someothercode").status == 404
    assert call(server, "GET", "/e/someothercode").text == base.NOT_FOUND
    page = call(server, "GET", "/edit", cookie=cookie)
    assert page.status == 200 and page.text == PAGE


def test_no_code_offered_is_404(make: Callable[..., PhoneServer]) -> None:
    server = make(offer=False)
    assert call(server, "GET", f"/e/{CODE}").status == 404
    assert server.editor_status() == {"state": "ended", "saved": []}
    assert call(server, "GET", "/edit").status == 403


def test_the_page_and_the_api_are_403_without_the_cookie(make: Callable[..., PhoneServer]) -> None:
    server = make()
    claim(server)
    page = call(server, "GET", "/edit")
    assert page.status == 403
    assert LABELS["ended"] in page.text and 'lang="pl"' in page.text
    assert call(server, "GET", "/edit", cookie="not-the-cookie").status == 403
    for path in ("/edit/api/start", "/edit/api/ruleset?name=classic", "/edit/api/download?name=x"):
        answer = call(server, "GET", path, cookie="x" * 43)
        assert answer.status == 403
        assert answer.json() == {"ok": False, "ended": True, "message": LABELS["ended"]}


def test_the_editor_page_has_its_own_csp_and_the_usual_headers(make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    page = call(server, "GET", "/edit", cookie=cookie)
    csp = page.headers["Content-Security-Policy"]
    assert f"script-src {sha(PAGE_SCRIPT)}" in csp and f"style-src {sha(PAGE_STYLE)}" in csp
    assert "default-src 'none'" in csp and "form-action 'none'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    start = call(server, "GET", "/edit/api/start", cookie=cookie)
    for answer in (page, start):
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["X-Frame-Options"] == "DENY"
    assert start.headers["Content-Security-Policy"] == server._csp  # the API keeps the strict default
    assert "Access-Control-Allow-Origin" not in start.headers


def test_a_missing_editor_page_is_404_logged_once(make: Callable[..., PhoneServer], tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    server = make()
    server.EDITOR_PAGE_FILE = str(tmp_path / "nowhere.html")
    cookie = claim(server)
    with caplog.at_level(logging.WARNING, logger="ui.web"):
        assert call(server, "GET", "/edit", cookie=cookie).status == 404
        assert call(server, "GET", "/edit", cookie=cookie).status == 404
    missing = [r for r in caplog.records if "editor page" in r.getMessage()]
    assert len(missing) == 1
    assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 200  # the session goes on


def test_the_shipped_page_file_is_named_by_the_attribute() -> None:
    assert PhoneServer.EDITOR_PAGE_FILE == "editor.html"


def test_the_session_lapses_after_its_idle_time_and_each_request_refreshes_it(
        make: Callable[..., PhoneServer]) -> None:
    clock = Clock()
    server = make(clock=clock, idle=100.0)
    cookie = claim(server)
    for _ in range(3):
        clock.now += 90
        assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 200
    clock.now += 101
    assert server.editor_status()["state"] == "ended"
    assert call(server, "GET", "/edit", cookie=cookie).status == 403
    assert call(server, "GET", f"/e/{CODE}").status == 410


def test_a_waiting_code_lapses_too(make: Callable[..., PhoneServer]) -> None:
    clock = Clock()
    server = make(clock=clock, idle=100.0)
    clock.now += 101
    assert call(server, "GET", f"/e/{CODE}").status == 410
    assert server.editor_status()["state"] == "ended"


def test_close_editor_ends_the_session_and_a_new_code_replaces_it(make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    server.close_editor()
    assert server.editor_status()["state"] == "ended"
    assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 403
    assert save(server, cookie, {"data": classic_as("ours", "Ours")}).status == 403
    assert folder_files() == {}
    server.open_editor("a-new-code", LABELS, EditorService(tr=Translator("pl")))
    assert call(server, "GET", f"/e/{CODE}").status == 404  # the old code is forgotten
    second = claim(server, "a-new-code")
    assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 403
    assert call(server, "GET", "/edit/api/start", cookie=second).status == 200
    # A new code while a phone edits: that phone is refused at once.
    server.open_editor("third-code", LABELS, EditorService(tr=Translator("pl")))
    assert call(server, "GET", "/edit/api/start", cookie=second).status == 403
    assert server.editor_status() == {"state": "waiting", "saved": []}


# ---------------------------------------------------------------------- the API


def test_start_lists_the_sources_the_labels_and_the_limits(make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    start = call(server, "GET", "/edit/api/start", cookie=cookie).json()
    assert start["labels"] == LABELS and start["language"] == "pl"
    shipped = [s for s in start["sources"] if s["kind"] == "shipped"]
    assert {"name": "classic", "title": load_ruleset("classic").title, "kind": "shipped"} in shipped
    assert start["limits"]["body"] == editor.MAX_EDIT_BODY and start["limits"]["text"] == editor.MAX_TEXT
    ruleset = call(server, "GET", "/edit/api/ruleset?name=classic", cookie=cookie)
    assert ruleset.status == 200
    found = ruleset.json()
    assert found["original"] is None
    assert ruleset_from_data(found["data"], "t").to_json() == load_ruleset("classic").to_json()
    unknown = call(server, "GET", "/edit/api/ruleset?name=nothing-here", cookie=cookie)
    assert unknown.status == 404 and unknown.json()["errors"][0]["field"] == "name"


def test_save_then_the_edition_is_listed_loads_and_its_title_is_in_the_status(
        make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    data = call(server, "GET", "/edit/api/ruleset?name=classic", cookie=cookie).json()["data"]
    data["name"], data["title"] = "our-street", "Our Street"
    data["spaces"][24]["name"], data["spaces"][24]["price"] = "Ulica Lipowa", 260
    answer = save(server, cookie, {"data": data, "original": None, "replace": False})
    assert answer.status == 200, answer.text
    assert answer.json() == {"ok": True, "name": "our-street", "title": "Our Street"}
    assert (editions_dir() / "our-street.toml").is_file()
    assert [(e.name, e.title, e.problem) for e in list_editions()] == [("our-street", "Our Street", None)]
    edition = load_ruleset("our-street")
    assert edition.spaces[24].name == "Ulica Lipowa" and edition.spaces[24].price == 260
    assert server.editor_status() == {"state": "editing", "saved": ["Our Street"]}
    start = call(server, "GET", "/edit/api/start", cookie=cookie).json()
    assert {"name": "our-street", "title": "Our Street", "kind": "edition"} in start["sources"]
    mine = call(server, "GET", "/edit/api/ruleset?name=our-street", cookie=cookie).json()
    assert mine["original"] == "our-street" and mine["data"]["spaces"][24]["name"] == "Ulica Lipowa"
    # Saved again as itself (original = its name): no replace needed.
    mine["data"]["spaces"][24]["price"] = 270
    assert save(server, cookie, {"data": mine["data"], "original": "our-street"}).status == 200
    assert load_ruleset("our-street").spaces[24].price == 270
    # Renamed when saving: a copy, the original stays.
    mine["data"]["name"] = "our-street-2"
    assert save(server, cookie, {"data": mine["data"], "original": "our-street"}).status == 200
    assert sorted(folder_files()) == ["our-street-2.toml", "our-street.toml"]


def test_refusals_name_the_field_and_write_nothing(make: Callable[..., PhoneServer]) -> None:
    server = make(language="pl")
    cookie = claim(server)
    bad_price = classic_as("our-street", "Our Street")
    bad_price["spaces"][24]["price"] = -5
    answer = save(server, cookie, {"data": bad_price})
    assert answer.status == 422
    body = answer.json()
    assert body["ok"] is False and [e["field"] for e in body["errors"]] == ["spaces[24].price"]
    assert body["errors"][0]["message"]
    shipped = save(server, cookie, {"data": classic_as("classic", "Classic")}).json()
    assert [e["field"] for e in shipped["errors"]] == ["name"]
    assert shipped["errors"][0]["message"] == Translator("pl")("ui.editions.name_shipped", name="classic")
    long_title = save(server, cookie, {"data": classic_as("ours", "x" * (editor.MAX_TEXT + 1))}).json()
    assert [e["field"] for e in long_title["errors"]] == ["title"]
    markup = classic_as("ours", "Ours")
    markup["spaces"][1]["name"] = "<b>" + "a" * 70 + "</b>"
    assert [e["field"] for e in save(server, cookie, {"data": markup}).json()["errors"]] == ["spaces[1].name"]
    assert folder_files() == {}
    assert server.editor_status()["saved"] == []


def test_a_taken_name_needs_replace(make: Callable[..., PhoneServer]) -> None:
    server = make(language="pl")
    cookie = claim(server)
    assert save(server, cookie, {"data": classic_as("ours", "Ours")}).status == 200
    before = folder_files()
    taken = save(server, cookie, {"data": classic_as("ours", "Ours again")})
    assert taken.status == 422
    assert taken.json()["errors"] == [{"field": "name",
                                       "message": Translator("pl")("ui.editions.name_taken", name="ours")}]
    from_another = save(server, cookie, {"data": classic_as("ours", "Ours again"), "original": "theirs"})
    assert from_another.status == 422
    assert folder_files() == before
    replaced = save(server, cookie, {"data": classic_as("ours", "Ours again"), "replace": True})
    assert replaced.status == 200 and load_ruleset("ours").title == "Ours again"
    assert server.editor_status()["saved"] == ["Ours", "Ours again"]


def test_download_gives_the_file_that_loads_and_upload_round_trips(make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    assert save(server, cookie, {"data": classic_as("our-street", "Our Street")}).status == 200
    stored = (editions_dir() / "our-street.toml").read_bytes()
    download = call(server, "GET", "/edit/api/download?name=our-street", cookie=cookie)
    assert download.status == 200 and download.body == stored
    assert download.headers["Content-Disposition"] == 'attachment; filename="our-street.toml"'
    assert download.headers["Content-Type"].startswith("application/toml")
    assert ruleset_from_data(tomllib.loads(download.text), "t").title == "Our Street"
    assert call(server, "GET", "/edit/api/download?name=classic", cookie=cookie).status == 404
    assert call(server, "GET", "/edit/api/download?name=../../etc/passwd", cookie=cookie).status == 404
    # The same file uploaded: refused as taken, then with replace=1 saved; under another name, a new edition.
    upload = call(server, "POST", "/edit/api/upload", cookie=cookie, body=download.body, content_type="text/plain")
    assert upload.status == 422 and upload.json()["errors"][0]["field"] == "name"
    upload = call(server, "POST", "/edit/api/upload?replace=1", cookie=cookie, body=download.body,
                  content_type="application/toml")
    assert upload.status == 200 and upload.json() == {"ok": True, "name": "our-street", "title": "Our Street"}
    other = download.text.replace('name = "our-street"', 'name = "from-afar"', 1)
    assert other != download.text
    upload = call(server, "POST", "/edit/api/upload?replace=0", cookie=cookie, body=other.encode(),
                  content_type="text/plain; charset=utf-8")
    assert upload.status == 200, upload.text
    assert (editions_dir() / "from-afar.toml").read_text(encoding="utf-8") == other  # as uploaded
    assert load_ruleset("from-afar").to_json()["spaces"] == load_ruleset("our-street").to_json()["spaces"]


@pytest.mark.parametrize("body", [b"this is not = = toml", b"\xff\xfe\x00garbage", b"", b"name = 'x'\n",
                                  b"[[spaces]]\n" * 5000])
def test_upload_garbage_is_422_and_writes_nothing(make: Callable[..., PhoneServer], body: bytes) -> None:
    server = make()
    cookie = claim(server)
    answer = call(server, "POST", "/edit/api/upload", cookie=cookie, body=body, content_type="text/plain")
    assert answer.status in (413, 422), answer.text
    if answer.status == 422:
        assert answer.json()["ok"] is False and answer.json()["errors"]
    assert folder_files() == {}


# ---------------------------------------------------------------------- the guards on writes


def test_a_post_from_another_origin_or_without_one_is_403_and_writes_nothing(
        make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    payload = {"data": classic_as("ours", "Ours")}
    for origin in ("http://evil.example", f"https://127.0.0.1:{server.port}", "http://127.0.0.1", "null", None):
        assert save(server, cookie, payload, origin=origin).status == 403, origin
        upload = call(server, "POST", "/edit/api/upload", cookie=cookie, origin=origin, content_type="text/plain",
                      body=b'name = "ours"\n')
        assert upload.status == 403
    assert folder_files() == {}
    assert server.editor_status()["saved"] == []
    assert save(server, cookie, payload).status == 200  # the session was not harmed


def test_a_post_without_the_cookie_is_403(make: Callable[..., PhoneServer]) -> None:
    server = make()
    claim(server)
    assert save(server, None, {"data": classic_as("ours", "Ours")}).status == 403
    assert save(server, "forged", {"data": classic_as("ours", "Ours")}).status == 403
    assert folder_files() == {}


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/json; charset=latin-1"])
def test_a_save_of_the_wrong_content_type_is_415(make: Callable[..., PhoneServer], content_type: str | None) -> None:
    server = make()
    cookie = claim(server)
    answer = call(server, "POST", "/edit/api/save", cookie=cookie, content_type=content_type,
                  body=json.dumps({"data": classic_as("ours", "Ours")}).encode())
    assert answer.status == 415
    assert call(server, "POST", "/edit/api/upload", cookie=cookie, content_type="application/json",
                body=b'name = "ours"').status == 415
    assert folder_files() == {}


def test_a_body_too_large_is_413(make: Callable[..., PhoneServer]) -> None:
    server = make()
    cookie = claim(server)
    huge = b'{"data": "' + b"a" * editing.MAX_EDIT_BODY + b'"}'
    assert call(server, "POST", "/edit/api/save", cookie=cookie, body=huge,
                content_type="application/json").status == 413

    async def chunked() -> int:  # no Content-Length: counted as it comes
        async def parts() -> Any:
            for _ in range(40):
                yield b"a" * 8192

        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            async with session.post(f"http://127.0.0.1:{server.port}/edit/api/upload", data=parts(), headers={
                    "Origin": f"http://127.0.0.1:{server.port}", "Cookie": f"{EDIT_COOKIE}={cookie}",
                    "Content-Type": "text/plain"}) as response:
                return response.status

    try:
        assert asyncio.run(chunked()) == 413
    except aiohttp.ClientError:
        pass  # the server closed while the body was still being sent: refused either way
    assert folder_files() == {}
    assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 200


def test_a_body_that_does_not_come_in_time_is_408_and_writes_nothing(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.edit_body_timeout = 0.5
    cookie = claim(server)
    body = json.dumps({"data": classic_as("ours", "Ours")}).encode()
    head = (f"POST /edit/api/save HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Origin: http://127.0.0.1:{server.port}\r\nCookie: {EDIT_COOKIE}={cookie}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(head + body[:100])  # and the rest never
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
    assert folder_files() == {}
    assert call(server, "GET", "/edit/api/start", cookie=cookie).status == 200


@pytest.mark.parametrize("method,path", [
    ("OPTIONS", "/edit/api/save"), ("OPTIONS", "/edit"), ("PUT", "/edit/api/save"), ("DELETE", "/edit/api/upload"),
    ("POST", "/edit"), ("POST", "/edit/api/start"), ("POST", f"/e/{CODE}"), ("GET", "/edit/api/save"),
    ("PATCH", "/edit/api/upload")])
def test_other_methods_are_405(make: Callable[..., PhoneServer], method: str, path: str) -> None:
    server = make()
    cookie = claim(server)
    answer = call(server, method, path, cookie=cookie, content_type="application/json", body=b"{}")
    assert answer.status == 405
    assert "Access-Control-Allow-Origin" not in answer.headers
    assert answer.headers["Allow"] in ("GET, HEAD", "POST")
    assert folder_files() == {}


def test_the_file_work_runs_off_the_event_loop(make: Callable[..., PhoneServer],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server = make()
    cookie = claim(server)
    threads: list[str] = []
    real = EditorService.save_body

    def spy(self: EditorService, body: bytes) -> dict[str, Any]:
        import threading
        threads.append(threading.current_thread().name)
        return real(self, body)

    monkeypatch.setattr(EditorService, "save_body", spy)
    assert save(server, cookie, {"data": classic_as("ours", "Ours")}).status == 200
    assert threads and threads[0] != "phone-server"
