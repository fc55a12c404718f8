"""The hardware config file: one TOML file for the card reader, the dice button and the screen.

Where it is read from, first match wins:

1. the path given on the command line (``--config PATH``), passed in as `path`;
2. ``$BANKER_CONFIG``;
3. ``$XDG_CONFIG_HOME/board-banker/config.toml`` (``~/.config/board-banker/config.toml``
   when ``XDG_CONFIG_HOME`` is unset or not absolute, as the XDG spec says);
4. ``/etc/board-banker/config.toml``, which the Pi installer writes.

Steps 3 and 4 are a search: a file that is not there is skipped, and with
neither file every value is its default. Steps 1 and 2 name one file on
purpose, so a missing file there is an error rather than a silent fall back
to defaults (a typo in ``--config`` would otherwise go unnoticed).

Every problem is a `ConfigError` whose message names the file, the key and
the problem, one line per problem, e.g.
``config.toml: reader.protocol: must be "pn532", "line", "hid" or "pcsc", not "pn533"``.
All problems in a file are reported at once (the first `MAX_PROBLEMS`, then a
count of the rest), so one edit can fix them all.
``hardware/config.example.toml`` documents every key and is what the
installer copies to /etc.

Limits (docs/hardware.md, "Limits"), so that any file gives a config or a
ConfigError and nothing else, quickly:

- the file is a regular file of at most `MAX_FILE_BYTES` (1 MiB) of UTF-8 TOML;
  a FIFO, a device or a folder is refused without being opened for reading;
- lists and tables nest at most `MAX_NESTING` deep, a dotted key has at most
  `MAX_NESTING` parts, and no number is written with more than `MAX_DIGITS`
  digits (checked before parsing: the parser recurses once per level,
  slows down faster than the square of a dotted key's parts, and Python refuses to convert
  an integer of more than 4,300 digits);
- no text value holds a control character (Unicode categories Cc and Cf, the
  line and paragraph separators U+2028 and U+2029, lone surrogates), and none
  is longer than `MAX_TEXT_CHARS`;
- `[web] listen` takes "lan" or IP addresses written as text, never every
  interface (``"0.0.0.0"`` or ``"::"``): the phone page is for the local
  network only, and "lan" is the address there.

Messages escape every character that is not printable, in the file name too
(``\n``, ``\t``, ``\u200b``, as TOML writes them), and cut a long value short,
so that a message line is always one line.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias, cast

from banker.outside import (
    CONTROLS_AND_FORMAT,
    DEEP,
    LONG_KEY,
    LONG_NUMBER,
    FileTooLarge,
    NotRegularFile,
    NotText,
    control_character,
    escape_text,
    file_kind,
    read_text_file,
    scan_document,
)
from hardware import kinds
from hardware.events import ConfigError

Pin: TypeAlias = int | str
"""A GPIO pin as gpiozero takes it: a BCM number (17) or a name ("GPIO17", "BCM17", "BOARD11", "J8:11")."""

SYSTEM_CONFIG = Path("/etc/board-banker/config.toml")
ENV_VAR = "BANKER_CONFIG"
APP_DIR = "board-banker"
EXAMPLE_CONFIG = Path(__file__).with_name("config.example.toml")

PROTOCOLS = kinds.NAMES  # the card reader kinds (hardware/kinds.py)
MAX_BAUDRATE = 12_000_000  # the fastest common USB serial adapters (FTDI's high-speed parts)
RETAP_RANGE = (0.0, 10.0)  # [reader] retap_window, in seconds; also `banker hw cards --retap`
DEBOUNCE_RANGE = (0.0, 1.0)  # [dice] debounce, in seconds
DISPLAY_KINDS = ("none", "digits", "pips")
ROTATIONS = (0, 90, 180, 270)
TOUCH_SCREENS = ("official-7in", "touch-display-2", "hdmi")
# The app's window on each touchscreen, in pixels, landscape (the Touch Display 2's 720x1280
# portrait panel turned a quarter, as the launcher does). An HDMI screen's size is not known
# until the window opens.
PANEL_SIZES: dict[str, tuple[int, int]] = {"official-7in": (800, 480), "touch-display-2": (1280, 720)}
# [display] density: how many pixels make one dp (a density-independent pixel), as Kivy's
# KIVY_METRICS_DENSITY. Beyond these bounds nothing of the app would fit or be readable.
DENSITY_RANGE = (0.5, 4.0)
PIPS_PER_DIE = (4, 7)
MAX_DICE = 3
RC522 = "rc522"  # the kind that owns [reader] reset_pin and the SPI0 pins (hardware/kinds.py)
DEFAULT_RESET_PIN = 25  # [reader] reset_pin: the RC522's RST, physical pin 22
# SPI0, which the rc522 reads through /dev/spidev0.0 (or 0.1): dtparam=spi=on gives the kernel's SPI driver
# all five of these pins, both chip selects included, so no other part may use any of them.
SPI0_PINS: dict[int, str] = {8: "CE0", 7: "CE1", 9: "MISO", 10: "MOSI", 11: "SCLK"}

# The 40-pin header (identical on every 40-pin Pi): physical pin -> BCM GPIO number.
# Lets the file's checks see that "BOARD11" and 17 are the same pin.
HEADER_GPIO = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
    18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
    31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}
LAST_GPIO = 27
# Case and leading zeros matter to gpiozero ("gpio17" and "GPIO017" are refused), so they do here too.
# Used with fullmatch only: "$" would let "GPIO17\n" through.
_PIN_NAME = re.compile(r"(?:(?P<scheme>GPIO|BCM|BOARD|J8:)?(?P<number>0|[1-9][0-9]?))")
GPIO_COUNT = len(HEADER_GPIO)  # 28: a list of more pins than that gives some pin two jobs

# The bounds of the file itself (see the module's docstring).
MAX_FILE_BYTES: Final = 1_048_576
MAX_NESTING: Final = 32
MAX_DIGITS: Final = 20
MAX_TEXT_CHARS: Final = 4096  # the longest text value: PATH_MAX, for reader.url
MAX_LISTEN: Final = 16  # the most addresses in [web] listen
MAX_PROBLEMS: Final = 20  # the most problems one ConfigError lists; a last line counts the rest
_SHOWN_CHARS: Final = 60  # a value in a message is cut to this many characters


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """[reader]: the NFC card reader. `url` "" means no reader (on-screen buttons only)."""

    url: str = ""
    protocol: str = kinds.DEFAULT  # a name of hardware/kinds.py's KINDS
    baudrate: int = 115200
    retap_window: float = 1.5
    reset_pin: Pin = DEFAULT_RESET_PIN  # the RC522's RST line; used only by protocol "rc522"


@dataclass(frozen=True, slots=True)
class DiceDisplayConfig:
    """[dice.display]: optional 7-segment digits or pip LEDs that show the roll.

    digits: `pins` are the segment pins a..g (7) or a..g and dp (8); `digit_pins`
    switch each digit's common pin through a transistor (empty: one digit whose
    common pin is wired straight to GND or 3V3). pips: `pins` are the LEDs, 4 or 7
    per die (see docs/hardware.md, "The dice button"). `active_high` is false for common-anode parts.
    """

    kind: Literal["none", "digits", "pips"] = "none"
    pins: tuple[Pin, ...] = ()
    digit_pins: tuple[Pin, ...] = ()
    active_high: bool = True


@dataclass(frozen=True, slots=True)
class BuzzerConfig:
    """[dice.buzzer]: an optional active buzzer that clicks while the dice tumble."""

    pin: Pin | None = None


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """[dice]: the push button that rolls the dice."""

    pin: Pin = 17
    pull_up: bool = True
    count: int = 2
    debounce: float = 0.05
    enabled: bool = True
    display: DiceDisplayConfig = field(default_factory=DiceDisplayConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)


@dataclass(frozen=True, slots=True)
class ScreenConfig:
    """[display]: the touchscreen. `rotation` and `touch` are for the Pi launcher; `density` (None:
    worked out from the panel's size, see ui/panel.py) is for the app's sizes in dp and sp."""

    rotation: int = 0
    touch: Literal["official-7in", "touch-display-2", "hdmi"] = "official-7in"
    density: float | None = None

    @property
    def panel_size(self) -> tuple[int, int] | None:
        """The app's window on this touchscreen, (width, height) in pixels; None for an HDMI screen."""
        return PANEL_SIZES.get(self.touch)


@dataclass(frozen=True, slots=True)
class WebConfig:
    """[web]: the phone page on the local network. `listen` names the only addresses served:
    IP addresses, or "lan" for this machine's address on the local network."""

    enabled: bool = True
    listen: tuple[str, ...] = ("lan",)
    port: int = 8080


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """The whole file. `source` is the file the values came from, None when no file was found."""

    reader: ReaderConfig = field(default_factory=ReaderConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    display: ScreenConfig = field(default_factory=ScreenConfig)
    web: WebConfig = field(default_factory=WebConfig)
    source: str | None = None


# ----------------------------------------------------------------------
# Finding and reading the file


def user_config_path(environ: Mapping[str, str] | None = None) -> Path:
    """$XDG_CONFIG_HOME/board-banker/config.toml, or ~/.config/board-banker/config.toml."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME") or str(Path.home())
        base = os.path.join(home, ".config")
    return Path(base) / APP_DIR / "config.toml"


def find_config(path: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None,
                system_path: str | os.PathLike[str] = SYSTEM_CONFIG) -> Path | None:
    """The file `load_config` reads, or None when there is none (all defaults).

    An explicit `path` or $BANKER_CONFIG is returned even if the file is missing, so that
    reading it reports the mistake; the user and system locations count only if they exist.
    """
    env = os.environ if environ is None else environ
    if path is not None and str(path) != "":
        return Path(path).expanduser()
    named = env.get(ENV_VAR, "")
    if named:
        return Path(named).expanduser()
    for candidate in (user_config_path(env), Path(system_path)):
        if candidate.exists():
            return candidate
    return None


def load_config(path: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None,
                system_path: str | os.PathLike[str] = SYSTEM_CONFIG) -> HardwareConfig:
    """Find, read and check the hardware config file. Raises ConfigError, never anything else."""
    try:
        found = find_config(path, environ=environ, system_path=system_path)
    except (OSError, ValueError, RuntimeError) as exc:  # a name with NUL, "~nobody", a folder we may not search
        where = path if path is not None and str(path) != "" else "the hardware config file"
        raise ConfigError(f"{escape_text(os.fspath(where))}: cannot look for the file: {escape_text(str(exc))}") from None
    if found is None:
        return HardwareConfig()
    return parse_config(read_toml(found), source=str(found))


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed TOML document; ConfigError naming the file (and line, for syntax) otherwise.

    Read as banker.outside.read_text_file reads any file from outside: nothing is opened before it is
    known to be a regular file, the open does not block, and no more than MAX_FILE_BYTES + 1 bytes are read.
    """
    name = escape_text(str(path))
    try:
        text = read_text_file(path, MAX_FILE_BYTES)
    except NotRegularFile as exc:
        kind = file_kind(exc.mode, folder="is a directory", other="is not a regular file")
        raise ConfigError(f"{name}: {kind}, not a config file") from None
    except NotText as exc:
        raise ConfigError(f"{name}: line {exc.line}: not UTF-8 text (byte {exc.byte:#04x})") from None
    except FileTooLarge:
        raise ConfigError(f"{name}: larger than {MAX_FILE_BYTES} bytes (1 MiB), the most a config file may be") from None
    except FileNotFoundError:
        raise ConfigError(f"{name}: no such file") from None
    except NotADirectoryError:
        raise ConfigError(f"{name}: no such file (a part of the path is not a directory)") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {escape_text(exc.strerror or str(exc))}") from None
    except ValueError:  # os.stat refuses a name holding NUL (or a lone surrogate it cannot encode)
        raise ConfigError(f"{name}: cannot read: not a possible file name") from None
    _scan(text, name)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: {_syntax_problem(str(exc))}") from None
    except (ValueError, RecursionError) as exc:  # what _scan should already have refused: still no traceback
        raise ConfigError(f"{name}: not valid TOML: {escape_text(str(exc), _SHOWN_CHARS)}") from None


def _scan(text: str, name: str) -> None:
    """Refuse, before parsing, nesting deeper than MAX_NESTING, a dotted key of more than MAX_NESTING
    parts and a number written with more than MAX_DIGITS digits (see banker.outside.scan_document)."""
    found = scan_document(text, toml=True, max_depth=MAX_NESTING, max_digits=MAX_DIGITS, max_key_parts=MAX_NESTING)
    if found is None:
        return
    what, line = found
    problem = {DEEP: f"nested more than {MAX_NESTING} levels deep (lists and tables inside one another)",
               LONG_NUMBER: f"a number written with more than {MAX_DIGITS} digits",
               LONG_KEY: f"a dotted key of more than {MAX_NESTING} parts"}[what]
    raise ConfigError(f"{name}: line {line}: {problem}")


def _syntax_problem(message: str) -> str:
    # tomllib (3.11) puts the position only into the message: "Invalid value (at line 3, column 11)".
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if match:
        what = message[:match.start()]
        return f"line {match.group(1)}, column {match.group(2)}: not valid TOML: {escape_text(what, 200)}"
    match = re.search(r"\s*\(at end of document\)$", message)
    if match:
        return f"at the end of the file: not valid TOML: {escape_text(message[:match.start()], 200)}"
    return f"not valid TOML: {escape_text(message, 200)}"


# ----------------------------------------------------------------------
# Checking the values


class _Problems:
    """Collects "file: key: problem" lines so that one ConfigError reports them all (the first
    MAX_PROBLEMS of them, and how many more there are)."""

    def __init__(self, source: str) -> None:
        self.source = escape_text(source)
        self.lines: list[str] = []
        self.more = 0

    def add(self, key: str, problem: str) -> None:
        if len(self.lines) < MAX_PROBLEMS:
            self.lines.append(f"{self.source}: {key}: {problem}")
        else:
            self.more += 1

    def raise_any(self) -> None:
        if self.more:
            self.lines.append(f"{self.source}: {self.more} more problem{'s' if self.more > 1 else ''} not shown")
        if self.lines:
            raise ConfigError("\n".join(self.lines))


def _text_problem(value: str) -> str | None:
    """Why a text value is refused whatever its key (a control character, too long), or None.

    The characters a text value may not hold are banker.outside.CONTROLS_AND_FORMAT: controls, format
    characters such as U+200B or the bidirectional overrides, lone surrogates, and the line and paragraph
    separators (which some terminals and editors break a line at)."""
    found = control_character(value, CONTROLS_AND_FORMAT)
    if found is not None:
        index, ch = found
        return (f"must be text without control characters, not {_show(value)} "
                f"(U+{ord(ch):04X} at character {index + 1})")
    if len(value) > MAX_TEXT_CHARS:
        return f"must be text of at most {MAX_TEXT_CHARS} characters, not {len(value)}"
    return None


def _show(value: Any, limit: int = _SHOWN_CHARS) -> str:
    """A value as it would be written in TOML, for messages: on one line, cut to `limit` characters."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        escaped = escape_text(quoted[:limit])
        if len(quoted) > limit or len(escaped) > limit - 2:
            return '"' + escaped[:limit - 5] + '"...'
        return '"' + escaped + '"'
    if isinstance(value, int):
        if value.bit_length() > 4 * limit:  # str() would be slow, or refused past 4,300 digits
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return escape_text(str(value), limit)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        shown = "["
        for index, item in enumerate(value):
            shown += (", " if index else "") + _show(item, limit)
            if len(shown) > limit:
                return shown[:limit - 3] + "..."
        return shown + "]"
    if hasattr(value, "isoformat"):  # a TOML date, time or date-time
        return escape_text(value.isoformat(), limit)
    return escape_text(str(value), limit)


def _key_name(key: Any) -> str:
    """A key as a message names it: bare when TOML allows it bare, else quoted and escaped."""
    if isinstance(key, str) and _BARE_KEY.fullmatch(key):
        return escape_text(key, _SHOWN_CHARS)
    return _show(key)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _choices(options: Sequence[Any]) -> str:
    shown = [_show(option) for option in options]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


class _Table:
    """One table of the file: hands out checked values and reports the keys nobody asked for."""

    def __init__(self, problems: _Problems, name: str, data: Mapping[str, Any]) -> None:
        self.problems = problems
        self.name = name
        self.data = data
        self.known: list[str] = []

    def key(self, key: str) -> str:
        return f"{self.name}.{_key_name(key)}" if self.name else _key_name(key)

    def raw(self, key: str) -> tuple[bool, Any]:
        self.known.append(key)
        if key in self.data:
            return True, self.data[key]
        return False, None

    def sub(self, key: str) -> _Table:
        present, value = self.raw(key)
        if present and not isinstance(value, dict):
            self.problems.add(self.key(key), f"must be a table ([{self.key(key)}]), not {_show(value)}")
            value = {}
        return _Table(self.problems, self.key(key), value if present else {})

    def choice(self, key: str, options: Sequence[str], default: str) -> str:
        present, value = self.raw(key)
        if not present:
            return default
        problem = _text_problem(value) if isinstance(value, str) else None
        if problem:
            self.problems.add(self.key(key), problem)
            return default
        if not isinstance(value, str) or value not in options:
            self.problems.add(self.key(key), f"must be {_choices(options)}, not {_show(value)}")
            return default
        return value

    def string(self, key: str, default: str) -> str:
        present, value = self.raw(key)
        if not present:
            return default
        if not isinstance(value, str):
            self.problems.add(self.key(key), f"must be a string, not {_show(value)}")
            return default
        problem = _text_problem(value)
        if problem:
            self.problems.add(self.key(key), problem)
            return default
        return value

    def boolean(self, key: str, default: bool) -> bool:
        present, value = self.raw(key)
        if not present:
            return default
        if not isinstance(value, bool):
            self.problems.add(self.key(key), f"must be true or false, not {_show(value)}")
            return default
        return value

    def integer(self, key: str, default: int, low: int, high: int | None, wanted: str) -> int:
        present, value = self.raw(key)
        if not present:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            self.problems.add(self.key(key), f"must be {wanted}, not {_show(value)}")
            return default
        return value

    def seconds(self, key: str, default: float, low: float, high: float) -> float:
        present, value = self.raw(key)
        if not present:
            return default
        number_ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        # The range test refuses nan and infinities too; math.isfinite would overflow on a huge integer.
        if not number_ok or not low <= value <= high:
            self.problems.add(self.key(key), f"must be a number of seconds from {low:g} to {high:g}, not {_show(value)}")
            return default
        return float(value)

    def pin(self, key: str, default: Pin | None) -> Pin | None:
        present, value = self.raw(key)
        if not present:
            return default
        problem = pin_problem(value)
        if problem:
            self.problems.add(self.key(key), problem)
            return default
        return cast(Pin, value)

    def pins(self, key: str) -> tuple[Pin, ...] | None:
        """The list of pins ((), when absent), or None when a problem was reported."""
        present, value = self.raw(key)
        if not present:
            return ()
        if not isinstance(value, list):
            self.problems.add(self.key(key), f"must be a list of pins such as [5, 6, 13], not {_show(value)}")
            return None
        if len(value) > GPIO_COUNT:
            self.problems.add(self.key(key), f"must list at most {GPIO_COUNT} pins (the 40-pin header has "
                                             f"{GPIO_COUNT} GPIOs, each for one job), not {len(value)}")
            return None
        good = True
        for index, item in enumerate(value):
            problem = pin_problem(item)
            if problem:
                self.problems.add(f"{self.key(key)}[{index}]", problem)
                good = False
        return tuple(value) if good else None

    def report_unknown(self) -> None:
        for key, value in self.data.items():
            if key in self.known:
                continue
            what = "section" if isinstance(value, dict) else "key"
            self.problems.add(self.key(key), f"unknown {what} (known: {', '.join(self.known)})")


def bcm_number(pin: Pin) -> int | None:
    """The BCM GPIO number a pin stands for (17 for 17, "GPIO17", "BOARD11"), None if it is no GPIO."""
    if isinstance(pin, bool):
        return None
    if isinstance(pin, int):
        return pin if 0 <= pin <= LAST_GPIO else None
    match = _PIN_NAME.fullmatch(pin)
    if not match:
        return None
    number = int(match.group("number"))
    if match.group("scheme") in ("BOARD", "J8:"):
        return HEADER_GPIO.get(number)
    return number if number <= LAST_GPIO else None


def pin_problem(value: Any) -> str | None:
    """Why `value` is no pin of the config (and of `banker hw dice --pin`), or None for a good pin."""
    wanted = f'must be a GPIO number from 0 to {LAST_GPIO} or a pin name such as "GPIO17" or "BOARD11"'
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return f"{wanted}, not {_show(value)}"
    if isinstance(value, str):
        problem = _text_problem(value)
        if problem:
            return problem
    if bcm_number(value) is not None:
        return None
    if isinstance(value, str):
        match = _PIN_NAME.fullmatch(value)
        if match and match.group("scheme") in ("BOARD", "J8:"):
            return f"{_show(value)} is not a GPIO pin of the 40-pin header (it is power, ground or out of range)"
    return f"{wanted}, not {_show(value)}"


def parse_config(data: Mapping[str, Any], source: str = "config.toml") -> HardwareConfig:
    """Check a parsed TOML document; `source` names the file in messages."""
    problems = _Problems(source)
    root = _Table(problems, "", data)

    reader = root.sub("reader")
    reader_config = ReaderConfig(
        url=reader.string("url", ""),
        protocol=reader.choice("protocol", PROTOCOLS, kinds.DEFAULT),
        baudrate=reader.integer("baudrate", 115200, 1, MAX_BAUDRATE, f"an integer from 1 to {MAX_BAUDRATE}"),
        retap_window=reader.seconds("retap_window", 1.5, *RETAP_RANGE),
        reset_pin=_reset_pin(reader),
    )
    reader.report_unknown()

    dice = root.sub("dice")
    dice_pin = dice.pin("pin", 17)
    pull_up = dice.boolean("pull_up", True)
    count = dice.integer("count", 2, 1, MAX_DICE, f"an integer from 1 to {MAX_DICE}")
    debounce = dice.seconds("debounce", 0.05, *DEBOUNCE_RANGE)
    enabled = dice.boolean("enabled", True)
    display = dice.sub("display")
    display_config = _dice_display(display)
    display.report_unknown()
    buzzer = dice.sub("buzzer")
    buzzer_config = BuzzerConfig(pin=buzzer.pin("pin", None))
    buzzer.report_unknown()
    dice.report_unknown()
    dice_config = DiceConfig(pin=dice_pin if dice_pin is not None else 17, pull_up=pull_up, count=count,
                             debounce=debounce, enabled=enabled, display=display_config, buzzer=buzzer_config)

    screen = root.sub("display")
    screen_config = ScreenConfig(
        rotation=_rotation(screen),
        touch=cast(Literal["official-7in", "touch-display-2", "hdmi"],
                   screen.choice("touch", TOUCH_SCREENS, "official-7in")),
        density=_density(screen),
    )
    screen.report_unknown()
    web = root.sub("web")
    web_config = WebConfig(
        enabled=web.boolean("enabled", True),
        listen=_listen(web),
        port=web.integer("port", 8080, 1, 65535, "a port number from 1 to 65535"),
    )
    web.report_unknown()
    root.report_unknown()

    _check_pins_shared(problems, reader_config, dice_config)
    problems.raise_any()
    return HardwareConfig(reader=reader_config, dice=dice_config, display=screen_config, web=web_config,
                          source=source)


def _listen(web: _Table) -> tuple[str, ...]:
    """[web] listen: "lan" or IP addresses (v4 or v6) written as text, at least one, at most MAX_LISTEN."""
    present, value = web.raw("listen")
    if not present:
        return ("lan",)
    if not isinstance(value, list) or not value:
        web.problems.add(web.key("listen"), f'must be a list of addresses such as ["lan"] or ["192.168.1.20"], not {_show(value)}')
        return ("lan",)
    if len(value) > MAX_LISTEN:
        web.problems.add(web.key("listen"), f"must list at most {MAX_LISTEN} addresses, not {len(value)}")
        return ("lan",)
    good: list[str] = []
    for k, item in enumerate(value):
        address, problem = listen_address(item)
        if problem:
            web.problems.add(f"{web.key('listen')}[{k}]", problem)
        else:
            good.append(address)
    return tuple(good) or ("lan",)


def listen_address(item: Any) -> tuple[str, str | None]:
    """One item of [web] listen: ("lan" or the address as Python writes it, None), or ("", the problem).

    Only text: a number (0 would be 0.0.0.0 to ipaddress) is a mistake, not an address. Refused too:
    every interface ("0.0.0.0", "::"), which would serve the page beyond the local network ("lan" is
    the address there); multicast and reserved addresses, which are no machine's own; an IPv6 scope
    ("fe80::1%eth0") and IPv4 written as IPv6 ("::ffff:192.168.1.20"), odd forms the server binds badly.
    """
    wanted = 'must be "lan" or an IP address such as "192.168.1.20" (in quotes)'
    if not isinstance(item, str):
        return "", f"{wanted}, not {_show(item)}"
    problem = _text_problem(item)
    if problem:
        return "", problem
    if item == "lan":
        return item, None
    try:
        address = ipaddress.ip_address(item)
    except ValueError:
        return "", f"{wanted}, not {_show(item)}"
    if address.is_unspecified:
        return "", (f"{_show(item)} means every interface, not only the local network: "
                    'use "lan" or this machine\'s address')
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id is not None:
        return "", f'{_show(item)}: an address with a scope (%) is not supported; use "lan"'
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return "", f'{_show(item)}: write the IPv4 address itself, "{address.ipv4_mapped}"'
    if address.is_multicast or (isinstance(address, ipaddress.IPv4Address) and address.is_reserved):
        return "", f"{_show(item)} is a multicast or reserved address, not one of this machine"
    return str(address), None


def _rotation(screen: _Table) -> int:
    present, value = screen.raw("rotation")
    if not present:
        return 0
    if isinstance(value, bool) or value not in ROTATIONS:
        screen.problems.add(screen.key("rotation"), f"must be {_choices(ROTATIONS)} (degrees), not {_show(value)}")
        return 0
    return int(value)


def _density(screen: _Table) -> float | None:
    present, value = screen.raw("density")
    if not present:
        return None
    low, high = DENSITY_RANGE
    number_ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number_ok or not low <= value <= high:  # refuses nan and infinities too
        screen.problems.add(screen.key("density"), f"must be a number from {low:g} to {high:g} "
                            f"(pixels per dp; 1 for an 800x480 7-inch panel), not {_show(value)}")
        return None
    return float(value)


def _dice_display(table: _Table) -> DiceDisplayConfig:
    kind = table.choice("kind", DISPLAY_KINDS, "none")
    pins = table.pins("pins")
    digit_pins = table.pins("digit_pins")
    active_high = table.boolean("active_high", True)
    if kind == "digits" and pins is not None and len(pins) not in (7, 8):
        table.problems.add(table.key("pins"), 'kind = "digits" needs 7 segment pins (a to g) '
                           f"or 8 (a to g and dp), not {len(pins)}")
    if kind == "pips":
        allowed = sorted({per_die * dice for per_die in PIPS_PER_DIE for dice in range(1, MAX_DICE + 1)})
        if pins is not None and len(pins) not in allowed:
            table.problems.add(table.key("pins"), 'kind = "pips" needs 4 or 7 LED pins per die '
                               f"({', '.join(map(str, allowed))} pins), not {len(pins)}")
        if digit_pins != ():
            table.problems.add(table.key("digit_pins"), 'only for kind = "digits"; leave it out or make it []')
    return DiceDisplayConfig(kind=cast(Literal["none", "digits", "pips"], kind), pins=pins or (),
                             digit_pins=digit_pins or (), active_high=active_high)


def _reset_pin(reader: _Table) -> Pin:
    pin = reader.pin("reset_pin", DEFAULT_RESET_PIN)
    return pin if pin is not None else DEFAULT_RESET_PIN


def _check_pins_shared(problems: _Problems, reader: ReaderConfig, dice: DiceConfig) -> None:
    """One pin, one job: a pin used twice would fight itself (an output shorting the button).

    The rc522 claims the five SPI0 pins and its reset pin first, so that a dice pin on one of them is
    the pin reported; with another kind of reader `reset_pin` is not used and claims nothing. A disabled
    dice button claims nothing, and neither do its display and buzzer.
    """
    used: dict[int, str] = {}
    if reader.protocol == RC522:
        for number, name in SPI0_PINS.items():
            used[number] = f"the rc522 card reader (SPI0 {name})"

    def claim(key: str, pin: Pin | None) -> None:
        if pin is None:
            return
        number = bcm_number(pin)
        if number is None:
            return
        if number in used:
            problems.add(key, f"GPIO{number} is already used by {used[number]}")
        else:
            used[number] = key

    if reader.protocol == RC522:
        claim("reader.reset_pin", reader.reset_pin)
    if not dice.enabled:
        return
    claim("dice.pin", dice.pin)
    if dice.display.kind != "none":
        for index, pin in enumerate(dice.display.pins):
            claim(f"dice.display.pins[{index}]", pin)
        for index, pin in enumerate(dice.display.digit_pins):
            claim(f"dice.display.digit_pins[{index}]", pin)
    claim("dice.buzzer.pin", dice.buzzer.pin)
