"""The `pcsc` kind (hardware/pcsc.py) against the real pcscd and Debian's virtual reader driver (vsmartcard-vpcd),
with virtual cards (hardware/pcsc_emulator.py) put on the reader and taken away, through what is the PC/SC
reader's own: GET DATA's replies, the reader chosen by its name, what vpcd cannot play (a reader unplugged while
watched, a card swapped between two waits, a card resting while the link to pcscd is lost), `banker hw cards`
and `banker hw emulate` across a pcscd restart, and a seeded fuzzer of faulty cards. What every kind does (a tap,
a resting card, an unplug, garbage, a slow reader, the close) is test_reader_contract.py's, run over this kind
too.

The tests start their own pcscd (conftest.py, readerkit.py's `Pcscd`), in the foreground, and stop it at the
end; a pcscd that was already running (or a socket systemd holds for one) is never touched: the tests that need
pcscd are skipped instead. vpcd listens on one fixed port and pcscd has one socket, so every test here runs on
one xdist worker, one at a time.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from collector import Collector
from hardware.pcsc import PcscProtocol, choose_reader, uid_from_reply
from hardware.pcsc_emulator import READER, Fault, PcscEmulator, VirtualCard
from readerkit import PCSC_WAIT, Pcscd

pytestmark = pytest.mark.xdist_group("pcsc")

ROOT = Path(__file__).resolve().parents[2]
WAIT = PCSC_WAIT


# ----------------------------------------------------------------------
# Pure parts: no pcscd needed


@pytest.mark.parametrize("reply, uid", [
    ("04A32B1C9000", "04A32B1C"), ("04112233445566 9000", "04112233445566"),
    ("0102030405060708090A 9000", "0102030405060708090A"), ("deadbeef9000", "DEADBEEF"),
])
def test_a_uid_reply_gives_the_uid(reply: str, uid: str) -> None:
    assert uid_from_reply(bytes.fromhex(reply)) == uid
    assert uid_from_reply(list(bytes.fromhex(reply))) == uid


@pytest.mark.parametrize("reply", [
    "", "90", "9000", "04A32B1C6A82", "04A32B1C9001", "6A81", "04A32B9000", "04A32B1C559000",
    "0102030405060708090A0B9000", "04A32B1C90", "04A32B1C0090", "0102030405060708090A0B0C0D0E0F10111213149000",
])
def test_any_other_reply_gives_nothing(reply: str) -> None:
    assert uid_from_reply(bytes.fromhex(reply)) is None


def test_random_replies_give_a_uid_only_when_well_formed() -> None:
    rng = random.Random(36)
    for _ in range(5000):
        reply = bytes(rng.randrange(256) for _ in range(rng.randint(0, 14)))
        if rng.random() < 0.3:
            reply = reply[:rng.choice([4, 7, 10, len(reply)])] + b"\x90\x00"
        good = len(reply) - 2 in (4, 7, 10) and reply.endswith(b"\x90\x00")
        assert uid_from_reply(reply) == (reply[:-2].hex().upper() if good else None)


def test_the_reader_is_chosen_by_its_name_or_its_start() -> None:
    readers = ["ACS ACR122U PICC Interface 00 00", "Virtual PCD 00 00", "Virtual PCD 00 01"]
    assert choose_reader(readers, "") == readers[0]
    assert choose_reader(readers, "ACS ACR122U") == readers[0]
    assert choose_reader(readers, "Virtual PCD 00 01") == readers[2]
    assert choose_reader(readers, "Virtual PCD") == readers[1]
    assert choose_reader(readers, "Gemalto") is None
    assert choose_reader([], "") is None


def test_the_emulator_refuses_a_link() -> None:
    from hardware.events import HardwareError

    with pytest.raises(HardwareError, match="--link does not apply"):
        PcscEmulator(link="/tmp/reader")


# ----------------------------------------------------------------------
# The real pcscd with vpcd


@pytest.fixture
def cards(running: Pcscd) -> Iterator[PcscEmulator]:
    with PcscEmulator() as emulator:
        yield emulator


@contextmanager
def reading(url: str = READER, protocol: PcscProtocol | None = None,
            retap_window: float = 0.0) -> Iterator[Collector]:
    """A real CardReader on the virtual reader, connected. retap_window 0: every tap the protocol reports counts,
    so one tap for a resting card is the protocol's doing."""
    from hardware.reader import CardReader

    collector = Collector()
    with CardReader(url, protocol or PcscProtocol(), collector.on_tap, collector.on_status,
                    retap_window=retap_window):
        assert collector.wait(lambda: "connected" in collector.words(), WAIT), collector.statuses
        yield collector


