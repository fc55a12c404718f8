"""PC/SC readers (the ACR122U and every other contactless reader pcscd knows), through pyscard.

The reader is pcscd's: `open(url)` takes a PC/SC context and finds the reader `url` names (its full
PC/SC name, the start of it such as "ACS ACR122U", or "" for the first reader). `poll` waits about
0.1 s for pcscd to report a change on that reader (SCardGetStatusChange: pcscd watches the reader, so
nothing here polls the card), and when a card has newly arrived, connects to it, asks for its UID with
GET DATA (`FF CA 00 00 00`, PC/SC part 3, which every contactless PC/SC reader answers for the card on
it) and lets go. A card is read once per arrival: one resting on the reader is one tap, also when pcscd
restarts or the reader is plugged in again under it (the first card found after opening is no tap if it
is the one that was resting when the link was lost).

Only a reply of a 4, 7 or 10 byte UID followed by the status word 90 00 is a tap. A card pulled away
mid-read, another status word, a reply of any other length: no tap, and the reader waits for the next
card. pcscd stopping or restarting, or the reader going away, is an OSError (the reader loop reports
"disconnected" and opens again until pcscd and the reader are back).

pyscard is imported inside the functions, so this module (and `banker hw cards --help`) imports without
it; hardware/kinds.py says how to install it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from hardware.events import UID_BYTES
from hardware.reader import CardProtocol

log = logging.getLogger(__name__)

GET_DATA_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
WAIT_MS = 100  # how long one poll waits for pcscd to report a change


def uid_from_reply(reply: list[int] | bytes) -> str | None:
    """The UID in a GET DATA reply (upper-case hex), or None unless it is 4, 7 or 10 bytes and 90 00."""
    data = bytes(reply)
    if len(data) < 2 or data[-2:] != b"\x90\x00" or len(data) - 2 not in UID_BYTES:
        return None
    return data[:-2].hex().upper()


def _message(scard: Any, hresult: int) -> str:
    try:
        return str(scard.SCardGetErrorMessage(hresult)).strip().rstrip(".")
    except Exception:
        return f"PC/SC error {hresult & 0xFFFFFFFF:#010x}"


def _service_error(scard: Any, hresult: int) -> OSError:
    """pcscd itself is not there (not installed, not started, stopped, restarted)."""
    if hresult in (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED):
        return OSError(f"pcscd is not running ({_message(scard, hresult)})")
    return OSError(f"PC/SC: {_message(scard, hresult)}")


def _lost(scard: Any, reader: str, hresult: int) -> OSError:
    """Watching the reader failed: say whether pcscd went away (stopped, restarting) or only the reader did.
    (pcscd stopping answers a wait in progress with various codes, so a fresh context is what tells.)"""
    fresh, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if fresh != scard.SCARD_S_SUCCESS:
        return _service_error(scard, fresh)
    scard.SCardReleaseContext(context)
    return OSError(f'the reader "{reader}" is gone ({_message(scard, hresult)})')


@dataclass
class PcscHandle:
    """One PC/SC context watching one reader: what `PcscProtocol.open` returns."""

    scard: Any
    context: int
    reader: str
    state: int = 0  # the reader's state as pcscd last reported it (SCARD_STATE_UNAWARE at first)
    released: bool = field(default=False)

    def cancel_read(self) -> None:
        """End a wait in progress at once (CardReader.close calls this from another thread)."""
        if not self.released:
            self.scard.SCardCancel(self.context)

    def close(self) -> None:
        if not self.released:
            self.released = True
            self.scard.SCardReleaseContext(self.context)


def choose_reader(readers: list[str], url: str) -> str | None:
    """The reader `url` names: exactly, else the first whose name starts with it ("" is the first reader)."""
    if url in readers:
        return url
    return next((name for name in readers if name.startswith(url)), None)


class PcscProtocol(CardProtocol):
    name = "pcsc"

    def __init__(self, baudrate: int = 115200) -> None:
        self.baudrate = baudrate  # unused: pcscd talks to the reader
        self.resting: str | None = None  # the card read last, while pcscd says a card is on the reader
        self.carried: str | None = None  # that card, when the link to pcscd was lost with it resting

    def open(self, url: str) -> PcscHandle:
        """A context on pcscd and the reader `url` names; OSError saying why when there is none."""
        from smartcard import scard

        hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hresult != scard.SCARD_S_SUCCESS:
            raise _service_error(scard, hresult)
        handle = PcscHandle(scard, context, "", scard.SCARD_STATE_UNAWARE)
        try:
            hresult, readers = scard.SCardListReaders(context, [])
            if hresult == scard.SCARD_E_NO_READERS_AVAILABLE or (hresult == scard.SCARD_S_SUCCESS and not readers):
                raise OSError("no PC/SC reader is connected (pcscd lists none)")
            if hresult != scard.SCARD_S_SUCCESS:
                raise _service_error(scard, hresult)
            reader = choose_reader(list(readers), url)
            if reader is None:
                raise OSError(f'no PC/SC reader named "{url}": pcscd lists {", ".join(readers)}')
        except BaseException:
            handle.close()
            raise
        handle.reader = reader
        self.carried = self.resting  # a card found resting at the first look is this one, unless it differs
        return handle

    def poll(self, port: Any) -> list[tuple[str, float]]:
        """Wait up to 0.1 s for pcscd to report a change; read the card if one has just arrived."""
        from smartcard import scard

        handle: PcscHandle = port
        hresult, states = scard.SCardGetStatusChange(handle.context, WAIT_MS, [(handle.reader, handle.state)])
        if hresult in (scard.SCARD_E_TIMEOUT, scard.SCARD_E_CANCELLED):
            return []
        if hresult != scard.SCARD_S_SUCCESS:
            raise _lost(scard, handle.reader, hresult)
        _, state, _ = states[0]
        before, handle.state = handle.state, state
        carried, self.carried = self.carried, None  # only the first look after opening may find it
        if state & (scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_UNAVAILABLE | scard.SCARD_STATE_IGNORE):
            raise _lost(scard, handle.reader, scard.SCARD_E_UNKNOWN_READER)
        if not state & scard.SCARD_STATE_PRESENT:
            self.resting = None
        if not self.arrived(scard, before, state):
            return []
        uid = self.resting = self.read_uid(scard, handle)
        if uid is None or uid == carried:
            return []  # no UID, or the card that rested on the reader while pcscd or the reader was away
        return [(uid, time.monotonic())]

    @staticmethod
    def arrived(scard: Any, before: int, state: int) -> bool:
        """Whether a card is newly on the reader: present now, and absent before or taken away and
        put back since (pcscd counts insertions and removals in the state's upper 16 bits)."""
        if not state & scard.SCARD_STATE_PRESENT or state & scard.SCARD_STATE_MUTE:
            return False
        return not before & scard.SCARD_STATE_PRESENT or (before >> 16) != (state >> 16)

    @staticmethod
    def read_uid(scard: Any, handle: PcscHandle) -> str | None:
        """Connect to the card, GET DATA its UID, let go. None for a card gone or answering wrongly."""
        hresult, card, protocol = scard.SCardConnect(handle.context, handle.reader, scard.SCARD_SHARE_SHARED,
                                                     scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
        if hresult in (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED, scard.SCARD_E_INVALID_HANDLE):
            raise _service_error(scard, hresult)
        if hresult != scard.SCARD_S_SUCCESS:
            log.info("PC/SC: no card to read on %s: %s", handle.reader, _message(scard, hresult))
            return None
        try:
            hresult, reply = scard.SCardTransmit(card, protocol, GET_DATA_UID)
        finally:
            scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
        if hresult in (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED):
            raise _service_error(scard, hresult)
        if hresult != scard.SCARD_S_SUCCESS:
            log.info("PC/SC: the card on %s left mid-read: %s", handle.reader, _message(scard, hresult))
            return None
        uid = uid_from_reply(reply)
        if uid is None:
            log.info("PC/SC: the card on %s gave no UID: %s", handle.reader, bytes(reply).hex(" ").upper())
        return uid
