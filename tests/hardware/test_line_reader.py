"""Line readers (Arduino/ESP32 + MFRC522, USB serial readers): what a line may say, how a byte stream is cut
into lines, and what is the line reader's own on a real pseudo-terminal (the reader thread's callbacks, one
program at a time, `banker hw cards`). What every kind does (a tap, a resting card, an unplug, garbage, a slow
reader, the close) is test_reader_contract.py's, run over the line reader too."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collector import Collector
from hardware.emulate import LineReaderEmulator
from hardware.events import CardTapped
from hardware.line import MAX_LINE, LineFramer, LineProtocol, parse_uid_line
from hardware.reader import CardReader


@pytest.mark.parametrize("line,uid", [
    (b"Card UID: 04 A3 2B 1C", "04A32B1C"),
    (b"card uid: 04 a3 2b 1c", "04A32B1C"),
    (b"UID: 04A32B1C", "04A32B1C"),
    (b"uid:04a32b1c", "04A32B1C"),
    (b"04A32B1C", "04A32B1C"),
    (b"04b7771a2c5e80", "04B7771A2C5E80"),
    (b"Card UID: 04 B7 77 1A 2C 5E 80", "04B7771A2C5E80"),
    (b"UID: 0102030405060708090A", "0102030405060708090A"),
    (b"  04A32B1C\t", "04A32B1C"),
])
def test_accepted_lines(line: bytes, uid: str) -> None:
    assert parse_uid_line(line) == uid


@pytest.mark.parametrize("line", [
    b"", b"MFRC522 firmware version: 0x92", b"Board Banker card reader 1.0", b"04A32B", b"04A32B1C55",
    b"Card UID: 04 A3 2B", b"Card UID: 04 A3 2B 1C 55", b"04A32B1C11223344556677", b"UID: 04:A3:2B:1C",
    b"04 A32B1C", b"Hello 04A32B1C", b"04A32B1G", b"Card UID: 04  A3 2B 1C", b"\xff\xfe\x00",
    b"UID: 04A32B1C extra", b"card 04A32B1C",
])
def test_rejected_lines(line: bytes) -> None:
    assert parse_uid_line(line) is None


def test_framer_line_ends_first_line_and_overlong_runs() -> None:
    framer = LineFramer()
    assert framer.feed(b"32B1C\r\n") == []  # the tail of a line cut by opening the port
    assert framer.feed(b"UID: 04A3") == []
    assert framer.feed(b"2B1C\r\nUID: 11223344\n\rUID: 55667788\r") == [
        b"UID: 04A32B1C", b"UID: 11223344", b"UID: 55667788"]
    assert framer.feed(b"x" * (MAX_LINE + 5) + b"04A32B1C\n") == []  # a flood, then its line end: dropped
    assert framer.feed(b"04A32B1C\n") == [b"04A32B1C"]


class ScriptedPort:
    """A port whose reads return the given chunks, one per poll; an empty chunk is a quiet poll."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, size: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""


def taps_from(chunks: list[bytes]) -> list[str]:
    """The UIDs LineProtocol reports for these reads, long past its settling time after opening."""
    protocol = LineProtocol()
    port = ScriptedPort(chunks)
    protocol.start(port)
    protocol.opened -= 10  # the port was opened long ago: a quiet poll may sync the framer
    uids: list[str] = []
    while port.chunks:
        uids += [uid for uid, _ in protocol.poll(port)]
    return uids


