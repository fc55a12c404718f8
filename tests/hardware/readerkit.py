"""One harness per reader kind, for the reader contract (tests/hardware/test_reader_contract.py).

Every kind is driven through the same moves: a card tapped, a card put down to rest and lifted, the reader
unplugged and plugged back, garbage from the device, a slow device; each harness makes them on its kind's own
fake, with the real protocol and the real `hardware.reader.CardReader` on top:

- `line`: the Arduino sketch's emulator (hardware/emulate.py) on a real pseudo-terminal, behind a stable link
  as udev's /dev/serial/by-id names are;
- `pn532`: the PN532 emulator (hardware/pn532_emulator.py) on a real pseudo-terminal, behind a link;
- `hid`: the fake input subsystem (fake_input.py), a keyboard reader that sends what a real one sends;
- `rc522`: the register-level MFRC522 emulator (hardware/rc522_emulator.py), the reset line on gpiozero's
  mock pins;
- `pcsc`: the real pcscd with Debian's virtual reader driver (vsmartcard-vpcd) and virtual cards
  (hardware/pcsc_emulator.py). `Pcscd` is the tests' own pcscd, shared with test_pcsc.py through the
  fixtures in conftest.py.

Waits end on a condition (a tap, a status, the fake having been read so often); a fixed sleep is used only
where the contract is that nothing happens (a resting card, a closed reader) or where time itself is the
input (the retap window, a reader's pause after opening).
"""

from __future__ import annotations

import abc
import itertools
import os
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from collector import WAIT
from hardware import kinds
from hardware.emulate import LineReaderEmulator
from hardware.hid import MAX_GAP
from hardware.pcsc_emulator import GET_DATA_UID, READER, Fault, PcscEmulator, VirtualCard
from hardware.pn532 import ACK_FRAME, ERROR_FRAME, NACK_FRAME, PN532_TO_HOST, build_frame
from hardware.pn532_emulator import PN532Emulator
from hardware.rc522 import GONE_AFTER, RC522Protocol
from hardware.rc522_emulator import COM_IRQ, ERR_IRQ, MFRC522, REQA, RX_IRQ, TIMER_IRQ, Card
from hardware.reader import CardProtocol, open_serial

SLOW_MODES = ("late", "pieces")
"""How a slow reader is slow: it answers late (or takes its time over one card), or its bytes arrive in
pieces, over several reads."""

Garbage = Callable[[], None]


