"""The reader contract, one test per promise, run over every reader kind (hardware/kinds.py) through its fake.

What every card reader does for the app, whatever its kind (docs/hardware.md, "How a reader keeps going"):

- a tap is reported once, with the card's UID and the reader's url;
- a card left resting on the reader is reported once, not again and again; lifted long enough, it taps anew;
- an unplug is reported ("disconnected", with why), and after the replug the reader works again; a reader
  that is not there at the start says so once, keeps trying quietly, and is found when it comes;
- garbage from the device is no tap and no crash, and the next card reads;
- a slow device (answering late, or its bytes coming in pieces) still gives the right tap;
- closing the reader stops it: its thread gone, its device let go, no event after.

Each kind's harness (readerkit.py) makes these moves on its own fake, with the real protocol, as
hardware/kinds.py makes it for the app, and the real `CardReader` on top. What is a kind's own (its frames, its
config, its particular failures) stays in its own file: test_line_reader.py, test_pn532.py, test_hid.py,
test_pcsc.py, test_rc522.py.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from collector import Collector
from hardware import kinds
from hardware.events import READER_PROBLEMS
from hardware.reader import CardReader
from readerkit import KITS, SLOW_MODES, Kit, make_kit

REPLUG = 2.0  # seconds from a replug to "connected": the reader tries again at least every 0.5 s

# The pcsc kind runs on the tests' own pcscd, which test_pcsc.py shares: one xdist worker for all of them.
KINDS = [pytest.param(kind, marks=pytest.mark.xdist_group("pcsc")) if kind == "pcsc" else kind for kind in KITS]


@pytest.fixture(params=KINDS)
def kit(request: pytest.FixtureRequest) -> Iterator[Kit]:
    made = make_kit(request.param, request)
    try:
        yield made
    finally:
        made.close()


@contextmanager
def reading(kit: Kit) -> Iterator[tuple[Collector, CardReader]]:
    """The kind's protocol in a started CardReader on the kit's url, once it says "connected" and is ready."""
    collector = Collector()
    with CardReader(kit.url, kit.protocol(), collector.on_tap, collector.on_status,
                    retap_window=kit.retap_window) as reader:
        assert collector.wait(lambda: collector.words() == ["connected"], kit.wait), collector.statuses
        kit.ready()
        yield collector, reader


def tapped(kit: Kit, collector: Collector, uid: str) -> None:
    """Tap `uid` and wait for exactly the taps before it and this one."""
    before = collector.uids()
    kit.tap(uid)
    assert collector.wait(lambda: len(collector.uids()) > len(before), kit.wait), f"{uid} gave no tap"
    assert collector.uids() == [*before, uid]


def reader_threads(url: str) -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == f"card reader {url}"]


def test_every_kind_is_held_to_the_contract() -> None:
    assert sorted(KITS) == sorted(kinds.NAMES)


def test_a_tap_is_reported_once_with_its_uid(kit: Kit) -> None:
    with reading(kit) as (collector, _):
        for uid in kit.uids:  # a 4, a 7 and a 10 byte UID (a keyboard reader: decimal and hex numbers)
            tapped(kit, collector, uid)
        kit.settle()
        assert collector.uids() == list(kit.uids)
        assert {tap.reader for tap in collector.taps} == {kit.url}
        assert collector.words() == ["connected"]


def test_a_resting_card_is_reported_once(kit: Kit) -> None:
    first, second = kit.uids[:2]
    with reading(kit) as (collector, _):
        kit.place(first)
        assert collector.wait(lambda: collector.uids() == [first], kit.wait), collector.uids()
        kit.rest()  # longer than the retap window, the device reporting the card (or asked for it) all along
        assert collector.uids() == [first]
        kit.lift()
        kit.place(second)  # another card, at once: a tap of its own
        assert collector.wait(lambda: collector.uids() == [first, second], kit.wait), collector.uids()
        kit.rest()
        kit.lift()
        kit.forget()
        kit.place(first)  # the first card again, lifted long enough: a new tap
        assert collector.wait(lambda: collector.uids() == [first, second, first], kit.wait), collector.uids()
        kit.lift()
        kit.place(second)  # and the second
        assert collector.wait(lambda: collector.uids() == [first, second, first, second], kit.wait), \
            collector.uids()
        kit.lift()
        assert collector.words() == ["connected"]


def test_an_unplug_is_reported_and_a_replug_reads_again(kit: Kit) -> None:
    first, second = kit.uids[:2]
    with reading(kit) as (collector, reader):
        tapped(kit, collector, first)
        kit.unplug()
        assert collector.wait(lambda: collector.words() == ["connected", "disconnected"], kit.wait), \
            collector.statuses
        gone = collector.statuses[-1]
        assert gone.detail and gone.problem in READER_PROBLEMS and gone.problem
        assert re.search(kit.gone_detail, gone.detail), gone.detail
        assert not reader.connected
        kit.replug()
        replugged = time.monotonic()
        assert collector.wait(lambda: collector.words() == ["connected", "disconnected", "connected"], kit.wait), \
            collector.statuses
        assert time.monotonic() - replugged < REPLUG  # noticed within a second or so
        kit.ready()
        tapped(kit, collector, second)
        assert collector.words() == ["connected", "disconnected", "connected"]


def test_a_reader_absent_at_the_start_says_so_once_and_is_found_when_it_comes(kit: Kit) -> None:
    kit.unplug()
    collector = Collector()
    with CardReader(kit.url, kit.protocol(), collector.on_tap, collector.on_status, retap_window=kit.retap_window):
        assert collector.wait(lambda: collector.words() == ["disconnected"], kit.wait), collector.statuses
        absent = collector.statuses[0]
        assert absent.detail.startswith("cannot open: ") and kit.absent_detail in absent.detail, absent.detail
        assert absent.problem in READER_PROBLEMS and absent.problem
        assert kit.wait_opens(4)  # tried again and again...
        assert collector.words() == ["disconnected"]  # ...quietly
        kit.replug()
        replugged = time.monotonic()
        assert collector.wait(lambda: collector.words() == ["disconnected", "connected"], kit.wait), \
            collector.statuses
        assert time.monotonic() - replugged < REPLUG
        kit.ready()
        tapped(kit, collector, kit.uids[0])


def test_garbage_is_no_tap_and_no_crash(kit: Kit) -> None:
    rng = random.Random(kit.seed)
    with reading(kit) as (collector, reader):
        expected: list[str] = []
        for round_, garbage in enumerate(kit.garbage(rng)):
            garbage()
            kit.settle()
            assert collector.uids() == expected, f"garbage round {round_} gave a tap"
            uid = f"{0x11223300 + round_:08X}"  # after each round, a card that has not tapped yet reads
            tapped(kit, collector, uid)
            expected.append(uid)
        assert expected, "the harness sent no garbage"
        assert collector.words() == ["connected"]
        assert reader_threads(kit.url)  # still reading


@pytest.mark.parametrize("mode", SLOW_MODES)
def test_a_slow_reader_gives_the_right_tap(kit: Kit, mode: str) -> None:
    if mode in kit.not_slow:
        pytest.skip(f"{kit.kind}: {kit.not_slow[mode]}")
    with reading(kit) as (collector, _):
        for uid in kit.uids[:2]:
            kit.slow_tap(uid, mode)
            assert collector.wait(lambda uid=uid: uid in collector.uids(), kit.wait), f"{uid} gave no tap"
        kit.settle()
        assert collector.uids() == list(kit.uids[:2])
        assert collector.words() == ["connected"]


def test_close_stops_the_reader_and_lets_the_device_go(kit: Kit) -> None:
    collector = Collector()
    reader = CardReader(kit.url, kit.protocol(), collector.on_tap, collector.on_status,
                        retap_window=kit.retap_window).start()
    assert collector.wait(lambda: collector.words() == ["connected"], kit.wait), collector.statuses
    kit.ready()
    tapped(kit, collector, kit.uids[0])
    began = time.monotonic()
    reader.close()
    assert time.monotonic() - began < 2.0
    assert reader_threads(kit.url) == []
    closed = collector.statuses[-1]
    assert (closed.word, closed.detail, closed.problem) == ("disconnected", "closed", "")
    assert kit.released()
    statuses, taps = list(collector.statuses), list(collector.taps)
    kit.place(kit.uids[1])  # a card on the closed reader: nobody reads it
    time.sleep(0.5)
    kit.lift()
    reader.close()  # a second close does nothing
    assert (collector.statuses, collector.taps) == (statuses, taps)
