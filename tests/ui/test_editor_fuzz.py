"""A seeded fuzzer of the phone editor's requests (issue 43, "hostile input") against a real PhoneServer, and of
EditorService's calls directly: random methods, paths, cookies (the session's, a wrong one, none), origins,
content types and bodies (valid payloads mutated: keys deleted, wrong types, huge strings, markup, NUL, deep
nesting; random bytes; random TOML). After every request: no 5xx, nothing logged with a traceback or as an error,
and the editions folder's files (names and bytes) changed only if the request was a save or an upload answered
200. At the end the server still answers its phone.

BANKER_FUZZ_CASES sets the number of cases (default 300 requests and 300 direct calls); BANKER_FUZZ_SEED the
seed (default: a fixed one, so a failure repeats; the seed is in the failure's message)."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import random
import socket
import string
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import tomli_w
from test_editor_web import LABELS, claim, folder_files

from banker.ruleset import load_ruleset
from ui.editor import EditorService
from ui.i18n import Translator
from ui.phoneserver import editing
from ui.phoneserver.editing import EDIT_COOKIE
from ui.web import PhoneServer

CASES = int(os.environ.get("BANKER_FUZZ_CASES", "300"))
SEED = int(os.environ.get("BANKER_FUZZ_SEED", "43"))
CODE = "fuzzCodeFuzzCodeFuzz00"
NAMES = ["fuzz-a", "fuzz-b", "fuzz-c", "classic", "Fuzz", "", "fuzz-" + "x" * 40]
METHODS = ["GET"] * 4 + ["POST"] * 5 + ["HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]
PATHS = ["/edit/api/save", "/edit/api/save", "/edit/api/upload", "/edit/api/upload?replace=1",
         "/edit/api/upload?replace=0", "/edit/api/upload?replace=yes", "/edit", "/edit/api/start",
         "/edit/api/ruleset?name=classic", "/edit/api/ruleset?name=fuzz-a", "/edit/api/ruleset?name=..%2Fclassic",
         "/edit/api/download?name=fuzz-a", "/edit/api/download?name=%2Fetc%2Fpasswd", f"/e/{CODE}", "/e/",
         "/edit/api/", "/edit/api/save/", "/edit//api/save", "/EDIT/api/save", "/edit/api/save?x=" + "y" * 300]
CONTENT_TYPES = ["application/json", "application/json", "text/plain", "application/toml",
                 "text/plain; charset=utf-8", "application/json; charset=utf-16", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=zz", "text/html", "", None]
CLASSIC = load_ruleset("classic").source_data()


# ---------------------------------------------------------------------- what is sent


def junk_value(rng: random.Random) -> Any:
    return rng.choice([
        None, True, -5, 0, 10**9 + 1, 2**70, 1.5, "", "x" * rng.choice([61, 1001, 100_000]),
        "<script>alert(1)</script>", "[b]bold[/b]", "a\x00b", "line\nbreak", "\u202eevil", "#GGGGGG",
        [], {}, [1, "two", None], {"nested": {"deeper": [1]}}, deep(rng.randint(5, 40)),
    ])


def deep(levels: int) -> Any:
    value: Any = 1
    for k in range(levels):
        value = [value] if k % 2 else {"d": value}
    return value


def mutate(rng: random.Random, data: Any, times: int) -> Any:
    """`data` with `times` random changes: a key deleted, a value replaced, an item added or removed."""
    for _ in range(times):
        path: list[Any] = []
        node = data
        while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append(key)
            node = node[key]
        if not path:
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        what = rng.random()
        if what < 0.3:
            del parent[last]
        elif what < 0.85:
            parent[last] = junk_value(rng)
        elif isinstance(parent, list):
            parent.extend([junk_value(rng)] * rng.choice([1, 70]))
        else:
            parent[f"extra{rng.randrange(1000)}"] = junk_value(rng)
    return data


def edition(rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(CLASSIC)
    data["name"] = rng.choice(NAMES[:3]) if rng.random() < 0.8 else rng.choice(NAMES)
    data["title"] = rng.choice(["Fuzz", "Ulica Lipowa", "Улица", "<i>x</i>", "T" * 60])
    space = rng.choice([1, 3, 6, 24, 39])
    data["spaces"][space]["name"] = rng.choice(["Nová ulice", "<b>&amp;</b>", "Ñ" * 60, "Main St"])
    data["spaces"][space]["price"] = rng.choice([1, 60, 240, 999])
    return data


def body_for(rng: random.Random, path: str) -> bytes | None:
    kind = rng.random()
    if kind < 0.08:
        return None
    if kind < 0.16:
        return rng.randbytes(rng.choice([1, 100, 5000]))
    if kind < 0.22:
        return b"[" * rng.choice([10, 1000, 100_000]) + b"]" * rng.choice([0, 10])
    if kind < 0.26:
        return b"{" + b'"a": 1, ' * 40_000 + b'"b": 2}'  # past the body's bound
    data = edition(rng)
    if rng.random() < 0.55:
        data = mutate(rng, data, rng.choice([1, 1, 2, 5]))
    if "upload" in path and rng.random() < 0.8:
        try:
            return tomli_w.dumps(data).encode("utf-8", "surrogatepass")
        except (TypeError, ValueError):
            return rng.choice([b"name = ", b"= = =", 'title = "\u0000"'.encode()])
    payload: Any = {"data": data, "original": rng.choice([None, None, "fuzz-a", "fuzz-b", 5, ""]),
                    "replace": rng.choice([False, False, True, "yes", 1])}
    if rng.random() < 0.1:
        payload = mutate(rng, payload, 2)
    if rng.random() < 0.05:
        payload = rng.choice([[], "text", None, 5])
    text = json.dumps(payload, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.05:
        text = text[:rng.randrange(len(text))]
    return text.encode("utf-8", "surrogatepass")


def request_for(rng: random.Random, server: PhoneServer, cookie: str) -> dict[str, Any]:
    valid = rng.random() < 0.35  # a well-formed write from the session's phone: the body decides
    method = "POST" if valid else rng.choice(METHODS)
    path = rng.choice(PATHS[:6]) if valid else rng.choice(PATHS)
    if not valid and rng.random() < 0.1:  # a made-up path under the editor's
        junk = "".join(rng.choice(string.ascii_letters + string.digits + "-._~%!$&'()*+,;=:@/?")
                       for _ in range(rng.randint(0, 80)))
        path = rng.choice(["/e/", "/edit/", "/edit/api/", "/edit/api/save?", "/"])
        path += urllib.parse.quote(junk, safe="/?=&")
    headers: dict[str, str] = {}
    own = f"http://127.0.0.1:{server.port}"
    origin = own if valid else rng.choice([own, own, None, "http://evil.example", "null", own + "/", own.upper(),
                                           f"http://localhost:{server.port}", "x" * 300])
    if origin is not None:
        headers["Origin"] = origin
    session = cookie if valid else rng.choice([cookie, cookie, None, "wrong", cookie[:-1], cookie + "x", "a" * 400])
    if session is not None:
        headers["Cookie"] = f"{EDIT_COOKIE}={session}"
        if rng.random() < 0.1:
            headers["Cookie"] += f"; {EDIT_COOKIE}=other"
    if valid:
        content_type: str | None = "application/json" if path.endswith("save") else "text/plain"
    else:
        content_type = rng.choice(CONTENT_TYPES)
    if content_type is not None:
        headers["Content-Type"] = content_type
    return {"method": method, "path": path, "headers": headers, "body": body_for(rng, path)}


# ---------------------------------------------------------------------- the checks


def worrying(records: list[logging.LogRecord]) -> list[str]:
    """Log records that mean a crash: an error, or anything with a traceback."""
    return [f"{r.name}: {r.getMessage()}" for r in records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PhoneServer]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    page = tmp_path / "editor.html"
    page.write_text("<!doctype html><p>editor</p><script>1</script>", encoding="utf-8")
    phone_server = PhoneServer(["127.0.0.1"], 0, rate_limit=100_000)
    phone_server.EDITOR_PAGE_FILE = str(page)
    phone_server.start()
    phone_server.open_editor(CODE, LABELS, EditorService(tr=Translator("ru")))
    yield phone_server
    phone_server.stop()


def raw(server: PhoneServer, data: bytes, end: bool = True) -> bytes:
    """A hand-made request over a plain socket (what aiohttp's client would not send), then (with `end`) the
    sending side closed; the answer's bytes, until the server closes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        if end:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_fuzzed_requests_crash_nothing_and_only_a_200_write_changes_files(
        server: PhoneServer, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(SEED)
    cookie = claim(server, CODE)
    statuses: dict[tuple[str, int], int] = {}
    caplog.set_level(logging.WARNING)

    async def run() -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=15),
                                         skip_auto_headers=("Content-Type",)) as session:
            for case in range(CASES):
                sent = request_for(rng, server, cookie)
                before = folder_files()
                where = f"seed {SEED}, case {case}: {sent['method']} {sent['path']} {sent['headers']}"
                try:
                    async with session.request(sent["method"], f"http://127.0.0.1:{server.port}{sent['path']}",
                                               headers=sent["headers"], data=sent["body"],
                                               allow_redirects=False) as response:
                        status = response.status
                        await response.read()
                except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError):
                    status = 0  # the server closed while a refused body was still being sent
                assert status < 500, where
                writes = sent["method"] == "POST" and sent["path"].split("?")[0] in editing.EDIT_POSTS
                if folder_files() != before:
                    assert status == 200 and writes, where
                key = (sent["path"].split("?")[0] if writes else "other", status)
                statuses[key] = statuses.get(key, 0) + 1
                assert not worrying(caplog.records), (where, worrying(caplog.records))

    asyncio.run(run())
    print(sorted(statuses.items()))  # shown with -s, or on a failure below
    for garbage in (b"POST /edit/api/save HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{}{}{}{}",
                    b"POST /edit/api/save HTTP/1.1\r\nHost: \xff\r\nOrigin: http://\xff\r\n\r\n",
                    b"GET /e/\x00 HTTP/1.1\r\n\r\n", bytes(rng.randbytes(300)),
                    b"POST /edit/api/upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: a\r\n\r\nzz\r\n"):
        answer = raw(server, garbage)
        assert not answer.startswith(b"HTTP/1.1 5"), (garbage, answer[:200])
    assert not worrying(caplog.records), worrying(caplog.records)
    # The fuzzer reached both sides: saves and uploads refused, and some saved.
    assert statuses.get(("/edit/api/save", 200), 0) + statuses.get(("/edit/api/upload", 200), 0) > 0, statuses
    assert statuses.get(("/edit/api/save", 422), 0) > 0 and statuses.get(("/edit/api/save", 403), 0) > 0, statuses
    # The server still answers its phone.
    ping = raw(server, f"GET /edit/api/start HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {EDIT_COOKIE}={cookie}\r\n"
                       f"Connection: close\r\n\r\n".encode(), end=False)
    assert ping.startswith(b"HTTP/1.1 200"), ping[:200]
    assert server.editor_status()["state"] == "editing"


