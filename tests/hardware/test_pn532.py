"""The PN532 in HSU mode: frames as pure bytes, the protocol against the emulator on a real
pseudo-terminal, and the reader thread through the PN532's own failures (a spoilt checksum, a module that lost
power). What every kind does (a tap, a resting card, an unplug, garbage, a slow reader, the close) is
test_reader_contract.py's, run over the PN532 too."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collector import WAIT, Collector
from hardware.emulate import PtyDevice
from hardware.events import ProtocolError
from hardware.pn532 import (
    ACK_FRAME,
    ERROR_FRAME,
    GET_FIRMWARE_VERSION,
    MAX_FRAME,
    NACK_FRAME,
    PN532_TO_HOST,
    SAM_CONFIGURATION,
    WAKEUP,
    Ack,
    ErrorFrame,
    FrameItem,
    FrameParser,
    InformationFrame,
    Nack,
    PN532Protocol,
    build_frame,
    parse_target,
)
from hardware.pn532_emulator import PN532Emulator
from hardware.reader import CardReader, open_serial


def frame(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text)


def feed_all(stream: bytes, chunk: int = 1 << 20) -> list[FrameItem]:
    parser = FrameParser()
    items: list[FrameItem] = []
    for k in range(0, len(stream), chunk):
        items += parser.feed(stream[k:k + chunk])
    return items


def target_response(uid: str, sens_res: str = "0004", sel_res: str = "08") -> bytes:
    raw = bytes.fromhex(uid)
    return build_frame(frame(f"4B 01 01 {sens_res} {sel_res}") + bytes([len(raw)]) + raw, tfi=PN532_TO_HOST)


# ---------------------------------------------------------------------------
# Frames


@pytest.mark.parametrize("data,expected", [
    ("14 01 14 01", "00 00 FF 05 FB D4 14 01 14 01 02 00"),  # SAMConfiguration, normal mode
    ("14 01", "00 00 FF 03 FD D4 14 01 17 00"),  # the same, as libnfc sends it
    ("32 05 FF 01 01", "00 00 FF 06 FA D4 32 05 FF 01 01 F4 00"),  # RFConfiguration MaxRetries
    ("4A 01 00", "00 00 FF 04 FC D4 4A 01 00 E1 00"),  # InListPassiveTarget, one type A target
    ("02", "00 00 FF 02 FE D4 02 2A 00"),  # GetFirmwareVersion
])
def test_command_frames_match_known_bytes(data: str, expected: str) -> None:
    assert build_frame(frame(data)) == frame(expected)


def test_response_frame_and_fixed_frames() -> None:
    firmware = frame("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
    assert build_frame(frame("03 32 01 06 07"), tfi=PN532_TO_HOST) == firmware
    assert feed_all(firmware) == [InformationFrame(0xD5, frame("03 32 01 06 07"))]
    assert feed_all(ACK_FRAME) == [Ack()]
    assert feed_all(NACK_FRAME) == [Nack()]
    assert feed_all(ERROR_FRAME) == [ErrorFrame()]
    assert ACK_FRAME == frame("00 00 FF 00 FF 00")
    assert NACK_FRAME == frame("00 00 FF FF 00 00")
    assert ERROR_FRAME == frame("00 00 FF 01 FF 7F 81 00")


def test_frame_size_limits() -> None:
    assert len(build_frame(bytes(254))) == 254 + 8
    with pytest.raises(ValueError, match="254"):
        build_frame(bytes(255))
    with pytest.raises(ValueError):
        build_frame(b"\x02", tfi=0x100)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=254), st.integers(min_value=0, max_value=255))
def test_build_then_parse_round_trips(data: bytes, tfi: int) -> None:
    expected: FrameItem = ErrorFrame() if (tfi, data) == (0x7F, b"") else InformationFrame(tfi, data)
    assert feed_all(build_frame(data, tfi)) == [expected]


def test_frames_split_at_any_point() -> None:
    stream = ACK_FRAME + target_response("04A32B1C") + ERROR_FRAME + NACK_FRAME + build_frame(b"\x00\xff\x00\xff")
    whole = feed_all(stream)
    assert len(whole) == 5
    assert feed_all(stream, chunk=1) == whole
    for i in range(len(stream)):
        for j in range(i, len(stream)):
            parser = FrameParser()
            assert parser.feed(stream[:i]) + parser.feed(stream[i:j]) + parser.feed(stream[j:]) == whole


def test_garbage_before_and_between_frames_is_skipped() -> None:
    junk = frame("55 55 FF 00 13 00 00 FF 07 00 FF")  # includes start codes with impossible lengths
    stream = junk + ACK_FRAME + junk + target_response("04A32B1C") + junk
    assert feed_all(stream) == [Ack(), InformationFrame(0xD5, frame("4B 01 01 00 04 08 04 04 A3 2B 1C"))]
    assert feed_all(stream, chunk=3) == feed_all(stream)


def test_frames_with_a_wrong_checksum_are_dropped() -> None:
    good = target_response("04A32B1C")
    bad_lcs = bytearray(good)
    bad_lcs[4] ^= 0x01
    bad_dcs = bytearray(good)
    bad_dcs[-2] ^= 0x01
    assert feed_all(bytes(bad_lcs)) == []
    assert feed_all(bytes(bad_dcs)) == []
    assert feed_all(bytes(bad_dcs) + ACK_FRAME + bytes(bad_lcs) + good) == [Ack(), feed_all(good)[0]]
    # a corrupted frame whose body hides a real frame: the real one is found inside it
    hidden = bytearray(build_frame(b"\x4B" + ACK_FRAME + b"\x11", tfi=PN532_TO_HOST))
    hidden[-2] ^= 0xFF
    assert feed_all(bytes(hidden)) == [Ack()]


def test_the_buffer_stays_bounded() -> None:
    parser = FrameParser()
    assert parser.feed(frame("00 FF FF 01")) == []  # a plausible header for a 255-byte frame...
    assert parser.feed(b"\x01\x02" * 5_000) == []  # ...whose checksum then fails
    assert len(parser.buffer) < MAX_FRAME
    rng = random.Random(7)
    for _ in range(300):
        parser.feed(bytes(rng.choice(b"\x00\xff\x01\xd5\x4b") for _ in range(rng.randint(1, 400))))
        assert len(parser.buffer) < MAX_FRAME
    parser.reset()
    assert parser.buffer == bytearray()


def is_in_stream(item: FrameItem, stream: bytes) -> bool:
    """The item's bytes, checksums included, really are in the stream (preamble and postamble optional)."""
    if isinstance(item, Ack):
        return ACK_FRAME[1:-1] in stream
    if isinstance(item, Nack):
        return NACK_FRAME[1:-1] in stream
    if isinstance(item, ErrorFrame):
        return ERROR_FRAME[1:-1] in stream
    return build_frame(item.data, item.tfi)[1:-1] in stream


