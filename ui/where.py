"""Where the app runs, and what it says there about its hardware and the phone server.

Every text about a part that is missing, off or failing depends on the place: a Raspberry Pi (the appliance,
whose installer writes /etc/board-banker/config.toml) or a computer (a family trying the app out, a developer),
started with --no-hardware or not, with a config file, with none (every value its default: there is no file to
edit, only one to create), or with a config file that has a mistake. `Where` is that place, made once at the
start (ui/app.py) and handed to the flows (`SettingsFlow.where`); the functions below choose, from it and a
part's state, the heading, the cause and the one thing to do, as catalogue messages.

A library's own error text (gpiozero's "Unable to load any default pin factory!", pyserial's, an OSError's) is
never among them: the app logs it, and the kinds of failure it can meet are words here (`DICE_PROBLEMS`,
`PHONES_OFF`) or the hardware's (hardware.events.READER_PROBLEMS), each with its own message.
"""

from __future__ import annotations

import errno
import logging
from dataclasses import dataclass
from pathlib import Path

from hardware.config import SYSTEM_CONFIG, user_config_path
from ui.i18n import Msg, msg

log = logging.getLogger(__name__)

MODEL = Path("/proc/device-tree/model")  # "Raspberry Pi 4 Model B Rev 1.5\0" on a Pi; absent on a PC

DICE_PROBLEMS = ("no_gpio", "pin")
"""Why the dice button cannot be used: "no_gpio" no pins to drive at all (gpiozero finds no pin factory, or is
not installed: a computer, or a Pi without its GPIO library), "pin" the pins are there but the button (or its
display or buzzer) cannot be opened on them."""

PHONES_OFF = ("starting", "disabled", "port_in_use", "cannot_start", "config_problem")
"""Why the phone server is not running: "starting" not yet (it starts after the first frame), "disabled" the
config file says `[web] enabled = false`, "port_in_use" another program has its port, "cannot_start" any other
refusal of the network (logged), "config_problem" the config file has a mistake, so what it wants is unknown."""


def is_pi(model: Path = MODEL) -> bool:
    """Whether this machine is a Raspberry Pi, from the device tree's model name (what gpiozero reads too)."""
    try:
        text = model.read_bytes()[:200]
    except OSError:
        return False
    return b"raspberry pi" in text.lower()


@dataclass(frozen=True, slots=True)
class Where:
    """The place the app runs in. `pi`: on a Raspberry Pi (else a computer); `hardware`: the reader and the dice
    button are used (False: --no-hardware); `config`: the config file read ("" when there is none: every value
    is its default); `config_problem`: that file has a mistake (so nothing it sets is known); `user_config`: the
    user's own config file on a computer ("": hardware/config.py's `user_config_path`; the tour names one, so
    that its pictures do not depend on the machine)."""

    pi: bool = False
    hardware: bool = False
    config: str = ""
    config_problem: bool = False
    user_config: str = ""

    def config_to_create(self) -> str:
        """Where a config file would be read from, when there is none: the installer's place on a Pi, the user's
        own on a computer (hardware/config.py's search)."""
        if self.pi:
            return str(SYSTEM_CONFIG)
        return self.user_config or str(user_config_path())

    def facts(self) -> Msg:
        """One line: the machine, and the config file (or that there is none)."""
        return msg("ui.where.facts", machine=msg("ui.where.pi" if self.pi else "ui.where.computer"),
                   config=self.config or msg("ui.where.no_config"))


def dice_problem(exc: BaseException) -> str:
    """The kind of a dice button's failure, one of DICE_PROBLEMS. gpiozero's BadPinFactory ("Unable to load any
    default pin factory!") is an ImportError, as is gpiozero itself missing; hardware/dice.py hands gpiozero's
    errors on as the cause of its own HardwareError, so the whole chain is looked at."""
    seen: BaseException | None = exc
    for _ in range(10):  # (a chain is short; a cycle must not hang the start)
        if seen is None:
            break
        if isinstance(seen, ImportError):
            return "no_gpio"
        seen = seen.__cause__ or seen.__context__
    return "pin"


def phones_problem(exc: OSError) -> str:
    """The kind of the phone server's refusal to start, one of PHONES_OFF."""
    return "port_in_use" if exc.errno == errno.EADDRINUSE else "cannot_start"


def buttons_hint(cards: bool) -> Msg:
    """How the game goes on without a reader: switch to on-screen buttons, or (already on) nothing to do."""
    return msg("ui.check.use_buttons" if cards else "ui.check.buttons_on")