def test_fuzzed_calls_of_the_service_crash_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(SEED + 1)
    folder = tmp_path / "editions"
    service = EditorService(folder, Translator(rng.choice(["en", "pl", "cs", "ru"])))
    caplog.set_level(logging.WARNING)

    def files() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}

    saved = 0
    for case in range(CASES):
        kind = rng.random()
        data = edition(rng)
        if rng.random() < 0.6:
            data = mutate(rng, data, rng.choice([1, 2, 5]))
        if kind < 0.5:
            payload: Any = {"data": data, "original": rng.choice([None, "fuzz-a", 3]),
                            "replace": rng.choice([False, True, None])}
            call: Callable[[], Any] = lambda p=payload: service.save(p)  # noqa: E731
        elif kind < 0.7:
            body = body_for(rng, "/edit/api/save") or b""
            call = lambda b=body: service.save_body(b)  # noqa: E731
        elif kind < 0.9:
            try:
                text = tomli_w.dumps(data)
            except (TypeError, ValueError):
                text = rng.randbytes(200).decode("utf-8", "replace")
            if rng.random() < 0.3:
                text = text[:rng.randrange(len(text) + 1)]
            call = lambda t=text: service.upload(t, rng.random() < 0.5)  # noqa: E731
        else:
            body = rng.randbytes(rng.choice([0, 10, 1000]))
            call = lambda b=body: service.upload_body(b)  # noqa: E731
        before = files()
        result = call()
        assert isinstance(result, dict) and isinstance(result.get("ok"), bool), (SEED + 1, case, result)
        if result["ok"]:
            saved += 1
            assert set(result) == {"ok", "name", "title"}
        else:
            assert files() == before, (SEED + 1, case, result)
            assert result["errors"] and all(isinstance(e["field"], str) and e["message"] for e in result["errors"])
        json.dumps(result)  # what the server would send
    for name in ("fuzz-a", "nothing", "", None, 7, "../x", "a\x00b"):
        for look in (service.ruleset, service.download):
            try:
                look(name)
            except Exception as exc:
                assert type(exc).__name__ == "EditorRefusal", exc
    assert saved > 0
    assert not worrying(caplog.records), worrying(caplog.records)