def tap(emulator: PcscEmulator, uid: str, fault: Fault = Fault.NONE) -> VirtualCard:
    """Put a card on the reader until it has been asked for its UID, then take it away."""
    card = emulator.place(uid, fault)
    assert card.answered.wait(WAIT), f"nobody asked {uid} for its UID"
    emulator.remove()
    return card


def test_an_empty_url_is_the_first_reader(cards: PcscEmulator) -> None:
    with reading("") as collector:
        tap(cards, "04A32B1C")
        assert collector.wait(lambda: collector.uids() == ["04A32B1C"], WAIT)


class CountingProtocol(PcscProtocol):
    def __init__(self) -> None:
        super().__init__()
        self.opens = 0
        self.opened = threading.Condition()

    def open(self, url: str) -> Any:
        with self.opened:
            self.opens += 1
            self.opened.notify_all()
        return super().open(url)


def test_a_url_naming_no_reader_says_why_and_keeps_trying(running: Pcscd) -> None:
    from hardware.reader import CardReader

    collector = Collector()
    protocol = CountingProtocol()
    with CardReader("Gemalto PC Twin", protocol, collector.on_tap, collector.on_status):
        with protocol.opened:
            assert protocol.opened.wait_for(lambda: protocol.opens >= 4, WAIT)
    assert collector.words() == ["disconnected"]  # said once, then retried quietly
    detail = collector.statuses[0].detail
    assert 'no PC/SC reader named "Gemalto PC Twin"' in detail and READER in detail