@settings(max_examples=250, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=60), st.sampled_from(
    [b"\x00\xff", b"\x00\x00\xff", ACK_FRAME, NACK_FRAME, ERROR_FRAME, target_response("04A32B1C"),
     target_response("04A32B1C")[:9], build_frame(b"\x4b\x00", tfi=PN532_TO_HOST)])), max_size=25),
       st.integers(min_value=1, max_value=23))
def test_random_bytes_never_raise_nor_yield_a_frame_with_bad_checksums(parts: list[bytes], chunk: int) -> None:
    stream = b"".join(parts)
    for item in feed_all(stream, chunk):
        assert is_in_stream(item, stream)


frames = st.builds(build_frame, st.binary(min_size=1, max_size=40), st.sampled_from([0xD4, 0xD5])) | st.sampled_from(
    [ACK_FRAME, NACK_FRAME, ERROR_FRAME])
noise = st.binary(max_size=30).map(lambda b: b.replace(b"\x00", b"").replace(b"\xff", b""))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(noise, frames), max_size=12), noise, st.integers(min_value=1, max_value=13))
def test_every_frame_is_recovered_from_noise(pairs: list[tuple[bytes, bytes]], tail: bytes, chunk: int) -> None:
    # Noise without 0x00 and 0xFF cannot form or complete a start code, so nothing may be lost.
    stream = b"".join(n + f for n, f in pairs) + tail
    assert feed_all(stream, chunk) == [feed_all(f)[0] for _, f in pairs]


