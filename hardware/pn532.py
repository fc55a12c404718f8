"""An NXP PN532 NFC reader on a serial port, in HSU (UART) mode.

Two layers, as in pyserial's `serial.threaded` (a framing class, then a
protocol that uses it):

* The frame layer is pure bytes, testable without a port. `build_frame`
  makes a normal information frame ``00 00 FF LEN LCS TFI DATA... DCS 00``;
  `FrameParser.feed(bytes)` turns a byte stream back into `Ack`, `Nack`,
  `ErrorFrame` and `InformationFrame` items. It finds frames by their
  ``00 FF`` start code, drops any frame whose length or data checksum is
  wrong, skips garbage, joins frames split across reads, keeps at most one
  frame's worth of bytes, and never raises.
* `PN532Protocol` is the `CardProtocol` that `hardware.reader.CardReader`
  drives: `start` wakes the chip and configures it, `poll` lists the card on
  the field with InListPassiveTarget and returns its UID.

Why the frames are written out here instead of using a library:

* Adafruit's CircuitPython PN532 driver (`adafruit_pn532`): its UART class
  only needs an object with read, write, in_waiting and reset_input_buffer,
  so a pyserial port would do, but the package imports `digitalio` and
  `micropython` at module level, so on a Raspberry Pi it needs the Blinka
  compatibility layer (its requirements list Adafruit-Blinka). It reports
  bad frames as bare RuntimeErrors, and the version read while writing this
  refused UIDs longer than 7 bytes.
* nfcpy is a whole NFC Forum stack (LLCP, card emulation, NDEF) and its
  transport module imports libusb1 even to talk to a serial reader. It
  finds serial readers by a ``tty:NAME:driver`` path matched against
  entries directly under /dev, so it cannot be handed a pyserial URL
  (``socket://``, ``loop://``), a /dev/serial/by-id link or an emulator's
  /dev/pts pty, which the reader thread and the tests rely on.

The reader needs three commands and one frame format; that is about a
hundred lines, with every byte visible and tested.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TypeAlias

import serial

from hardware.events import UID_BYTES, ProtocolError
from hardware.reader import CardProtocol

_FLUSH_ERRORS: tuple[type[Exception], ...]
try:
    import termios
    _FLUSH_ERRORS = (termios.error,)
except ImportError:  # not POSIX: pyserial's other back ends raise SerialException themselves
    _FLUSH_ERRORS = ()

HOST_TO_PN532 = 0xD4  # TFI of a frame the host sends
PN532_TO_HOST = 0xD5  # TFI of a frame the PN532 sends
ERROR_TFI = 0x7F  # TFI of the application error frame (the PN532 found a syntax error in a command)

ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"
NACK_FRAME = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
START_CODE = b"\x00\xff"
# HSU wake-up: the 0x55 edges wake the chip, the zeros give it time to start before the first frame.
WAKEUP = b"\x55\x55" + bytes(14)

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

RF_ITEM_MAX_RETRIES = 0x05
SAM_NORMAL_MODE = b"\x01\x14\x01"  # normal mode, 1 s virtual-card timeout (20 x 50 ms), use IRQ
ONE_TARGET_TYPE_A = b"\x01\x00"  # MaxTg 1, 106 kbps ISO/IEC 14443 type A

MAX_DATA = 254  # a normal frame's LEN is one byte and counts the TFI too
MAX_FRAME = 2 + 2 + 255 + 1  # start code, LEN, LCS, TFI+data, DCS: the most the parser ever keeps


@dataclass(frozen=True, slots=True)
class Ack:
    """``00 00 FF 00 FF 00``: the PN532 took the command and is working on it."""


@dataclass(frozen=True, slots=True)
class Nack:
    """``00 00 FF FF 00 00``: a request to send the last frame again."""


@dataclass(frozen=True, slots=True)
class ErrorFrame:
    """``00 00 FF 01 FF 7F 81 00``: the PN532 found a syntax error in the command."""


@dataclass(frozen=True, slots=True)
class InformationFrame:
    """A normal information frame whose LCS and DCS were right."""

    tfi: int  # 0xD4 from the host, 0xD5 from the PN532
    data: bytes  # after the TFI: the command or response code, then its parameters


FrameItem: TypeAlias = Ack | Nack | ErrorFrame | InformationFrame


def build_frame(data: bytes, tfi: int = HOST_TO_PN532) -> bytes:
    """A normal information frame carrying `data` after the `tfi` byte."""
    if len(data) > MAX_DATA:
        raise ValueError(f"a normal PN532 frame holds at most {MAX_DATA} data bytes, not {len(data)}")
    if not 0 <= tfi <= 0xFF:
        raise ValueError(f"TFI must be one byte, not {tfi!r}")
    body = bytes([tfi]) + data
    length = len(body)
    return (b"\x00\x00\xff" + bytes([length, (0x100 - length) & 0xFF]) + body
            + bytes([(0x100 - sum(body)) & 0xFF, 0x00]))


class FrameParser:
    """Cuts a PN532 byte stream into frames. `feed` never raises, whatever the bytes."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def reset(self) -> None:
        """Forget any partial frame, e.g. before a new command makes old bytes meaningless."""
        self.buffer.clear()

    def feed(self, data: bytes) -> list[FrameItem]:
        self.buffer += data
        buf = self.buffer
        items: list[FrameItem] = []
        pos = 0
        while True:
            start = buf.find(START_CODE, pos)
            if start < 0:
                # a last 0x00 may be the first half of a start code split across reads
                pos = len(buf) - 1 if buf.endswith(b"\x00") else len(buf)
                break
            pos = start
            if len(buf) - pos < 4:
                break  # LEN and LCS not here yet
            length, lcs = buf[pos + 2], buf[pos + 3]
            if length == 0x00 and lcs == 0xFF:
                items.append(Ack())
                pos += 4
                continue
            if length == 0xFF and lcs == 0x00:
                items.append(Nack())
                pos += 4
                continue
            if length == 0 or (length + lcs) & 0xFF:
                # A bad length (or an extended frame, LEN=LCS=FF, which no command here
                # provokes): this start code was noise, so look for the next one.
                pos += 2
                continue
            end = pos + 4 + length + 1  # through the DCS; the postamble is not needed to trust the frame
            if len(buf) < end:
                break
            body = buf[pos + 4:end - 1]
            if (sum(body) + buf[end - 1]) & 0xFF:
                pos += 2  # bad data checksum: resynchronise inside it, a real frame may start there
                continue
            if body[0] == ERROR_TFI and length == 1:
                items.append(ErrorFrame())
            else:
                items.append(InformationFrame(body[0], bytes(body[1:])))
            pos = end
        del buf[:pos]
        return items