class ScriptedPcscd:
    """pyscard's calls answered from a script, for what vpcd cannot do: a reader unplugged while watched, a card
    swapped between two waits, a mute card. The codes and flags are pyscard's own."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, states: list[tuple[int, int]],
                 reply: list[int] | None = None) -> None:
        from smartcard import scard

        self.scard = scard
        self.states = states  # (hresult, reader state) per SCardGetStatusChange
        self.reply = reply if reply is not None else list(bytes.fromhex("04A32B1C9000"))
        self.reads = 0
        self.service = scard.SCARD_S_SUCCESS  # what a fresh SCardEstablishContext gets
        for name in ("SCardGetStatusChange", "SCardConnect", "SCardTransmit", "SCardDisconnect",
                     "SCardEstablishContext", "SCardReleaseContext", "SCardListReaders"):
            monkeypatch.setattr(scard, name, getattr(self, name))

    def SCardGetStatusChange(self, context: int, timeout: int, readers: list[tuple[str, int]]) -> Any:
        hresult, state = self.states.pop(0)
        return hresult, [(readers[0][0], state, [])]

    def SCardConnect(self, context: int, reader: str, share: int, protocols: int) -> Any:
        return self.scard.SCARD_S_SUCCESS, 1, self.scard.SCARD_PROTOCOL_T1

    def SCardTransmit(self, card: int, protocol: int, apdu: list[int]) -> Any:
        self.reads += 1
        return self.scard.SCARD_S_SUCCESS, self.reply

    def SCardDisconnect(self, card: int, disposition: int) -> int:
        return self.scard.SCARD_S_SUCCESS

    def SCardEstablishContext(self, scope: int) -> Any:
        return self.service, 7

    def SCardReleaseContext(self, context: int) -> int:
        return self.scard.SCARD_S_SUCCESS

    def SCardListReaders(self, context: int, groups: list[str]) -> Any:
        return self.scard.SCARD_S_SUCCESS, [READER]


def scripted_handle(scripted: ScriptedPcscd) -> Any:
    from hardware.pcsc import PcscHandle

    return PcscHandle(scripted.scard, 7, READER, scripted.scard.SCARD_STATE_UNAWARE)


def test_a_card_swapped_between_two_waits_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """pcscd counts arrivals and departures in the state's upper 16 bits: present, then present with another count,
    is a card taken away and put back (or another card) between two waits."""
    pytest.importorskip("smartcard")
    from smartcard import scard

    ok, present, empty = scard.SCARD_S_SUCCESS, scard.SCARD_STATE_PRESENT, scard.SCARD_STATE_EMPTY
    scripted = ScriptedPcscd(monkeypatch, [
        (ok, present | 1 << 16), (ok, present | scard.SCARD_STATE_INUSE | 1 << 16), (scard.SCARD_E_TIMEOUT, 0),
        (ok, present | 3 << 16), (ok, empty | 4 << 16), (ok, present | scard.SCARD_STATE_MUTE | 5 << 16),
        (ok, empty | 6 << 16)])
    protocol, handle = PcscProtocol(), scripted_handle(scripted)
    polls = [protocol.poll(handle) for _ in range(7)]
    assert [[uid for uid, _ in poll] for poll in polls] == [["04A32B1C"], [], [], ["04A32B1C"], [], [], []]
    assert scripted.reads == 2  # in use by us, a timeout, a departure, a mute card: nothing read


def test_a_card_resting_while_the_link_is_lost_is_not_tapped_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """pcscd restarted (or the reader plugged in again) under a resting card: the first look after opening finds
    the same card, which is no new tap; a card found then that is another, or the same one put back after the
    reader saw it gone, is."""
    pytest.importorskip("smartcard")
    from smartcard import scard

    ok, present, empty = scard.SCARD_S_SUCCESS, scard.SCARD_STATE_PRESENT, scard.SCARD_STATE_EMPTY
    scripted = ScriptedPcscd(monkeypatch, [])
    protocol = PcscProtocol()

    def look(*states: int) -> list[str]:
        handle = protocol.open(READER)  # each open is a new link: pcscd's counts start again
        scripted.states.extend((ok, state) for state in states)
        return [uid for _ in states for uid, _ in protocol.poll(handle)]

    assert look(present | 1 << 16) == ["04A32B1C"]
    assert look(present | 1 << 16) == []  # still resting after the reconnect
    assert look(present | 1 << 16, empty | 2 << 16, present | 3 << 16) == ["04A32B1C"]  # then lifted, put back
    assert look(empty, present | 1 << 16) == ["04A32B1C"]  # lifted while the link was down, tapped again after
    scripted.reply = list(bytes.fromhex("CAFEF00D9000"))
    assert look(present | 1 << 16) == ["CAFEF00D"]  # another card found at the first look
    assert scripted.reads == 6


@pytest.mark.parametrize("gone", ["state", "code"])
def test_a_reader_unplugged_while_watched_is_a_disconnection(monkeypatch: pytest.MonkeyPatch, gone: str) -> None:
    pytest.importorskip("smartcard")
    from smartcard import scard

    answer = ((scard.SCARD_S_SUCCESS, scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_CHANGED) if gone == "state"
              else (scard.SCARD_E_UNKNOWN_READER, 0))
    scripted = ScriptedPcscd(monkeypatch, [answer])
    with pytest.raises(OSError, match=f'the reader "{READER}" is gone'):
        PcscProtocol().poll(scripted_handle(scripted))
    scripted.states.append(answer)
    scripted.service = scard.SCARD_E_NO_SERVICE  # and when pcscd itself went, that is what is said
    with pytest.raises(OSError, match="pcscd is not running"):
        PcscProtocol().poll(scripted_handle(scripted))


# ----------------------------------------------------------------------
# banker hw cards and banker hw emulate, as a family runs them


class Lines:
    """The lines a running command prints, collected on a thread, to wait on."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        stream = process.stdout
        threading.Thread(target=lambda: [self.lines.put(line.rstrip("\n")) for line in stream], daemon=True).start()

    def next(self, matching: Callable[[str], bool] = lambda line: True) -> str:
        """The next line that matches (lines before it are kept in `seen`)."""
        deadline = time.monotonic() + WAIT
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            self.seen.append(line)
            if matching(line):
                return line


def banker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "banker", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ))


@contextmanager
def command(*args: str) -> Iterator[tuple[subprocess.Popen[str], Lines]]:
    process = banker(*args)
    try:
        yield process, Lines(process)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(WAIT)