@pytest.mark.parametrize("length", range(MAX_LINE - 4, MAX_LINE + 6))
@pytest.mark.parametrize("pause", [False, True], ids=["at-once", "pause"])
def test_a_line_at_every_length_around_the_limit(length: int, pause: bool) -> None:
    """A line of MAX_LINE bytes is read; one byte more and the whole line is dropped, pause or not."""
    uid = b"04A32B1C"
    line = b" " * (length - len(uid)) + uid  # leading spaces are forgiven, so only the length decides
    assert len(line) == length
    chunks = [b"\n", line[:length // 2], *([b""] * 3 if pause else []), line[length // 2:] + b"\n"]
    expected = ["04A32B1C"] if length <= MAX_LINE else []
    assert taps_from(chunks) == expected
    assert taps_from(chunks + [b"11223344\n"]) == expected + ["11223344"]  # the next line counts again


@pytest.mark.parametrize("garbage", [*range(MAX_LINE - 2, MAX_LINE + 4), 2 * MAX_LINE, 2 * MAX_LINE + 1,
                                     2 * MAX_LINE + 2, 3 * MAX_LINE + 3])
def test_an_over_long_run_is_dropped_whole_whatever_follows(garbage: int) -> None:
    """Garbage without a line end, a pause (quiet polls), then a UID and the line end: one line, dropped.

    121 bytes used to leave the framer empty, and the quiet poll then trusted the rest of the run.
    """
    chunks = [b"\n", b"x" * garbage, b"", b"", b"04A32B1C\n", b"11223344\n"]
    assert taps_from(chunks) == ["11223344"]


def test_a_run_that_starts_at_opening_and_overflows_is_not_trusted_after_a_pause() -> None:
    chunks = [b"y" * (MAX_LINE + 1), b"", b"", b"04A32B1C\n", b"11223344\n"]
    assert taps_from(chunks) == ["11223344"]


# An independent statement of the accepted format, for the property test.
# Around the line the reader forgives spaces and tabs only (a vertical tab or form feed is garbage).
ORACLE = re.compile(r"^[ \t]*(?:(?:card\s+)?uid\s*:\s*)?((?:[0-9a-f]{2} ){3}[0-9a-f]{2}|(?:[0-9a-f]{2} ){6}[0-9a-f]{2}|"
                    r"(?:[0-9a-f]{2} ){9}[0-9a-f]{2}|[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20})[ \t]*$", re.IGNORECASE)


def expected_uids(stream: bytes) -> list[str]:
    segments = re.split(rb"[\r\n]", stream)[1:-1]  # the first may be a tail; the last has no line end yet
    out = []
    for segment in segments:
        if not segment or len(segment) > MAX_LINE:
            continue
        try:
            match = ORACLE.match(segment.decode("ascii"))
        except UnicodeDecodeError:
            continue
        if match:
            out.append(match.group(1).replace(" ", "").upper())
    return out


valid_lines = st.sampled_from([b"Card UID: 04 A3 2B 1C", b"UID: 04B7771A2C5E80", b"0102030405060708090a"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), valid_lines, st.sampled_from([b"\r", b"\n", b"\r\n"]),
                          st.binary(min_size=MAX_LINE - 10, max_size=MAX_LINE + 10)),
                max_size=30),
       st.integers(min_value=1, max_value=17))
def test_random_bytes_give_exactly_the_well_formed_lines(parts: list[bytes], chunk: int) -> None:
    stream = b"".join(parts)
    framer = LineFramer()
    got: list[str] = []
    for k in range(0, len(stream), chunk):  # however the bytes are split across reads
        for line in framer.feed(stream[k:k + chunk]):
            uid = parse_uid_line(line)
            if uid is not None:
                got.append(uid)
    assert got == expected_uids(stream)
    for uid in got:
        assert re.fullmatch(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}", uid)


# ---------------------------------------------------------------------------
# The reader thread on a real pseudo-terminal


def test_callbacks_that_raise_do_not_stop_the_reader() -> None:
    collector = Collector()
    calls = []

    def bad_tap(event: CardTapped) -> None:
        calls.append(event.uid)
        if len(calls) == 1:
            raise RuntimeError("the app had a bad moment")
        collector.on_tap(event)

    with LineReaderEmulator() as device:
        reader = CardReader(device.url, LineProtocol(), bad_tap, collector.on_status).start()
        assert collector.wait(lambda: collector.words() == ["connected"])
        time.sleep(0.25)
        device.tap("04A32B1C")
        device.tap("11223344")
        assert collector.wait(lambda: len(collector.taps) == 1)
        assert calls == ["04A32B1C", "11223344"]
        assert collector.uids() == ["11223344"]
        reader.close()


def test_banker_hw_cards_prints_taps_and_status(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    link = tmp_path / "reader"
    empty_config = tmp_path / "config.toml"
    empty_config.write_text("# defaults\n")  # not the machine's own config
    device = LineReaderEmulator(link=link)
    proc = subprocess.Popen([sys.executable, "-m", "banker", "hw", "cards", "--port", str(link), "--protocol",
                             "line"], stdout=subprocess.PIPE, text=True, cwd=root,
                            env={**os.environ, "BANKER_CONFIG": str(empty_config)})
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "connected"
        time.sleep(0.3)
        device.tap("04A32B1C")
        assert proc.stdout.readline().strip() == "tap 04A32B1C"
        device.unplug()
        assert proc.stdout.readline().startswith("disconnected")
        device = LineReaderEmulator(link=link)
        assert proc.stdout.readline().strip() == "connected"
    finally:
        proc.terminate()
        proc.wait(timeout=5)
        device.close()
    assert proc.returncode == 0


def test_a_device_is_read_by_one_program_at_a_time() -> None:
    from hardware.reader import open_serial

    with LineReaderEmulator() as device:
        first = open_serial(device.url, 115200)
        try:
            with pytest.raises(Exception) as refused:
                open_serial(device.url, 115200)
            assert "lock" in str(refused.value).lower() or "busy" in str(refused.value).lower()
        finally:
            first.close()
        open_serial(device.url, 115200).close()  # free again once the first closed it