class Kit(abc.ABC):
    """One reader kind's fake device, and the contract's moves on it."""

    kind = ""
    url = ""
    retap_window = 0.5  # the contract's CardReader's: 0 where the protocol itself keeps a resting card one tap
    wait = WAIT  # the most any wait may take
    uids: tuple[str, ...] = ("04A32B1C", "04112233445566", "0102030405060708090A")  # 4, 7 and 10 bytes
    rest_for = 1.5  # seconds a resting card stays, three retap windows
    gone_detail = ""  # a regex the status after an unplug matches ("": any words)
    absent_detail = ""  # words in the status when the device is not there at the start
    seed = 0  # of the garbage
    opening = 0.0  # seconds after "connected" during which a card may be dropped (taken for an older one's tail)
    not_slow: dict[str, str] = {}  # the slow modes that cannot happen to this kind, with why

    def __init__(self) -> None:
        self.ports: list[Any] = []  # every port the protocol opened
        self.opens = 0  # every attempt to open, the failed ones too
        self._opened = threading.Condition()

    def protocol(self) -> CardProtocol:
        """The protocol as the app makes it (hardware/kinds.py), watched: its opens counted, its ports kept."""
        return self.watch(kinds.make_protocol(self.kind))

    def watch(self, protocol: CardProtocol) -> CardProtocol:
        opener = protocol.open

        def open_and_keep(url: str) -> Any:
            with self._opened:
                self.opens += 1
                self._opened.notify_all()
            port = opener(url)
            self.ports.append(port)
            return port

        protocol.open = open_and_keep  # type: ignore[method-assign]  # a recording wrapper on this one object
        return protocol

    def wait_opens(self, count: int) -> bool:
        """Wait until the protocol has tried to open the device `count` times in all."""
        with self._opened:
            return self._opened.wait_for(lambda: self.opens >= count, self.wait)

    def ready(self) -> None:
        """After "connected": wait until a card tapped now is read (a kind may drop what comes just after opening)."""
        time.sleep(self.opening)

    @abc.abstractmethod
    def tap(self, uid: str) -> None:
        """A card comes to the reader and goes again, as a player taps it."""

    @abc.abstractmethod
    def place(self, uid: str) -> None:
        """A card put down on the reader, to rest there until `lift`."""

    @abc.abstractmethod
    def rest(self) -> None:
        """Keep the card resting `rest_for` seconds; check the reader kept seeing it (asked it, or was told)."""

    @abc.abstractmethod
    def lift(self) -> None:
        """Take the resting card away."""

    def forget(self) -> None:
        """Wait until the reader can have seen the lifted card gone, so that it taps anew."""
        time.sleep(self.retap_window + 0.1)

    @abc.abstractmethod
    def unplug(self) -> None:
        """The reader goes away: its cable pulled, its module lost, its daemon stopped."""

    @abc.abstractmethod
    def replug(self) -> None:
        """The reader comes back under the same url."""

    @abc.abstractmethod
    def garbage(self, rng: random.Random) -> list[Garbage]:
        """Rounds of garbage from the device; none of them is a tap, and a card after each one reads."""

    def settle(self) -> None:
        """Wait until the reader has read what the device sent (so a tap it made would be there by now)."""
        time.sleep(0.2)

    @abc.abstractmethod
    def slow_tap(self, uid: str, mode: str) -> None:
        """A tap on a slow device: one that answers `late`, or whose bytes come in `pieces`."""

    @abc.abstractmethod
    def released(self) -> bool:
        """Whether the device is free again: every port the protocol opened is closed."""

    @abc.abstractmethod
    def close(self) -> None:
        """The end of the test: the fake goes."""


class Repeating:
    """A card resting on a reader that reports it again and again (a line reader's firmware, a keyboard reader
    typing it again): `report` every `every` seconds on a thread, until `stop`."""

    def __init__(self, report: Callable[[], None], every: float = 0.1) -> None:
        self.report = report
        self.every = every
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="resting card", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.report()
            self.count += 1
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


class RepeatingKit(Kit):
    """A kind whose device reports a resting card again and again, so the retap window makes it one tap."""

    resting: Repeating | None = None

    @abc.abstractmethod
    def report(self, uid: str) -> None:
        """The device reports `uid` once."""

    def place(self, uid: str) -> None:
        self.resting = Repeating(lambda: self.report(uid))

    def rest(self) -> None:
        assert self.resting is not None
        before = self.resting.count
        time.sleep(self.rest_for)
        assert self.resting.count - before >= self.rest_for / self.resting.every / 2, "the card was not reported"

    def lift(self) -> None:
        if self.resting is not None:
            self.resting.stop()
            self.resting = None

    def close(self) -> None:
        self.lift()


# ---------------------------------------------------------------------------------------------------------
# The serial kinds, on real pseudo-terminals behind a stable link


class PtyKit(Kit):
    """A serial kind: its emulator on a pseudo-terminal, opened by the link, which goes with an unplug."""

    gone_detail = ""  # the OS's words for a pty whose other side closed vary
    absent_detail = "cannot open"

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.link = folder / f"usb-{self.kind}-reader"
        self.url = str(self.link)

    def released(self) -> bool:
        if any(port.is_open for port in self.ports):
            return False
        try:
            open_serial(self.url, 115200).close()  # the exclusive lock is free: another program may open it
        except OSError:
            return False
        return True


