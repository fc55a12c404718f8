"""Keyboard readers (hardware/hid.py): the framer's rules, finding and grabbing the device, the reader thread
on a fake input subsystem that sends what a real reader sends (fake_input.py) through what is the keyboard
reader's own (the grab, a number cut by an unplug, another program holding the device), a real virtual
keyboard where /dev/uinput exists, and a seeded fuzzer. What every kind does (a tap, a resting card, an unplug,
garbage, a slow reader, the close) is test_reader_contract.py's, run over this kind too.

`BANKER_FUZZ_CASES` scales the fuzzer (default 1500 streams, a few seconds) and `BANKER_FUZZ_SEED` seeds it
(default 36), as for tests/hardware/test_config_fuzz.py.
"""

from __future__ import annotations

import errno
import os
import random
import re
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import evdev
import pytest
from evdev import ecodes
from hypothesis import given, settings
from hypothesis import strategies as st

import hardware.hid as hid
from collector import Collector
from fake_input import MEDIA_KEYS, FakeInput, FakeReader, event, keystrokes, report
from hardware import kinds
from hardware.hid import MAX_CHARS, MAX_GAP, MIN_CHARS, HidPort, HidProtocol, KeyFramer, open_input_device
from hardware.reader import CardReader

ENTER, KPENTER, TAB = ecodes.KEY_ENTER, ecodes.KEY_KPENTER, ecodes.KEY_TAB
SHIFT, RSHIFT = ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT
ROOT = Path(__file__).resolve().parents[2]
T0 = 1_764_900_000.0  # a wall-clock time for the framer's timestamps
KEY = 0.008  # seconds between two keys of a reader in the framer tests


def codes_for(text: str, keypad: bool = False) -> list[int]:
    codes = []
    for char in text:
        if char.isdigit():
            codes.append(getattr(ecodes, f"KEY_KP{char}" if keypad else f"KEY_{char}"))
        else:
            codes.append(getattr(ecodes, f"KEY_{char.upper()}"))
    return codes


def frame(strokes: list[tuple[int, int, float]], opened: float | None = None) -> list[str]:
    """The ids a fresh framer reads from (code, value, time) key events."""
    framer = KeyFramer(opened)
    return [uid for code, value, at in strokes if (uid := framer.feed(code, value, at)) is not None]


def downs(codes: list[int], start: float = T0, step: float = KEY) -> list[tuple[int, int, float]]:
    """Key-downs only, `step` seconds apart."""
    return [(code, 1, start + k * step) for k, code in enumerate(codes)]


def typed(text: str, end: int = ENTER, start: float = T0, keypad: bool = False) -> list[tuple[int, int, float]]:
    """A reader typing `text` then `end`: each key down and up; shift held around upper-case letters."""
    strokes: list[tuple[int, int, float]] = []
    t = start
    for char, code in zip(text + "\n", codes_for(text, keypad) + [end], strict=True):
        shifted = char.isupper()
        if shifted:
            strokes.append((SHIFT, 1, t))
        strokes += [(code, 1, t + 0.001), (code, 0, t + 0.003)]
        if shifted:
            strokes.append((SHIFT, 0, t + 0.004))
        t += KEY
    return strokes


# ---------------------------------------------------------------------------
# The framer


def test_the_key_table_is_the_kernels() -> None:
    """hardware/hid.py hard-codes its key codes so the framer needs no evdev; they must be the kernel's."""
    for code, char in hid.MAIN_DIGITS.items():
        assert code == getattr(ecodes, f"KEY_{char}")
    for code, char in hid.KEYPAD_DIGITS.items():
        assert code == getattr(ecodes, f"KEY_KP{char}")
    for code, char in hid.HEX_LETTERS.items():
        assert code == getattr(ecodes, f"KEY_{char}")
    assert hid.TERMINATORS == {ecodes.KEY_ENTER, ecodes.KEY_KPENTER, ecodes.KEY_TAB}
    assert hid.SHIFTS == {ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT}
    assert (hid.EV_SYN, hid.EV_KEY, hid.SYN_DROPPED) == (ecodes.EV_SYN, ecodes.EV_KEY, ecodes.SYN_DROPPED)


