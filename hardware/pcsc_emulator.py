"""A virtual contactless card for pcscd's virtual reader (vsmartcard's vpcd driver), for the `pcsc` kind.

vpcd is a reader driver inside pcscd: it listens on 127.0.0.1:35963 and shows up as the PC/SC reader
"Virtual PCD 00 00". A card is a TCP client of that port: connecting puts it on the reader, closing the
connection takes it away. Every message either way is a 2-byte big-endian length and its bytes. From
vpcd, a 1-byte message is a control code (0x00 power off, 0x01 power on, 0x02 reset, 0x04 "send your
ATR", answered with the ATR bytes, which vpcd also asks for to see whether the card is still there);
anything longer is a C-APDU, answered with an R-APDU.

`VirtualCard` is one card on the reader until `remove()`: it answers GET DATA (`FF CA 00 00 00`) with
its UID and `90 00` the way an ACR122U does, and anything else with `6D 00` (or `6A 81` for another
GET DATA), unless told to misbehave (`Fault`). `PcscEmulator` is what `banker hw emulate --protocol
pcsc` and the tests use: `.url` is the virtual reader's name, `.tap(uid)` puts a card on the reader
until it has been read (or a moment passes) and takes it away. It uses pyscard, when it is there, to
put a card on the reader only once pcscd has seen the last one leave (`PcscEmulator.wait_empty`).
"""

from __future__ import annotations

import enum
import logging
import socket
import struct
import threading
import time
from typing import Any, Self

from hardware.events import UID_BYTES, HardwareError

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
PORT = 35963  # vpcd's first reader, "Virtual PCD 00 00" (/etc/reader.conf.d/vpcd: CHANNELID 0x8C7B)
READER = "Virtual PCD 00 00"
# The ATR an ACR122U reports for a MIFARE Classic 1K (PC/SC part 3, a storage card), with its check byte.
ATR = bytes.fromhex("3B8F8001804F0CA000000306030001000000006A")
GET_DATA_UID = bytes.fromhex("FFCA000000")
OK = b"\x90\x00"
CTRL_OFF, CTRL_ON, CTRL_RESET, CTRL_ATR = 0x00, 0x01, 0x02, 0x04


class Fault(enum.Enum):
    """How a card may misbehave when asked for its UID, for the tests and the fuzzer."""

    NONE = "none"
    STATUS = "status"  # the UID followed by 6A 82 instead of 90 00
    ERROR = "error"  # only a status word, 6A 81 (function not supported)
    ODD = "odd"  # a UID one byte short, then 90 00
    SHORT = "short"  # a reply of one byte, no status word at all
    EMPTY = "empty"  # an empty reply (vpcd takes it as the card gone)
    VANISH = "vanish"  # the card leaves the reader instead of answering


def parse_uid(uid: str) -> bytes:
    """A UID in hex (spaces allowed) as bytes; ValueError unless it is 4, 7 or 10 bytes."""
    raw = bytes.fromhex(uid)
    if len(raw) not in UID_BYTES:
        raise ValueError(f"a UID is 4, 7 or 10 bytes, not {len(raw)}: {uid}")
    return raw