class LineKit(RepeatingKit, PtyKit):
    """An Arduino or ESP32 with our sketch, printing a line per card (hardware/firmware/line_reader)."""

    kind = "line"
    seed = 3
    opening = 0.25  # past the settling time after opening (hardware/line.py, SETTLE): the next line counts
    STYLES = ("Card UID: ", "UID: ", "")  # the firmware's, and the plainer ones other readers print

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.device = LineReaderEmulator(link=self.link)
        self.taps = 0

    def tap(self, uid: str) -> None:
        self.device.tap(uid, style=self.STYLES[self.taps % len(self.STYLES)])
        self.taps += 1

    def report(self, uid: str) -> None:
        self.device.tap(uid)

    def unplug(self) -> None:
        self.device.unplug()  # the cable comes out: /dev/pts/N is gone...
        self.link.unlink()  # ...and the by-id name with it

    def replug(self) -> None:
        self.device = LineReaderEmulator(link=self.link)

    def garbage(self, rng: random.Random) -> list[Garbage]:
        def junk() -> None:
            for _ in range(60):
                line = bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
                self.device.write(line.replace(b"\n", b"").replace(b"\r", b"") + b"\r\n")
            self.device.write(b"\x00" * 500 + b"\r\n")

        return [junk]

    def slow_tap(self, uid: str, mode: str) -> None:
        spaced = " ".join(uid[k:k + 2] for k in range(0, len(uid), 2))
        line = f"Card UID: {spaced}\r\n".encode("ascii")
        if mode == "late":  # a byte at a time: each one its own read
            pieces, pause = [line[k:k + 1] for k in range(len(line))], 0.01
        else:  # a few pieces, each longer apart than a poll (its read times out at 0.05 s)
            cuts = [0, 7, len(line) // 2, len(line) - 2, len(line) - 1, len(line)]
            pieces, pause = [line[a:b] for a, b in itertools.pairwise(cuts)], 0.08
        for piece in pieces:
            self.device.write(piece)
            time.sleep(pause)

    def close(self) -> None:
        super().close()
        self.device.close()


class SlowPN532(PN532Emulator):
    """A PN532 that answers `late` seconds after a command, or sends each answer in `piece`-byte pieces."""

    def __init__(self, link: str | os.PathLike[str] | None = None) -> None:
        self.late = 0.0
        self.piece = 0
        super().__init__(link)

    def write(self, data: bytes) -> None:
        time.sleep(self.late)
        if not self.piece:
            super().write(data)
            return
        for k in range(0, len(data), self.piece):
            super().write(data[k:k + self.piece])
            time.sleep(0.003)


class PN532Kit(PtyKit):
    """A PN532 board in HSU mode, polled for the card on its field (hardware/pn532.py)."""

    kind = "pn532"
    seed = 532

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.device = SlowPN532(link=self.link)

    def tap(self, uid: str) -> None:
        self.device.tap(uid)

    def place(self, uid: str) -> None:
        self.device.place(uid)

    def rest(self) -> None:
        polls = self.device.polls
        time.sleep(self.rest_for)
        assert self.device.polls - polls > 20  # it was asked for the card again and again all along

    def lift(self) -> None:
        self.device.remove()

    def settle(self) -> None:
        assert self.device.wait_polls(3)

    def unplug(self) -> None:
        self.device.unplug()
        self.link.unlink()

    def replug(self) -> None:
        self.device = SlowPN532(link=self.link)  # a module that has just been powered: asleep until woken

    def garbage(self, rng: random.Random) -> list[Garbage]:
        """Random bytes, frames with a flipped bit, a frame cut short, stray ACK, NACK and error frames, and
        wake-ups: in the middle of an answer, or between two."""
        def target_response(uid: str) -> bytes:
            raw = bytes.fromhex(uid)
            body = bytes.fromhex("4B 01 01 00 04 08") + bytes([len(raw)]) + raw
            return build_frame(body, tfi=PN532_TO_HOST)

        def corrupted(uid: str) -> bytes:
            bad = bytearray(target_response(uid))
            bad[rng.randrange(3, len(bad) - 1)] ^= 1 << rng.randrange(8)
            return bytes(bad)

        pieces: list[Callable[[], bytes]] = [
            lambda: bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))),
            lambda: corrupted("DEADBEEF"),
            lambda: corrupted("04112233445566"),
            lambda: target_response("CAFEF00D")[:rng.randint(1, 18)],  # cut short, never completed
            lambda: rng.choice([ACK_FRAME, NACK_FRAME, ERROR_FRAME, b"\x00\xff", b"\x55\x55"]),
        ]

        def junk() -> None:
            for case in range(36):
                self.device.glitch(b"".join(rng.choice(pieces)() for _ in range(rng.randint(1, 4))),
                                   on_next_response=case % 3 != 0)
                assert self.device.wait_polls(2)  # the glitched answer, then one more: the host has read it

        return [junk]

    def slow_tap(self, uid: str, mode: str) -> None:
        if mode == "late":
            self.device.late = 0.05  # half the protocol's wait for an answer
        else:
            self.device.piece = 4  # an answer in 4-byte pieces, 3 ms apart: several reads each
        self.device.tap(uid, hold=1.0)

    def close(self) -> None:
        self.device.close()