@pytest.mark.parametrize("strokes,ids", [
    # digits, main row and keypad; decimal kept as typed, leading zeros and all
    (typed("0012345678"), ["0012345678"]),
    (typed("0012345678", keypad=True), ["0012345678"]),
    (typed("0472621828", end=KPENTER, keypad=True), ["0472621828"]),
    # hex letters with shift, without it, and mixed: upper-cased
    (typed("04A32B1C"), ["04A32B1C"]),
    (typed("04a32b1c"), ["04A32B1C"]),
    (typed("aBcDeF0123"), ["ABCDEF0123"]),
    (typed("04a32b1c", keypad=True), ["04A32B1C"]),
    # the three terminators
    (typed("04A32B1C", end=ENTER), ["04A32B1C"]),
    (typed("04A32B1C", end=KPENTER), ["04A32B1C"]),
    (typed("04A32B1C", end=TAB), ["04A32B1C"]),
    # the bounds: MIN_CHARS and MAX_CHARS characters are ids
    (typed("1" * MIN_CHARS), ["1" * MIN_CHARS]),
    (typed("9" * MAX_CHARS), ["9" * MAX_CHARS]),
    (typed("F" * 20), ["F" * 20]),
    # two cards one after the other, without a pause
    (typed("11223344") + typed("55667788", start=T0 + 0.1), ["11223344", "55667788"]),
    # the right shift, and shift held through the whole number
    ([(RSHIFT, 1, T0)] + downs(codes_for("DEADBEEF") + [ENTER], T0 + 0.001) + [(RSHIFT, 0, T0 + 0.2)],
     ["DEADBEEF"]),
])
def test_what_is_read(strokes: list[tuple[int, int, float]], ids: list[str]) -> None:
    assert frame(strokes) == ids


@pytest.mark.parametrize("strokes", [
    pytest.param(typed("1" * (MIN_CHARS - 1)), id="too-short"),
    pytest.param(downs([ENTER]), id="terminator-alone"),
    pytest.param(downs([ENTER, ENTER, TAB, KPENTER]), id="terminators-alone"),
    pytest.param(typed("1" * (MAX_CHARS + 1)), id="over-long-by-one"),
    pytest.param(typed("1" * (3 * MAX_CHARS)), id="over-long"),
    pytest.param(typed("0012345678", end=ecodes.KEY_SPACE), id="space-is-no-terminator"),
    pytest.param(typed("0012345678", end=ecodes.KEY_LINEFEED), id="linefeed-is-no-terminator"),
    pytest.param(typed("0012345678", end=ecodes.KEY_ESC), id="escape-is-no-terminator"),
    pytest.param(downs(codes_for("00123") + [ecodes.KEY_G] + codes_for("45678") + [ENTER]), id="stray-letter"),
    pytest.param(downs(codes_for("00123") + [ecodes.KEY_MINUS] + codes_for("45678") + [ENTER]), id="stray-minus"),
    pytest.param(downs(codes_for("00123") + [ecodes.KEY_CAPSLOCK] + codes_for("45678") + [ENTER]),
                 id="stray-capslock"),
    pytest.param(downs(codes_for("00123") + [ecodes.KEY_KPDOT] + codes_for("45678") + [ENTER]), id="stray-kpdot"),
    pytest.param(downs(codes_for("12345678") + [ecodes.KEY_LEFTCTRL] + [ENTER]), id="stray-before-terminator"),
    pytest.param(downs([ecodes.KEY_G] + codes_for("12345678") + [ENTER]), id="stray-first"),
    pytest.param(downs([999] + codes_for("12345678") + [ENTER]), id="unknown-code"),
    pytest.param(downs(codes_for("1" * (MAX_CHARS + 1))) + downs(codes_for("12345678") + [ENTER], T0 + 0.3),
                 id="over-long-then-an-id-without-terminator-between"),
    # only key-downs type: key-ups and autorepeats alone give nothing
    pytest.param([(code, 0, T0 + k * KEY) for k, code in enumerate(codes_for("12345678") + [ENTER])], id="key-ups"),
    pytest.param([(code, 2, T0 + k * KEY) for k, code in enumerate(codes_for("12345678") + [ENTER])],
                 id="repeats"),
    pytest.param([(code, 7, T0 + k * KEY) for k, code in enumerate(codes_for("12345678") + [ENTER])],
                 id="odd-values"),
])
def test_what_is_dropped(strokes: list[tuple[int, int, float]]) -> None:
    assert frame(strokes) == []
    # and the framer reads the next card as usual afterwards: at once after a terminator, else after a pause
    counted = [code for code, value, _ in strokes if value == 1 and code not in (SHIFT, RSHIFT)]
    pause = 0.05 if counted and counted[-1] in (ENTER, KPENTER, TAB) else MAX_GAP + 0.01
    assert frame(strokes + typed("11223344", start=strokes[-1][2] + pause)) == ["11223344"]


def test_the_bounds_are_the_documented_ones() -> None:
    text = " ".join((ROOT / "docs" / "hardware.md").read_text(encoding="utf-8").split())
    assert f"An id is {MIN_CHARS} to {MAX_CHARS} characters" in text
    assert f"after more than {MAX_CHARS} characters" in text
    assert f"when fewer than {MIN_CHARS} characters come before the terminator" in text
    assert f"A pause of more than {MAX_GAP:g} s between two keys ends a number" in text


def test_repeats_and_key_ups_do_not_type() -> None:
    """A key held down repeats (value 2): it typed once; the key-ups between change nothing."""
    strokes = [(ecodes.KEY_1, 1, T0), (ecodes.KEY_1, 2, T0 + 0.25), (ecodes.KEY_1, 2, T0 + 0.28),
               (ecodes.KEY_1, 0, T0 + 0.3), *downs(codes_for("234") + [ENTER], T0 + 0.31)]
    assert frame(strokes) == ["1234"]