@pytest.mark.parametrize("data,uid", [
    ("01 01 00 04 08 04 04 A3 2B 1C", "04A32B1C"),
    ("01 01 00 44 00 07 04 11 22 33 44 55 66", "04112233445566"),
    ("01 01 00 84 00 0A 01 02 03 04 05 06 07 08 09 0A", "0102030405060708090A"),
    ("01 01 03 44 20 07 04 11 22 33 44 55 66 06 75 77 81 02 80", "04112233445566"),  # with an ATS
])
def test_target_data_gives_the_uid(data: str, uid: str) -> None:
    assert parse_target(frame(data)) == uid


@pytest.mark.parametrize("data", [
    "00", "", "01", "01 01 00 04 08", "01 01 00 04 08 05 04 A3 2B 1C 99",  # no card, truncated, 5-byte UID
    "01 01 00 04 08 04 04 A3 2B", "01 01 00 04 08 04 04 A3 2B 1C 55",  # short UID, stray byte without ATS
    "01 01 00 04 20 04 04 A3 2B 1C 05 75", "02 01 00 04 08 04 04 A3 2B 1C", "01 02 00 04 08 04 04 A3 2B 1C",
])
def test_malformed_target_data_gives_nothing(data: str) -> None:
    assert parse_target(frame(data)) is None


# ---------------------------------------------------------------------------
# The protocol against the emulator, driven directly from the test's thread


@pytest.fixture
def emulator() -> Iterator[PN532Emulator]:
    device = PN532Emulator()
    yield device
    device.close()


@pytest.fixture
def port(emulator: PN532Emulator) -> Iterator[Any]:
    host = open_serial(emulator.url, 115200)  # as the reader thread opens it: 50 ms read timeout
    yield host
    host.close()


@pytest.fixture
def started(port: Any) -> PN532Protocol:
    protocol = PN532Protocol()
    protocol.start(port)
    return protocol


def test_start_wakes_and_configures_the_chip(emulator: PN532Emulator, port: Any) -> None:
    assert not emulator.awake
    PN532Protocol(max_retries=3).start(port)
    assert emulator.awake and emulator.max_retries == 3
    PN532Protocol().start(port)
    assert emulator.max_retries == 1


def test_commands_and_their_errors(started: PN532Protocol, port: Any) -> None:
    assert started.call(port, GET_FIRMWARE_VERSION) == frame("32 01 06 07")
    with pytest.raises(ProtocolError, match="error frame"):
        started.call(port, SAM_CONFIGURATION)  # no mode byte: the chip answers with the error frame


@pytest.mark.parametrize("uid", ["04A32B1C", "04112233445566", "0102030405060708090A"])
def test_poll_lists_the_card_on_the_field(emulator: PN532Emulator, started: PN532Protocol, port: Any,
                                          uid: str) -> None:
    assert started.poll(port) == []
    emulator.place(uid)
    before = time.monotonic()
    [(seen, at)] = started.poll(port)
    assert seen == uid and before <= at <= time.monotonic()
    emulator.remove()
    assert started.poll(port) == []


def test_a_corrupted_response_is_no_tap(emulator: PN532Emulator, started: PN532Protocol, port: Any) -> None:
    emulator.place("04A32B1C")
    emulator.corrupt_next_response()
    assert started.poll(port) == []
    assert [uid for uid, _ in started.poll(port)] == ["04A32B1C"]


def test_bytes_in_the_middle_of_a_read_are_survived(emulator: PN532Emulator, started: PN532Protocol,
                                                    port: Any) -> None:
    phantom = bytearray(target_response("DEADBEEF"))
    phantom[-2] ^= 0x10
    emulator.place("04A32B1C")
    for junk in (b"\x55\x00\xff\x13", bytes(phantom), ACK_FRAME + ACK_FRAME, frame("00 FF 05 FB D5"), b"\xff" * 40):
        emulator.glitch(junk, on_next_response=True)
        assert [uid for uid, _ in started.poll(port)] == ["04A32B1C"]
    emulator.glitch(NACK_FRAME, on_next_response=True)
    assert started.poll(port) == []  # a NACK spoils this poll only
    assert [uid for uid, _ in started.poll(port)] == ["04A32B1C"]