# ---------------------------------------------------------------------------------------------------------
# hid: a keyboard reader on the fake input subsystem


class HidKit(RepeatingKit):
    """A USB keyboard reader typing the card's number (hardware/hid.py), on fake_input.py's /dev/input."""

    kind = "hid"
    uids = ("0012345678", "04A32B1C", "04B7771A2C5E80")  # decimal, as most type, and hex
    gone_detail = "No such device"
    absent_detail = "is the reader plugged in?"
    seed = 36
    opening = MAX_GAP + 0.05  # keys within MAX_GAP of the opening may be the tail of a number: dropped

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__()
        from fake_input import FakeInput, FakeReader

        self.machine = FakeInput(folder, monkeypatch)
        self.device = FakeReader()
        self.url = str(self.machine.plug(self.device))
        self.taps = 0

    def tap(self, uid: str) -> None:
        from evdev import ecodes

        variant = self.taps % 3  # Enter; Tab; keypad digits, lower-case letters and keypad Enter
        self.taps += 1
        if variant == 0:
            self.device.tap(uid)
        elif variant == 1:
            self.device.tap(uid, terminator=ecodes.KEY_TAB)
        else:
            self.device.tap(uid.lower(), keypad=True, terminator=ecodes.KEY_KPENTER)

    def report(self, uid: str) -> None:
        self.device.tap(uid)

    def unplug(self) -> None:
        self.machine.unplug(self.device)

    def replug(self) -> None:
        self.machine.plug(self.device)

    def garbage(self, rng: random.Random) -> list[Garbage]:
        """Random keys (a stray key in every run a terminator ends), a number too long, one too short, one with
        a wrong terminator, one left unterminated; then a pause no reader leaves."""
        from evdev import ecodes

        from fake_input import report
        from hardware.hid import MAX_CHARS, TERMINATORS

        keys = [*range(1, 128), ecodes.KEY_ENTER, ecodes.KEY_TAB]

        def junk() -> None:
            for _ in range(40):
                at = self.device.now()
                events = []
                for k in range(rng.randint(1, 40)):
                    code = rng.choice(keys)
                    if code in TERMINATORS:
                        events += report(at + k * 0.004, ecodes.KEY_G, 1)
                    events += report(at + k * 0.004 + 0.001, code, rng.choice([1, 1, 0, 2]))
                self.device.send(events)
            self.device.type("1" * (MAX_CHARS + 1))
            self.device.type("12")
            self.device.type("0012345678", terminator=ecodes.KEY_SPACE)
            self.device.type("12345", terminator=None)
            self.device.clock = self.device.now() + MAX_GAP + 0.01  # the next key comes after a pause

        return [junk]

    def slow_tap(self, uid: str, mode: str) -> None:
        if mode == "late":
            self.device.tap(uid, live=True, gap=0.02)  # a slow reader: 20 ms a report
        else:
            self.device.tap(uid, live=True)  # as a real one types, a report every 4 ms: read across polls

    def released(self) -> bool:
        return not self.device.grabbed and not self.device.handles

    def close(self) -> None:
        super().close()
        self.machine.close_all()