@pytest.mark.parametrize("pause,ids", [
    (MAX_GAP - 0.01, ["0012345678"]),  # a slow reader, still one number
    (MAX_GAP + 0.01, []),  # longer than any reader pauses: the start is dropped, the tail too short
    (30.0, []),
    (-(MAX_GAP + 0.01), []),  # the wall clock set back in the middle of a number
])
def test_a_pause_inside_a_number(pause: float, ids: list[str]) -> None:
    strokes = downs(codes_for("0012345")) + downs(codes_for("678") + [ENTER], T0 + 6 * KEY + pause)
    assert frame(strokes) == ids


def test_after_a_pause_a_new_number_starts() -> None:
    """A stray key or a half number, a pause, then a whole card: the card is read. Without the pause, the
    card is part of the number before it: dropped with it, or (after a half number) read as its end."""
    for before, unpaused in ((codes_for("12"), ["120012345678"]), ([ecodes.KEY_G], []),
                             (codes_for("1" * (MAX_CHARS + 3)), []), (codes_for("1" * (MAX_CHARS - 5)), [])):
        strokes = downs(before) + typed("0012345678", start=T0 + len(before) * KEY + MAX_GAP + 0.01)
        assert frame(strokes) == ["0012345678"], before
        strokes = downs(before) + typed("0012345678", start=T0 + len(before) * KEY + MAX_GAP - 0.01)
        assert frame(strokes) == unpaused, before


def test_a_device_opened_mid_number_drops_the_tail() -> None:
    """The first keys after opening may be the tail of a number whose start was typed before: dropped up to
    the terminator; a card typed once the opening is MAX_GAP past reads as usual."""
    assert frame(typed("45678"), opened=T0 - 0.05) == []
    assert frame(typed("45678") + typed("0012345678", start=T0 + 0.2), opened=T0 - 0.05) == ["0012345678"]
    assert frame(typed("0012345678", start=T0 + MAX_GAP + 0.01), opened=T0) == ["0012345678"]
    assert frame(typed("0012345678", start=T0 + MAX_GAP - 0.01), opened=T0) == []


def test_lost_events_drop_the_number() -> None:
    framer = KeyFramer()
    for code, value, at in downs(codes_for("00123")):
        assert framer.feed(code, value, at) is None
    framer.lost(T0 + 0.05)  # the kernel's buffer overflowed: some keys are missing
    assert [framer.feed(code, value, at) for code, value, at in downs(codes_for("45678") + [ENTER], T0 + 0.06)
            ] == [None] * 6
    assert [uid for code, value, at in typed("11223344", start=T0 + 0.2)
            if (uid := framer.feed(code, value, at))] == ["11223344"]


# ---------------------------------------------------------------------------
# The protocol on evdev events: scan codes, reports and lost events


def test_the_protocol_reads_a_readers_events() -> None:
    protocol = HidProtocol()
    events = keystrokes("0012345678", T0) + keystrokes("04A32B1C", T0 + 0.2, terminator=TAB) + keystrokes(
        "04a32b1c", T0 + 0.4, terminator=KPENTER, keypad=True)
    assert {e.type for e in events} == {ecodes.EV_MSC, ecodes.EV_KEY, ecodes.EV_SYN}
    assert protocol.feed(events) == ["0012345678", "04A32B1C", "04A32B1C"]
    card = keystrokes("0012345678", T0 + 1)
    assert protocol.feed(card[:31]) == []  # a number split across two reads is one number
    assert protocol.feed(card[31:]) == ["0012345678"]


def test_a_syn_dropped_loses_the_number() -> None:
    protocol = HidProtocol()
    events = keystrokes("00123", T0, terminator=None)
    events += [event(T0 + 0.05, ecodes.EV_SYN, ecodes.SYN_DROPPED, 0)]
    events += keystrokes("45678", T0 + 0.06) + keystrokes("11223344", T0 + 0.2)
    assert protocol.feed(events) == ["11223344"]


def test_other_event_types_are_ignored() -> None:
    protocol = HidProtocol()
    noise = [event(T0, ecodes.EV_LED, ecodes.LED_NUML, 1), event(T0, ecodes.EV_REL, ecodes.REL_X, 5),
             event(T0, ecodes.EV_MSC, ecodes.MSC_SCAN, 0x70028), event(T0, 99, 12, 1),
             event(T0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)]
    events = keystrokes("0012345678", T0)
    assert protocol.feed(noise + events[:9] + noise + events[9:] + noise) == ["0012345678"]


# ---------------------------------------------------------------------------
# Finding the device: a path or usb:VID:PID


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeInput]:
    fake = FakeInput(tmp_path, monkeypatch)
    yield fake
    fake.close_all()


