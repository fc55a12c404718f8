"""The events hardware hands to the app, and the package's exceptions."""

from __future__ import annotations

from dataclasses import dataclass

UID_BYTES = (4, 7, 10)
"""The lengths of an ISO 14443 UID (single, double and triple size): a reader reporting another is not read."""


class HardwareError(Exception):
    """Root of every error this package raises on purpose."""


class ConfigError(HardwareError, ValueError):
    """The hardware config file is unreadable or has a bad value; the message names file and key."""


class ProtocolError(HardwareError, IOError):
    """A reader answered something its protocol does not allow (bad checksum, error frame, no answer)."""


@dataclass(frozen=True, slots=True)
class CardTapped:
    """A card was put on a reader. `uid` is the card's number as its reader gives it: upper-case hex without
    spaces, e.g. "04A32B1C", or the decimal digits a keyboard reader types, leading zeros kept, e.g.
    "0012345678". The same card may read differently on another kind of reader."""

    uid: str
    reader: str  # the reader's url
    at: float  # time.monotonic() when the UID's last byte (or keystroke) was read


READER_PROBLEMS = ("", "missing", "denied", "busy", "lost")
"""Why a reader is disconnected, as a word the app translates (`ReaderStatus.problem`): "" none (connected, or
closed), "missing" its device is not there (unplugged, or the wrong port), "denied" this user may not open it,
"busy" another program has it, "lost" it opened but does not answer or went away."""


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """A reader came or went: "connected" or "disconnected", with a reason for people in the hardware's own
    words (`detail`, for logs and `banker hw`) and what kind of problem it is (`problem`, one of
    READER_PROBLEMS, for the app's own translated words: a library's text never reaches the screen)."""

    reader: str
    connected: bool
    detail: str = ""
    problem: str = ""

    @property
    def word(self) -> str:
        return "connected" if self.connected else "disconnected"


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice button was pressed and these dice came up (1 to 6 each)."""

    dice: tuple[int, ...]
    at: float
