"""Keyboard readers: a USB card reader that types the card's number and presses Enter.

Most cheap readers (125 kHz EM4100 ones and 13.56 MHz ones alike) are USB "keyboards". They are
read here through the Linux input subsystem with python-evdev, never through a terminal: the device
is grabbed (EVIOCGRAB), so the card's keystrokes reach neither the app nor the console, and the
keys are the kernel's key codes, so the desktop's keyboard layout does not matter.

`url` is a device path, best the stable `/dev/input/by-id/usb-...-event-kbd` link udev makes (any
`/dev/input/eventN` works too), or `usb:VID:PID` in hex (`usb:ffff:0035`): the first event device
with that vendor and product that can type digits. A reader that is not there, a device the user may
not read, or one another program has grabbed is an OSError, so the reader loop reports it and tries
again: plugging the reader in later works as it does for the serial kinds.

Keystrokes become card ids in `KeyFramer`, a pure class (key codes in, ids out) with no evdev in it,
so the rules can be tested and fuzzed without a device; its docstring has the rules and their bounds.
python-evdev is imported only where a device is opened, so this module imports without it.
"""

from __future__ import annotations

import errno
import glob
import os
import re
import select
import time
from collections.abc import Callable, Iterable
from typing import Any

from hardware.reader import CardProtocol

