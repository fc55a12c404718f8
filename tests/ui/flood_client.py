"""A flood of idle and half-sent connections that keeps reopening them, from a process of its own (so
that its sockets do not count against the server's open files):
`python flood_client.py PORT COUNT SECONDS ADDRESS...`.

Holds COUNT connections to 127.0.0.1:PORT until its standard input is closed (or SECONDS have passed),
taking the source addresses in turn; every
other one sends half a request (its headers never end). Each connection the server ends is opened
again at once. Prints {"up": COUNT} once COUNT are open, and at the end, after closing its own,
{"opened", "refused", "closed", "stalled"}: opened, connections opened in all; refused, answered 503
(or reset before any answer); closed, ended by the server without an answer (closed to make room or
timed out); stalled, connects that took longer than a second (the server's listen queue was full).
"""

from __future__ import annotations

import json
import select
import socket
import sys
import time

HALF = b"GET /g/guess HTTP/1.1\r\nHost: banker\r\nX-Slow: "


def first_bytes(kind: str) -> bytes:
    if kind == "idle":
        return b""
    if kind == "half":
        return HALF
    assert kind.startswith("/"), kind
    return b"GET " + kind.encode() + b" HTTP/1.1\r\nHost: banker\r\n\r\n"


def main() -> None:
    port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    kinds, sources = [first_bytes(kind) for kind in sys.argv[4].split(",")], sys.argv[5:]
    opened, refused, closed, stalled = 0, 0, 0, 0

    def connect() -> socket.socket:
        nonlocal opened, stalled
        sock = socket.socket()
        sock.bind((sources[opened % len(sources)], 0))
        sock.settimeout(1.0)
        try:
            sock.connect(("127.0.0.1", port))
        except TimeoutError:
            stalled += 1
            sock.settimeout(None)
            sock.connect(("127.0.0.1", port))
        if kinds[opened % len(kinds)]:
            sock.sendall(kinds[opened % len(kinds)])
        opened += 1
        return sock

    held = [connect() for _ in range(count)]
    print(json.dumps({"up": count}), flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([sys.stdin, *held], [], [], 0.05)
        if sys.stdin in ready:
            break  # told to stop
        for sock in ready:
            try:
                data = sock.recv(4096)
            except ConnectionError:  # refused while its request was unread: the answer may be lost
                data = b"reset"
            if data.startswith((b"HTTP/1.1 503", b"reset")):
                refused += 1
            elif not data:
                closed += 1
            else:
                continue  # the answer to its request, or part of a 503: read on
            held.remove(sock)
            sock.close()
            held.append(connect())
    for sock in held:
        sock.close()
    print(json.dumps({"opened": opened, "refused": refused, "closed": closed, "stalled": stalled}), flush=True)


if __name__ == "__main__":
    main()
