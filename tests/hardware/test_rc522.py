"""The `rc522` kind (hardware/rc522.py): the real driver and the real CardReader over the register-level
MFRC522 emulator (hardware/rc522_emulator.py), the reset line on gpiozero's mock pins, through what is the
RC522's own: collisions, a card leaving mid-select, CRC and air errors, noise on MISO, the missing module's
words, the SPI device and the reset pin, and a seeded fuzzer of the bus. What every kind does (a tap, a resting
card, an unplug, garbage, a slow reader, the close) is test_reader_contract.py's, run over this kind too.

Waits end on a condition (a tap, a status, the emulated chip having seen so many frames), never on time."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from collector import WAIT, Collector
from hardware import kinds
from hardware.config import ReaderConfig
from hardware.events import ProtocolError
from hardware.rc522 import GONE_AFTER, RC522Protocol, spi_address
from hardware.rc522_emulator import MFRC522, REQA, WUPA, Card, FakeSpiDev, crc_a
from hardware.reader import CardReader

URL = "/dev/spidev0.0"
UID4 = "DEADBEEF"
UID7 = "04A1B2C3D4E5F6"


def card(uid: str, **kw: Any) -> Card:
    return Card(bytes.fromhex(uid), **kw)


def protocol(chip: MFRC522, factory: MockFactory | None = None, pin: int | str = 25) -> RC522Protocol:
    return RC522Protocol(reset_pin=pin, spi=chip.spidev, pin_factory=factory or MockFactory(),
                         interval=0.002, settle=0)


def wakes(chip: MFRC522) -> int:
    """How many polls the chip has seen (each starts with REQA)."""
    with chip.lock:
        return sum(1 for f in chip.frames if f == bytes([REQA]))


def wait_until(predicate: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT * 3
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def more_polls(chip: MFRC522, count: int = 20) -> None:
    start = wakes(chip)
    assert wait_until(lambda: wakes(chip) >= start + count)


@pytest.fixture
def chip() -> MFRC522:
    return MFRC522(seed=37)


@pytest.fixture
def running(chip: MFRC522) -> Iterator[tuple[Collector, CardReader]]:
    seen = Collector()
    reader = CardReader(URL, protocol(chip), seen.on_tap, seen.on_status, retap_window=0)
    with reader:
        assert seen.wait(lambda: "connected" in seen.words())
        yield seen, reader


def test_crc_a_is_iso_14443s() -> None:
    assert crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])  # HLTA's, as ISO/IEC 14443-3 annex B gives it
    assert crc_a(bytes([0x00, 0x00])) == bytes([0xA0, 0x1E])


def test_two_cards_in_the_field_never_make_a_mix(chip: MFRC522, running: tuple[Collector, CardReader]) -> None:
    seen, _ = running
    chip.cards.extend([card(UID4), card("12345678"), card(UID7)])
    more_polls(chip, 40)
    assert set(seen.uids()) <= {UID4, "12345678", UID7}
    assert any(len(frame) == 2 and frame[1] == 0x20 for frame in chip.frames)  # anticollision was tried
    del chip.cards[1:]
    assert seen.wait(lambda: UID4 in seen.uids())  # alone, it reads
    assert set(seen.uids()) <= {UID4, "12345678", UID7}


def test_a_card_leaving_mid_select_is_no_tap(chip: MFRC522, running: tuple[Collector, CardReader]) -> None:
    seen, _ = running
    chip.leave_on = "select"
    chip.cards.append(card(UID7))
    more_polls(chip, 10)
    assert chip.cards == [] and seen.uids() == []
    assert any(len(frame) == 9 and frame[1] == 0x70 for frame in chip.frames)  # it left on hearing SELECT


def test_crc_errors_are_no_tap(chip: MFRC522, running: tuple[Collector, CardReader]) -> None:
    seen, _ = running
    chip.cards.append(card(UID4, bad_crc=True))
    more_polls(chip, 20)
    assert seen.uids() == []
    chip.cards[0].bad_crc = False
    assert seen.wait(lambda: seen.uids() == [UID4])


def test_errors_on_the_air_are_never_a_wrong_uid(chip: MFRC522, running: tuple[Collector, CardReader]) -> None:
    seen, _ = running
    chip.air_errors = 1.0  # every answer corrupted: parity errors, or bits that only a BCC or CRC can catch
    chip.truncate = 0.3
    chip.cards.append(card(UID7))
    more_polls(chip, 60)
    assert seen.uids() == []
    chip.air_errors = chip.truncate = 0.0
    assert seen.wait(lambda: seen.uids() == [UID7])


def polls(chip: MFRC522, proto: RC522Protocol, count: int) -> list[str]:
    """Poll `count` times, opening again after an error as the CardReader does (without its backoff)."""
    handle: Any = None
    got: list[str] = []
    try:
        for _ in range(count):
            try:
                if handle is None:
                    handle = proto.open(URL)
                got += [uid for uid, _ in proto.poll(handle)]
            except (OSError, ProtocolError):
                if handle is not None:
                    handle.close()
                handle = None
    finally:
        if handle is not None:
            handle.close()
    return got


def test_noise_on_miso_is_no_phantom(chip: MFRC522) -> None:
    proto = protocol(chip)
    proto.interval = 0
    chip.noise = 0.3
    assert polls(chip, proto, 800) == []
    chip.cards.append(card(UID4))
    assert set(polls(chip, proto, 800)) <= {UID4}
    chip.noise = 0.0
    chip.cards[:] = [card(UID7)]
    assert polls(chip, proto, 5) == [UID7]


@pytest.mark.parametrize("stuck", [0x00, 0xFF])
def test_a_missing_module_says_what_to_look_at(chip: MFRC522, stuck: int) -> None:
    """The module gone mid-poll (MISO stuck low or high) is a ProtocolError, and opening it again an OSError, both
    saying what to look at; it opens again once it answers."""
    proto = protocol(chip)
    handle = proto.open(URL)
    try:
        chip.missing = stuck
        with pytest.raises(ProtocolError, match=r"\(it stopped answering\)") as stopped:
            proto.poll(handle)
    finally:
        handle.close()
    with pytest.raises(OSError) as absent:
        proto.open(URL)
    for problem in (str(stopped.value), str(absent.value)):
        assert f"no RC522 answers on {URL} (its version register reads {stuck:#04x})" in problem
        assert "wiring" in problem and "3.3 V" in problem
    assert chip.opened == 0
    chip.missing = None
    proto.open(URL).close()


def test_no_spi_device_says_to_switch_spi_on(chip: MFRC522) -> None:
    chip.device_present = False
    seen = Collector()
    with CardReader(URL, protocol(chip), seen.on_tap, seen.on_status):
        assert seen.wait(lambda: bool(seen.statuses))
    assert seen.words() == ["disconnected"]
    assert "dtparam=spi=on" in seen.statuses[0].detail and f"no {URL}" in seen.statuses[0].detail


def test_no_permission_on_the_spi_device_names_the_group(chip: MFRC522) -> None:
    class Refused(FakeSpiDev):
        def open(self, bus: int, device: int) -> None:
            raise PermissionError(13, "Permission denied", f"/dev/spidev{bus}.{device}")

    proto = RC522Protocol(spi=lambda: Refused(chip), pin_factory=MockFactory(), settle=0)
    with pytest.raises(OSError, match=f"no permission to open {URL}: the user must be in the spi group"):
        proto.open(URL)


def test_another_chip_is_refused(chip: MFRC522) -> None:
    chip.version = 0x12
    with pytest.raises(OSError, match="no RC522 .*0x12"):
        protocol(chip).open(URL)
    assert chip.opened == 0


def test_a_clone_answering_0x88_is_taken(chip: MFRC522) -> None:
    chip.version = 0x88
    chip.cards.append(card(UID4))
    proto = protocol(chip)
    handle = proto.open(URL)
    try:
        assert [uid for uid, _ in proto.poll(handle)] == [UID4]
    finally:
        handle.close()


def test_a_resting_card_is_no_tap_after_a_reconnect(chip: MFRC522) -> None:
    proto = protocol(chip)
    chip.cards.append(card(UID4))
    handle = proto.open(URL)
    assert [uid for uid, _ in proto.poll(handle)] == [UID4]
    handle.close()
    handle = proto.open(URL)  # the soft reset turns the field off: the card wakes in IDLE and answers REQA
    try:
        assert [proto.poll(handle) for _ in range(5)] == [[]] * 5
        assert chip.frames.count(bytes([WUPA])) >= 3  # the resting card is watched with WUPA
    finally:
        handle.close()


def test_a_card_arriving_between_reqa_and_wupa_is_a_tap(chip: MFRC522) -> None:
    """Right after a card was read, a poll that finds nothing with REQA asks with WUPA whether it rests still; a
    card put down in between hears only the WUPA, which selects and halts it, so no REQA finds it later. It used
    to be taken for the resting one and never tapped (the contract's slow rc522 found it: on a module the REQA
    with no card waits out the chip's 25 ms timer, a window for the next player's card)."""
    proto = protocol(chip)
    proto.interval = 0
    handle = proto.open(URL)
    try:
        chip.cards.append(card(UID4))
        assert [uid for uid, _ in proto.poll(handle)] == [UID4]
        chip.cards.clear()  # lifted
        late = card(UID7)

        def arrive(frame: bytes) -> None:
            if frame == bytes([WUPA]):
                chip.cards.append(late)  # comes after the REQA: hears the WUPA first
                chip.on_frame = None

        chip.on_frame = arrive
        assert [uid for _ in range(8) for uid, _ in proto.poll(handle)] == [UID7]
        assert late.state == "HALT" and chip.on_frame is None
    finally:
        handle.close()


def test_the_reset_pin_is_pulsed_through_gpiozero(chip: MFRC522) -> None:
    factory = MockFactory()
    proto = protocol(chip, factory, pin="GPIO24")
    handle = proto.open(URL)
    pin = factory.pin(24)
    assert [s.state for s in pin.states] == [False, True]  # low, then high: a hard reset
    handle.close()
    handle = proto.open(URL)  # the pin was let go with the device: it can be had again
    handle.close()
    assert [s.state for s in pin.states] == [False, True, False, True]
    assert chip.opened == 0


def test_the_spi_device_is_opened_as_the_url_says(chip: MFRC522) -> None:
    made: list[FakeSpiDev] = []

    def factory() -> FakeSpiDev:
        made.append(chip.spidev())
        return made[-1]

    proto = RC522Protocol(spi=factory, pin_factory=MockFactory(), settle=0)
    proto.open("/dev/spidev1.2").close()
    assert (made[0].bus, made[0].device, made[0].mode, made[0].max_speed_hz) == (1, 2, 0, 1_000_000)
    assert spi_address("/dev/spidev0.1") == (0, 1)
    for url in ("/dev/serial0", "/dev/spidev0", "spidev0.0", ""):
        with pytest.raises(ValueError, match="/dev/spidev0.0"):
            spi_address(url)


def test_the_registry_makes_it_from_the_reader_config() -> None:
    config = ReaderConfig(url=URL, protocol="rc522", reset_pin=22)
    made = kinds.make_protocol("rc522", 115200, config)
    assert isinstance(made, RC522Protocol) and made.reset_pin == 22 and made.name == "rc522"
    assert kinds.kind("rc522").make(9600).reset_pin == 25
    assert kinds.kind("pn532").make(9600, config).baudrate == 9600  # a kind without from_config: cls(baudrate)


def test_banker_hw_cards_help_lists_rc522(capsys: pytest.CaptureFixture[str]) -> None:
    from banker.cli import main

    with pytest.raises(SystemExit):
        main(["hw", "cards", "--help"])
    out = capsys.readouterr().out
    assert "rc522" in out and "/dev/spidev0.0 (SPI bus 0, CE0)" in out


# -- the fuzzer --------------------------------------------------------------------------------------------

POOL = [bytes.fromhex(u) for u in (UID4, UID7, "12345678", "0411223344556F", "A0B0C0D0")]
FAULTS = ("noise", "air", "truncate", "leave", "missing", "bad_crc")


def fuzz(seed: int, steps: int) -> tuple[int, int, int, int, int]:
    """Drive the protocol poll by poll over a chip whose field and faults change at random; reconnect as the
    CardReader does. (phantoms, missed, crashes, taps): a phantom is a UID not in the field during its poll;
    a miss is a card that arrived after being away long enough (for more than GONE_AFTER + 2 polls that ran:
    while the module is gone, nobody can see a card go, and a card back by then is taken as resting all along),
    lay alone and fault-free on the reader for
    `clean` polls, and was never reported while it stayed; `due` counts those arrivals (reported or not)."""
    rng = random.Random(seed)
    chip = MFRC522(seed=seed)
    proto = protocol(chip)
    proto.interval = 0
    handle: Any = None
    phantoms = missed = crashes = taps = 0
    due: list[int] = []
    clean = 8
    away: dict[bytes, int] = {uid: 99 for uid in POOL}  # polls since each card was last in the field
    stay: dict[bytes, dict[str, Any]] = {}  # the cards in the field: arrived fresh?, clean polls, reported?
    faults: set[str] = set()
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.06 and len(chip.cards) < 3:
            uid = rng.choice([u for u in POOL if u not in stay])
            chip.cards.append(Card(uid))
            stay[uid] = {"fresh": away[uid] > GONE_AFTER + 2, "clean": 0, "reported": False}
        elif roll < 0.12 and chip.cards:
            gone = chip.cards.pop(rng.randrange(len(chip.cards)))
            missed += _leave(gone, stay, away, clean, due)
        elif roll < 0.17:
            faults = {f for f in FAULTS if rng.random() < 0.3}
        elif roll < 0.25:
            faults = set()
        chip.noise = 0.05 if "noise" in faults else 0.0
        chip.air_errors = 0.3 if "air" in faults else 0.0
        chip.truncate = 0.2 if "truncate" in faults else 0.0
        chip.leave_on = rng.choice(("reqa", "anticoll", "select")) if "leave" in faults else None
        chip.missing = rng.choice((0x00, 0xFF)) if "missing" in faults else None
        for c in chip.cards:
            c.bad_crc = "bad_crc" in faults
        before = {c.uid for c in chip.cards}
        try:
            if handle is None:
                handle = proto.open(URL)
            got = proto.poll(handle)
            polled = True
        except (OSError, ProtocolError):
            if handle is not None:
                handle.close()
            handle = None
            got, polled = [], False
        except Exception:
            crashes += 1
            got, polled = [], False
        now = {c.uid for c in chip.cards}
        for uid_hex, _ in got:
            taps += 1
            uid = bytes.fromhex(uid_hex)
            if uid not in before:
                phantoms += 1
            elif uid in stay:
                stay[uid]["reported"] = True
        for uid in set(stay) - now:  # left on hearing a frame (the "leave" fault)
            missed += _leave(Card(uid), stay, away, clean, due)
        for uid in away:
            away[uid] = 0 if uid in now else away[uid] + polled  # only polls that ran can see it gone
        if len(now) == 1 and not faults and handle is not None:
            stay[next(iter(now))]["clean"] += 1
    if handle is not None:
        handle.close()
    for uid in list(stay):
        missed += _leave(Card(uid), stay, away, clean, due)
    return phantoms, missed, crashes, taps, len(due)


def _leave(card: Card, stay: dict[bytes, dict[str, Any]], away: dict[bytes, int], clean: int,
           due: list[int]) -> int:
    """A card leaves the field: 1 if that makes it a missed tap, else 0."""
    record = stay.pop(card.uid)
    card.leave()
    away[card.uid] = 0
    if record["fresh"] and record["clean"] >= clean:
        due.append(1)
    return int(record["fresh"] and record["clean"] >= clean and not record["reported"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_fuzzed_bus_gives_no_phantom_no_miss_no_crash(seed: int) -> None:
    phantoms, missed, crashes, taps, due = fuzz(seed, 4000)
    assert (phantoms, missed, crashes) == (0, 0, 0)
    assert taps > 50 and due > 20  # cards did get through, and cleanly presented ones were counted


def test_the_fuzzer_counts_what_it_should() -> None:
    """The counters can fail: a driver that reports a wrong UID, or none, is caught."""
    original = RC522Protocol.poll

    def wrong(self: RC522Protocol, port: Any) -> list[tuple[str, float]]:
        return [(uid[:-2] + "00", at) for uid, at in original(self, port)]

    def none(self: RC522Protocol, port: Any) -> list[tuple[str, float]]:
        original(self, port)
        return []

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RC522Protocol, "poll", wrong)
        assert fuzz(1, 600)[0] > 0
        patch.setattr(RC522Protocol, "poll", none)
        assert fuzz(1, 600)[1] > 0
