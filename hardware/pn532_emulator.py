"""A fake PN532 on a pseudo-terminal, answering the host the way the chip does in HSU mode.

The host opens `emulator.url` with pyserial exactly as it opens /dev/serial0.
Like the chip, the emulator ignores everything until it sees the HSU
wake-up (``55 55`` ...), then answers each command frame with an ACK
followed by the response frame. A command it does not know, or with
missing parameters, gets an ACK and then the application error frame.

A frame with a wrong checksum gets no answer at all, not a NACK. NACK is a
frame the host sends to have the last response sent again (libnfc uses it
that way, and so does this emulator), and the PN532 user manual (§6.2.3,
as quoted in libnfc's history) has the host send a command again when no
ACK arrives within 15 ms, which is how a frame the chip could not read
gets recovered.

Supported commands: GetFirmwareVersion, SAMConfiguration, RFConfiguration,
InListPassiveTarget (106 kbps type A, reporting the card on the field).

Test controls, in the spirit of gpiozero's mock pins: `place`, `remove`,
`tap`, `power_cycle`, `glitch`, `corrupt_next_response`, `wait_polls`,
and `unplug` from `PtyDevice`.
"""

from __future__ import annotations

import os
import re
import threading
import time

from hardware.emulate import PtyDevice
from hardware.events import UID_BYTES
from hardware.pn532 import (
    ACK_FRAME,
    ERROR_FRAME,
    GET_FIRMWARE_VERSION,
    HOST_TO_PN532,
    IN_LIST_PASSIVE_TARGET,
    PN532_TO_HOST,
    RF_CONFIGURATION,
    RF_ITEM_MAX_RETRIES,
    SAM_CONFIGURATION,
    FrameParser,
    InformationFrame,
    Nack,
    build_frame,
)

_HEX = re.compile(r"^(?:[0-9A-Fa-f]{2})+$")

# SENS_RES (ATQA) and SEL_RES (SAK) of typical cards, by UID size. ATQA bits 8-7 give the UID
# size (single, double, triple); SAK 08 is a MIFARE Classic 1K, 00 an Ultralight/NTAG-like tag.
_CARD_TYPES = {
    4: (b"\x00\x04", 0x08),
    7: (b"\x00\x44", 0x00),
    10: (b"\x00\x84", 0x00),
}


def parse_uid(uid: str) -> bytes:
    """A UID written as hex ("04A32B1C", "04 a3 2b 1c") as bytes; ValueError unless 4, 7 or 10 bytes."""
    text = uid.replace(" ", "").replace(":", "")
    if not _HEX.match(text) or len(text) // 2 not in UID_BYTES:
        raise ValueError(f"a card UID is 4, 7 or 10 bytes of hex, not {uid!r}")
    return bytes.fromhex(text)