def parse_target(data: bytes) -> str | None:
    """The UID in an InListPassiveTarget answer (after ``D5 4B``), or None if no card or malformed.

    Layout for 106 kbps type A: ``NbTg Tg SENS_RES(2) SEL_RES NFCIDLength NFCID... [ATS]``.
    """
    if len(data) < 6 or data[0] != 1 or data[1] != 1:
        return None
    uid_length = data[5]
    if uid_length not in UID_BYTES:
        return None
    uid_end = 6 + uid_length
    if len(data) != uid_end:
        # the only thing allowed after the UID is an ATS, from a card that says it speaks
        # ISO/IEC 14443-4 (SEL_RES bit 6), and whose first byte is the ATS's own length
        if not data[4] & 0x20 or len(data) <= uid_end or len(data) - uid_end != data[uid_end]:
            return None
    return data[6:uid_end].hex().upper()


def _flush_input(port: Any) -> None:
    """Drop unread input. On POSIX pyserial lets termios.error (not an OSError) escape when
    the device is gone; turn it into the SerialException the reader thread expects."""
    try:
        port.reset_input_buffer()
    except _FLUSH_ERRORS as exc:
        raise serial.SerialException(f"cannot flush input: {exc}") from exc


class PN532Protocol(CardProtocol):
    """A PN532 breakout wired to a UART (HSU mode), polled for one type A card at a time."""

    name = "pn532"
    baudrate = 115200

    ATTEMPTS = 3  # tries per configuration command before start() gives up
    MISSES = 3  # polls in a row without an answer before the device counts as gone
    POLL_INTERVAL = 0.02  # seconds; an empty field is answered at once, so without this the thread would spin

    def __init__(self, baudrate: int = 115200, max_retries: int = 1, timeout: float = 0.1) -> None:
        if not 0 <= max_retries < 0xFF:
            # 0xFF means "retry forever": an empty field would never answer and look like a dead reader
            raise ValueError(f"max_retries must be 0 to 254, not {max_retries!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, not {timeout!r}")
        self.baudrate = baudrate
        self.max_retries = max_retries
        self.timeout = timeout
        self.parser = FrameParser()
        self.misses = 0
        self._last_poll = 0.0

    def start(self, port: Any) -> None:
        """Wake the chip, leave its low-battery start-up state and make empty polls answer at once."""
        self.parser.reset()
        self.misses = 0
        _flush_input(port)
        port.write(WAKEUP)
        # SAMConfiguration comes first: on a PN532/C106 it is what ends the low-battery start-up mode
        self.call(port, SAM_CONFIGURATION, SAM_NORMAL_MODE)
        self.call(port, RF_CONFIGURATION, bytes([RF_ITEM_MAX_RETRIES, 0xFF, 0x01, self.max_retries]))

    def call(self, port: Any, command: int, params: bytes = b"") -> bytes:
        """Send a command and return its response's data after the response code.

        Tries `ATTEMPTS` times; raises ProtocolError if the PN532 never answers properly.
        """
        problem = ""
        for _ in range(self.ATTEMPTS):
            outcome = self._exchange(port, command, params)
            if not isinstance(outcome, str):
                return outcome[0]
            problem = outcome
        raise ProtocolError(f"PN532 command 0x{command:02X}: {problem} after {self.ATTEMPTS} tries")

    def poll(self, port: Any) -> list[tuple[str, float]]:
        wait = self._last_poll + self.POLL_INTERVAL - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._last_poll = time.monotonic()
        outcome = self._exchange(port, IN_LIST_PASSIVE_TARGET, ONE_TARGET_TYPE_A)
        if isinstance(outcome, str):
            self.misses += 1
            if self.misses >= self.MISSES:
                raise ProtocolError(f"PN532 stopped answering: {outcome} to {self.misses} polls in a row")
            return []
        self.misses = 0
        data, at = outcome
        uid = parse_target(data)
        return [] if uid is None else [(uid, at)]

    def _exchange(self, port: Any, command: int, params: bytes) -> tuple[bytes, float] | str:
        """One attempt: send the command, wait for ACK then response. The response data and
        the time its last byte arrived, or why there is none. Waits at most about 2 x timeout."""
        self.parser.reset()
        _flush_input(port)  # whatever is waiting answers an older command
        port.write(build_frame(bytes([command]) + params))
        acked = False
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            chunk = port.read(max(1, port.in_waiting))  # returns after the port's own short timeout
            at = time.monotonic()
            for item in self.parser.feed(chunk):
                if isinstance(item, Ack):
                    if not acked:
                        acked = True
                        deadline = at + self.timeout
                elif isinstance(item, Nack):
                    return "NACK"
                elif isinstance(item, ErrorFrame):
                    return "error frame"
                elif item.tfi == PN532_TO_HOST and item.data[:1] == bytes([(command + 1) & 0xFF]):
                    # accepted even if its ACK was lost: the checksums prove it answers this command
                    return item.data[1:], at
        return "no response after ACK" if acked else "no ACK"