# ---------------------------------------------------------------------------------------------------------
# rc522: the register-level MFRC522 emulator


class LateMFRC522(MFRC522):
    """An MFRC522 whose field answers `late` seconds after a frame is sent (a card slow to answer, the timer
    running its course): until then the interrupt flags say nothing has come back."""

    def __init__(self, seed: int = 0) -> None:
        self.late = 0.0
        self.answer_at = 0.0
        super().__init__(seed=seed)

    def _transceive(self) -> None:
        self.answer_at = time.monotonic() + self.late
        super()._transceive()

    def read(self, reg: int) -> int:
        value = super().read(reg)
        if reg == COM_IRQ and time.monotonic() < self.answer_at:
            return value & ~(RX_IRQ | TIMER_IRQ | ERR_IRQ) & 0xFF
        return value


class RC522Kit(Kit):
    """A bare RC522 module on the SPI bus (hardware/rc522.py), over the emulated chip."""

    kind = "rc522"
    url = "/dev/spidev0.0"
    retap_window = 0.0  # the driver halts a card it read: one resting there is one tap without the window
    uids = ("DEADBEEF", "04A1B2C3D4E5F6", "0102030405060708090A")
    gone_detail = r"no RC522 answers on /dev/spidev0\.0 \(its version register reads 0x00\)"
    absent_detail = "no RC522 answers on /dev/spidev0.0"
    seed = 37
    not_slow = {"pieces": "an SPI transfer is clocked by the host and comes back whole from the same call: "
                          "an RC522's answer cannot arrive in pieces"}

    def __init__(self) -> None:
        super().__init__()
        self.chip = LateMFRC522(seed=self.seed)
        self.taps = 0

    def protocol(self) -> CardProtocol:
        return self.watch(RC522Protocol(spi=self.chip.spidev, pin_factory=MockFactory(), interval=0.002, settle=0))

    def wakes(self) -> int:
        """How many polls the chip has seen (each starts with REQA)."""
        with self.chip.lock:
            return sum(1 for frame in self.chip.frames if frame == bytes([REQA]))

    def more_polls(self, count: int) -> None:
        start = self.wakes()
        deadline = time.monotonic() + self.wait * 3
        while self.wakes() < start + count:
            assert time.monotonic() < deadline, f"the chip saw fewer than {count} polls"
            time.sleep(0.002)

    def tap(self, uid: str) -> None:
        card = Card(bytes.fromhex(uid))
        self.chip.cards.append(card)
        deadline = time.monotonic() + self.wait
        while card.state != "HALT" and time.monotonic() < deadline:  # read to the end: selected and halted
            time.sleep(0.002)
        self.lift()

    def place(self, uid: str) -> None:
        self.chip.cards.append(Card(bytes.fromhex(uid)))

    def rest(self) -> None:
        self.more_polls(30)
        assert [card.state for card in self.chip.cards] in (["HALT"], ["READY"], ["ACTIVE"])  # watched with WUPA

    def lift(self) -> None:
        with self.chip.lock:
            for card in self.chip.cards:
                card.leave()
            self.chip.cards.clear()

    def forget(self) -> None:
        self.more_polls(GONE_AFTER + 3)

    def settle(self) -> None:
        self.more_polls(5)

    def unplug(self) -> None:
        self.chip.missing = 0x00  # the module's wires pulled: MISO reads all zeros

    def replug(self) -> None:
        self.chip.missing = None

    def garbage(self, rng: random.Random) -> list[Garbage]:
        """Answers from the field corrupted on the air (parity errors, bits only a BCC or CRC catches) and cut
        short; a card whose SAK comes with a wrong CRC_A."""
        def on_the_air() -> None:
            self.chip.air_errors, self.chip.truncate = 1.0, 0.3
            self.place(self.uids[1])
            self.more_polls(60)
            self.chip.air_errors = self.chip.truncate = 0.0
            self.lift()

        def bad_crc() -> None:
            self.chip.cards.append(Card(bytes.fromhex(self.uids[0]), bad_crc=True))
            self.more_polls(20)
            self.lift()

        return [on_the_air, bad_crc]

    def slow_tap(self, uid: str, mode: str) -> None:
        self.chip.late = 0.02  # every answer 20 ms late: a whole read takes some 80 ms
        self.tap(uid)

    def released(self) -> bool:
        return self.chip.opened == 0 and all(not port.spi.is_open for port in self.ports)

    def close(self) -> None:
        self.lift()


