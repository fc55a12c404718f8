"""The phone page's server (ui/phoneserver/) against real clients over loopback: the page, the state and
the live stream for a published token; the token rules; the one-time move link; rate limiting;
read-only; stop(); and binding only the addresses it is given."""

from __future__ import annotations

import http.client
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ui.phoneserver import base, gate, live
from ui.web import PhoneServer

TOKEN = "k3J9xQ2v7Lm4Tz8bR1cW5yN0pA6sD2fG"  # a token as the app made them before ui/tokens.py (secrets.token_urlsafe): still served


def sample(cash: int = 1440, ended: bool = False) -> dict[str, Any]:
    return {
        "title": "Classic", "language": "en", "labels": {"cash": "Cash", "turn": "{player}'s turn"},
        "turn": "Ann", "ended": ended, "winner": "Ann" if ended else None,
        "players": [
            {"name": "Ann", "colour": "#E53935", "cash": cash, "net_worth": 1500, "where": "Baltic Avenue",
             "flags": "", "bankrupt": False,
             "deeds": [{"group": "purple", "group_name": "Purple", "colour": "#8B4A9C",
                        "deeds": [{"name": "Baltic Avenue", "buildings": "2 houses", "mortgaged": False}]}]},
            {"name": "Ben", "colour": "#1E88E5", "cash": 1500, "net_worth": 1500, "where": "Go", "flags": "",
             "bankrupt": False, "deeds": []},
        ],
        "bank": "Bank: 30 houses, 12 hotels", "log": ["Ann buys Baltic Avenue for 60"],
        "chart": {"Ann": [1500, 1500], "Ben": [1500, 1500]},
        "ranking": [{"name": "Ann", "worth": 1600, "place": 1}, {"name": "Ben", "worth": 1500, "place": 2}]
        if ended else [],
    }


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def make() -> Iterator[Callable[..., PhoneServer]]:
    servers: list[PhoneServer] = []

    def factory(hosts: tuple[str, ...] = ("127.0.0.1",), limits: dict[str, float] | None = None,
                **kw: Any) -> PhoneServer:
        server = PhoneServer(list(hosts), 0, **kw)
        for name, value in (limits or {}).items():  # the class's limits, changed on this server only
            assert hasattr(PhoneServer, name)
            setattr(server, name, value)
        server.start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        server.stop()


class Reply:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


def get(server: PhoneServer, path: str, method: str = "GET", host: str = "127.0.0.1") -> Reply:
    conn = http.client.HTTPConnection(host, server.port, timeout=5)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return Reply(resp.status, resp.headers, resp.read())
    finally:
        conn.close()


class Events:
    """A server-sent events client over http.client: events() yields (event, data) and ("comment", text)."""

    def __init__(self, server: PhoneServer, path: str, timeout: float = 5.0, source: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout,
                                               source_address=None if source is None else (source, 0))
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.resp = self.conn.getresponse()

    def next(self) -> tuple[str, str] | None:
        """The next event or comment; None at the end of the stream."""
        event, data = "message", []
        while True:
            raw = self.resp.readline()
            if not raw:
                return None
            line = raw.decode("utf-8").rstrip("\n")
            if line == "":
                if data:
                    return event, "\n".join(data)
                event = "message"
                continue
            if line.startswith(":"):
                return "comment", line[1:].strip()
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)

    def next_state(self) -> dict[str, Any]:
        while True:
            item = self.next()
            assert item is not None, "the stream ended"
            if item[0] == "state":
                return json.loads(item[1])  # type: ignore[no-any-return]

    def close(self) -> None:
        self.conn.close()


def assert_says_nothing(reply: Reply) -> None:
    assert reply.status == 404
    for word in ("Ann", "Ben", "Classic", "Baltic", "1440", TOKEN):
        assert word not in reply.text
    assert reply.text == base.NOT_FOUND


# ---------------------------------------------------------------------- page, state, events


