"""A card reader: one thread per device, taps and status out.

`CardReader(url, protocol, on_tap, on_status)` has the protocol open its
device (for the serial kinds the pyserial URL: a device path such as
/dev/serial0 or /dev/serial/by-id/..., or loop://, socket://...), greet it,
and poll it for cards until closed. Whatever the port does (garbage, silence, vanishing, coming
back under the same name), the thread keeps going: an unplug gives a
"disconnected" status and reconnect attempts with a short backoff, then
"connected" again. A card resting on the reader is one tap: a UID seen again
within `retap_window` seconds of the last time it was seen is not a new tap.

Callbacks run on the reader's thread. The app hands them to Kivy's main
thread (ui/); a callback that raises is logged and never stops the reader.
Shaped after pyserial's `serial.threaded.ReaderThread`: errors go to the
status callback instead of killing the thread silently.
"""

from __future__ import annotations

import abc
import errno
import logging
import termios
import threading
from collections.abc import Callable
from typing import Any

import serial

from hardware.events import CardTapped, ProtocolError, ReaderStatus

log = logging.getLogger(__name__)

RETAP_WINDOW = 1.5  # seconds; configurable
# What a vanishing device raises: pyserial's own error, the OS's, and termios's
# (which is not an OSError) from flushing a port that is gone.
PORT_ERRORS = (serial.SerialException, OSError, termios.error)
BACKOFF_FIRST = 0.05  # seconds before the first reconnect attempt
BACKOFF_MOST = 0.5  # the longest wait between attempts, so a re-plug is noticed within a second


class CardProtocol(abc.ABC):
    """How one kind of reader talks (the kinds: hardware/kinds.py). A serial one only polls; another kind
    also opens its own device (`open`), and turns its library's errors into OSError or ProtocolError."""

    name = "base"
    baudrate = 115200

    def open(self, url: str) -> Any:
        """Open the device `url` names: an object with `close()`. Raise OSError (or pyserial's
        SerialException, or ValueError for a bad URL) when it cannot be opened now."""
        return open_serial(url, self.baudrate)

    def start(self, port: Any) -> None:  # noqa: B027 (a hook: most devices need no greeting)
        """Greet the device after the port opened (raise ProtocolError or SerialException if it won't talk)."""

    @abc.abstractmethod
    def poll(self, port: Any) -> list[tuple[str, float]]:
        """Wait briefly (about 0.1 s at most) and return the UIDs seen, each with the
        monotonic time its last byte arrived. Raise SerialException/OSError when the
        port is gone, ProtocolError when the device stopped answering."""


def open_serial(url: str, baudrate: int) -> Any:
    """Open a pyserial URL with a short read timeout, so polls never block for long.

    A device path is opened exclusively: a second program (say `banker hw cards`
    beside the running app) is refused instead of silently taking half the bytes.
    """
    if "://" in url:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0.05, write_timeout=0.5)
    return serial.Serial(url, baudrate=baudrate, timeout=0.05, write_timeout=0.5, exclusive=True)


# The errno values of a device that cannot be opened, by READER_PROBLEMS' word (any other: "lost").
_OPEN_ERRNOS = {
    "missing": {errno.ENOENT, errno.ENODEV, errno.ENXIO, errno.ENOTDIR},
    "denied": {errno.EACCES, errno.EPERM},
    "busy": {errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK},
}


def open_problem(exc: BaseException) -> str:
    """Why a device could not be opened, as one of hardware.events.READER_PROBLEMS: from the error's errno
    (pyserial's SerialException keeps the OS's; an exclusive lock refused is EAGAIN), "lost" when none says."""
    number = getattr(exc, "errno", None)
    if isinstance(exc, FileNotFoundError):
        return "missing"
    if isinstance(exc, PermissionError):
        return "denied"
    for problem, numbers in _OPEN_ERRNOS.items():
        if number in numbers:
            return problem
    return "lost"


class CardReader:
    """Reads one device on its own thread. Use as a context manager, or start() and close()."""

    def __init__(self, url: str, protocol: CardProtocol, on_tap: Callable[[CardTapped], None],
                 on_status: Callable[[ReaderStatus], None] | None = None,
                 retap_window: float = RETAP_WINDOW) -> None:
        if retap_window < 0:
            raise ValueError("retap_window must not be negative")
        self.url = url
        self.protocol = protocol
        self.on_tap = on_tap
        self.on_status = on_status
        self.retap_window = retap_window
        self.connected = False
        self._last_seen: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None

    def start(self) -> CardReader:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"card reader {self.url}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._stop.set()
        port = self._port
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # not every port type can cancel; the short timeout ends the read anyway
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def __enter__(self) -> CardReader:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------

    def _run(self) -> None:
        delay = BACKOFF_FIRST
        reason = "not opened yet"
        problem = "lost"
        first = True
        while not self._stop.is_set():
            try:
                port = self.protocol.open(self.url)
            except (*PORT_ERRORS, ValueError) as exc:
                reason = f"cannot open: {exc}"
                problem = open_problem(exc)
                if first:  # say once why there is no reader yet; then retry quietly
                    self._status(False, reason, problem)
                    first = False
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MOST)
                continue
            self._port = port
            try:
                self.protocol.start(port)
                first = False
                self._status(True, "ready")
                delay = BACKOFF_FIRST
                while not self._stop.is_set():
                    for uid, at in self.protocol.poll(port):
                        self._seen(uid, at)
                reason, problem = "closed", ""
            except (*PORT_ERRORS, ProtocolError) as exc:
                reason, problem = str(exc) or type(exc).__name__, "lost"
            except Exception as exc:  # a bug must not stop the table's reader: log it, start over
                log.exception("card reader %s failed", self.url)
                reason, problem = f"unexpected error: {exc}", "lost"
            finally:
                self._port = None
                try:
                    port.close()
                except Exception:
                    pass
            if self.connected or first:
                self._status(False, reason, problem)
            first = False
            self._stop.wait(delay)
            delay = min(delay * 2, BACKOFF_MOST)

    def _seen(self, uid: str, at: float) -> None:
        last = self._last_seen.get(uid)
        if len(self._last_seen) > 64:  # forget cards long gone, so the table stays small
            self._last_seen = {u: t for u, t in self._last_seen.items() if at - t < self.retap_window}
        self._last_seen[uid] = at
        if last is not None and at - last < self.retap_window:
            return  # still resting on the reader, or bounced back within the window
        try:
            self.on_tap(CardTapped(uid, self.url, at))
        except Exception:
            log.exception("tap callback failed for %s", uid)

    def _status(self, connected: bool, detail: str, problem: str = "") -> None:
        self.connected = connected
        if self.on_status is None:
            return
        try:
            self.on_status(ReaderStatus(self.url, connected, detail, problem))
        except Exception:
            log.exception("status callback failed")