# ---------------------------------------------------------------------------------------------------------
# pcsc: the real pcscd with vpcd


SOCKET = Path("/run/pcscd/pcscd.comm")
VPCD = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
PCSCD = shutil.which("pcscd") or shutil.which("pcscd", path="/usr/sbin")  # /usr/sbin: not on a user's PATH
PCSC_WAIT = 20.0  # seconds: the most any wait on pcscd may take under load; they normally end within a second


def socket_answers(path: Path) -> bool:
    """Whether something accepts connections on pcscd's socket (a pcscd, or systemd holding it for one)."""
    if not path.exists():
        return False
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def pcscd_processes() -> list[int]:
    """The pids of the pcscd processes running (zombies aside), whoever started them."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "pcscd" \
                    and (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(entry.name))
        except OSError:  # gone while looking
            continue
    return found


def pcscd_options() -> list[str]:
    """pcsc-lite 2.0.1 and newer (Debian 13's 2.3) ask polkit about every client and refuse it when no polkit
    daemon answers (a chroot, a container); our own pcscd is this test's alone, so polkit is off where it can be.
    Debian 12's 1.9.9 has no such option and lets root's clients in without polkit."""
    # The option's name in pcscd's own table of long options (its --help text has varied between versions).
    return ["--disable-polkit"] if b"disable-polkit" in Path(str(PCSCD)).read_bytes() else []


def pcscd_missing() -> str:
    """Why the tests cannot run their own pcscd here ("" when they can)."""
    if PCSCD is None or not VPCD.exists():
        return "pcscd or vsmartcard-vpcd is not installed (scripts/_venv.sh '[test]' installs both)"
    try:
        import smartcard  # noqa: F401  # pyscard: the pcsc kind's library
    except ImportError:
        return "pyscard is not installed (the [test] extra has it)"
    if socket_answers(SOCKET) or pcscd_processes():
        return f"a pcscd is already running ({SOCKET} answers, or a pcscd process is there): these tests never touch it"
    if os.geteuid() != 0:
        return f"pcscd makes its socket {SOCKET} and reads the readers as root only"
    return ""


class Pcscd:
    """Our own pcscd in the foreground; stop() and start() it to play pcscd stopped and restarted."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([str(PCSCD), "--foreground", "--error", *pcscd_options()],
                                            stdout=out, stderr=out)
        deadline = time.monotonic() + PCSC_WAIT
        while READER not in self.readers():
            if self.process.poll() is not None:
                raise RuntimeError(f"pcscd exited with {self.process.returncode}: {self.log.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"pcscd never listed {READER}: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(PCSC_WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(PCSC_WAIT)
        self.process = None

    @staticmethod
    def readers() -> list[str]:
        from smartcard import scard

        hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hresult != scard.SCARD_S_SUCCESS:
            return []
        try:
            hresult, readers = scard.SCardListReaders(context, [])
            return list(readers) if hresult == scard.SCARD_S_SUCCESS else []
        finally:
            scard.SCardReleaseContext(context)


class SlowCard(VirtualCard):
    """A virtual card that answers GET DATA `late` seconds late, and sends every answer in `piece`-byte pieces
    (0: whole), 10 ms apart; vpcd reads each message whole however it comes (recv with MSG_WAITALL)."""

    def __init__(self, uid: str, late: float = 0.0, piece: int = 0) -> None:
        self.late = late
        self.piece = piece
        super().__init__(uid)  # on the reader from here: set up before

    def answer(self, apdu: bytes) -> bytes | None:
        if apdu == GET_DATA_UID:
            time.sleep(self.late)
        return super().answer(apdu)

    def _send(self, data: bytes) -> None:
        if not self.piece:
            super()._send(data)
            return
        message = len(data).to_bytes(2, "big") + data
        for k in range(0, len(message), self.piece):
            self.sock.sendall(message[k:k + self.piece])
            time.sleep(0.01)


class PcscKit(Kit):
    """A PC/SC reader through the real pcscd: vpcd's virtual reader, with virtual cards put on it and taken away."""

    kind = "pcsc"
    retap_window = 0.0  # pcscd reports a card's arrival once: one resting there is one tap without the window
    wait = PCSC_WAIT
    rest_for = 3.0  # pcscd asks the resting card for its ATR every 0.4 s all along
    gone_detail = "pcscd|gone"
    absent_detail = "pcscd is not running"

    def __init__(self, daemon: Pcscd) -> None:
        super().__init__()
        self.daemon = daemon
        self.cards = PcscEmulator()
        self.url = READER
        self.card: VirtualCard | None = None

    def tap(self, uid: str, fault: Fault = Fault.NONE) -> None:
        """Put a card on the reader until it has been asked for its UID, then take it away."""
        card = self.cards.place(uid, fault)
        assert card.answered.wait(self.wait), f"nobody asked {uid} for its UID"
        self.cards.remove()

    def place(self, uid: str) -> None:
        self.card = self.cards.place(uid)

    def rest(self) -> None:
        assert self.card is not None
        assert not self.card.gone.wait(self.rest_for)  # it rests: pcscd keeps asking for its ATR

    def lift(self) -> None:
        self.cards.remove()

    def forget(self) -> None:
        assert self.cards.wait_empty()

    def settle(self) -> None:
        assert self.cards.wait_empty()

    def unplug(self) -> None:
        self.daemon.stop()

    def replug(self) -> None:
        self.daemon.start()

    def garbage(self, rng: random.Random) -> list[Garbage]:
        """A card answering wrongly in each way there is (hardware/pcsc_emulator.py, Fault)."""
        def faulty(fault: Fault) -> Garbage:
            return lambda: self.tap("DEADBEEF", fault)

        return [faulty(fault) for fault in Fault if fault is not Fault.NONE]

    def slow_tap(self, uid: str, mode: str) -> None:
        self.cards.remove()
        assert self.cards.wait_empty()
        card = SlowCard(uid, late=0.3) if mode == "late" else SlowCard(uid, piece=1)  # late: 0.3 s; pieces: a byte each
        try:
            assert card.answered.wait(self.wait), f"nobody asked {uid} for its UID"
        finally:
            card.remove()

    def released(self) -> bool:
        return all(port.released for port in self.ports)

    def close(self) -> None:
        self.cards.close()


def make_kit(kind: str, request: pytest.FixtureRequest) -> Kit:
    """The harness for `kind`, on fixtures from `request` (the pcsc kind's: the tests' own pcscd, running)."""
    if kind == "line":
        return LineKit(request.getfixturevalue("tmp_path"))
    if kind == "pn532":
        return PN532Kit(request.getfixturevalue("tmp_path"))
    if kind == "hid":
        pytest.importorskip("evdev", reason="python-evdev is not installed (the [test] extra has it)")
        return HidKit(request.getfixturevalue("tmp_path"), request.getfixturevalue("monkeypatch"))
    if kind == "rc522":
        return RC522Kit()
    if kind == "pcsc":
        return PcscKit(request.getfixturevalue("running"))
    raise AssertionError(f"no harness for the reader kind {kind!r}: add one to tests/hardware/readerkit.py")


KITS = ("line", "pn532", "hid", "pcsc", "rc522")
"""The kinds a harness is here for: every kind in hardware/kinds.py (a test checks)."""