class VirtualCard:
    """One card resting on vpcd's reader from construction until `remove()` (or until vpcd goes away).

    Raises OSError at once when nothing listens on the port (pcscd or vpcd not running).
    """

    def __init__(self, uid: str, fault: Fault = Fault.NONE, host: str = HOST, port: int = PORT) -> None:
        self.uid = parse_uid(uid)
        self.fault = fault
        self.answered = threading.Event()  # set once it has answered a GET DATA (however it was told to)
        self.gone = threading.Event()  # set when the connection ended, whoever ended it
        self.sock = socket.create_connection((host, port), timeout=2.0)
        self.sock.settimeout(None)
        self._thread = threading.Thread(target=self._serve, name=f"virtual card {uid}", daemon=True)
        self._thread.start()

    def remove(self) -> None:
        """Take the card off the reader: vpcd sees the connection close when it next asks the card anything.

        Only the sending half is shut at once; the card keeps reading until vpcd closes its side (at its
        next question, within about 0.4 s). Closing outright while a question of vpcd's was unread would
        reset the connection, and a reset may throw away the card's last answer before vpcd has read it.
        """
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        self.gone.wait(5.0)  # vpcd closed its side (or pcscd went): the serving thread has ended
        self.sock.close()
        self._thread.join(timeout=5)

    def answer(self, apdu: bytes) -> bytes | None:
        """The R-APDU for a C-APDU, or None to vanish instead of answering."""
        if apdu != GET_DATA_UID:
            return b"\x6A\x81" if apdu[:2] == GET_DATA_UID[:2] else b"\x6D\x00"
        answers = {
            Fault.NONE: self.uid + OK,
            Fault.STATUS: self.uid + b"\x6A\x82",
            Fault.ERROR: b"\x6A\x81",
            Fault.ODD: self.uid[:-1] + OK,
            Fault.SHORT: b"\x90",
            Fault.EMPTY: b"",
        }
        return answers.get(self.fault)

    def _serve(self) -> None:
        try:
            while True:
                message = self._receive()
                if message is None:
                    return
                if len(message) == 1:
                    if message[0] == CTRL_ATR:
                        self._send(ATR)
                    continue  # power on, off and reset need no answer
                reply = self.answer(message)
                if reply is None:
                    self.answered.set()
                    return  # leave mid-exchange: vpcd's read of the answer fails, as a card pulled away
                self._send(reply)
                if message == GET_DATA_UID:
                    self.answered.set()
        except OSError:
            return
        finally:
            self.gone.set()
            self.sock.close()

    def _receive(self) -> bytes | None:
        head = self._exactly(2)
        if head is None:
            return None
        (size,) = struct.unpack("!H", head)
        return self._exactly(size)

    def _exactly(self, size: int) -> bytes | None:
        data = bytearray()
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    def _send(self, data: bytes) -> None:
        self.sock.sendall(struct.pack("!H", len(data)) + data)


class PcscEmulator:
    """Virtual cards on a running pcscd's virtual reader: `banker hw emulate --protocol pcsc`.

    The reader itself is pcscd's (with vsmartcard-vpcd installed); this only brings cards. `link` is
    refused: the reader's name is vpcd's, not a path this could make.
    """

    def __init__(self, link: str | None = None, host: str = HOST, port: int = PORT, reader: str = READER) -> None:
        if link is not None:
            raise HardwareError("--link does not apply to the pcsc kind: the reader is pcscd's "
                             f'"{reader}" (vsmartcard-vpcd), not a device path')
        self.host = host
        self.port = port
        self.url = reader
        self._card: VirtualCard | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def place(self, uid: str, fault: Fault = Fault.NONE) -> VirtualCard:
        """Put a card on the reader (taking away the one there); it rests until `remove()`.
        HardwareError when there is no virtual reader to put it on."""
        self.remove()
        self.wait_empty()
        try:
            self._card = VirtualCard(uid, fault, self.host, self.port)
        except OSError as exc:
            raise HardwareError(f"no virtual reader on {self.host}:{self.port} ({exc}): is pcscd running, "
                                "with vsmartcard-vpcd installed?") from exc
        return self._card

    def wait_empty(self, timeout: float = 10.0) -> bool:
        """Wait until pcscd reports no card on the virtual reader (at most `timeout` seconds); whether it does.

        vpcd only notices that a card left when it next asks it for its ATR (pcscd asks every 0.4 s), and
        if another card is waiting to connect by then, it takes that one at once: pcscd would see one card
        resting where two came and went. So a card is put on the reader only once pcscd has seen the last
        one leave. Without pyscard, or when pcscd does not answer, this does not wait.
        """
        try:
            from smartcard import scard
        except ImportError:
            return False
        hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hresult != scard.SCARD_S_SUCCESS:
            return False
        try:
            deadline = time.monotonic() + timeout
            state = scard.SCARD_STATE_UNAWARE
            while True:
                wait = max(0, int((deadline - time.monotonic()) * 1000))
                hresult, states = scard.SCardGetStatusChange(context, wait, [(self.url, state)])
                if hresult != scard.SCARD_S_SUCCESS:
                    return False  # no such reader, pcscd gone, or the time is up
                state = states[0][1]
                if not state & scard.SCARD_STATE_PRESENT:
                    return True
        finally:
            scard.SCardReleaseContext(context)

    def remove(self) -> None:
        """Take the card away, if there is one."""
        card, self._card = self._card, None
        if card is not None:
            card.remove()

    def tap(self, uid: str, hold: float = 5.0, fault: Fault = Fault.NONE) -> bool:
        """Put a card on the reader until it has been asked for its UID (or vanished), at most `hold`
        seconds, then take it away. Whether it was asked."""
        card = self.place(uid, fault)
        asked = card.answered.wait(hold)
        self.remove()
        return asked

    def close(self) -> None:
        self.remove()
