"""The bare MFRC522 ("RC522") module on the Pi's SPI pins: our own driver, through spidev and gpiozero.

`url` is the SPI device, /dev/spidevB.C (bus B, chip select C: /dev/spidev0.0 is SPI0 with CE0, header pin
24). `open` opens it with spidev (mode 0, 1 MHz), pulses the module's reset line (`[reader] reset_pin`,
GPIO25 by default) low and high through gpiozero, soft-resets the chip and reads VersionReg: 0x91 or 0x92
(MFRC522 v1.0, v2.0) or 0x88 (the FM17522 clone many cheap modules carry, which speaks the same register
set) is a module; anything else, above all 0x00 or 0xFF (MISO stuck: nothing answers), is an OSError
saying what to look at. It then sets the timer (about 25 ms: a card that does not answer ends a command
there), 100 % ASK modulation, CRC preset 0x6363, and the antenna on.

`poll` sends REQA (7 bits), and when a card answers, runs anticollision and select for each cascade level
(CL1 0x93, CL2 0x95, CL3 0x97): the UID CLn with its BCC checked, SELECT with CRC_A from the chip's CRC
coprocessor, the SAK's CRC checked by the coprocessor too, SAK bit 2 saying that the UID goes on at the
next level. A whole UID is then halted (HLTA): it answers only WUPA from then on, so a card resting on the
reader is one tap, and taken away and put back (its power lost) it answers REQA again. While a card read
lately may still be resting, a poll that finds nothing new with REQA looks for it with WUPA; a card WUPA
finds that is not one read lately came in between (after the REQA) and is a tap, since, halted now, no REQA
will find it. A CRC or BCC mismatch, a collision (CollErr: two cards answering together), a parity or
protocol error, a timeout, an answer of the wrong length: this poll reads nothing, and the next one starts
again; the driver never guesses a bit. VersionReg is read at every poll, so a module that stops answering is
a ProtocolError and the reader loop reconnects (with a new hard reset).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hardware.events import UID_BYTES, ProtocolError
from hardware.reader import CardProtocol

# Registers (MFRC522 datasheet, table 20)
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = 0x11, 0x12, 0x13, 0x14, 0x15
CRC_RESULT_H, CRC_RESULT_L, MOD_WIDTH, RF_CFG = 0x21, 0x22, 0x24, 0x26
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

# Commands (datasheet, table 149)
IDLE, MEM, GENERATE_RANDOM_ID, CALC_CRC, TRANSMIT, NO_CMD_CHANGE, RECEIVE = 0x0, 0x1, 0x2, 0x3, 0x4, 0x7, 0x8
TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0xC, 0xE, 0xF

# ComIrqReg bits
TX_IRQ, RX_IRQ, IDLE_IRQ, HI_ALERT_IRQ, LO_ALERT_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01
CRC_IRQ = 0x04  # DivIrqReg
# ErrorReg bits
WR_ERR, TEMP_ERR, BUFFER_OVFL, COLL_ERR, CRC_ERR, PARITY_ERR, PROTOCOL_ERR = 0x80, 0x40, 0x10, 0x08, 0x04, 0x02, 0x01

# ISO/IEC 14443-3 type A
REQA, WUPA, HLTA, CASCADE_TAG = 0x26, 0x52, 0x50, 0x88
SEL_LEVELS = (0x93, 0x95, 0x97)
ANTICOLL_NVB, SELECT_NVB = 0x20, 0x70

VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 (a clone)"}
SPEED_HZ = 1_000_000
WAIT = 0.1  # seconds: the most a command may take before the chip counts as not answering (its timer: 25 ms)
INTERVAL = 0.05  # seconds between polls with nothing on the reader
GONE_AFTER = 2  # a card read is forgotten after this many polls in a row without it (about 0.15 s)
if TYPE_CHECKING:
    from hardware.config import ReaderConfig

_URL = re.compile(r"^/dev/spidev(\d+)\.(\d+)$")


def spi_address(url: str) -> tuple[int, int]:
    """The bus and chip select of an SPI device path such as /dev/spidev0.0 (ValueError for anything else)."""
    match = _URL.match(url)
    if match is None:
        raise ValueError(f'"{url}" is not an SPI device: the rc522 reader\'s url is /dev/spidevB.C, '
                         'such as /dev/spidev0.0 (SPI bus 0, CE0)')
    return int(match.group(1)), int(match.group(2))


def _real_spidev() -> Any:
    import spidev

    return spidev.SpiDev()


def not_answering(version: int, url: str) -> str:
    """What to look at when the version register reads `version` instead of a known one."""
    if version in (0x00, 0xFF):
        return (f"no RC522 answers on {url} (its version register reads {version:#04x}): check the wiring "
                "(SDA to CE0 for spidev0.0, SCK, MOSI, MISO), the 3.3 V power and GND, and the chip select")
    return (f"the chip on {url} is no RC522 (version register {version:#04x}, not 0x91 or 0x92): check the "
            "wiring and the chip select")


@dataclass
class RC522Handle:
    """One open SPI device and the reset line: what `RC522Protocol.open` returns."""

    spi: Any
    reset: Any
    url: str
    version: int = 0

    def close(self) -> None:
        try:
            self.spi.close()
        finally:
            if self.reset is not None:
                self.reset.close()

    # -- registers (MFRC522 datasheet, 8.1.2: the SPI address byte) --------------------------------------

    def read(self, reg: int) -> int:
        return int(self._xfer([0x80 | (reg << 1), 0])[1])

    def write(self, reg: int, *values: int) -> None:
        self._xfer([reg << 1, *values])

    def set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) & ~mask & 0xFF)

    def read_fifo(self, count: int) -> bytes:
        address = 0x80 | (FIFO_DATA << 1)
        return bytes(self._xfer([address] * count + [0])[1:])

    def _xfer(self, data: list[int]) -> list[int]:
        try:
            out = self.spi.xfer2(data)
        except OSError:
            raise
        except Exception as exc:  # spidev raises TypeError/ValueError on a closed or odd device
            raise OSError(f"SPI {self.url}: {exc}") from exc
        if len(out) != len(data):
            raise ProtocolError(f"SPI {self.url}: {len(out)} bytes back for {len(data)}")
        return [int(b) & 0xFF for b in out]


class RC522Protocol(CardProtocol):
    name = "rc522"

    def __init__(self, baudrate: int = 115200, reset_pin: int | str = 25, spi: Callable[[], Any] | None = None,
                 pin_factory: Any = None, interval: float = INTERVAL, settle: float = 0.05) -> None:
        self.baudrate = baudrate  # unused: the SPI clock is SPEED_HZ
        self.reset_pin = reset_pin
        self.spi = spi or _real_spidev
        self.pin_factory = pin_factory
        self.interval = interval
        self.settle = settle  # seconds after the reset pulse for the chip's oscillator to start
        # The cards read lately, each with the polls since it last answered. Kept across reconnects: a card
        # resting on the reader while the module is reset (its field off, so the card wakes again) is no tap.
        self.resting: dict[bytes, int] = {}

    @classmethod
    def from_config(cls, reader: ReaderConfig) -> RC522Protocol:
        """The protocol for a `hardware.config.ReaderConfig` (its reset_pin)."""
        return cls(reader.baudrate, reset_pin=reader.reset_pin)

    def open(self, url: str) -> RC522Handle:
        bus, device = spi_address(url)
        spi = self.spi()
        try:
            spi.open(bus, device)
        except FileNotFoundError as exc:
            raise OSError(f"no {url}: switch SPI on (dtparam=spi=on in /boot/firmware/config.txt, "
                          f"then reboot)") from exc
        except PermissionError as exc:
            raise OSError(f"no permission to open {url}: the user must be in the spi group") from exc
        try:
            spi.max_speed_hz = SPEED_HZ
            spi.mode = 0
            reset = self._reset_line(url)
        except BaseException:
            spi.close()
            raise
        handle = RC522Handle(spi, reset, url)
        try:
            self._init(handle)
        except BaseException:
            handle.close()
            raise
        return handle

    def _reset_line(self, url: str) -> Any:
        from gpiozero import DigitalOutputDevice, GPIOZeroError

        try:
            reset = DigitalOutputDevice(self.reset_pin, initial_value=False, pin_factory=self.pin_factory)
        except GPIOZeroError as exc:
            raise OSError(f"the RC522's reset pin {self.reset_pin}: {exc}") from exc
        time.sleep(0.001)  # a hard reset: at least 100 ns low (datasheet, 8.8.1)
        reset.on()
        time.sleep(self.settle)
        return reset

    def _init(self, handle: RC522Handle) -> None:
        handle.write(COMMAND, SOFT_RESET)
        deadline = time.monotonic() + WAIT
        while True:
            command = handle.read(COMMAND)
            # PowerDown stays set while the oscillator starts after a reset; all ones is MISO pulled high
            # (nothing answering): the version register says so below.
            if not command & 0x10 or command == 0xFF or time.monotonic() > deadline:
                break
            time.sleep(0.001)
        version = handle.read(VERSION)
        if version not in VERSIONS:
            raise OSError(not_answering(version, handle.url))
        handle.version = version
        handle.write(T_MODE, 0x80)  # TAuto: the timer starts when sending ends; prescaler 0x0A9 ...
        handle.write(T_PRESCALER, 0xA9)  # ... 13.56 MHz / (2 * 169 + 1): 40 kHz, 25 us a tick
        handle.write(T_RELOAD_H, 0x03)  # 1000 ticks: 25 ms
        handle.write(T_RELOAD_L, 0xE8)
        handle.write(TX_ASK, 0x40)  # 100 % ASK, as ISO/IEC 14443 type A wants
        handle.write(MODE, 0x3D)  # CRC preset 0x6363 (CRC_A)
        handle.set_bits(TX_CONTROL, 0x03)  # the antenna on (TX1 and TX2)
        if handle.read(TX_CONTROL) & 0x03 != 0x03:
            raise OSError(not_answering(handle.read(VERSION), handle.url))

    def poll(self, port: RC522Handle) -> list[tuple[str, float]]:
        version = port.read(VERSION)
        if version != port.version:
            raise ProtocolError(not_answering(version, port.url) + " (it stopped answering)")
        uid = self._read_card(port, REQA)
        if uid is not None:
            at = time.monotonic()
            was = uid in self.resting
            self.resting[uid] = 0
            if was:
                return []  # the card that was resting, awake again (the field was off: a reconnect)
            return [(uid.hex().upper(), at)]
        # Nothing new: is a card read lately still there (halted, it answers only WUPA)?
        still = self._read_card(port, WUPA) if self.resting else None
        arrived = still is not None and still not in self.resting
        self._age(still)
        if still is not None and arrived:
            # Not one read lately: a card that came after this poll's REQA, woken by the WUPA (and halted by it,
            # so no REQA will find it again): a tap.
            self.resting[still] = 0
            return [(still.hex().upper(), time.monotonic())]
        time.sleep(self.interval)
        return []

    def _age(self, still: bytes | None) -> None:
        """After a poll with no new card: `still` (the halted card WUPA found, if any) is resting still; the
        others are forgotten after GONE_AFTER polls in a row without them."""
        for uid in list(self.resting):
            self.resting[uid] = 0 if uid == still else self.resting[uid] + 1
            if self.resting[uid] > GONE_AFTER:
                del self.resting[uid]

    # -- ISO/IEC 14443-3 type A -----------------------------------------------------------------------

    def _read_card(self, port: RC522Handle, wake: int) -> bytes | None:
        """Wake a card (REQA: those not halted; WUPA: halted ones too), select it and halt it: its UID, or None."""
        atqa = self._transceive(port, bytes([wake]), 7, allow_collision=True)
        if atqa is None or len(atqa[0]) != 2:
            return None
        uid = b""
        for level in SEL_LEVELS:
            answer = self._transceive(port, bytes([level, ANTICOLL_NVB]))
            if answer is None or len(answer[0]) != 5 or answer[1]:
                return None
            cln = answer[0]
            if cln[0] ^ cln[1] ^ cln[2] ^ cln[3] != cln[4]:
                return None  # BCC mismatch
            select = bytes([level, SELECT_NVB]) + cln
            crc = self._crc(port, select)
            if crc is None:
                return None
            reply = self._transceive(port, select + crc)
            if reply is None or len(reply[0]) != 3 or reply[1]:
                return None
            sak = reply[0]
            if self._crc(port, sak[:1]) != sak[1:]:
                return None  # CRC error
            more = bool(sak[0] & 0x04)
            if more != (cln[0] == CASCADE_TAG):
                return None  # a cascade tag and "UID not complete" go together
            uid += cln[1:4] if more else cln[:4]
            if not more:
                break
        else:
            return None
        hlta = bytes([HLTA, 0])
        crc = self._crc(port, hlta)
        if crc is not None:
            self._transceive(port, hlta + crc)  # no answer means it halted
        return uid if len(uid) in UID_BYTES else None

    def _transceive(self, port: RC522Handle, data: bytes, last_bits: int = 0,
                    allow_collision: bool = False) -> tuple[bytes, int] | None:
        """Send `data` (its last byte `last_bits` long, 0 for 8) and wait for the answer: (bytes, valid bits in
        the last byte, 0 for 8), or None for a timeout or an error (a collision too, unless allowed)."""
        port.write(COMMAND, IDLE)
        port.write(COM_IRQ, 0x7F)  # clear every interrupt flag
        port.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        port.write(FIFO_DATA, *data)
        port.write(BIT_FRAMING, last_bits & 0x07)
        port.write(COMMAND, TRANSCEIVE)
        port.write(BIT_FRAMING, 0x80 | (last_bits & 0x07))  # StartSend
        deadline = time.monotonic() + WAIT
        while True:
            irq = port.read(COM_IRQ)
            if irq & (RX_IRQ | TIMER_IRQ):
                break
            if time.monotonic() > deadline:
                raise ProtocolError(f"the RC522 on {port.url} did not end a command (its timer never ran out)")
            time.sleep(0.0005)
        port.write(BIT_FRAMING, last_bits & 0x07)  # StartSend off
        port.write(COMMAND, IDLE)
        if not irq & RX_IRQ:
            return None  # the timer ran out: nobody answered
        error = port.read(ERROR)
        if error & (BUFFER_OVFL | PARITY_ERR | PROTOCOL_ERR) or (error & COLL_ERR and not allow_collision):
            return None
        level = port.read(FIFO_LEVEL) & 0x7F
        if not 0 < level <= 64:
            return None
        bits = port.read(CONTROL) & 0x07
        return port.read_fifo(level), bits

    def _crc(self, port: RC522Handle, data: bytes) -> bytes | None:
        """CRC_A of `data` from the chip's coprocessor (low byte first), None when it does not finish."""
        port.write(COMMAND, IDLE)
        port.write(DIV_IRQ, 0x04)  # clear CRCIRq
        port.write(FIFO_LEVEL, 0x80)
        port.write(FIFO_DATA, *data)
        port.write(COMMAND, CALC_CRC)
        for _ in range(100):
            if port.read(DIV_IRQ) & CRC_IRQ:
                break
        else:
            return None
        port.write(COMMAND, IDLE)
        return bytes([port.read(CRC_RESULT_L), port.read(CRC_RESULT_H)])