class PN532Emulator(PtyDevice):
    """A PN532 breakout in HSU mode with one card slot on its antenna."""

    FIRMWARE = b"\x32\x01\x06\x07"  # IC 0x32 (PN532), firmware 1.6, supports type A, type B and ISO 18092

    def __init__(self, link: str | os.PathLike[str] | None = None) -> None:
        # set up before PtyDevice starts the thread that calls received()
        self._state = threading.Condition()
        self._parser = FrameParser()
        self._awake = False
        self._half_wakeup = False  # the last byte seen while asleep was 0x55
        self._card: bytes | None = None
        self._placements = 0  # tells a tap's removal timer whether its card is still the one on the field
        self._corrupt_next = False
        self._glitch_next = b""
        self._last_response: bytes | None = None
        self._polls = 0
        self._timers: list[threading.Timer] = []
        self.max_retries: int | None = None  # MxRtyPassiveActivation, as the host last set it
        self.last_card_response_at = 0.0  # perf_counter() when an answer naming a card was last written
        super().__init__(link)

    # ------------------------------------------------------------------ state for tests

    @property
    def awake(self) -> bool:
        with self._state:
            return self._awake

    @property
    def polls(self) -> int:
        """How many InListPassiveTarget commands were answered so far."""
        with self._state:
            return self._polls

    @property
    def card(self) -> str | None:
        """The UID on the field, upper-case hex, or None."""
        with self._state:
            return None if self._card is None else self._card.hex().upper()

    def wait_polls(self, count: int = 1, timeout: float = 2.0) -> bool:
        """Wait until `count` more polls have been answered; False if `timeout` passed first."""
        with self._state:
            target = self._polls + count
            return self._state.wait_for(lambda: self._polls >= target, timeout)

    # ------------------------------------------------------------------ test controls

    def place(self, uid: str) -> None:
        """Put a card on the antenna; it stays until remove() or another place()."""
        raw = parse_uid(uid)
        with self._state:
            self._put(raw)

    def remove(self) -> None:
        with self._state:
            self._put(None)

    def tap(self, uid: str, hold: float = 0.4) -> None:
        """Place a card now and take it away after `hold` seconds, without blocking the caller."""
        raw = parse_uid(uid)
        with self._state:
            placement = self._put(raw)
            timer = threading.Timer(hold, self._lift, args=(placement,))
            timer.daemon = True
            self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        timer.start()

    def power_cycle(self) -> None:
        """The module lost power and came back: asleep, silent until the host wakes it again."""
        with self._state:
            self._awake = False
            self._half_wakeup = False
            self._parser.reset()
            self._last_response = None
            self.max_retries = None

    def glitch(self, data: bytes, on_next_response: bool = False) -> None:
        """Send raw bytes to the host: now, or just before the next answer (ACK and response),
        where they land in the middle of the host's read instead of being flushed."""
        if on_next_response:
            with self._state:
                self._glitch_next += data
        else:
            self.write(data)

    def corrupt_next_response(self) -> None:
        """The next response frame goes out with a wrong data checksum (its ACK stays intact)."""
        with self._state:
            self._corrupt_next = True

    def close(self) -> None:
        with self._state:
            timers, self._timers = self._timers, []
        for timer in timers:
            timer.cancel()
        super().close()

    # ------------------------------------------------------------------ the chip

    def _put(self, card: bytes | None) -> int:
        self._card = card
        self._placements += 1
        return self._placements

    def _lift(self, placement: int) -> None:
        with self._state:
            if self._placements == placement:  # not replaced or removed since the tap
                self._put(None)

    def received(self, data: bytes) -> None:
        with self._state:
            if not self._awake:
                data = self._wake_on(data)
                if not self._awake:
                    return
            # Other items need no answer: an ACK from the host aborts a running command,
            # and every command here has finished before the next byte arrives.
            for item in self._parser.feed(data):
                if isinstance(item, Nack) and self._last_response is not None:
                    self.write(self._last_response)  # the host asks for the last answer again
                elif isinstance(item, InformationFrame) and item.tfi == HOST_TO_PN532:
                    self._answer_frame(item.data)

    def _wake_on(self, data: bytes) -> bytes:
        """Watch for ``55 55`` while asleep; the bytes after it are the first the chip hears."""
        for index, byte in enumerate(data):
            if byte == 0x55 and self._half_wakeup:
                self._awake = True
                self._half_wakeup = False
                self._parser.reset()
                return data[index + 1:]
            self._half_wakeup = byte == 0x55
        return b""

    def _answer_frame(self, command: bytes) -> None:
        glitch, self._glitch_next = self._glitch_next, b""
        result = self._execute(command[0], command[1:]) if command else None
        if result is None:
            self.write(glitch + ACK_FRAME + ERROR_FRAME)
            return
        frame = bytearray(build_frame(bytes([command[0] + 1]) + result, tfi=PN532_TO_HOST))
        self._last_response = bytes(frame)
        if self._corrupt_next:
            self._corrupt_next = False
            frame[-2] = (frame[-2] + 1) & 0xFF
        self.write(glitch + ACK_FRAME + bytes(frame))
        if command[0] == IN_LIST_PASSIVE_TARGET:
            if len(result) > 1:
                self.last_card_response_at = time.perf_counter()  # for the tap-latency benchmark
            self._polls += 1
            self._state.notify_all()

    def _execute(self, code: int, params: bytes) -> bytes | None:
        """The response data after the response code, or None for a syntax error."""
        if code == GET_FIRMWARE_VERSION:
            return self.FIRMWARE
        if code == SAM_CONFIGURATION:
            return b"" if params and 1 <= params[0] <= 4 else None
        if code == RF_CONFIGURATION:
            if not params:
                return None
            if params[0] == RF_ITEM_MAX_RETRIES:
                if len(params) != 4:
                    return None
                self.max_retries = params[3]
            return b""
        if code == IN_LIST_PASSIVE_TARGET:
            if len(params) < 2 or params[0] not in (1, 2):
                return None
            if params[1] != 0x00 or self._card is None:
                return b"\x00"  # no target of that kind on the field
            sens_res, sel_res = _CARD_TYPES[len(self._card)]
            return b"\x01\x01" + sens_res + bytes([sel_res, len(self._card)]) + self._card
        return None
