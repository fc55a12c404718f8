"""A register-level MFRC522 ("RC522") emulator behind a fake `spidev.SpiDev`, and cards in its field.

The tests drive the real driver (hardware/rc522.py) through this, as gpiozero's mock pins stand in for
GPIO: `MFRC522()` is the chip, `chip.spidev` is a factory for `FakeSpiDev` objects speaking the chip's SPI
framing (MFRC522 datasheet 8.1.2: an address byte with bit 7 = read, bits 6..1 = register, bit 0 = 0;
a read sends one address byte per value and a final 0x00, and the values come back one byte later; a write
sends the address and then values, all for that one register, so several values fill the FIFO).

The chip as far as the driver uses it: the registers, the 64-byte FIFO and its level (FIFOLevelReg, its
FlushBuffer bit), CommandReg (Idle, Mem, CalcCRC, Transceive, SoftReset; Transmit and Receive alone are
accepted and do nothing in the field), ComIrqReg and DivIrqReg (the Set1 bit sets, else clears, the marked
flags), ErrorReg, CollReg, BitFramingReg (StartSend, TxLastBits), ControlReg (RxLastBits), the CRC
coprocessor (CRC_A with the preset ModeReg names, 0x6363 after reset) and the timer as far as the driver
uses it: a Transceive nobody answers sets TimerIRq when TModeReg's TAuto bit is set (the timer started
by the end of sending), and nothing at all otherwise, as the real chip would never end that command. The
antenna must be on (TxControlReg bits 0..1) for any card to hear anything. Frames take no time: the
answer is in the FIFO when StartSend is written.

Cards are ISO/IEC 14443-3 type A state machines (IDLE, READY, ACTIVE, HALT) answering REQA and WUPA with
ATQA, the anticollision command with their UID CLn and its BCC, SELECT with SAK and CRC_A, and HLTA; 4- and
7-byte UIDs (cascade tag 0x88). Several cards in the field answer together: where their bits differ the
chip sees a collision (CollErr, CollReg's position). Faults to inject: `air_errors` (an answer corrupted on
the air: a parity error, or an answer with a SAK whose CRC is wrong), `noise` (random bytes on MISO),
`missing` (the module gone: MISO all 0x00 or all 0xFF), `leave_on` (a card leaves the field when it hears a
frame of that kind: "select", "anticoll", "reqa"), `truncate` (an answer cut short, as from a card leaving
mid-frame), and `device_present` (no /dev/spidev*: open fails).

There is no `banker hw emulate --protocol rc522`: on a Pi the SPI bus is the chip's own, and nothing can
stand in for it from outside.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from hardware.rc522 import (  # the chip's registers, commands and bits, as the driver names them
    ANTICOLL_NVB,
    BIT_FRAMING,
    BUFFER_OVFL,
    CALC_CRC,
    CASCADE_TAG,
    COLL,
    COLL_ERR,
    COM_IRQ,
    COMMAND,
    CONTROL,
    CRC_IRQ,
    CRC_RESULT_H,
    CRC_RESULT_L,
    DIV_IRQ,
    ERR_IRQ,
    ERROR,
    FIFO_DATA,
    FIFO_LEVEL,
    GENERATE_RANDOM_ID,
    HLTA,
    IDLE,
    IDLE_IRQ,
    MEM,
    MF_AUTHENT,
    MOD_WIDTH,
    MODE,
    NO_CMD_CHANGE,
    PARITY_ERR,
    PROTOCOL_ERR,
    RECEIVE,
    REQA,
    RF_CFG,
    RX_IRQ,
    RX_MODE,
    SEL_LEVELS,
    SELECT_NVB,
    SOFT_RESET,
    STATUS1,
    T_MODE,
    TEMP_ERR,
    TIMER_IRQ,
    TRANSCEIVE,
    TRANSMIT,
    TX_CONTROL,
    TX_IRQ,
    TX_MODE,
    VERSION,
    WATER_LEVEL,
    WUPA,
)

# Register values after a reset (datasheet, section 9.3); the others are 0x00.
RESET_VALUES = {COMMAND: 0x20, FIFO_LEVEL: 0x00, WATER_LEVEL: 0x08, CONTROL: 0x10, COLL: 0xA0, MODE: 0x3F,
                TX_MODE: 0x00, RX_MODE: 0x00, TX_CONTROL: 0x80, MOD_WIDTH: 0x26, RF_CFG: 0x48,
                CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x1A: 0x00}
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)


def crc_a(data: bytes | list[int], preset: int = 0x6363) -> bytes:
    """ISO/IEC 14443-3 CRC_A (ITU-T V.41 reflected, polynomial x^16 + x^12 + x^5 + 1), low byte first."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, crc >> 8))


