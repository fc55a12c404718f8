"""Fake readers on pseudo-terminals, for a desktop with no hardware and for the tests.

A `PtyDevice` is a real serial device (`os.openpty()`): the reader opens its
`path` (or a stable `link` to it) with pyserial exactly as it opens
/dev/ttyUSB0. Closing the device's side (`unplug()`) makes the reader's
blocked read fail the way pulling the cable does. Subclasses answer the
host's bytes like the real device: `LineReaderEmulator` here,
`PN532Emulator` in hardware/pn532_emulator.py.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import tty
from pathlib import Path
from typing import Any, Self

log = logging.getLogger(__name__)


class PtyDevice:
    """The device end of a pseudo-terminal. `path` is what the host opens.

    The thread answering the host starts in __init__: a subclass sets up its
    own state before calling super().__init__().
    """

    def __init__(self, link: str | os.PathLike[str] | None = None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # bytes pass as they are: no echo, no newline translation
        self.path = os.ttyname(self.slave)
        self.link = Path(link) if link is not None else None
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.path)
            os.replace(tmp, self.link)  # re-point atomically, as udev does for /dev/serial/by-id
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._pump, name=f"emulator {self.path}", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """What to give the reader: the stable link if there is one, else the pty's path."""
        return str(self.link) if self.link is not None else self.path

    def write(self, data: bytes) -> None:
        """Send bytes to the host, as the device would."""
        with self._lock:
            if self._closed.is_set():
                return
            view = memoryview(data)
            while view:
                written = os.write(self.master, view)
                view = view[written:]

    def received(self, data: bytes) -> None:
        """Bytes the host sent; subclasses answer them."""

    def _pump(self) -> None:
        while not self._closed.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if ready:
                    data = os.read(self.master, 1024)
                    if data:
                        self.received(data)
            except OSError:
                return
            except Exception:  # a fake device with a bug must say so, not go quietly deaf
                log.exception("emulator %s failed to answer", self.path)

    def unplug(self) -> None:
        """Pull the cable: close the device's side. The host's reads fail from now on."""
        self.close()

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self._thread.join(timeout=2)
        with self._lock:
            for fd in (self.master, self.slave):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class LineReaderEmulator(PtyDevice):
    """An Arduino with an MFRC522 running hardware/firmware/line_reader: one line per tap."""

    BANNER = b"Board Banker card reader 1.0\r\nMFRC522 firmware version: 0x92\r\n"

    def __init__(self, link: str | os.PathLike[str] | None = None, banner: bool = True) -> None:
        super().__init__(link)
        if banner:
            self.write(self.BANNER)

    def tap(self, uid: str, style: str = "Card UID: ") -> None:
        """A card comes to the reader: print its UID the way the firmware does."""
        raw = uid.replace(" ", "").upper()
        body = " ".join(raw[k:k + 2] for k in range(0, len(raw), 2)) if style == "Card UID: " else raw
        self.write(f"{style}{body}\r\n".encode("ascii"))