# Key codes from linux/input-event-codes.h (the same on every architecture and in every kernel).
KEY_TAB, KEY_ENTER, KEY_KPENTER = 15, 28, 96
KEY_LEFTSHIFT, KEY_RIGHTSHIFT = 42, 54
MAIN_DIGITS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0"}
KEYPAD_DIGITS = {71: "7", 72: "8", 73: "9", 75: "4", 76: "5", 77: "6", 79: "1", 80: "2", 81: "3", 82: "0"}
HEX_LETTERS = {30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F"}  # KEY_A, KEY_B, ... (QWERTY positions)
CHARACTERS = {**MAIN_DIGITS, **KEYPAD_DIGITS, **HEX_LETTERS}
TERMINATORS = frozenset({KEY_ENTER, KEY_KPENTER, KEY_TAB})
SHIFTS = frozenset({KEY_LEFTSHIFT, KEY_RIGHTSHIFT})
# Event types and codes from the same header.
EV_SYN, EV_KEY = 0, 1
SYN_DROPPED = 3
KEY_DOWN = 1  # a key's value: 0 up, 1 down, 2 autorepeat

MAX_GAP = 0.5  # seconds between two keys of one number; longer and the number so far is dropped
MIN_CHARS = 4  # a shorter run before the terminator is a stray keystroke or two, not a card
MAX_CHARS = 25  # a 10-byte UID, the longest there is, is 20 hex digits or at most 25 decimal ones


class KeyFramer:
    """Turns key events into card ids: digits (main row or keypad) and the hex letters A-F, then Enter,
    keypad Enter or Tab.

    `feed(code, value, at)` takes one key event (evdev's key code, 1 down / 0 up / 2 autorepeat, and the
    event's own timestamp in seconds) and returns the id it completes, or None. Only key-downs type:
    key-ups and autorepeats are ignored, and so are the shift keys (letters come with or without shift,
    and readers set to a French layout hold shift for digits). Letters are upper-cased; decimal ids
    are kept as typed, leading zeros and all. An id is a string of `MIN_CHARS` to `MAX_CHARS` characters.

    A half-typed number is dropped, never a tap. A terminator after fewer than `MIN_CHARS` characters
    reads nothing. These make the run untrustworthy, and it is dropped whole, up to its terminator (a
    stray key in the middle of an id must not leave its tail to be read as an id of its own):

    - a stray key (any other key down, such as G, Space or Caps Lock);
    - more than `MAX_CHARS` characters;
    - events lost before it (`lost`, for the kernel's SYN_DROPPED), or a device opened mid-number
      (`opened`: the first keys may be the tail of a number typed before).

    The one thing that ends a run without a terminator is time: a key more than `MAX_GAP` seconds after
    the previous one (or after the opening, or the loss) starts a new number, because a reader never
    pauses that long inside one. Real readers type a whole id in 20 to 100 ms, a few ms a key (USB
    keyboards report every 1 to 10 ms); half a second between two keys is five times what the slowest
    takes for a whole id, and less than a person takes to lift one card and tap the next. The gap is
    measured with the kernel's timestamps on the events, so a busy Pi reading them late does not split
    a number.
    """

    def __init__(self, opened: float | None = None) -> None:
        self.typed: list[str] = []
        self.untrusted = False
        self.last: float | None = None
        if opened is not None:
            self.lost(opened)

    def lost(self, at: float) -> None:
        """Events up to `at` may be missing (the device was just opened, or the kernel dropped some):
        whatever is being typed now is dropped, up to its terminator or a pause of `MAX_GAP`."""
        self.typed.clear()
        self.untrusted = True
        self.last = at

    def feed(self, code: int, value: int, at: float) -> str | None:
        if value != KEY_DOWN or code in SHIFTS:
            return None
        if self.last is not None and abs(at - self.last) > MAX_GAP:  # abs: the wall clock may be set back
            self.typed.clear()  # a pause no reader leaves: whatever came before is over
            self.untrusted = False
        self.last = at
        if code in TERMINATORS:
            complete = not self.untrusted and len(self.typed) >= MIN_CHARS
            uid = "".join(self.typed) if complete else None
            self.typed.clear()
            self.untrusted = False
            return uid
        char = CHARACTERS.get(code)
        if char is None or len(self.typed) >= MAX_CHARS:
            self.typed.clear()  # a stray key, or a run too long for any card: dropped up to its terminator
            self.untrusted = True
        elif not self.untrusted:
            self.typed.append(char)
        return None


# ---------------------------------------------------------------------------
# The device

INPUT_DIR = "/dev/input"
POLL_WAIT = 0.1  # seconds a poll waits for events
_USB = re.compile(r"usb:([0-9a-f]{1,4}):([0-9a-f]{1,4})", re.IGNORECASE)


def can_type_ids(device: Any) -> bool:
    """Whether an evdev device has the keys of a card reader: Enter and the digits (main row or keypad)."""
    keys = set(device.capabilities().get(EV_KEY, ()))
    return KEY_ENTER in keys and (set(MAIN_DIGITS) <= keys or set(KEYPAD_DIGITS) <= keys)


def event_devices() -> list[str]:
    """/dev/input/event0, event1, ... in number order (event10 after event9)."""
    def number(path: str) -> int:
        digits = path.rsplit("event", 1)[-1]
        return int(digits) if digits.isdigit() else -1
    return sorted(glob.glob(os.path.join(INPUT_DIR, "event*")), key=lambda path: (number(path), path))


def open_input_device(url: str) -> Any:
    """The evdev.InputDevice `url` names (not yet grabbed): a path, or `usb:VID:PID`.

    OSError, saying what to do, when there is none, it may not be read, or it is no keyboard;
    ValueError for a `usb:` url that is not `usb:VID:PID` in hex.
    """
    if url.lower().startswith("usb:"):
        match = _USB.fullmatch(url)
        if match is None:
            raise ValueError(f'"{url}" is not usb:VID:PID with the ids in hex, such as usb:ffff:0035')
        return _find_usb(int(match.group(1), 16), int(match.group(2), 16))
    device = _open_path(url)
    if not can_type_ids(device):
        device.close()
        raise ReaderUnavailable(errno.ENODEV, f"{url} is an input device but no keyboard reader (it has no digit keys)")
    return device


def _open_path(path: str) -> Any:
    import evdev

    try:
        return evdev.InputDevice(path)
    except FileNotFoundError:
        raise ReaderUnavailable(errno.ENOENT, f"no input device {path} (is the reader plugged in?)") from None
    except PermissionError:
        raise ReaderUnavailable(errno.EACCES, f"may not read {path}: the user must be in the 'input' group "
                                    "(or a udev rule must give it the reader)") from None
    except OSError as exc:
        if exc.errno == errno.ENOTTY:
            raise ReaderUnavailable(errno.ENOTTY, f"{path} is not an input device (/dev/input/eventN)") from None
        raise


def _find_usb(vendor: int, product: int) -> Any:
    wanted = f"usb:{vendor:04x}:{product:04x}"
    unreadable: list[str] = []
    for path in event_devices():
        try:
            device = _open_path(path)
        except OSError as exc:
            if exc.errno == errno.EACCES:
                unreadable.append(path)
            continue  # gone since the listing, or not an input device
        try:
            if (device.info.vendor, device.info.product) == (vendor, product) and can_type_ids(device):
                return device
        except OSError:
            pass
        device.close()
    if unreadable:
        raise ReaderUnavailable(errno.EACCES, f"no keyboard reader {wanted} among the input devices this user may read; "
                                    f"{len(unreadable)} may not be read ({', '.join(unreadable[:3])}"
                                    f"{', ...' if len(unreadable) > 3 else ''}): the user must be in the "
                                    "'input' group")
    raise ReaderUnavailable(errno.ENODEV, f"no keyboard reader {wanted} (is it plugged in? `lsusb` lists the ids)")


class ReaderUnavailable(OSError):
    """The reader cannot be opened now. Its `str()` is the message alone, without "[Errno N]", as the
    reader's status shows it to people; `errno` says which case it is."""

    def __str__(self) -> str:
        return str(self.strerror)


class HidPort:
    """An opened, grabbed input device: its `fd` for select, `read()` for its pending events, and
    `close()`, which lets go of the grab and closes it (also when the device has vanished)."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.fd: int = device.fd

    def read(self) -> list[Any]:
        """The events waiting (none if there are none); OSError (ENODEV) once the device is gone."""
        try:
            return list(self.device.read())
        except BlockingIOError:
            return []

    def close(self) -> None:
        try:
            self.device.ungrab()
        except OSError:
            pass  # the device is gone, and its grab with it
        self.device.close()


class HidProtocol(CardProtocol):
    """A USB keyboard reader, through evdev (the module docstring). `opener(url)` gives an ungrabbed
    evdev.InputDevice or an object that behaves like one (the tests' fake readers)."""

    name = "hid"

    def __init__(self, baudrate: int = 115200, opener: Callable[[str], Any] | None = None) -> None:
        self.baudrate = baudrate  # kept as every kind takes one; a USB keyboard has no speed to set
        self.opener = opener or open_input_device
        self.framer = KeyFramer()

    def open(self, url: str) -> HidPort:
        opened = time.time()  # the kernel stamps events with the wall clock (CLOCK_REALTIME)
        device = self.opener(url)
        try:
            device.grab()
        except OSError as exc:
            device.close()
            if exc.errno == errno.EBUSY:
                raise ReaderUnavailable(errno.EBUSY, f"{url} is grabbed by another program (another banker?)") from None
            raise
        self.framer = KeyFramer(opened=opened)  # a number typed while opening may have lost its start
        return HidPort(device)

    def poll(self, port: Any) -> list[tuple[str, float]]:
        ready, _, _ = select.select([port.fd], [], [], POLL_WAIT)
        if not ready:
            return []
        events = port.read()
        at = time.monotonic()
        return [(uid, at) for uid in self.feed(events)]

    def feed(self, events: Iterable[Any]) -> list[str]:
        """The ids these evdev events complete (key events to the framer; a SYN_DROPPED loses the run)."""
        uids = []
        for event in events:
            if event.type == EV_KEY:
                uid = self.framer.feed(event.code, event.value, event.timestamp())
                if uid is not None:
                    uids.append(uid)
            elif event.type == EV_SYN and event.code == SYN_DROPPED:
                self.framer.lost(event.timestamp())
        return uids
