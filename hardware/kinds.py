"""The kinds of card reader, in one table: what `[reader] protocol` may name, what `banker hw cards
--protocol` and `banker hw emulate --protocol` offer, what the app opens, and what the docs list.

Shaped after gpiozero's pin factories (one name per implementation, the module imported only when
chosen): a kind is a name, a line saying what it is, what its `url` names, and where its protocol
(a `hardware.reader.CardProtocol`) and its fake live. A kind whose Python library is missing stays in
the table (so `banker hw cards --help` lists it); choosing it raises `MissingLibrary`, which says how
to install what it needs.

Adding a kind is one module with a `CardProtocol` subclass (its `open` opens the device, its `poll`
returns the UIDs seen) and one `ReaderKind` line below.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from hardware.events import ConfigError, HardwareError


class MissingLibrary(HardwareError):
    """A reader kind was chosen whose Python library is not installed; the message says how to install it."""


@dataclass(frozen=True, slots=True)
class ReaderKind:
    name: str
    summary: str  # one line: the hardware it is for
    url: str  # what [reader] url (or --port) names for this kind
    protocol: str  # "module:Class", a hardware.reader.CardProtocol subclass taking (baudrate), or from_config
    emulator: str = ""  # "module:Class" of its fake for `banker hw emulate`, "" when there is none
    needs: tuple[str, ...] = ()  # the Python modules it imports beyond this project's own requirements
    install: str = ""  # how to install them on Debian / Raspberry Pi OS
    any_device: bool = False  # an empty url means "the first reader there is", not "no reader"

    def used(self, url: str) -> bool:
        """Whether a config with this kind and `url` has a reader at all (an empty url: on-screen buttons)."""
        return bool(url) or self.any_device

    def missing(self) -> list[str]:
        """The modules this kind needs that cannot be imported here."""
        return [name for name in self.needs if importlib.util.find_spec(name) is None]

    def make(self, baudrate: int = 115200, reader: Any = None) -> Any:
        """A new protocol object for one reader (raises MissingLibrary when a needed library is missing).
        Given the whole `[reader]` config (a hardware.config.ReaderConfig), a protocol class with a
        `from_config` classmethod takes what it needs from it (the rc522's reset pin); else `cls(baudrate)`."""
        cls = _load(self, self.protocol)
        if reader is not None and hasattr(cls, "from_config"):
            return cls.from_config(reader)
        return cls(baudrate)

    def make_emulator(self, link: str | None = None) -> Any:
        """A new fake device of this kind (`banker hw emulate`)."""
        if not self.emulator:
            raise HardwareError(f'the "{self.name}" reader has no emulator')
        return _load(self, self.emulator)(link=link)


def _load(kind: ReaderKind, where: str) -> Any:
    gone = kind.missing()
    if gone:
        raise MissingLibrary(f'the "{kind.name}" reader needs the Python module{"s" if len(gone) > 1 else ""} '
                             f'{", ".join(gone)}: {kind.install}')
    module, _, attr = where.partition(":")
    return getattr(importlib.import_module(module), attr)


KINDS: dict[str, ReaderKind] = {kind.name: kind for kind in (
    ReaderKind("pn532", "a PN532 NFC board on the Pi's UART or a USB serial adapter (HSU mode)",
               "a serial device: /dev/serial0, /dev/serial/by-id/..., or a pyserial URL",
               "hardware.pn532:PN532Protocol", "hardware.pn532_emulator:PN532Emulator"),
    ReaderKind("line", "an Arduino or ESP32 with an MFRC522 and our sketch (one UID per line), on USB serial",
               "a serial device: /dev/ttyUSB0, /dev/serial/by-id/..., or a pyserial URL",
               "hardware.line:LineProtocol", "hardware.emulate:LineReaderEmulator"),
    ReaderKind("hid", "a USB keyboard reader that types the card's number (125 kHz EM4100 or 13.56 MHz)",
               "/dev/input/by-id/...-event-kbd or usb:VID:PID",
               "hardware.hid:HidProtocol", needs=("evdev",),
               install='on the Pi run deploy/install.sh again with this kind in the config; elsewhere '
                       'pip install "evdev>=1.7" (the [hid] extra), which builds with gcc, python3-dev and '
                       'linux-libc-dev'),
    ReaderKind("pcsc", "a PC/SC contactless reader through pcscd: the ACR122U and its kin, on USB",
               'the reader\'s PC/SC name or its start ("ACS ACR122U"); empty for the first reader',
               "hardware.pcsc:PcscProtocol", "hardware.pcsc_emulator:PcscEmulator", needs=("smartcard",),
               install='on the Pi run deploy/install.sh again with this kind in the config; elsewhere '
                       'apt install pcscd, and pip install "pyscard>=2.0" (the [pcsc] extra), which builds '
                       'with swig, gcc and libpcsclite-dev, or apt install python3-pyscard',
               any_device=True),
    ReaderKind("rc522", "a bare RC522 (MFRC522) module on the Pi's SPI pins",
               "/dev/spidev0.0 (SPI bus 0, CE0)",
               "hardware.rc522:RC522Protocol", needs=("spidev",),
               install='on the Pi run deploy/install.sh again with this kind in the config, or apt install '
                       'python3-spidev; elsewhere pip install "spidev>=3.6" (the [rc522] extra)'),
)}
"""Every reader kind, by the name `[reader] protocol` gives it; the first is the default."""

NAMES: tuple[str, ...] = tuple(KINDS)
DEFAULT = NAMES[0]
EMULATED: tuple[str, ...] = tuple(name for name, kind in KINDS.items() if kind.emulator)


def kind(name: str) -> ReaderKind:
    """The kind called `name` (ConfigError, naming the kinds there are, for any other)."""
    found = KINDS.get(name)
    if found is None:
        raise ConfigError(f'no card reader kind "{name}": the kinds are {", ".join(NAMES)}')
    return found


def make_protocol(name: str, baudrate: int = 115200, reader: Any = None) -> Any:
    """A protocol object for a reader of kind `name` (ConfigError or MissingLibrary when it cannot be had)."""
    return kind(name).make(baudrate, reader)


def describe() -> str:
    """The kinds a line each, for --help: name, what it is, what its url names, and what it needs."""
    lines = []
    for k in KINDS.values():
        gone = k.missing()
        note = f" (needs {', '.join(gone)}: {k.install})" if gone else ""
        lines.append(f"  {k.name:<6} {k.summary}{note}\n         url: {k.url}")
    return "\n".join(lines)
