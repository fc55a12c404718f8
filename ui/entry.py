"""The digit pad's logic and the destructive buttons' second touch, without Kivy.

A family at the table has a touchscreen and nothing else: the banker's PIN and every amount the banker
types (a correction of a player's cash, a trade's cash, an own-property auction's opening bid) are
entered on a big digit pad (ui/screens/digits.py), never stepped out in tens. `Entry` is what is being
entered, for what, the digits so far, the bounds and step it must keep, a correction's sign and the
balance it changes; the digit pad's flow holds one while the pad shows (`PadFlow.entry`,
ui/flows/pad.py) and does what OK means (`PadFlow.ok`).

    entry = Entry("correction", back=BANKER_PAGE, mode="table", signed=True, base=1500, subject={"player": "Ann"})
    for key in ("5", "0"):
        entry.press(key)
    entry.change(), entry.result()  # (50, 1550): the new balance is shown before OK
    entry.press("-")
    entry.result()  # 1450

`Confirm` is the second touch that Undo, End the game, Abandon and Shut down ask for: the first touch
arms the button (it then says "Touch again to ..."), a second touch within CONFIRM_SECONDS does it, and
any other touch, or the time running out, disarms it. The navigator holds one (`Navigator.confirm`), for
the banker's flow.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PIN_LEAST, PIN_MOST = 4, 8  # digits of a new banker PIN (a game may also have none)
AMOUNT_DIGITS = 7  # an amount of at most 9,999,999
CONFIRM_SECONDS = 5.0  # how long a destructive button stays armed for its second touch
DIGITS = "0123456789"
ERASE, CLEAR, PLUS, MINUS = "erase", "clear", "+", "-"
# The pad's keys, as the screen lays them out: three columns, four rows.
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", CLEAR, "0", ERASE)
# What an entry is for (ui/flows/pad.py does what OK means for each).
PURPOSES = ("unlock", "undo_pin", "new_pin", "correction", "trade_cash", "reserve")
SECRET = ("unlock", "undo_pin", "new_pin")


@dataclass
class Entry:
    """A number or a PIN being entered on the digit pad.

    `least`, `most` and `step` bound an amount (`most` None: only AMOUNT_DIGITS); a digit that would go
    past `most` is refused, and OK waits until the amount is at least `least` and a whole number of
    steps above it. A correction (`signed`) adds or takes away; with the `base` balance it may take away
    no more than the player has. A PIN (`secret`) is shown masked and keeps its leading zeros.
    """

    purpose: str
    back: str  # the page OK and Cancel return to
    mode: str  # the table's mode it belongs to (`Flows.mode`) ("setup", "table", "over"): once that is over, so is it
    digits: str = ""
    least: int = 0
    most: int | None = None
    step: int = 1
    signed: bool = False
    sign: int = 1
    base: int | None = None  # the balance a correction changes
    subject: dict[str, Any] = field(default_factory=dict)  # for whom or what: {"player": "Ann"}, {"side": "give"}
    seq: int | None = None  # the game's action count when it opened (an opening bid is for that moment only)
    fresh: bool = False  # the digits are the value as it was: the first digit typed starts afresh

    def __post_init__(self) -> None:
        if self.purpose not in PURPOSES:
            raise ValueError(f"no such entry: {self.purpose!r}")

    @property
    def secret(self) -> bool:
        return self.purpose in SECRET

    @property
    def max_digits(self) -> int:
        return PIN_MOST if self.secret else AMOUNT_DIGITS

    @property
    def value(self) -> int:
        """The amount typed (0 when nothing is); a PIN has no value, only its digits."""
        return int(self.digits) if self.digits and not self.secret else 0

    def upper(self) -> int | None:
        """The most the amount may be now: a correction that takes away, no more than the balance."""
        if self.signed and self.sign < 0 and self.base is not None:
            return max(0, self.base) if self.most is None else min(self.most, max(0, self.base))
        return self.most

    def press(self, key: str) -> bool:
        """A key of the pad; False if it was refused (too many digits, past the most, not a key)."""
        if key in (ERASE, CLEAR):
            changed = bool(self.digits)
            self.digits = self.digits[:-1] if key == ERASE else ""
            self.fresh = False
            return changed
        if key in (PLUS, MINUS):
            if not self.signed:
                return False
            self.sign = 1 if key == PLUS else -1
            return True
        if len(key) != 1 or key not in DIGITS:
            return False
        before = "" if self.fresh else self.digits  # like a calculator: typing replaces the value shown
        if len(before) >= self.max_digits:
            return False
        new = before + key
        if not self.secret:
            new = new.lstrip("0") or "0"  # 0, then 5, is 5
            most = self.upper()
            if (most is not None and int(new) > most) or new == before:
                return False
        self.digits, self.fresh = new, False
        return True

    def change(self) -> int:
        """What a correction adds (+) or takes away (-)."""
        return self.sign * self.value if self.signed else self.value

    def result(self) -> int | None:
        """A correction's new balance, or None."""
        return None if self.base is None else self.base + self.change()

    def breaks(self) -> str | None:
        """Which rule the amount breaks now: "least", "most", "step", "short" (a new PIN of too few
        digits), or None."""
        if self.secret:
            return "short" if self.purpose == "new_pin" and 0 < len(self.digits) < PIN_LEAST else None
        value = self.value
        most = self.upper()
        if most is not None and value > most:
            return "most"
        if value < self.least:
            return "least"
        if self.step > 1 and (value - self.least) % self.step:
            return "step"
        return None

    def ready(self) -> bool:
        """Whether OK may be touched now."""
        if self.breaks() is not None:
            return False
        if self.purpose in ("unlock", "undo_pin"):
            return bool(self.digits)
        if self.purpose == "correction":
            return self.value > 0  # nothing to correct
        return True

    def masked(self, dot: str = "\u25cf") -> str:
        """A PIN as the table sees it: a dot a digit."""
        return dot * len(self.digits)


@dataclass
class Confirm:
    """A destructive button's second touch: `touch(key)` arms it (False) or, when armed, confirms (True)."""

    clock: Callable[[], float] = time.monotonic
    key: str | None = None
    at: float = 0.0

    def armed(self) -> str | None:
        """The armed button's key, while its time lasts."""
        if self.key is not None and self.clock() - self.at >= CONFIRM_SECONDS:
            self.key = None
        return self.key

    def left(self) -> float | None:
        """Seconds before the armed button disarms itself, or None."""
        if self.armed() is None:
            return None
        return max(0.0, CONFIRM_SECONDS - (self.clock() - self.at))

    def touch(self, key: str) -> bool:
        """The button `key` touched: True means do it now (it was armed); else it is armed now."""
        if self.armed() == key:
            self.key = None
            return True
        self.key, self.at = key, self.clock()
        return False

    def disarm(self) -> bool:
        """Any other touch, or leaving the page: True if a button was armed."""
        was = self.armed() is not None
        self.key = None
        return was
