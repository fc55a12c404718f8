"""A flood of idle and half-sent connections, from a process of its own (so that its sockets do not
count against the server's open files): `python flood_client.py PORT COUNT ADDRESS...`.

Opens COUNT connections to 127.0.0.1:PORT, taking the source addresses in turn; every other one
sends half a request (its headers never end). Prints {"opened"} once all are open, then waits
until the server has ended every connection, or 20 s, and prints {"refused", "kept", "open",
"slowest"}: refused, answered 503 (or reset) at once; kept, closed by the server without an answer; open,
still open at the end; slowest, the longest a kept connection stayed open, in seconds.
"""

from __future__ import annotations

import json
import select
import socket
import sys
import time


def main() -> None:
    port, count, sources = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    held: dict[socket.socket, float] = {}
    for k in range(count):
        sock = socket.socket()
        sock.bind((sources[k % len(sources)], 0))
        sock.connect(("127.0.0.1", port))
        if k % 2:
            sock.sendall(b"GET /g/guess HTTP/1.1\r\nHost: banker\r\nX-Slow: ")
        held[sock] = time.monotonic()
    print(json.dumps({"opened": count}), flush=True)
    # Each connection ends one of two ways: answered 503 at once (refused; past the server's few
    # lingering refusals, a reset), or kept and then closed by the server without a word (timed out).
    refused, kept, slowest = 0, 0, 0.0
    deadline = time.monotonic() + 20
    while held and time.monotonic() < deadline:
        ready, _, _ = select.select(list(held), [], [], 0.1)
        for sock in ready:
            try:
                data = sock.recv(4096)
            except ConnectionError:  # refused while its request was unread: the answer may be lost
                data = b"reset"
            opened_at = held.pop(sock)
            sock.close()
            if data.startswith((b"HTTP/1.1 503", b"reset")):
                refused += 1
            else:
                kept += 1
                slowest = max(slowest, time.monotonic() - opened_at)
    print(json.dumps({"refused": refused, "kept": kept, "open": len(held), "slowest": round(slowest, 3)}),
          flush=True)


if __name__ == "__main__":
    main()