def cascade_levels(uid: bytes) -> list[bytes]:
    """The UID CLn a card sends at each cascade level (4 bytes each: a cascade tag before a longer UID's start)."""
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    raise ValueError("a UID is 4, 7 or 10 bytes")


@dataclass
class Card:
    """One ISO/IEC 14443-3 type A card (a MIFARE Classic 1K by default: ATQA 04 00 or 44 00, SAK 08)."""

    uid: bytes
    sak: int = 0x08
    state: str = "IDLE"  # IDLE, READY, ACTIVE, HALT
    level: int = 0  # the cascade level being selected (READY)
    atqa: bytes = field(default=b"")
    bad_crc: bool = False  # a fault: its SAK comes with a wrong CRC_A

    def __post_init__(self) -> None:
        self.levels = cascade_levels(self.uid)
        if not self.atqa:
            self.atqa = bytes([0x04 | ((len(self.levels) - 1) << 6), 0x00])

    @property
    def hex(self) -> str:
        return self.uid.hex().upper()

    def hear(self, frame: bytes, last_bits: int) -> bytes | None:
        """The card's answer to `frame` (whose last byte has `last_bits` bits, 0 meaning 8), None for silence."""
        if last_bits == 7 and len(frame) == 1 and frame[0] in (REQA, WUPA):
            if self.state == "IDLE" or (frame[0] == WUPA and self.state == "HALT"):
                self.state, self.level = "READY", 0
                return self.atqa
            if self.state != "HALT":
                self.state = "IDLE"
            return None
        if last_bits != 0 or len(frame) < 2:
            self._other()
            return None
        if self.state == "READY" and frame[0] == SEL_LEVELS[self.level]:
            cln = self.levels[self.level]
            bcc = cln[0] ^ cln[1] ^ cln[2] ^ cln[3]
            if frame[1] == ANTICOLL_NVB and len(frame) == 2:
                return cln + bytes([bcc])
            if (frame[1] == SELECT_NVB and len(frame) == 9 and frame[2:7] == cln + bytes([bcc])
                    and frame[7:9] == crc_a(frame[:7])):
                if self.level + 1 < len(self.levels):
                    self.level += 1
                    sak = 0x04  # "UID not complete" (ISO/IEC 14443-3, 6.5.3.4)
                else:
                    self.state = "ACTIVE"
                    sak = self.sak & ~0x04
                crc = crc_a([sak])
                return bytes([sak]) + (bytes([crc[0] ^ 0x01, crc[1]]) if self.bad_crc else crc)
            self._other()
            return None
        if (self.state == "ACTIVE" and len(frame) == 4 and frame[:2] == bytes([HLTA, 0])
                and frame[2:] == crc_a(frame[:2])):
            self.state = "HALT"
            return None
        self._other()
        return None

    def _other(self) -> None:
        if self.state in ("READY", "ACTIVE"):
            self.state = "IDLE"
        return None

    def leave(self) -> None:
        """Out of the field: no power, so back to IDLE when it comes back."""
        self.state, self.level = "IDLE", 0