def test_usb_ids_open_the_first_device_that_types_digits(machine: FakeInput) -> None:
    machine.plug(FakeReader("Some Mouse", vendor=0x046D, product=0xC077, keys=[ecodes.BTN_LEFT]))  # event0
    machine.plug(FakeReader("Some Keyboard", vendor=0x046D, product=0xC31C))  # event1
    media = FakeReader("Reader Consumer Control", keys=MEDIA_KEYS)
    machine.plug(media, number=2)  # the reader's second interface: same ids, no digits
    reader = FakeReader("Reader Keyboard", serial="R1")
    machine.plug(reader, number=10)  # event10 comes after event2 and event9, not between event1 and event2
    other = FakeReader("Second Reader", serial="R2")
    machine.plug(other, number=11)
    device = open_input_device("usb:ffff:0035")
    assert device.device is reader and device.path.endswith("event10")
    device.close()
    assert open_input_device("USB:FFFF:35").device is reader  # either case, leading zeros optional
    assert [Path(p).name for p in hid.event_devices()] == ["event0", "event1", "event2", "event10", "event11"]


def test_usb_ids_of_no_device_say_so(machine: FakeInput) -> None:
    machine.plug(FakeReader("Some Keyboard", vendor=0x046D, product=0xC31C))
    with pytest.raises(OSError, match=r"no keyboard reader usb:ffff:0035 \(is it plugged in\?") as gone:
        open_input_device("usb:ffff:0035")
    assert gone.value.errno == errno.ENODEV
    machine.plug(FakeReader(readable=False))
    with pytest.raises(OSError, match=r"1 may not be read \(.*event1\): the user must be in the 'input' group"):
        open_input_device("usb:ffff:0035")


@pytest.mark.parametrize("url", ["usb:", "usb:ffff", "usb:ffff:", "usb:ffff:0035:1", "usb:12345:0035", "usb:gg:00",
                                 "usb:ffff:0035 ", "usb: ffff:0035"])
def test_a_usb_url_that_is_not_vid_pid_is_refused(machine: FakeInput, url: str) -> None:
    with pytest.raises(ValueError, match="is not usb:VID:PID"):
        open_input_device(url)


def test_paths(machine: FakeInput) -> None:
    reader = FakeReader()
    link = machine.plug(reader)
    assert link.name == "usb-Fake_RFID_Reader_08FF20140315-event-kbd"
    for path in (str(link), str(machine.dir / "event0")):
        device = open_input_device(path)
        assert device.device is reader
        device.close()
    with pytest.raises(OSError, match=r"no input device .*nothing-event-kbd \(is the reader plugged in\?\)"):
        open_input_device(str(machine.by_id / "nothing-event-kbd"))
    (machine.dir / "mice").touch()
    with pytest.raises(OSError, match=r"mice is not an input device"):
        open_input_device(str(machine.dir / "mice"))
    mouse = FakeReader("Some Mouse", vendor=0x046D, product=0xC077, serial="M", keys=[ecodes.BTN_LEFT])
    with pytest.raises(OSError, match=r"is an input device but no keyboard reader"):
        open_input_device(str(machine.plug(mouse)))
    assert not mouse.handles  # closed again
    locked = FakeReader("Locked Reader", serial="L", readable=False)
    with pytest.raises(OSError, match=r"may not read .*: the user must be in the 'input' group"):
        open_input_device(str(machine.plug(locked)))


def test_open_grabs_and_close_lets_go(machine: FakeInput) -> None:
    reader = FakeReader()
    link = str(machine.plug(reader))
    protocol = HidProtocol()
    port = protocol.open(link)
    assert isinstance(port, HidPort) and reader.grabbed and reader.grabs == 1
    with pytest.raises(OSError, match="grabbed by another program") as busy:
        HidProtocol().open(link)  # a second program: refused, and its handle closed
    assert busy.value.errno == errno.EBUSY and len(reader.handles) == 1
    port.close()
    assert not reader.grabbed and not reader.handles and reader.ungrabs == 1


def test_close_after_an_unplug_does_not_raise(machine: FakeInput) -> None:
    reader = FakeReader()
    protocol = HidProtocol()
    port = protocol.open(str(machine.plug(reader)))
    machine.unplug(reader)
    with pytest.raises(OSError) as gone:
        protocol.poll(port)
    assert gone.value.errno == errno.ENODEV
    port.close()
    assert not reader.handles


def test_an_injected_opener_is_used_and_grabbed(machine: FakeInput) -> None:
    reader = FakeReader()
    machine.plug(reader)
    asked: list[str] = []

    def opener(url: str) -> Any:
        asked.append(url)
        return machine.open(str(machine.link(reader)))

    port = HidProtocol(opener=opener).open("the reader")
    assert asked == ["the reader"] and reader.grabbed
    port.close()


def test_the_kind_is_registered() -> None:
    kind = kinds.kind("hid")
    assert kind.needs == ("evdev",) and kind.missing() == [] and not kind.emulator
    protocol = kind.make(9600)
    assert isinstance(protocol, HidProtocol) and protocol.baudrate == 9600
    assert "usb:VID:PID" in kind.url and "event-kbd" in kind.url


