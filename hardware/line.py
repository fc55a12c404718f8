"""Line readers: an Arduino or ESP32 with an MFRC522, or any USB serial reader,
printing one UID per line.

Accepted lines (either case, CR or LF or both at the end):
``Card UID: 04 A3 2B 1C``, ``UID: 04A32B1C`` and ``04A32B1C``, with 4, 7 or
10 byte UIDs. Everything else is ignored: boot banners, debug output, and
the partial line that opening the port causes (opening resets most Arduinos
mid-line), which is why the first line after opening is always dropped.
Parsing is a pure function of bytes (`parse_uid_line`, `LineFramer`),
testable without a thread or a port.
"""

from __future__ import annotations

import re
import time
from typing import Any

from hardware.reader import CardProtocol

MAX_LINE = 120  # bytes; a longer run without a line end is garbage, dropped whole
UID_BYTES = (4, 7, 10)
_PREFIX = re.compile(rb"^(?:card\s+)?uid\s*:\s*", re.IGNORECASE)
_SPACED = re.compile(rb"^[0-9a-f]{2}(?: [0-9a-f]{2})*$", re.IGNORECASE)
_PLAIN = re.compile(rb"^[0-9a-f]+$", re.IGNORECASE)


def parse_uid_line(line: bytes) -> str | None:
    """The UID in one line (without its line end), upper-case hex with no spaces, or None."""
    text = line.strip(b" \t")
    match = _PREFIX.match(text)
    if match:
        text = text[match.end():]
    if _SPACED.match(text):
        hexdigits = text.replace(b" ", b"")
    elif _PLAIN.match(text):
        hexdigits = text
    else:
        return None
    if len(hexdigits) // 2 not in UID_BYTES or len(hexdigits) % 2:
        return None
    return hexdigits.decode("ascii").upper()


class LineFramer:
    """Cuts a byte stream into lines; drops the first (possibly partial) line and overlong runs."""

    def __init__(self, skip_first: bool = True) -> None:
        self.buffer = bytearray()
        self.synced = not skip_first

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self.synced and self.buffer:
                    lines.append(bytes(self.buffer))
                self.synced = True
                self.buffer.clear()
            elif len(self.buffer) >= MAX_LINE:
                self.buffer.clear()
                self.synced = False  # wait for the next line end before trusting bytes again
            else:
                self.buffer.append(byte)
        return lines


SETTLE = 0.2  # seconds after opening during which bytes may be the tail of an older line


class LineProtocol(CardProtocol):
    name = "line"
    baudrate = 115200

    def __init__(self, baudrate: int = 115200) -> None:
        self.baudrate = baudrate
        self.framer = LineFramer()
        self.opened = 0.0

    def start(self, port: Any) -> None:
        self.framer = LineFramer()  # a fresh start: the first line may be a tail, so it is dropped...
        self.opened = time.monotonic()

    def poll(self, port: Any) -> list[tuple[str, float]]:
        data = port.read(max(1, port.in_waiting))
        at = time.monotonic()
        if not self.framer.synced and not self.framer.buffer and at - self.opened > SETTLE:
            self.framer.synced = True  # ...unless the line was quiet since opening: then nothing is half-read
        if not data:
            return []
        return [(uid, at) for uid in map(parse_uid_line, self.framer.feed(data)) if uid is not None]