class MFRC522:
    """The chip and its field. Change `cards`, the faults and `missing` from any thread."""

    def __init__(self, version: int = 0x92, seed: int = 0) -> None:
        self.version = version
        self.rng = random.Random(seed)
        self.lock = threading.RLock()
        self.cards: list[Card] = []
        self.missing: int | None = None  # 0x00 or 0xFF: MISO stuck, nothing written arrives
        self.device_present = True  # False: no /dev/spidev* to open
        self.noise = 0.0  # the chance that a transfer's MISO bytes are random
        self.air_errors = 0.0  # the chance that an answer is corrupted on the air
        self.truncate = 0.0  # the chance that an answer is cut short (a card leaving mid-frame)
        self.leave_on: str | None = None  # a card leaves when it hears this: "reqa", "anticoll", "select"
        self.on_frame: Callable[[bytes], None] | None = None  # called with each frame sent, before any answer
        self.transfers = 0
        self.frames: list[bytes] = []  # every frame sent to the field, for the tests
        self.opened = 0  # FakeSpiDev objects open now
        self._reset()

    # -- the SPI side ---------------------------------------------------------------------------------

    def spidev(self) -> FakeSpiDev:
        """A new fake SPI device on this chip: what `RC522Protocol(spi=chip.spidev)` opens."""
        return FakeSpiDev(self)

    def xfer(self, data: list[int]) -> list[int]:
        with self.lock:
            self.transfers += 1
            if self.missing is not None:
                return [self.missing] * len(data)
            out = [0] * len(data)
            if data:
                address = data[0]
                if address & 0x01:  # bit 0 must be 0: the chip ignores the frame
                    pass
                elif address & 0x80:
                    for i in range(1, len(data)):
                        out[i] = self.read((data[i - 1] >> 1) & 0x3F)
                else:
                    for value in data[1:]:
                        self.write((address >> 1) & 0x3F, value & 0xFF)
            if self.noise and self.rng.random() < self.noise:
                out = [self.rng.randrange(256) for _ in data]
            return out

    # -- registers ------------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.regs = bytearray(64)
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self.fifo: list[int] = []
        self.memory = bytes(25)
        self.command = IDLE

    def read(self, reg: int) -> int:
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo) & 0x7F
        if reg == COMMAND:
            return (self.regs[COMMAND] & 0xF0) | self.command
        if reg == VERSION:
            return self.version
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        if reg == FIFO_DATA:
            if len(self.fifo) >= 64:
                self.regs[ERROR] |= BUFFER_OVFL
            else:
                self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL & 0xFF
        elif reg in (COM_IRQ, DIV_IRQ):
            mask = value & 0x7F
            if value & 0x80:
                self.regs[reg] |= mask
            else:
                self.regs[reg] &= ~mask & 0xFF
        elif reg in (ERROR, STATUS1, CRC_RESULT_H, CRC_RESULT_L, VERSION):
            pass  # read-only
        elif reg == CONTROL:
            self.regs[CONTROL] = (self.regs[CONTROL] & 0x07) | (value & 0xF8)  # RxLastBits is read-only
        elif reg == COMMAND:
            self.regs[COMMAND] = value & 0x30
            self._command(value & 0x0F)
        elif reg == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            if not value & 0x03:
                self._field_off()
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.command == TRANSCEIVE:
                self._transceive()
        else:
            self.regs[reg] = value

    def _command(self, command: int) -> None:
        if command == SOFT_RESET:
            self._reset()
            self._field_off()
            self.regs[COM_IRQ] |= IDLE_IRQ
            return
        if command == NO_CMD_CHANGE:
            return
        if command != IDLE:
            self.regs[ERROR] &= TEMP_ERR  # a new command clears the errors but TempErr
        self.command = command
        if command == IDLE:
            return
        if command == MEM:
            if self.fifo:  # FIFO to the internal buffer (25 bytes), else the buffer to the FIFO
                self.memory = bytes((self.fifo + [0] * 25)[:25])
                self.fifo.clear()
            else:
                self.fifo = list(self.memory)
            self._done()
        elif command == CALC_CRC:
            result = crc_a(self.fifo, CRC_PRESETS[self.regs[MODE] & 0x03])
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = result[0], result[1]
            self.regs[DIV_IRQ] |= CRC_IRQ
            self.regs[STATUS1] |= 0x20  # CRCReady
        elif command == GENERATE_RANDOM_ID:
            self.memory = self.memory[:15] + bytes(self.rng.randrange(256) for _ in range(10))
            self._done()
        elif command in (TRANSMIT, RECEIVE, MF_AUTHENT):
            # Nothing of these is used by the driver; in the field they are silence.
            self._done()

    def _field_off(self) -> None:
        """The antenna is off: the cards lose their power and wake in IDLE when it comes back."""
        for card in self.cards:
            card.leave()

    def _done(self) -> None:
        self.command = IDLE
        self.regs[COM_IRQ] |= IDLE_IRQ

    # -- the field ------------------------------------------------------------------------------------

    def _transceive(self) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        last_bits = self.regs[BIT_FRAMING] & 0x07
        self.regs[ERROR] &= TEMP_ERR
        self.regs[COLL] = 0xA0  # ValuesAfterColl, CollPosNotValid
        self.regs[CONTROL] &= 0xF8
        self.regs[COM_IRQ] |= TX_IRQ
        self.frames.append(frame)
        if self.on_frame is not None:
            self.on_frame(frame)
        if not self.regs[TX_CONTROL] & 0x03:  # the antenna is off: no card hears anything
            answers: list[bytes] = []
        else:
            kind = _kind(frame, last_bits)
            if self.leave_on is not None and kind == self.leave_on and self.cards:
                gone = self.cards.pop(self.rng.randrange(len(self.cards)))
                gone.leave()
            answers = [a for a in (card.hear(frame, last_bits) for card in list(self.cards)) if a is not None]
        if not answers:
            if self.regs[T_MODE] & 0x80:  # TAuto: the timer runs out
                self.regs[COM_IRQ] |= TIMER_IRQ
            return
        data, error, coll_pos = _combine(answers)
        bits = 0
        if self.truncate and self.rng.random() < self.truncate:
            cut = self.rng.randrange(len(data) * 8)
            data, bits = data[:(cut + 7) // 8], cut % 8
            if not data:
                if self.regs[T_MODE] & 0x80:
                    self.regs[COM_IRQ] |= TIMER_IRQ
                return
            if bits:
                data = data[:-1] + bytes([data[-1] & ((1 << bits) - 1)])
            error |= PROTOCOL_ERR if self.rng.random() < 0.5 else 0
        if self.air_errors and self.rng.random() < self.air_errors:
            flipped = bytearray(data)
            i = self.rng.randrange(len(flipped))
            if self.rng.random() < 0.5:
                flipped[i] ^= 1 << self.rng.randrange(8)  # one bit: its parity bit disagrees
                error |= PARITY_ERR
            else:
                bit = self.rng.randrange(7)  # two bits: the parity passes; only a CRC or BCC can tell
                flipped[i] ^= 3 << bit
            data = bytes(flipped)
        self.fifo = list(data[:64])
        self.regs[CONTROL] |= bits
        if coll_pos:
            self.regs[COLL] = coll_pos & 0x1F  # CollPos 32 reads as 0
        self.regs[ERROR] |= error
        self.regs[COM_IRQ] |= RX_IRQ | (ERR_IRQ if error else 0)


def _kind(frame: bytes, last_bits: int) -> str:
    if last_bits == 7 and frame[:1] in (bytes([REQA]), bytes([WUPA])):
        return "reqa"
    if len(frame) >= 2 and frame[0] in SEL_LEVELS:
        return "anticoll" if frame[1] == ANTICOLL_NVB else "select"
    if frame[:1] == bytes([HLTA]):
        return "hlta"
    return "other"


def _combine(answers: list[bytes]) -> tuple[bytes, int, int]:
    """What the chip receives when these cards answer together: the first card's bits up to the first bit
    where any differ (read as 1), zeros after it; CollErr and that bit's position (1-based)."""
    first = answers[0]
    length = max(len(a) for a in answers)
    for position in range(length * 8):
        byte, bit = divmod(position, 8)
        values = {(a[byte] >> bit) & 1 if byte < len(a) else None for a in answers}
        if len(values) > 1:
            out = bytearray(length)
            for p in range(position):
                b, i = divmod(p, 8)
                out[b] |= ((first[b] >> i) & 1) << i
            out[byte] |= 1 << bit
            return bytes(out), COLL_ERR, position + 1
    return first, 0, 0


class FakeSpiDev:
    """What `spidev.SpiDev()` gives, wired to an emulated chip: `open(bus, device)`, `xfer2`, `close`."""

    def __init__(self, chip: MFRC522) -> None:
        self.chip = chip
        self.max_speed_hz = 0
        self.mode = 0
        self.is_open = False
        self.bus = self.device = -1

    def open(self, bus: int, device: int) -> None:
        if not self.chip.device_present:
            raise FileNotFoundError(2, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self.bus, self.device, self.is_open = bus, device, True
        with self.chip.lock:
            self.chip.opened += 1

    def xfer2(self, data: list[int]) -> list[int]:
        if not self.is_open:
            raise OSError(9, "Bad file descriptor")
        if not self.chip.device_present:  # the device went away under an open file (a driver unloaded)
            raise OSError(19, "No such device")
        return self.chip.xfer(list(data))

    def close(self) -> None:
        if self.is_open:
            self.is_open = False
            with self.chip.lock:
                self.chip.opened -= 1