def test_a_device_that_stops_answering_is_an_error_within_bounded_time(emulator: PN532Emulator,
                                                                        started: PN532Protocol, port: Any) -> None:
    emulator.power_cycle()
    for _ in range(PN532Protocol.MISSES - 1):
        began = time.monotonic()
        assert started.poll(port) == []
        assert time.monotonic() - began < 2 * started.timeout + 0.1
    with pytest.raises(ProtocolError, match="stopped answering"):
        started.poll(port)
    started.start(port)  # what the reader thread does after reopening: wake it up again
    emulator.place("04A32B1C")
    assert [uid for uid, _ in started.poll(port)] == ["04A32B1C"]


def test_start_fails_on_a_device_that_never_answers() -> None:
    with PtyDevice() as mute:
        host = open_serial(mute.url, 115200)
        try:
            began = time.monotonic()
            with pytest.raises(ProtocolError, match="no ACK after 3 tries"):
                PN532Protocol().start(host)
            assert time.monotonic() - began < 3 * (2 * 0.1 + 0.1)
        finally:
            host.close()


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="255"):
        PN532Protocol(max_retries=255)  # "retry forever" would make an empty field look like a dead reader
    with pytest.raises(ValueError):
        PN532Protocol(timeout=0)


# ---------------------------------------------------------------------------
# The emulator on its own, as the host sees it


def read_for(port: Any, seconds: float) -> bytes:
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data += port.read(64)
    return data


def read_exactly(port: Any, count: int) -> bytes:
    data = b""
    end = time.monotonic() + WAIT
    while len(data) < count and time.monotonic() < end:
        data += port.read(count - len(data))
    return data


def test_the_emulator_sleeps_until_woken_and_ignores_bad_frames(emulator: PN532Emulator, port: Any) -> None:
    firmware = build_frame(b"\x02")
    port.write(firmware)
    assert read_for(port, 0.15) == b""  # asleep
    port.write(WAKEUP + firmware)
    assert read_exactly(port, 6 + 13) == ACK_FRAME + frame("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
    broken = bytearray(firmware)
    broken[-2] ^= 0x01
    port.write(bytes(broken))
    assert read_for(port, 0.15) == b""  # no ACK: the host is expected to send it again
    port.write(NACK_FRAME)  # asks for the last response again
    assert read_exactly(port, 13) == frame("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")


def test_tap_lifts_the_card_after_the_hold(emulator: PN532Emulator, started: PN532Protocol, port: Any) -> None:
    emulator.tap("04 a3 2b 1c", hold=0.1)
    assert emulator.card == "04A32B1C"
    deadline = time.monotonic() + WAIT
    while started.poll(port) and time.monotonic() < deadline:
        continue  # polls are paced by the protocol, so this loop does not spin
    assert emulator.card is None
    with pytest.raises(ValueError, match="4, 7 or 10"):
        emulator.place("04A32B")


def test_a_tap_does_not_lift_the_card_that_replaced_it(emulator: PN532Emulator) -> None:
    emulator.tap("04A32B1C", hold=0.05)
    emulator.place("11223344")
    time.sleep(0.15)  # the second card rests past the first one's hold
    assert emulator.card == "11223344"


# ---------------------------------------------------------------------------
# The reader thread driving the protocol


@contextmanager
def reading(device: PN532Emulator, protocol: PN532Protocol | None = None) -> Iterator[Collector]:
    collector = Collector()
    with CardReader(device.url, protocol or PN532Protocol(), collector.on_tap, collector.on_status):
        assert collector.wait(lambda: collector.words() == ["connected"])
        yield collector


def test_a_corrupted_response_gives_no_phantom_tap_and_no_crash(emulator: PN532Emulator) -> None:
    with reading(emulator) as collector:
        emulator.place("04A32B1C")
        emulator.corrupt_next_response()
        assert collector.wait(lambda: len(collector.taps) == 1)
        assert emulator.wait_polls(3)
        assert collector.uids() == ["04A32B1C"]
        assert collector.words() == ["connected"]


def test_a_power_cycled_module_is_woken_again(emulator: PN532Emulator) -> None:
    with reading(emulator) as collector:
        began = time.monotonic()
        emulator.power_cycle()
        assert collector.wait(lambda: collector.words() == ["connected", "disconnected", "connected"])
        assert time.monotonic() - began < 2.0
        assert emulator.awake
        emulator.tap("04A32B1C")
        assert collector.wait(lambda: len(collector.taps) == 1)
        assert collector.uids() == ["04A32B1C"]