def test_the_module_imports_without_evdev() -> None:
    """python-evdev is imported only where a device is opened: the kinds table lists hid without it."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['evdev'] = None\n"
            "import hardware.hid as hid\n"
            "f = hid.KeyFramer()\n"
            "assert [f.feed(c, 1, 0.0) for c in (2, 3, 4, 5, 28)][-1] == '1234'\n"
            "try:\n    hid.open_input_device('/dev/input/event0')\nexcept ImportError:\n    print('needs evdev')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "needs evdev"


# ---------------------------------------------------------------------------
# The reader thread: the real CardReader and HidProtocol on the fake input subsystem


def connected(machine: FakeInput, url: str, collector: Collector, retap: float = 1.5) -> CardReader:
    """A started reader on `url`, once it says "connected" and is past the settling time after opening
    (keys within MAX_GAP of the opening may be a tail; the fake's keystrokes carry the wall clock's time)."""
    reader = CardReader(url, HidProtocol(), collector.on_tap, collector.on_status, retap_window=retap).start()
    assert collector.wait(lambda: collector.words()[-1:] == ["connected"])
    settle_after_opening()
    return reader


def settle_after_opening() -> None:
    time.sleep(MAX_GAP + 0.05)


def test_a_grabbed_readers_keys_never_reach_the_console(machine: FakeInput) -> None:
    reader_device = FakeReader()
    link = str(machine.plug(reader_device))
    collector = Collector()
    with connected(machine, link, collector):
        assert reader_device.grabbed
        reader_device.tap("0012345678")
        assert collector.wait(lambda: collector.uids() == ["0012345678"])
        assert reader_device.console == []  # grabbed: not one keystroke reached anyone else
    reader_device.tap("11223344")
    assert len(reader_device.console) > 0  # no longer grabbed: keys reach the system again


def test_usb_ids_as_the_url(machine: FakeInput) -> None:
    device = FakeReader()
    machine.plug(FakeReader("Some Keyboard", vendor=0x046D, product=0xC31C))
    machine.plug(device)
    collector = Collector()
    with connected(machine, "usb:ffff:0035", collector):
        device.tap("0012345678")
        assert collector.wait(lambda: collector.uids() == ["0012345678"])


def test_a_number_cut_by_an_unplug_is_not_finished_after_the_replug(machine: FakeInput) -> None:
    """Half a number, the cable pulled, plugged back: the rest of the number, typed as the device opens again,
    is a tail and dropped; the next card reads."""
    device = FakeReader()
    link = str(machine.plug(device))
    collector = Collector()
    with connected(machine, link, collector) as reader:
        device.type("00123", terminator=None)  # half a number...
        machine.unplug(device)  # ...and the cable is pulled
        assert collector.wait(lambda: collector.words() == ["connected", "disconnected"])
        assert not os.path.exists(link)
        machine.plug(device)  # back under the same by-id name
        assert collector.wait(lambda: collector.words() == ["connected", "disconnected", "connected"])
        assert device.grabbed and device.grabs == 2
        opened = reader.protocol.framer.last  # when it was opened again (nothing was typed since)
        assert opened is not None
        device.type("45678", at=opened + 0.01)  # the rest of the half number, as the device opens: dropped
        device.tap("0087654321")  # after that terminator, a card at once
        assert collector.wait(lambda: len(collector.taps) == 1)
        assert collector.uids() == ["0087654321"]


def test_a_reader_another_program_holds_is_reported(machine: FakeInput) -> None:
    device = FakeReader()
    link = str(machine.plug(device))
    other = machine.open(link)
    other.grab()
    collector = Collector()
    with CardReader(link, HidProtocol(), collector.on_tap, collector.on_status):
        assert collector.wait(lambda: collector.words() == ["disconnected"])
        assert "grabbed by another program" in collector.statuses[0].detail
        other.close()  # the other program quits
        assert collector.wait(lambda: collector.words() == ["disconnected", "connected"])
        assert device.grabbed_by is not other and device.grabbed


def test_banker_hw_cards_says_why_there_is_no_reader(tmp_path: Path) -> None:
    import subprocess
    import sys

    empty_config = tmp_path / "config.toml"
    empty_config.write_text("# defaults\n")
    proc = subprocess.Popen([sys.executable, "-m", "banker", "hw", "cards", "--protocol", "hid", "--port",
                             str(tmp_path / "usb-Nothing-event-kbd")], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "BANKER_CONFIG": str(empty_config)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert line == f"disconnected (cannot open: no input device {tmp_path}/usb-Nothing-event-kbd " \
                   "(is the reader plugged in?))"


# ---------------------------------------------------------------------------
# A real virtual keyboard, where the kernel offers one


def test_a_real_virtual_keyboard_through_uinput() -> None:
    if not os.path.exists("/dev/uinput"):
        pytest.skip("no /dev/uinput on this machine")
    if not os.access("/dev/uinput", os.R_OK | os.W_OK):
        pytest.skip("/dev/uinput is here but this user may not use it")
    keys = [*hid.CHARACTERS, *hid.TERMINATORS, *hid.SHIFTS, ecodes.KEY_G]
    with evdev.UInput({ecodes.EV_KEY: keys}, name="Board Banker test reader", vendor=0xFFFF, product=0x0035) as ui:
        path = ui.device.path
        collector = Collector()
        with CardReader(path, HidProtocol(), collector.on_tap, collector.on_status):
            assert collector.wait(lambda: collector.words() == ["connected"], timeout=5)
            other = evdev.InputDevice(path)
            try:
                with pytest.raises(OSError):
                    other.grab()  # grabbed by the reader
            finally:
                other.close()
            settle_after_opening()

            def press(code: int) -> None:
                for value in (1, 0):
                    ui.write(ecodes.EV_KEY, code, value)
                    ui.syn()
                    time.sleep(0.004)

            for code in [*codes_for("00123"), ecodes.KEY_G, *codes_for("45678"), ENTER, *codes_for("0012345678"),
                         ENTER]:
                press(code)
            assert collector.wait(lambda: len(collector.taps) == 1, timeout=5)
            assert collector.uids() == ["0012345678"]


# ---------------------------------------------------------------------------
# An independent statement of the rules, and random key events against it


def oracle(strokes: list[tuple[int, int, float]], opened: float | None = None) -> list[str]:
    """The ids in a key event stream, stated as text: each counted key-down (value 1, not shift) becomes a
    character (a digit, A-F, "\\n" for a terminator, "x" for anything else), a "|" marks a pause of more than
    MAX_GAP before a key, and the opening is an "x" at its time. An id is a piece between two of "\\n" and "|"
    (or the start) that is followed by "\\n" and is MIN_CHARS to MAX_CHARS characters of [0-9A-F]."""
    text = []
    last = opened
    if opened is not None:
        text.append("x")
    for code, value, at in strokes:
        if value != 1 or code in (SHIFT, RSHIFT):
            continue
        if last is not None and abs(at - last) > MAX_GAP:
            text.append("|")
        last = at
        text.append("\n" if code in (ENTER, KPENTER, TAB) else hid.CHARACTERS.get(code, "x"))
    pieces = re.split(r"(\n|\|)", "".join(text))
    return [piece for piece, after in zip(pieces[::2], pieces[1::2], strict=False)  # the last piece ends the text
            if after == "\n" and re.fullmatch(rf"[0-9A-F]{{{MIN_CHARS},{MAX_CHARS}}}", piece)]


def test_the_oracle_itself() -> None:
    assert oracle(typed("0012345678") + typed("04a32b1c", start=T0 + 0.2)) == ["0012345678", "04A32B1C"]
    assert oracle(downs(codes_for("12") + [ecodes.KEY_G] + codes_for("345678") + [ENTER])) == []
    assert oracle(typed("12345"), opened=T0 - 0.1) == []
    assert oracle(typed("12345"), opened=T0 - MAX_GAP - 0.1) == ["12345"]


RELEVANT = [*hid.CHARACTERS, *hid.TERMINATORS, *hid.SHIFTS, ecodes.KEY_G, ecodes.KEY_SPACE, ecodes.KEY_CAPSLOCK]
stroke = st.tuples(st.one_of(st.sampled_from(RELEVANT), st.integers(0, 767)),
                   st.sampled_from([1, 1, 1, 1, 0, 2, -1, 3]),
                   st.sampled_from([0.0, 0.001, 0.004, 0.02, MAX_GAP - 0.01, MAX_GAP + 0.01, 2.0]))


@settings(max_examples=400, deadline=None)
@given(st.lists(stroke, max_size=80), st.one_of(st.none(), st.sampled_from([0.1, MAX_GAP + 0.01])))
def test_random_key_events_give_exactly_the_ids_of_the_rules(
        steps: list[tuple[int, int, float]], opened_before: float | None) -> None:
    strokes = []
    t = T0
    for code, value, dt in steps:
        t += dt
        strokes.append((code, value, t))
    opened = None if opened_before is None else T0 - opened_before
    got = frame(strokes, opened)
    assert got == oracle(strokes, opened)
    for uid in got:
        assert re.fullmatch(rf"[0-9A-F]{{{MIN_CHARS},{MAX_CHARS}}}", uid)


# ---------------------------------------------------------------------------
# The seeded fuzzer: cards presented among random keystrokes; phantom taps, missed taps and crashes counted

CASES = int(os.environ.get("BANKER_FUZZ_CASES", "1500"))
SEED = int(os.environ.get("BANKER_FUZZ_SEED", "36"))
STRAYS = [ecodes.KEY_G, ecodes.KEY_Z, ecodes.KEY_SPACE, ecodes.KEY_MINUS, ecodes.KEY_DOT, ecodes.KEY_ESC,
          ecodes.KEY_LEFTCTRL, ecodes.KEY_CAPSLOCK, ecodes.KEY_NUMLOCK, ecodes.KEY_KPDOT, ecodes.KEY_KPMINUS,
          ecodes.KEY_BACKSPACE, ecodes.KEY_LINEFEED, ecodes.KEY_F1, ecodes.BTN_LEFT, 0, 255, 700]
WRONG_ENDS = [ecodes.KEY_SPACE, ecodes.KEY_LINEFEED, ecodes.KEY_ESC, ecodes.KEY_DOT, ecodes.KEY_SEMICOLON]


class Stream:
    """The events of one fuzz case, built key by key, with what was presented cleanly and what was done."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.events: list[Any] = []
        self.t = T0 + rng.uniform(0, 1000)
        self.presented: list[str] = []
        self.done: list[str] = []
        self.clean = True  # may the next key start a number (the last counted key-down was a terminator)?

    def at(self, dt: float) -> float:
        self.t += dt
        return self.t

    def noise(self) -> None:
        """Events that must change nothing: scan codes, empty reports, LEDs, odd values, key-ups, repeats."""
        rng = self.rng
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            kind = rng.randrange(6)
            t = self.t
            if kind == 0:
                self.events.append(event(t, ecodes.EV_MSC, ecodes.MSC_SCAN, rng.randrange(1 << 20)))
            elif kind == 1:
                self.events.append(event(t, ecodes.EV_SYN, ecodes.SYN_REPORT, 0))
            elif kind == 2:
                self.events.append(event(t, ecodes.EV_LED, rng.randrange(16), rng.randrange(2)))
            elif kind == 3:
                self.events.append(event(t, ecodes.EV_KEY, rng.choice(RELEVANT + STRAYS), rng.choice([0, 2])))
            elif kind == 4:
                self.events.append(event(t, ecodes.EV_KEY, rng.choice(RELEVANT + STRAYS), rng.choice([-1, 3, 99])))
            else:
                self.events.append(event(t, rng.choice([ecodes.EV_REL, ecodes.EV_ABS, 17, 31]), rng.randrange(64),
                                         rng.randrange(-5, 5)))

    def key(self, code: int, shifted: bool = False, step: float = 0.004) -> None:
        """One key pressed and let go as a reader does, `step` seconds after the previous key, noise around."""
        rng = self.rng
        self.at(step)
        self.noise()
        shift = rng.choice([SHIFT, RSHIFT])
        if shifted:
            self.events += report(self.t, shift, 1)
        self.events += report(self.t, code, 1)
        if rng.random() < 0.05:  # the key held a while: autorepeats, which type nothing
            self.events += report(self.t, code, 2) * rng.randint(1, 3)
        self.events += report(self.t, code, 0)
        if shifted:
            self.events += report(self.t, shift, 0)
        self.noise()

    def pause(self) -> None:
        """Longer than any reader pauses: whatever was half-typed is over."""
        self.at(MAX_GAP + self.rng.choice([0.002, 0.1, 3.0, 600.0]))
        self.clean = True

    def type_chars(self, text: str, step_most: float = 0.02) -> None:
        rng = self.rng
        for char in text:
            keypad = char.isdigit() and rng.random() < 0.3
            code = getattr(ecodes, f"KEY_KP{char}" if keypad else f"KEY_{char.upper()}")
            self.key(code, shifted=char.isalpha() and (char.isupper() or rng.random() < 0.2),
                     step=rng.uniform(0.0005, step_most))

    def end(self) -> None:
        self.key(self.rng.choice([ENTER, ENTER, KPENTER, TAB]), step=self.rng.uniform(0.0005, 0.02))
        self.clean = True

    # What may come in a stream: a card presented cleanly, and the ways a number goes wrong.

    def card(self) -> None:
        rng = self.rng
        if not self.clean:
            self.pause()
        if rng.random() < 0.5:
            uid = "".join(rng.choice("0123456789") for _ in range(rng.choice([4, 5, 8, 10, 10, 10, 17, 25])))
        else:
            uid = "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(rng.choice([4, 8, 8, 14, 20])))
        slow = rng.random() < 0.1  # now and then a slow reader, keys up to just under MAX_GAP apart
        self.at(rng.choice([0.0, 0.05, 0.3, 2.0]))
        self.type_chars(uid, step_most=MAX_GAP - 0.01 if slow else 0.02)
        self.end()
        self.presented.append(uid.upper())
        self.done.append(f"card {uid}")

    def garbage(self) -> None:
        rng = self.rng
        kind = rng.randrange(8)
        digits = "".join(rng.choice("0123456789ABCDEF") for _ in range(rng.randint(1, 12)))
        if kind == 0:  # a stray key inside a number, then its terminator (or none)
            self.type_chars(digits)
            self.key(rng.choice(STRAYS))
            self.type_chars(digits)
            if rng.random() < 0.5:
                self.end()
            else:
                self.clean = False
        elif kind == 1:  # over-long
            self.type_chars("".join(rng.choice("0123456789") for _ in range(rng.randint(MAX_CHARS + 1, 60))))
            self.end()
        elif kind == 2:  # too short
            if not self.clean:
                self.pause()  # or it would be the end of the number before it
            self.type_chars(digits[:rng.randint(0, MIN_CHARS - 1)])
            self.end()
        elif kind == 3:  # a wrong terminator
            self.type_chars(digits.ljust(8, "0"))
            self.key(rng.choice(WRONG_ENDS))
            self.clean = False
        elif kind == 4:  # half a number, a pause, a tail too short to be an id
            self.type_chars(digits)
            self.pause()
            self.type_chars(digits[:rng.randint(0, MIN_CHARS - 1)])
            self.end()
        elif kind == 5:  # the kernel lost events in the middle of a number
            self.type_chars(digits)
            self.events.append(event(self.at(0.001), ecodes.EV_SYN, ecodes.SYN_DROPPED, 0))
            self.type_chars(digits.ljust(8, "1"))
            self.end()
        elif kind == 6:  # a number without its terminator
            self.type_chars(digits)
            self.clean = False
        else:  # random keys, each terminated run with a stray key in it
            for _ in range(rng.randint(1, 30)):
                code = rng.choice([*RELEVANT, *STRAYS])
                if code in hid.TERMINATORS:
                    self.key(rng.choice(STRAYS))
                self.key(code, shifted=rng.random() < 0.1)
            self.clean = False
        self.done.append(f"garbage {kind}")