def test_page_state_and_events_for_a_published_token(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    page = get(server, f"/g/{TOKEN}")
    assert page.status == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "<script>" in page.text and "EventSource" in page.text
    state = get(server, f"/g/{TOKEN}/state")
    assert state.status == 200
    assert state.headers["Content-Type"] == "application/json; charset=utf-8"
    assert state.json() == sample()
    stream = Events(server, f"/g/{TOKEN}/events")
    try:
        assert stream.resp.status == 200
        assert stream.resp.headers["Content-Type"].startswith("text/event-stream")
        assert stream.next_state() == sample()
    finally:
        stream.close()


def test_every_response_carries_the_security_headers(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    for path in (f"/g/{TOKEN}", f"/g/{TOKEN}/state", "/g/wrong", "/nothing", "/"):
        reply = get(server, path)
        assert reply.headers["Cache-Control"] == "no-store"
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        assert reply.headers["Referrer-Policy"] == "no-referrer"
        csp = reply.headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["default-src"] == "'none'"
        assert directives["script-src"].startswith("'sha256-") and "unsafe" not in directives["script-src"]
        assert directives["connect-src"] == "'self'"
        assert "aiohttp" not in reply.headers.get("Server", "")


def test_head_is_allowed_and_has_no_body(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    for path in (f"/g/{TOKEN}", f"/g/{TOKEN}/state", f"/g/{TOKEN}/events"):
        reply = get(server, path, "HEAD")
        assert reply.status == 200 and reply.body == b""
    assert get(server, "/g/wrong", "HEAD").status == 404


# ---------------------------------------------------------------------- token rules


def test_missing_wrong_and_revoked_tokens_answer_404_with_nothing_about_a_game(
        make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    wrong = TOKEN[:-1] + ("A" if TOKEN[-1] != "A" else "B")
    for path in ("/g/", "/g", "/", f"/g/{wrong}", f"/g/{wrong}/state", f"/g/{wrong}/events",
                 f"/g/{TOKEN[:8]}", f"/g/{TOKEN}x/state", f"/g/{'x' * 5000}", f"/g/{TOKEN}/other",
                 "/g/%00", "/g/%C3%A9/state"):
        assert_says_nothing(get(server, path))
    server.publish(TOKEN, None)  # revoked (or the game deleted)
    for path in (f"/g/{TOKEN}", f"/g/{TOKEN}/state", f"/g/{TOKEN}/events"):
        assert_says_nothing(get(server, path))
    server.publish(TOKEN, None)  # forgetting twice is harmless


def test_tokens_are_kept_apart(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample(cash=1))
    server.publish("another-game-token-0123456789abcdef", sample(cash=2))
    assert get(server, f"/g/{TOKEN}/state").json()["players"][0]["cash"] == 1
    assert get(server, "/g/another-game-token-0123456789abcdef/state").json()["players"][0]["cash"] == 2


def test_a_typed_token_answers_in_capitals_and_an_old_one_only_as_it_was(make: Callable[..., PhoneServer]) -> None:
    """A link read off the screen and typed with the caps lock on still opens (ui/tokens.py's tokens are lower
    case only); a token of before (mixed case) answers only to itself, as it always did."""
    from ui.tokens import typed_token

    server = make()
    new, old = typed_token(), "FlPLT0k3J9xQ2v7Lm4Tz1I"
    server.publish(new, sample(cash=1))
    server.publish(old, sample(cash=2))
    assert get(server, f"/g/{new.upper()}/state").json()["players"][0]["cash"] == 1
    assert get(server, f"/g/{new[:5].upper()}{new[5:]}/state").json()["players"][0]["cash"] == 1
    assert get(server, f"/g/{old}/state").json()["players"][0]["cash"] == 2
    for path in (f"/g/{old.lower()}/state", f"/g/{old.upper()}/state"):
        assert_says_nothing(get(server, path))


def test_the_finished_game_is_served_until_revoked(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample(ended=True))
    for _ in range(3):
        state = get(server, f"/g/{TOKEN}/state").json()
        assert state["ended"] is True and state["ranking"][0] == {"name": "Ann", "worth": 1600, "place": 1}
    assert get(server, f"/g/{TOKEN}").status == 200
    server.publish(TOKEN, None)
    assert_says_nothing(get(server, f"/g/{TOKEN}/state"))


def test_publish_before_start_is_served_once_started() -> None:
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, sample())
    server.start()
    try:
        assert get(server, f"/g/{TOKEN}/state").json() == sample()
    finally:
        server.stop()


def test_the_state_is_copied_when_published(make: Callable[..., PhoneServer]) -> None:
    server = make()
    state = sample()
    server.publish(TOKEN, state)
    state["players"][0]["cash"] = 0  # the app goes on changing its own objects
    assert get(server, f"/g/{TOKEN}/state").json()["players"][0]["cash"] == 1440


# ---------------------------------------------------------------------- the live stream


def test_a_published_update_reaches_an_open_stream_within_a_second(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    stream = Events(server, f"/g/{TOKEN}/events")
    try:
        assert stream.next_state()["players"][0]["cash"] == 1440
        for cash in (1240, 1300, 90):
            started = time.monotonic()
            threading.Thread(target=server.publish, args=(TOKEN, sample(cash=cash))).start()  # any thread
            assert stream.next_state()["players"][0]["cash"] == cash
            assert time.monotonic() - started < 1.0
        # The game ends: the final state arrives too.
        server.publish(TOKEN, sample(ended=True))
        assert stream.next_state()["ended"] is True
    finally:
        stream.close()


def test_an_unchanged_publish_sends_nothing_and_the_latest_state_wins(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.heartbeat = 0.3
    server.publish(TOKEN, sample())
    stream = Events(server, f"/g/{TOKEN}/events")
    try:
        stream.next_state()
        server.publish(TOKEN, sample())  # the same state again
        assert stream.next() == ("comment", "heartbeat")  # only the heartbeat follows
        for cash in range(100, 120):
            server.publish(TOKEN, sample(cash=cash))
        while (state := stream.next_state())["players"][0]["cash"] != 119:
            assert state["players"][0]["cash"] < 119
    finally:
        stream.close()


def test_the_stream_sends_a_comment_heartbeat(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.heartbeat = 0.2
    server.publish(TOKEN, sample())
    stream = Events(server, f"/g/{TOKEN}/events")
    try:
        stream.next_state()
        started = time.monotonic()
        assert stream.next() == ("comment", "heartbeat")
        assert stream.next() == ("comment", "heartbeat")
        assert time.monotonic() - started < 2
    finally:
        stream.close()
    assert PhoneServer.heartbeat == 15.0


def test_revoking_ends_open_streams_saying_only_gone(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    stream = Events(server, f"/g/{TOKEN}/events")
    try:
        stream.next_state()
        assert server.streams == 1
        server.publish(TOKEN, None)
        event = stream.next()
        assert event is not None and event[0] == "gone" and "Ann" not in event[1]
        assert stream.next() is None  # the stream ends
    finally:
        stream.close()


def test_stop_ends_open_streams_and_is_idempotent() -> None:
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, sample())
    server.start()
    streams = [Events(server, f"/g/{TOKEN}/events") for _ in range(3)]
    for stream in streams:
        stream.next_state()
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 5
    for stream in streams:
        assert stream.next() is None  # a clean end, not a hang
        stream.close()
    assert not server.running
    server.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


def test_a_client_may_hold_only_a_few_streams(make: Callable[..., PhoneServer],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "MAX_STREAMS_PER_CLIENT", 2)
    server = make()
    server.publish(TOKEN, sample())
    streams = [Events(server, f"/g/{TOKEN}/events") for _ in range(2)]
    try:
        for stream in streams:
            stream.next_state()
        assert get(server, f"/g/{TOKEN}/events").status == 429
    finally:
        for stream in streams:
            stream.close()


# ---------------------------------------------------------------------- moving a game


SCRIPT = '{"rules": "classic", "players": ["Ann", "Ben"]}\n{"roll": [3, 4]}\n'


def test_the_one_time_link_works_once_then_410(make: Callable[..., PhoneServer]) -> None:
    moved: list[str] = []
    clock = Clock()
    server = make(on_moved=moved.append, clock=clock)
    server.add_move("mv-code-123456789", SCRIPT, expires_at=clock.now + 600)
    assert get(server, "/m/mv-code-123456789", "HEAD").status == 200  # looking does not use it up
    assert moved == []
    first = get(server, "/m/mv-code-123456789")
    assert first.status == 200
    assert first.text == SCRIPT
    assert first.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert first.headers["Content-Disposition"] == 'attachment; filename="board-banker-game.jsonl"'
    assert first.headers["Cache-Control"] == "no-store"
    deadline = time.monotonic() + 2
    while not moved and time.monotonic() < deadline:
        time.sleep(0.01)
    assert moved == ["mv-code-123456789"]
    again = get(server, "/m/mv-code-123456789")
    assert again.status == 410 and "Ann" not in again.text
    assert get(server, "/m/mv-code-123456789", "HEAD").status == 410
    assert moved == ["mv-code-123456789"]


def test_an_expired_link_is_410_and_an_unknown_one_404(make: Callable[..., PhoneServer]) -> None:
    moved: list[str] = []
    clock = Clock()
    server = make(on_moved=moved.append, clock=clock)
    server.add_move("code-a", SCRIPT, expires_at=clock.now + 600)
    clock.now += 599
    server.add_move("code-b", SCRIPT, expires_at=clock.now + 600)
    clock.now += 1  # code-a's ten minutes are over
    assert get(server, "/m/code-a").status == 410
    assert get(server, "/m/code-b").status == 200
    assert_says_nothing(get(server, "/m/code-c"))
    assert_says_nothing(get(server, "/m/"))
    assert_says_nothing(get(server, f"/m/{TOKEN}"))  # a game's token is not a move code
    assert_says_nothing(get(server, "/g/code-b"))  # nor the other way round
    assert moved == ["code-b"]


def test_only_one_of_two_racing_downloads_gets_the_game(make: Callable[..., PhoneServer]) -> None:
    moved: list[str] = []
    server = make(on_moved=moved.append)
    server.add_move("race", SCRIPT, expires_at=time.monotonic() + 600)
    replies: list[int] = []
    threads = [threading.Thread(target=lambda: replies.append(get(server, "/m/race").status)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(replies) == [200] + [410] * 7
    time.sleep(0.1)
    assert moved == ["race"]


def test_a_failing_on_moved_does_not_break_the_server(make: Callable[..., PhoneServer]) -> None:
    def broken(code: str) -> None:
        raise RuntimeError("bug in the app")

    server = make(on_moved=broken)
    server.add_move("code", SCRIPT, expires_at=time.monotonic() + 600)
    assert get(server, "/m/code").text == SCRIPT
    server.publish(TOKEN, sample())
    assert get(server, f"/g/{TOKEN}/state").status == 200


# ---------------------------------------------------------------------- read-only, rate limits


def test_only_get_and_head(make: Callable[..., PhoneServer]) -> None:
    server = make()
    server.publish(TOKEN, sample())
    server.add_move("code", SCRIPT, expires_at=time.monotonic() + 600)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in (f"/g/{TOKEN}", f"/g/{TOKEN}/state", f"/g/{TOKEN}/events", "/m/code", "/anything"):
            reply = get(server, path, method)
            assert reply.status == 405, (method, path)
            assert reply.headers["Allow"] == "GET, HEAD"
            assert "Ann" not in reply.text
    assert get(server, "/m/code").text == SCRIPT  # none of that used the link up
    assert get(server, f"/g/{TOKEN}/state").json() == sample()


def test_rate_limit_then_recovery_after_the_window(make: Callable[..., PhoneServer]) -> None:
    clock = Clock()
    server = make(rate_limit=5, rate_window=60.0, clock=clock)
    server.publish(TOKEN, sample())
    for _ in range(3):
        assert get(server, f"/g/{TOKEN}/state").status == 200
    clock.now += 30
    assert get(server, "/g/guessing").status == 404  # wrong guesses count too
    stream = Events(server, f"/g/{TOKEN}/events")  # a stream counts once, when opened
    try:
        stream.next_state()
        limited = get(server, f"/g/{TOKEN}/state")
        assert limited.status == 429
        assert limited.headers["Retry-After"] == "30"  # the first three leave the window in 30 s
        assert "Ann" not in limited.text
        assert get(server, "/m/anything", "POST").status == 429
        clock.now += 30
        assert get(server, f"/g/{TOKEN}/state").status == 200  # three slots came free
        for cash in (1, 2, 3):
            server.publish(TOKEN, sample(cash=cash))  # the open stream keeps flowing all the while
            assert stream.next_state()["players"][0]["cash"] == cash
        assert get(server, f"/g/{TOKEN}/state").status == 200
        assert get(server, f"/g/{TOKEN}/state").status == 200
        assert get(server, f"/g/{TOKEN}/state").status == 429
        clock.now += 60
        for _ in range(5):
            assert get(server, f"/g/{TOKEN}/state").status == 200
    finally:
        stream.close()


def test_rate_limit_is_per_client_address(make: Callable[..., PhoneServer]) -> None:
    if not _can_bind("127.0.0.2"):
        pytest.skip("127.0.0.2 is not a local address here (only Linux routes all of 127/8 to loopback)")
    clock = Clock()
    server = make(hosts=("127.0.0.1",), rate_limit=2, clock=clock)
    server.publish(TOKEN, sample())
    assert get(server, f"/g/{TOKEN}/state").status == 200
    assert get(server, f"/g/{TOKEN}/state").status == 200
    assert get(server, f"/g/{TOKEN}/state").status == 429
    # Another client (the same machine, from another loopback address) is not held back.
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5, source_address=("127.0.0.2", 0))
    try:
        conn.request("GET", f"/g/{TOKEN}/state")
        assert conn.getresponse().status == 200
    finally:
        conn.close()


# ---------------------------------------------------------------------- binding


def _can_bind(host: str) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((host, 0))
        return True
    except OSError:
        return False


def _reachable(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        try:
            s.connect((host, port))
            return True
        except OSError:
            return False


def test_only_the_given_addresses_are_served(make: Callable[..., PhoneServer]) -> None:
    # Another local address, within loopback: Linux routes all of 127.0.0.0/8 to this machine, so
    # 127.0.0.2 is "another interface address" that needs no network. (The machine's LAN address is
    # not used: tests here send traffic to loopback addresses only.)
    if not _can_bind("127.0.0.2"):
        pytest.skip("127.0.0.2 is not a local address here (only Linux routes all of 127/8 to loopback)")
    server = make(hosts=("127.0.0.1",))
    server.publish(TOKEN, sample())
    assert _reachable("127.0.0.1", server.port)
    assert not _reachable("127.0.0.2", server.port)
    if _can_bind("::1"):
        assert not _reachable("::1", server.port)
    both = make(hosts=("127.0.0.1", "127.0.0.2"))
    both.publish(TOKEN, sample())
    assert get(both, f"/g/{TOKEN}/state", host="127.0.0.2").status == 200
    assert get(both, f"/g/{TOKEN}/state", host="127.0.0.1").status == 200
    assert not _reachable("127.0.0.3", both.port)


def test_ipv6_loopback(make: Callable[..., PhoneServer]) -> None:
    if not _can_bind("::1"):
        pytest.skip("this machine has no IPv6 loopback address (::1)")
    server = make(hosts=("::1",))
    server.publish(TOKEN, sample())
    assert get(server, f"/g/{TOKEN}/state", host="::1").status == 200
    assert not _reachable("127.0.0.1", server.port)


def test_start_raises_oserror_when_the_port_is_taken(make: Callable[..., PhoneServer]) -> None:
    first = make()
    second = PhoneServer(["127.0.0.1"], first.port)
    with pytest.raises(OSError):
        second.start()
    assert not second.running
    second.stop()  # harmless
    first.publish(TOKEN, sample())
    assert get(first, f"/g/{TOKEN}/state").status == 200


def test_start_raises_oserror_for_an_address_not_on_this_machine() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = PhoneServer(["127.0.0.1", "192.0.2.1"], port)  # TEST-NET-1: never a local address
    with pytest.raises(OSError):
        server.start()
    assert not server.running
    assert not _reachable("127.0.0.1", port)  # nothing is left listening on the address that did bind


def test_a_server_can_start_again_after_stop() -> None:
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, sample())
    server.start()
    server.stop()
    server.start()
    try:
        assert get(server, f"/g/{TOKEN}/state").status == 200
    finally:
        server.stop()


def test_no_hosts_is_refused() -> None:
    with pytest.raises(ValueError):
        PhoneServer([], 0)


# ---------------------------------------------------------------------- limits under hostile input


def ours(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The phone server's own records (another test may have left the root logger at DEBUG: asyncio's show)."""
    return [r for r in caplog.records if r.name.startswith("ui.web")]


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (answers before the close are read past)."""
    sock.settimeout(seconds)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            if not sock.recv(4096):
                return True
    except ConnectionError:
        return True
    except TimeoutError:
        return False
    return False


def test_idle_and_half_sent_connections_are_closed_within_the_timeout(make: Callable[..., PhoneServer]) -> None:
    server = make(limits={"request_timeout": 1.0, "heartbeat": 0.3})
    server.publish(TOKEN, sample())
    stream = Events(server, f"/g/{TOKEN}/events")
    assert stream.next_state()["turn"] == "Ann"
    idle = socket.create_connection(("127.0.0.1", server.port))
    half = socket.create_connection(("127.0.0.1", server.port))
    half.sendall(b"GET /g/" + TOKEN.encode() + b"/state HTTP/1.1\r\nHost: banker\r\n")
    trickle = socket.create_connection(("127.0.0.1", server.port))
    kept_alive = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    kept_alive.request("GET", f"/g/{TOKEN}/state")
    assert kept_alive.getresponse().read()  # answered; the connection stays open for a next request
    started = time.monotonic()
    for byte in b"GET /g/x HTTP/1.1\r\n":  # a header a byte at a time: every byte in time, the whole too late
        try:
            trickle.send(bytes([byte]))
        except OSError:
            break
        time.sleep(0.1)
    for sock in (idle, half, trickle, kept_alive.sock):
        assert _closed_within(sock, 1.0 + 1.5 - (time.monotonic() - started)), sock
    assert server.connections == 1  # the event stream, kept up by its heartbeat
    server.publish(TOKEN, sample(cash=99))
    assert stream.next_state()["players"][0]["cash"] == 99
    stream.close()


def test_a_flood_that_keeps_reopening_leaves_the_phones_and_the_app_working(
        make: Callable[..., PhoneServer], tmp_path: Path) -> None:
    """300 connections from many addresses, each reopened as soon as the server closes it, in a process of
    its own: idle ones, half-sent ones, ones that ask for a game without the token and ones that ask with
    the token (scanned from the table's QR code) and then stay idle, kept alive. Meanwhile a phone with the token gets its page and its state within a
    second every time, its event stream is kept and follows the game, a card tap is handled and the
    journal commits; the caps are never passed and the open files stay bounded."""
    from banker.journal import Journal
    from banker.script import Header
    from hardware.emulate import LineReaderEmulator
    from hardware.line import LineProtocol
    from hardware.reader import CardReader

    server = make()
    server.publish(TOKEN, sample())
    taps: list[str] = []
    connected, tapped = threading.Event(), threading.Event()

    def on_tap(event: Any) -> None:
        taps.append(event.uid)
        tapped.set()

    def on_status(event: Any) -> None:
        if event.connected:
            connected.set()

    stream = Events(server, f"/g/{TOKEN}/events")  # a phone already following the game
    assert stream.next_state()["turn"] == "Ann"
    base_fds = _open_fds()
    sources = [f"127.0.0.{k}" for k in range(2, 32)]  # 30 addresses, 10 connections each: past the total cap
    flood = subprocess.Popen([sys.executable, str(Path(__file__).with_name("flood_client.py")), str(server.port),
                              "300", "60", f"idle,half,/g/guess/state,/g/{TOKEN}/state", *sources], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    most = {"all": 0, "one": 0, "fds": 0}
    sampling = threading.Event()

    def sample_counts() -> None:  # what the server holds, every few milliseconds of the flood
        while not sampling.wait(0.005):
            counts = dict(server._open_from)
            most["all"] = max(most["all"], sum(counts.values()))
            most["one"] = max([most["one"], *counts.values()])
            most["fds"] = max(most["fds"], _open_fds() - base_fds)

    sampler = threading.Thread(target=sample_counts, daemon=True)
    sampler.start()
    slowest = 0.0
    try:
        assert flood.stdout is not None
        assert json.loads(flood.stdout.readline()) == {"up": 300}
        deadline = time.monotonic() + 5
        while server.connections < server.max_connections and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.connections == server.max_connections, "the flood did not fill the server"
        # The family's side, during the flood:
        for k in range(5):
            for path, kind in ((f"/g/{TOKEN}", "text/html"), (f"/g/{TOKEN}/state", "application/json")):
                started = time.monotonic()
                reply = get(server, path, host="127.0.0.1")
                slowest = max(slowest, time.monotonic() - started)
                assert reply.status == 200 and reply.headers["Content-Type"].startswith(kind), (k, path)
            server.publish(TOKEN, sample(cash=k))
            assert stream.next_state()["players"][0]["cash"] == k
        with LineReaderEmulator() as device, CardReader(device.url, LineProtocol(), on_tap, on_status) as reader:
            assert connected.wait(3)
            time.sleep(0.25)  # past the reader's settling time after opening
            device.tap("04A32B1C")
            assert tapped.wait(3) and taps == ["04A32B1C"]
            assert reader.connected
        with Journal(tmp_path / "games.sqlite3") as journal:
            live = journal.start(Header(rules="classic", players=["Ann", "Ben"]))
            live.apply({"do": "roll", "dice": [1, 2]})
            assert len(journal.actions(live.id)) == 1
        assert flood.poll() is None, "the flood ended before the family's checks did"
        assert flood.stdin is not None
        flood.stdin.close()  # the flood's end
        done = json.loads(flood.stdout.readline())
    finally:
        sampling.set()
        flood.kill()
        flood.wait()
        stream.close()
    assert slowest < 1.0
    assert most["all"] <= server.max_connections and most["one"] <= server.max_connections_per_client
    # Past the caps, the server's files: what the kernel had queued, accepted before room was made.
    # The server's files: its connections, those refused and lingering, one batch of accepts not yet
    # admitted and one of connections closed to make room not yet released; and the family's own few.
    assert most["fds"] <= server.max_connections + gate.MAX_LINGERING + 2 * gate.ACCEPT_BATCH + 24
    assert done["closed"] > 300, done  # the flood was closed to make room, again and again
    assert done["stalled"] == 0, done  # and never waited for the listen queue
    _settle(server, 0)
    print(json.dumps({**done, "slowest_phone": round(slowest, 3), **{f"most_{k}": v for k, v in most.items()}}))


def _from_address(server: PhoneServer, host: str, send: bytes = b"") -> socket.socket:
    sock = socket.socket()
    sock.bind((host, 0))
    sock.connect(("127.0.0.1", server.port))
    if send:
        sock.sendall(send)
    return sock


def _kept_alive(server: PhoneServer, host: str, path: str) -> tuple[http.client.HTTPConnection, int]:
    """A connection from `host` that has had `path` answered and stays open for a next request."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5, source_address=(host, 0))
    conn.request("GET", path)
    reply = conn.getresponse()
    reply.read()
    return conn, reply.status


def _settle(server: PhoneServer, connections: int) -> None:
    """Wait until the server counts `connections` (the clients' last moves have reached it)."""
    deadline = time.monotonic() + 3
    while server.connections != connections and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.connections == connections


def test_at_the_total_cap_room_is_made_oldest_first_and_busy_connections_are_kept(
        make: Callable[..., PhoneServer], caplog: pytest.LogCaptureFixture) -> None:
    """At the cap each newcomer closes the oldest connection that serves nobody: first those that never
    had a game answered (a request without the token, an idle one, a half-sent one), then kept-alive ones
    between requests; event streams are never closed for room."""
    caplog.set_level(logging.WARNING, logger="ui.web")
    server = make(limits={"max_connections": 6})
    server.publish(TOKEN, sample())
    kept, status = _kept_alive(server, "127.0.0.2", f"/g/{TOKEN}/state")  # a phone between two requests
    assert status == 200
    nosy, status = _kept_alive(server, "127.0.0.3", "/g/guess")  # one request without the token, then idle
    assert status == 404
    idle = _from_address(server, "127.0.0.4")
    half = _from_address(server, "127.0.0.5", b"GET /g/guess HTTP/1.1\r\nHost: banker\r\n")
    streams = [Events(server, f"/g/{TOKEN}/events", source=f"127.0.0.{k}") for k in (6, 7)]
    for stream in streams:
        assert stream.next_state()["turn"] == "Ann"
    _settle(server, 6)
    time.sleep(gate.NEW_GRACE)  # past the time a new connection has to send its request
    phones = []
    # Each newcomer is a phone with the token, answered and kept alive: it closes, in this order,
    for k, victim in enumerate([nosy.sock, idle, half, kept.sock]):  # the never answered ones, then the kept one
        phone, status = _kept_alive(server, f"127.0.0.{10 + k}", f"/g/{TOKEN}/state")
        assert status == 200
        assert _closed_within(victim, 1.0), k
        phones.append(phone)
        assert server.connections == 6
    phone, status = _kept_alive(server, "127.0.0.20", f"/g/{TOKEN}")  # then the phones', oldest first
    assert status == 200 and _closed_within(phones[0].sock, 1.0)
    assert not _closed_within(phones[1].sock, 0.1)
    server.publish(TOKEN, sample(cash=7))
    for stream in streams:  # the streams were never closed
        assert stream.next_state()["players"][0]["cash"] == 7
        stream.close()
    for conn in [*phones, phone]:
        conn.close()
    lines = [r.getMessage() for r in ours(caplog) if "to make room" in r.getMessage()]
    assert lines[0] == ("phone server: closed 127.0.0.3: a connection that had not asked for a game, "
                        "closed to make room")
    assert lines[3] == "phone server: closed 127.0.0.2: a kept-alive connection, closed to make room"


def test_at_an_address_cap_room_is_made_among_that_address_only(make: Callable[..., PhoneServer]) -> None:
    """And a connection opened a moment ago, whose request may still be on its way, goes after the
    kept-alive ones."""
    server = make(limits={"max_connections_per_client": 3})
    server.publish(TOKEN, sample())
    elsewhere = _from_address(server, "127.0.0.2")
    stream = Events(server, f"/g/{TOKEN}/events")
    assert stream.next_state()["turn"] == "Ann"
    kept, status = _kept_alive(server, "127.0.0.1", f"/g/{TOKEN}/state")
    new = _from_address(server, "127.0.0.1")
    _settle(server, 4)
    newer, status = _kept_alive(server, "127.0.0.1", f"/g/{TOKEN}/state")  # a fourth: the kept-alive one goes
    assert status == 200 and _closed_within(kept.sock, 1.0)
    assert not _closed_within(new, 0.0)
    time.sleep(gate.NEW_GRACE)  # `new` has sent nothing in its time
    newest, status = _kept_alive(server, "127.0.0.1", f"/g/{TOKEN}")  # a fifth: now `new` goes first
    assert status == 200 and _closed_within(new, 1.0)
    assert not _closed_within(elsewhere, 0.1)  # another address's idle connection is not its to close
    server.publish(TOKEN, sample(cash=3))
    assert stream.next_state()["players"][0]["cash"] == 3
    for conn in (stream, newer, newest):
        conn.close()
    elsewhere.close()


def test_when_every_connection_is_busy_a_newcomer_is_answered_503_at_once(
        make: Callable[..., PhoneServer]) -> None:
    server = make(limits={"max_connections": 6, "max_connections_per_client": 4})
    server.publish(TOKEN, sample())
    held = [Events(server, f"/g/{TOKEN}/events") for _ in range(4)]  # event streams are never closed for room

    def answer(sock: socket.socket) -> bytes:
        sock.settimeout(2)
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
        return data

    for stream in held:
        assert stream.next_state()["turn"] == "Ann"
    refused = answer(socket.create_connection(("127.0.0.1", server.port)))  # a fifth from one address
    assert refused.startswith(b"HTTP/1.1 503 ") and b"Retry-After: 5" in refused
    held += [Events(server, f"/g/{TOKEN}/events", source=host) for host in ("127.0.0.2", "127.0.0.3")]
    for stream in held[4:]:
        assert stream.next_state()["turn"] == "Ann"
    assert answer(_from_address(server, "127.0.0.4")).startswith(b"HTTP/1.1 503 ")  # a seventh in all
    server.publish(TOKEN, sample(cash=5))
    for stream in held:
        assert stream.next_state()["players"][0]["cash"] == 5
        stream.close()
    _settle(server, 0)
    assert get(server, "/g/anything").status == 404  # served again


def test_a_stream_whose_phone_stops_reading_is_ended(make: Callable[..., PhoneServer]) -> None:
    server = make(limits={"stream_write_timeout": 0.5})
    server.publish(TOKEN, sample())
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(b"GET /g/" + TOKEN.encode() + b"/events HTTP/1.1\r\nHost: banker\r\n\r\n")
    deadline = time.monotonic() + 2
    while server.streams == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.streams == 1
    big = sample()
    deadline = time.monotonic() + 10
    k = 0
    while server.streams and time.monotonic() < deadline:  # the phone reads nothing
        k += 1
        big["log"] = [f"{k} " + "x" * 200_000]
        server.publish(TOKEN, big)
        time.sleep(0.05)
    assert server.streams == 0
    sock.close()


def test_a_refused_body_is_not_waited_for(make: Callable[..., PhoneServer]) -> None:
    server = make()
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(b"POST /g/x HTTP/1.1\r\nHost: banker\r\nContent-Length: 1000000\r\n\r\nabc")
    started = time.monotonic()
    sock.settimeout(5)
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    assert data.startswith(b"HTTP/1.1 405 ")
    assert time.monotonic() - started < gate.LINGER + 1.0


@pytest.mark.parametrize("request_bytes", [
    b"GET /g/" + TOKEN.encode() + b" HTTP/1.1 and more\r\nHost: banker\r\n\r\n",
    b"GET /g/" + TOKEN.encode() + b"\x00/state HTTP/1.1\r\n\r\n",
    b"G\x00T /g/" + TOKEN.encode() + b" HTTP/1.1\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + TOKEN.encode(),  # TLS to the plain port
    b"GET /g/" + TOKEN.encode() + b" HTTP/1.1\r\nHost: banker\r\nX-" + b"a" * 9000 + b": 1\r\n\r\n",
    b"GET /g/" + TOKEN.encode() + b"/state HTTP/1.1\r\nHost: banker\r\nContent-Length: -1\r\n\r\n",
])
def test_a_malformed_request_logs_one_short_line_without_the_token(
        make: Callable[..., PhoneServer], caplog: pytest.LogCaptureFixture, request_bytes: bytes) -> None:
    server = make()
    server.publish(TOKEN, sample())
    caplog.set_level(logging.DEBUG)
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(request_bytes)
    sock.settimeout(5)
    answer = b""
    try:
        while chunk := sock.recv(4096):
            answer += chunk
    except ConnectionError:
        pass
    assert answer.startswith(b"HTTP/1.") and b" 400 " in answer.split(b"\r\n")[0]
    deadline = time.monotonic() + 2
    while not ours(caplog) and time.monotonic() < deadline:
        time.sleep(0.01)
    lines = ours(caplog)
    assert len(lines) == 1
    text = lines[0].getMessage()
    assert lines[0].exc_info is None and "\n" not in text and len(text) < 160
    assert text.startswith("phone server: refused 127.0.0.1: a malformed request")
    assert TOKEN not in text and "/g/" not in text
    assert TOKEN not in caplog.text


def test_refusals_are_logged_without_paths_and_at_most_a_burst_a_window(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    refused = base.RefusalLog(clock, burst=3, window=60)
    caplog.set_level(logging.WARNING, logger="ui.web")
    for _ in range(10):
        refused("192.168.1.7", "an unknown page, game or link, answered 404")
    refused("bad\naddress", "why")
    assert [r.getMessage() for r in ours(caplog)] == [
        "phone server: refused 192.168.1.7: an unknown page, game or link, answered 404"] * 3
    clock.now += 60
    refused("192.168.1.8", "too many requests or streams from one address, answered 429")
    assert [r.getMessage() for r in ours(caplog)[3:]] == [
        "phone server: 8 more refusals and closings in the last 60 s were not logged",
        "phone server: refused 192.168.1.8: too many requests or streams from one address, answered 429"]
    clock.now += 60
    refused("bad\naddress", "why")
    assert ours(caplog)[-1].getMessage() == "phone server: refused bad?address: why"
    for _ in range(5):
        refused("192.168.1.9", "why")
    refused.flush()  # as the server stops
    assert ours(caplog)[-1].getMessage() == "phone server: 3 more refusals and closings were not logged"
    refused.flush()
    assert ours(caplog)[-1].getMessage() == "phone server: 3 more refusals and closings were not logged"
    assert len(ours(caplog)) == 9  # the second flush had nothing to count


def test_a_wrong_token_is_logged_without_it(make: Callable[..., PhoneServer],
                                            caplog: pytest.LogCaptureFixture) -> None:
    server = make()
    server.publish(TOKEN, sample())
    caplog.set_level(logging.WARNING, logger="ui.web")
    wrong = TOKEN[::-1]
    assert get(server, f"/g/{wrong}/state").status == 404
    deadline = time.monotonic() + 2
    while not ours(caplog) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [r.getMessage() for r in ours(caplog)] == [
        "phone server: refused 127.0.0.1: an unknown page, game or link, answered 404"]


def test_a_bug_in_a_handler_is_a_500_logged_once_with_its_traceback_and_no_token(
        make: Callable[..., PhoneServer], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    server = make()
    server.publish(TOKEN, sample())
    caplog.set_level(logging.WARNING, logger="ui.web")

    def broken(token: str) -> bytes:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server, "_state", broken)
    assert get(server, f"/g/{TOKEN}/state").status == 500
    deadline = time.monotonic() + 2
    while not ours(caplog) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(ours(caplog)) == 1
    record = ours(caplog)[0]
    assert record.getMessage() == "Error handling request from 127.0.0.1"
    assert record.exc_info is not None and "a bug" in caplog.text
    assert TOKEN not in caplog.text
