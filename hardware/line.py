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

from hardware.events import UID_BYTES
from hardware.reader import CardProtocol

MAX_LINE = 120  # bytes; a longer run without a line end is garbage, dropped whole up to its line end
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
    """Cuts a byte stream into lines; drops the first (possibly partial) line and over-long runs.

    Two states make a line untrustworthy, and only one of them may be forgiven:

    - `synced` is False until the first line end after opening, because the bytes may be the
      tail of a line cut by the open. `LineProtocol` sets it when the port stayed quiet since
      opening (then nothing was half-read).
    - `discarding` is True from the byte that makes a run longer than `MAX_LINE` until the
      next line end. The whole run is dropped, whatever follows it and however long the pause
      before its line end; nothing outside the framer clears this.
    """

    def __init__(self, skip_first: bool = True) -> None:
        self.buffer = bytearray()
        self.synced = not skip_first
        self.discarding = False

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self.synced and self.buffer and not self.discarding:
                    lines.append(bytes(self.buffer))
                self.synced = True
                self.discarding = False
                self.buffer.clear()
            elif self.discarding:
                continue
            elif len(self.buffer) >= MAX_LINE:
                self.buffer.clear()
                self.discarding = True  # the rest of this run, up to its line end, is garbage too
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
        framer = self.framer
        if not framer.synced and not framer.buffer and not framer.discarding and at - self.opened > SETTLE:
            framer.synced = True  # ...unless the line was quiet since opening: then nothing is half-read
        if not data:
            return []
        return [(uid, at) for uid in map(parse_uid_line, self.framer.feed(data)) if uid is not None]
