"""A small Linux input subsystem for the keyboard-reader tests: event device nodes in a folder, by-id links,
and USB keyboard readers that send what a real one sends.

`FakeInput(folder, monkeypatch)` stands in for /dev/input: it points `hardware.hid.INPUT_DIR` at its folder
and `evdev.InputDevice` at its own `open`, so `hardware.hid` finds, opens and grabs its devices through its
real code. A `FakeReader` plugged in gets a node (`eventN`) and a by-id link; opening it gives a `FakeHandle`
with a real file descriptor (a pipe's read end, written to whenever events are queued, so select works),
evdev's `read()` (BlockingIOError when nothing waits, OSError ENODEV once unplugged), `grab()` / `ungrab()`
as the kernel does them (one grab at a time, EBUSY for a second), and `close()`, which lets go of the grab.

What a reader types is built as a real one sends it: per key an EV_MSC MSC_SCAN (the HID usage), the EV_KEY
and an EV_SYN SYN_REPORT, key down and key up as separate reports a USB frame apart (4 ms), shift held around
upper-case letters, then the terminator: an id of 10 digits takes about 90 ms. Keystrokes that are not grabbed
reach "the console" (`FakeReader.console`), as a real keyboard's would.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import evdev
import pytest
from evdev import ecodes

import hardware.hid as hid

EV_SYN, EV_KEY, EV_MSC = ecodes.EV_SYN, ecodes.EV_KEY, ecodes.EV_MSC
SYN_REPORT, MSC_SCAN = ecodes.SYN_REPORT, ecodes.MSC_SCAN
REPORT = 0.004  # seconds between two USB reports of a full-speed keyboard

# The HID usage (keyboard page 7) of each key a reader presses, for its MSC_SCAN.
USAGES = {ecodes.KEY_ENTER: 0x28, ecodes.KEY_TAB: 0x2B, ecodes.KEY_KPENTER: 0x58, ecodes.KEY_LEFTSHIFT: 0xE1,
          ecodes.KEY_RIGHTSHIFT: 0xE5, ecodes.KEY_SPACE: 0x2C, ecodes.KEY_MINUS: 0x2D, ecodes.KEY_G: 0x0A}
USAGES.update({getattr(ecodes, f"KEY_{d}"): 0x1E + (int(d) - 1) % 10 for d in "1234567890"})
USAGES.update({getattr(ecodes, f"KEY_KP{d}"): 0x59 + (int(d) - 1) % 10 for d in "1234567890"})
USAGES.update({getattr(ecodes, f"KEY_{c}"): 0x04 + "ABCDEF".index(c) for c in "ABCDEF"})
READER_KEYS = sorted(set(range(1, 128)))  # a boot keyboard's key codes, as readers declare them
MEDIA_KEYS = [ecodes.KEY_MUTE, ecodes.KEY_VOLUMEDOWN, ecodes.KEY_VOLUMEUP, ecodes.KEY_PLAYPAUSE]


def key_of(char: str, keypad: bool = False) -> int:
    """The key code that types `char` (a digit or a hex letter, either case)."""
    if char.isdigit():
        return int(getattr(ecodes, f"KEY_KP{char}" if keypad else f"KEY_{char}"))
    return int(getattr(ecodes, f"KEY_{char.upper()}"))


def event(at: float, type_: int, code: int, value: int) -> evdev.InputEvent:
    micros = round(at * 1_000_000)
    return evdev.InputEvent(micros // 1_000_000, micros % 1_000_000, type_, code, value)


def report(at: float, code: int, value: int) -> list[evdev.InputEvent]:
    """One key change as the kernel reports it: the scan code, the key, the end of the report."""
    return [event(at, EV_MSC, MSC_SCAN, 0x70000 | USAGES.get(code, 0)), event(at, EV_KEY, code, value),
            event(at, EV_SYN, SYN_REPORT, 0)]


def keystrokes(text: str, at: float, terminator: int | None = ecodes.KEY_ENTER, keypad: bool = False,
               gap: float = REPORT) -> list[evdev.InputEvent]:
    """The events of a reader typing `text` from `at` on, a report every `gap` seconds: shift is held around
    upper-case letters, lower-case ones come without it; then the terminator (None: none)."""
    events: list[evdev.InputEvent] = []
    t = at
    keys: list[tuple[int, bool]] = [(key_of(c, keypad), c.isupper()) for c in text]
    if terminator is not None:
        keys.append((terminator, False))
    for code, shifted in keys:
        if shifted:
            events += report(t, ecodes.KEY_LEFTSHIFT, 1)
            t += gap
        events += report(t, code, 1)
        t += gap
        events += report(t, code, 0)
        t += gap
        if shifted:
            events += report(t, ecodes.KEY_LEFTSHIFT, 0)
            t += gap
    return events


class FakeReader:
    """One USB keyboard reader (or another input device: `keys` says which keys it has)."""

    def __init__(self, name: str = "Fake RFID Reader", vendor: int = 0xFFFF, product: int = 0x0035,
                 serial: str = "08FF20140315", keys: list[int] | None = None, readable: bool = True) -> None:
        self.name = name
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.keys = READER_KEYS if keys is None else keys
        self.readable = readable
        self.plugged = False
        self.handles: list[FakeHandle] = []
        self.grabbed_by: FakeHandle | None = None
        self.console: list[evdev.InputEvent] = []  # what reached the system because nobody had grabbed it
        self.grabs = 0  # how many times it was grabbed, all told
        self.ungrabs = 0  # and let go with ungrab() (closing lets go too, without it)
        self.clock = 0.0
        self.lock = threading.Lock()

    @property
    def grabbed(self) -> bool:
        return self.grabbed_by is not None

    def now(self) -> float:
        """The time for the next keystroke: the wall clock (as the kernel's event times), never before the
        last keystroke sent."""
        return max(time.time(), self.clock)

    def send(self, events: list[evdev.InputEvent]) -> None:
        """Hand events to whoever reads the device, as the kernel does: all to the grabbing handle if there is
        one, else to every handle and the console."""
        with self.lock:
            if events:
                self.clock = max(self.clock, events[-1].timestamp() + REPORT)
            if not self.plugged:
                return
            if self.grabbed_by is not None:
                self.grabbed_by.push(events)
            else:
                for handle in self.handles:
                    handle.push(events)
                self.console.extend(events)

    def type(self, text: str, terminator: int | None = ecodes.KEY_ENTER, keypad: bool = False,
             at: float | None = None, gap: float = REPORT, live: bool = False) -> None:
        """Type `text` (and the terminator) from `at` (default: now). `live` sends each report when its time
        comes, so a poll may see half a number; otherwise all at once, with the same timestamps."""
        events = keystrokes(text, self.now() if at is None else at, terminator, keypad, gap)
        if not live:
            self.send(events)
            return
        for k in range(0, len(events), 3):
            self.send(events[k:k + 3])
            time.sleep(gap)

    def tap(self, uid: str, **options: Any) -> None:
        self.type(uid, **options)


class FakeHandle:
    """An open event device: what evdev.InputDevice is for hardware.hid."""

    def __init__(self, device: FakeReader, path: str) -> None:
        self.device = device
        self.path = path
        self.name = device.name
        self.info = evdev.device.DeviceInfo(3, device.vendor, device.product, 0x0110)
        self.queue: list[evdev.InputEvent] = []
        self.gone = False
        self.fd, self._wake = os.pipe()
        os.set_blocking(self.fd, False)

    def capabilities(self) -> dict[int, list[int]]:
        return {EV_SYN: [0, 1, 4], EV_KEY: list(self.device.keys), EV_MSC: [MSC_SCAN]}

    def push(self, events: list[evdev.InputEvent]) -> None:
        if self.fd < 0:
            return
        self.queue.extend(events)
        os.write(self._wake, b"x")

    def vanish(self) -> None:
        self.gone = True
        if self.fd >= 0:
            os.write(self._wake, b"x")

    def read(self) -> Iterator[evdev.InputEvent]:
        if self.fd < 0:
            raise OSError(errno.EBADF, "Bad file descriptor")
        try:
            os.read(self.fd, 65536)
        except BlockingIOError:
            pass
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        with self.device.lock:
            events, self.queue = self.queue, []
        if not events:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        yield from events

    def grab(self) -> None:
        with self.device.lock:
            if self.gone:
                raise OSError(errno.ENODEV, "No such device")
            if self.device.grabbed_by is not None:
                raise OSError(errno.EBUSY, "Device or resource busy")
            self.device.grabbed_by = self
            self.device.grabs += 1

    def ungrab(self) -> None:
        with self.device.lock:
            if self.gone:
                raise OSError(errno.ENODEV, "No such device")
            if self.device.grabbed_by is not self:
                raise OSError(errno.EINVAL, "Invalid argument")
            self.device.grabbed_by = None
            self.device.ungrabs += 1

    def close(self) -> None:
        if self.fd < 0:
            return
        with self.device.lock:
            if self.device.grabbed_by is self:  # the kernel lets go of a grab when its file is closed
                self.device.grabbed_by = None
            if self in self.device.handles:
                self.device.handles.remove(self)
        os.close(self.fd)
        os.close(self._wake)
        self.fd = -1


class FakeInput:
    """/dev/input with the readers plugged in; evdev and hardware.hid look here while it is in use."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.dir = folder / "input"
        self.by_id = self.dir / "by-id"
        self.by_id.mkdir(parents=True)
        self.nodes: dict[str, FakeReader] = {}  # node path -> the device there
        self.opened: list[FakeHandle] = []
        monkeypatch.setattr(hid, "INPUT_DIR", str(self.dir))
        monkeypatch.setattr(evdev, "InputDevice", self.open)

    def plug(self, device: FakeReader, number: int | None = None) -> Path:
        """Plug `device` in: a new eventN node (the lowest free number, or `number`) and its by-id link,
        which is returned."""
        if number is None:
            number = next(n for n in range(1000) if not (self.dir / f"event{n}").exists())
        node = self.dir / f"event{number}"
        node.touch(mode=0o600)
        self.nodes[str(node)] = device
        device.plugged = True
        link = self.link(device)
        link.unlink(missing_ok=True)
        link.symlink_to(node)
        return link

    def link(self, device: FakeReader) -> Path:
        return self.by_id / f"usb-{device.name.replace(' ', '_')}_{device.serial}-event-kbd"

    def unplug(self, device: FakeReader) -> None:
        """Pull the cable: the node and the link go, and every open handle reads ENODEV from now on."""
        with device.lock:
            device.plugged = False
            device.grabbed_by = None
            handles = list(device.handles)
        for node, there in list(self.nodes.items()):
            if there is device:
                del self.nodes[node]
                Path(node).unlink()
        self.link(device).unlink(missing_ok=True)
        for handle in handles:
            handle.vanish()

    def open(self, path: Any, readonly: bool = False) -> FakeHandle:
        """evdev.InputDevice(path): the kernel's answers for a missing node, one the user may not read, and a
        file that is no input device."""
        real = os.path.realpath(os.fspath(path))
        if not os.path.exists(real):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", os.fspath(path))
        device = self.nodes.get(real)
        if device is None:
            raise OSError(errno.ENOTTY, "Inappropriate ioctl for device")
        if not device.readable:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        handle = FakeHandle(device, os.fspath(path))
        with device.lock:
            device.handles.append(handle)
        self.opened.append(handle)
        return handle

    def close_all(self) -> None:
        for handle in self.opened:
            handle.close()