def fuzz_case(rng: random.Random) -> Stream:
    stream = Stream(rng)
    for _ in range(rng.randint(1, 12)):
        if rng.random() < 0.5:
            stream.card()
        else:
            stream.garbage()
    return stream


def run_fuzz(cases: int, seed: int, protocol_class: type[HidProtocol] = HidProtocol) -> dict[str, int]:
    """Feed `cases` random streams through the protocol, in random pieces as reads would bring them; count
    the phantom taps (an id not presented, or presented fewer times), the missed taps (an id presented cleanly
    that did not come) and the crashes, each with the first case that had it."""
    rng = random.Random(seed)
    counts = {"cases": 0, "presented": 0, "phantom": 0, "missed": 0, "crashes": 0}
    first: dict[str, str] = {}
    for k in range(cases):
        stream = fuzz_case(rng)
        protocol = protocol_class()
        got: list[str] = []
        where = f"case {k} (BANKER_FUZZ_SEED={seed}): {', '.join(stream.done)}"
        try:
            i = 0
            while i < len(stream.events):
                n = rng.randint(1, 60)
                got += protocol.feed(stream.events[i:i + n])
                i += n
        except Exception as exc:
            counts["crashes"] += 1
            first.setdefault("crashes", f"{where}: {''.join(traceback.format_exception(exc))}")
            continue
        counts["cases"] += 1
        counts["presented"] += len(stream.presented)
        phantom = sum((Counter(got) - Counter(stream.presented)).values())
        missed = sum((Counter(stream.presented) - Counter(got)).values())
        counts["phantom"] += phantom
        counts["missed"] += missed
        if phantom:
            first.setdefault("phantom", f"{where}: got {got}, presented {stream.presented}")
        if missed:
            first.setdefault("missed", f"{where}: got {got}, presented {stream.presented}")
        if got != stream.presented and not (phantom or missed):
            first.setdefault("order", f"{where}: got {got}, presented {stream.presented}")
    for what in ("phantom", "missed", "crashes", "order"):
        if what in first:
            raise AssertionError(f"{counts}; the first {what}: {first[what]}")
    return counts