def reader_words(where: Where, *, used: bool, connected: bool, problem: str, kind: str, port: str,
                 cards: bool, tapped: bool) -> tuple[Msg, list[Msg]]:
    """The reader's check: its heading and what to do. `used`: the config has a reader; `connected`: it answers;
    `problem`: why not (hardware.events.READER_PROBLEMS, or "library": its kind's library is missing); `cards`:
    the game is played with cards (the setting), else with on-screen buttons; `tapped`: a card came."""
    if not where.hardware:
        cause = msg("ui.where.reader_no_hardware_pi") if where.pi else msg("ui.where.no_hardware_computer")
        return msg("ui.check.no_reader"), [cause, buttons_hint(cards)]
    if where.config_problem:
        return msg("ui.check.no_reader"), [msg("ui.check.config_problem", config=where.config)]
    if not used:
        if where.config:
            first = msg("ui.check.reader_unset", config=where.config)
        else:
            first = msg("ui.where.reader_no_config_pi" if where.pi else "ui.where.reader_no_config",
                        config=where.config_to_create())
        return msg("ui.check.no_reader"), [first, buttons_hint(cards)]
    if connected:
        return msg("ui.check.tap_any"), [msg("ui.check.reader_works" if tapped else "ui.check.reader_nothing")]
    place = "pi" if where.pi else "computer"
    if problem == "library":
        hints = [msg(f"ui.where.reader_library_{place}", kind=kind)]
    elif problem == "missing" and port:
        hints = [msg("ui.check.reader_missing", port=port)]
    elif problem == "denied" and port:
        hints = [msg(f"ui.where.reader_denied_{place}", port=port)]
    elif problem == "busy" and port:
        hints = [msg("ui.check.reader_busy", port=port)]
    else:
        hints = [msg("ui.check.reader_cable")]
    if port and where.config and problem in ("missing", "lost", ""):
        hints.append(msg("ui.check.reader_port", port=port, config=where.config))
    if cards:
        hints.append(buttons_hint(cards))
    return msg("ui.check.reader_not_answering"), hints


def dice_words(where: Where, *, pin: str, ready: bool, problem: str, pressed: bool) -> tuple[Msg, list[Msg]]:
    """The dice button's check: its heading and what to do. `pin`: the button's pin ("" when the config switches
    it off); `ready`: it can be pressed; `problem`: why not (DICE_PROBLEMS); `pressed`: a press came."""
    if not where.hardware:
        if where.pi:
            return msg("ui.check.no_dice"), [msg("ui.where.dice_no_hardware_pi")]
        return msg("ui.check.no_dice"), [msg("ui.where.no_hardware_computer"), msg("ui.check.roll_on_screen")]
    if where.config_problem:
        return msg("ui.check.no_dice"), [msg("ui.check.config_problem", config=where.config)]
    if not pin:
        return msg("ui.check.no_dice"), [msg("ui.check.dice_unset", config=where.config)]
    if ready:
        return msg("ui.check.press_button"), [msg("ui.check.dice_works" if pressed else "ui.check.dice_wires",
                                                  pin=pin)]
    if not where.pi:
        return msg("ui.check.no_dice"), [msg("ui.where.dice_computer" if problem == "no_gpio"
                                             else "ui.where.dice_failed_computer")]
    if problem == "no_gpio":
        return msg("ui.check.dice_broken"), [msg("ui.where.dice_no_gpio_pi")]
    return msg("ui.check.dice_broken"), [msg("ui.check.dice_missing", pin=pin)]


def phones_off(where: Where, off: str, port: int) -> Msg:
    """Why the phone server is not running (`off`, one of PHONES_OFF), and the one thing to do."""
    if off == "disabled":
        return msg("ui.where.phones_disabled", config=where.config or where.config_to_create())
    if off == "port_in_use":
        return msg("ui.where.phones_port", port=str(port))  # (as written in the config: no grouping)
    if off == "cannot_start":
        return msg("ui.where.phones_cannot_start")
    if off == "config_problem":
        return msg("ui.where.phones_config_problem", config=where.config)
    return msg("ui.where.phones_starting")


__all__ = ["DICE_PROBLEMS", "MODEL", "PHONES_OFF", "Where", "buttons_hint", "dice_problem", "dice_words",
           "is_pi", "phones_off", "phones_problem", "reader_words"]