def test_banker_hw_cards_prints_one_tap_per_card_across_a_pcscd_restart(
        tmp_path: Path, running: Pcscd, cards: PcscEmulator) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")  # the defaults, whatever this machine's own config says
    with command("hw", "cards", "--protocol", "pcsc", "--port", READER, "--retap", "0",
                 "--config", str(config)) as (process, out):
        assert out.next() == "connected"
        card = cards.place("04A32B1C")
        assert out.next() == "tap 04A32B1C"
        assert not card.gone.wait(2.0)  # resting, longer than the default retap window: still one tap
        cards.remove()
        tap(cards, "04112233445566")
        assert out.next() == "tap 04112233445566"
        running.stop()
        assert out.next().startswith("disconnected (")
        running.start()
        assert out.next() == "connected"
        tap(cards, "CAFEF00D")
        assert out.next() == "tap CAFEF00D"
    assert out.seen == ["connected", "tap 04A32B1C", "tap 04112233445566", out.seen[3], "connected", "tap CAFEF00D"]
    assert process.returncode == 0
    assert process.stderr is not None and "Traceback" not in process.stderr.read()


def test_banker_hw_emulate_puts_cards_on_the_virtual_reader(running: Pcscd) -> None:
    with reading() as collector, command("hw", "emulate", "--protocol", "pcsc") as (process, out):
        assert process.stdin is not None
        assert out.next() == READER
        for uid in ("04 a3 2b 1c", "04112233445566"):
            process.stdin.write(uid + "\n")
            process.stdin.flush()
            assert out.next() == f"tapped {uid.replace(' ', '').upper()}"
        assert collector.wait(lambda: len(collector.taps) == 2, WAIT)
        process.stdin.close()
        assert process.wait(WAIT) == 0
    assert collector.uids() == ["04A32B1C", "04112233445566"]


def test_banker_hw_emulate_without_pcscd_says_so(running: Pcscd) -> None:
    running.stop()
    with command("hw", "emulate", "--protocol", "pcsc") as (process, out):
        assert process.stdin is not None
        assert out.next() == READER
        process.stdin.write("04A32B1C\n")
        process.stdin.close()
        assert process.wait(WAIT) == 2
        assert process.stderr is not None
        err = process.stderr.read()
    assert "no virtual reader" in err and "pcscd" in err and "Traceback" not in err


# ----------------------------------------------------------------------
# Bad input: a seeded fuzzer


def test_random_faulty_cards_among_good_ones_give_exactly_the_good_taps(cards: PcscEmulator) -> None:
    """Good cards, faulty ones (APDU errors, odd lengths, leaving mid-exchange), very short rests and repeats:
    every good card that answered is one tap, nothing else is (no phantom, no miss), and nothing crashes."""
    rng = random.Random(3600)
    good_uids = ["04A32B1C", "04112233445566", "0102030405060708090A"]
    faults = [f for f in Fault if f is not Fault.NONE]
    expected: list[str] = []
    presented = set(good_uids)
    with reading() as collector:
        for _ in range(18):
            roll = rng.random()
            if roll < 0.4:  # a good card (often one seen just before: a repeat)
                uid = rng.choice(good_uids)
                tap(cards, uid)
                expected.append(uid)
            elif roll < 0.8:  # a faulty card, with a UID never tapped well
                uid = bytes(rng.randrange(256) for _ in range(rng.choice([4, 7, 10]))).hex().upper()
                tap(cards, uid, rng.choice(faults))
            else:  # a very short rest: read or not, it taps at most once
                uid = rng.choice(good_uids)
                card = cards.place(uid)
                time.sleep(rng.choice([0.0, 0.01, 0.1]))
                cards.remove()
                if card.answered.is_set():
                    expected.append(uid)
        tap(cards, "CAFEF00D")  # the last card: once it is seen, everything before it has been
        expected.append("CAFEF00D")
        assert collector.wait(lambda: collector.uids()[-1:] == ["CAFEF00D"], WAIT)
        taps = collector.uids()
        phantoms = [uid for uid in taps if uid not in presented | {"CAFEF00D"}]
        assert phantoms == []
        assert taps == expected, "missed or doubled taps"
        assert collector.words() == ["connected"]