def test_fuzz_keystroke_streams() -> None:
    counts = run_fuzz(CASES, SEED)
    assert counts["phantom"] == counts["missed"] == counts["crashes"] == 0
    assert counts["cases"] == CASES
    if CASES >= 100:
        assert counts["presented"] > CASES, counts  # the cards are there to be missed
    print(f"{CASES} streams, {counts['presented']} cards presented: no phantom tap, none missed, no crash")


def test_the_fuzzer_would_catch_a_phantom_a_miss_and_a_crash() -> None:
    """The harness itself: a framer that reads the tail after a stray key, one that drops long ids, and one
    that raises are each reported, with the case."""

    class TailReader(HidProtocol):  # forgets the stray key instead of dropping the run
        def feed(self, events: Any) -> list[str]:
            return super().feed(e for e in events if not (e.type == ecodes.EV_KEY and e.code in STRAYS))

    with pytest.raises(AssertionError, match=r"the first phantom: case \d+ \(BANKER_FUZZ_SEED=1\)"):
        run_fuzz(200, 1, TailReader)

    class ShortReader(HidProtocol):
        def feed(self, events: Any) -> list[str]:
            return [uid for uid in super().feed(events) if len(uid) < 17]

    with pytest.raises(AssertionError, match=r"the first missed: case \d+"):
        run_fuzz(200, 1, ShortReader)

    class Crasher(HidProtocol):
        def feed(self, events: Any) -> list[str]:
            if any(e.type == ecodes.EV_SYN and e.code == ecodes.SYN_DROPPED for e in events):
                raise KeyError("boom")
            return super().feed(events)

    with pytest.raises(AssertionError, match=r"(?s)the first crashes: case \d+.*KeyError: 'boom'"):
        run_fuzz(200, 1, Crasher)
