"""The hardware config file: defaults, a full file, every kind of mistake, where it is looked for."""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.config import (
    EXAMPLE_CONFIG,
    HEADER_GPIO,
    BuzzerConfig,
    DiceConfig,
    DiceDisplayConfig,
    HardwareConfig,
    ReaderConfig,
    ScreenConfig,
    bcm_number,
    find_config,
    load_config,
    parse_config,
    pin_problem,
    user_config_path,
)
from hardware.events import ConfigError, HardwareError
from hardware.kinds import NAMES

# What a wrong reader.protocol is told: every kind of hardware/kinds.py, as the config names them.
KINDS_WANTED = "must be " + ", ".join(f'"{name}"' for name in NAMES[:-1]) + f' or "{NAMES[-1]}"'

FULL = """\
[reader]
url = "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"
protocol = "line"
baudrate = 9600
retap_window = 2

[dice]
pin = "BOARD11"
pull_up = false
count = 3
debounce = 0.02
enabled = true

[dice.display]
kind = "digits"
pins = [5, 6, 13, 19, 26, 12, 16, "GPIO20"]
digit_pins = [21, 22, 23]
active_high = false

[dice.buzzer]
pin = "J8:13"

[display]
rotation = 180
touch = "touch-display-2"
density = 1.75
"""


def write(directory: Path, text: str, name: str = "config.toml") -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in an empty directory, so that messages name the file simply "config.toml"."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def problems_of(text: str) -> list[str]:
    write(Path.cwd(), text)
    with pytest.raises(ConfigError) as caught:
        load_config("config.toml")
    return str(caught.value).splitlines()


def nowhere(tmp_path: Path) -> dict[str, object]:
    """Search arguments under which no config file exists."""
    return {"environ": {"HOME": str(tmp_path / "home")}, "system_path": tmp_path / "etc" / "config.toml"}


# ----------------------------------------------------------------------
# Values


def test_no_file_anywhere_means_all_defaults(tmp_path: Path) -> None:
    config = load_config(**nowhere(tmp_path))  # type: ignore[arg-type]
    assert config == HardwareConfig()
    assert config.source is None
    assert config.reader == ReaderConfig(url="", protocol="pn532", baudrate=115200, retap_window=1.5, reset_pin=25)
    assert config.dice == DiceConfig(pin=17, pull_up=True, count=2, debounce=0.05, enabled=True,
                                     display=DiceDisplayConfig("none", (), (), True), buzzer=BuzzerConfig(None))
    assert config.display == ScreenConfig(rotation=0, touch="official-7in", density=None)


def test_an_empty_file_means_all_defaults(in_tmp: Path) -> None:
    config = load_config(write(in_tmp, ""))
    assert dataclasses.replace(config, source=None) == HardwareConfig()
    assert config.source == str(in_tmp / "config.toml")


def test_a_full_file(in_tmp: Path) -> None:
    config = load_config(write(in_tmp, FULL))
    assert config.reader == ReaderConfig(url="/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0", protocol="line",
                                         baudrate=9600, retap_window=2.0)
    assert isinstance(config.reader.retap_window, float)
    assert config.dice == DiceConfig(
        pin="BOARD11", pull_up=False, count=3, debounce=0.02, enabled=True,
        display=DiceDisplayConfig(kind="digits", pins=(5, 6, 13, 19, 26, 12, 16, "GPIO20"),
                                  digit_pins=(21, 22, 23), active_high=False),
        buzzer=BuzzerConfig(pin="J8:13"))
    assert config.display == ScreenConfig(rotation=180, touch="touch-display-2", density=1.75)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.reader.url = "x"  # type: ignore[misc]


@pytest.mark.parametrize("touch, size", [("official-7in", (800, 480)), ("touch-display-2", (1280, 720)),
                                         ("hdmi", None)])
def test_each_touchscreen_implies_the_app_window_size(in_tmp: Path, touch: str, size: tuple[int, int] | None) -> None:
    # The Touch Display 2 is a 720x1280 portrait panel that the launcher turns to landscape.
    assert load_config(write(in_tmp, f'[display]\ntouch = "{touch}"\n')).display.panel_size == size


@pytest.mark.parametrize("written, density", [("1", 1.0), ("1.25", 1.25), ("0.5", 0.5), ("4", 4.0), ("4.0", 4.0)])
def test_a_density_is_a_float_within_bounds(in_tmp: Path, written: str, density: float) -> None:
    config = load_config(write(in_tmp, f"[display]\ndensity = {written}\n"))
    assert config.display.density == density and isinstance(config.display.density, float)
    assert config.display.touch == "official-7in"  # the rest of [display] keeps its defaults


def test_pips_with_7_leds_per_die_and_a_partial_file(in_tmp: Path) -> None:
    pins = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 18]
    config = load_config(write(in_tmp, f'[dice.display]\nkind = "pips"\npins = {pins}\n'))
    assert config.dice.display == DiceDisplayConfig(kind="pips", pins=tuple(pins))
    assert config.dice.count == 2 and config.reader == ReaderConfig()


@pytest.mark.parametrize("name, number", [
    (17, 17), ("17", 17), ("GPIO17", 17), ("BCM17", 17), ("BOARD11", 17), ("J8:11", 17), (0, 0), ("GPIO27", 27),
    (28, None), (-1, None), ("gpio17", None), ("GPIO017", None), ("BOARD1", None), ("BOARD41", None),
    (" GPIO17", None), ("WPI0", None), (True, None),
])
def test_pin_names(name: int | str, number: int | None) -> None:
    assert bcm_number(name) == number


def test_the_header_map_agrees_with_gpiozero() -> None:
    factory = MockFactory()
    for physical in range(1, 41):
        try:
            gpio = factory.pin(f"BOARD{physical}").info.name
        except Exception:  # power and ground pins are no GPIO
            assert physical not in HEADER_GPIO
        else:
            assert f"GPIO{HEADER_GPIO[physical]}" == gpio


# ----------------------------------------------------------------------
# Mistakes: each names the file, the key and the problem


@pytest.mark.parametrize("text, message", [
    ('[reader]\nprotocol = "pn533"\n', f'config.toml: reader.protocol: {KINDS_WANTED}, not "pn533"'),
    ("[reader]\nprotocol = 3\n", f"config.toml: reader.protocol: {KINDS_WANTED}, not 3"),
    ("[reader]\nurl = 5\n", "config.toml: reader.url: must be a string, not 5"),
    ("[reader]\nbaudrate = 0\n", "config.toml: reader.baudrate: must be an integer from 1 to 12000000, not 0"),
    ('[reader]\nbaudrate = "fast"\n', 'config.toml: reader.baudrate: must be an integer from 1 to 12000000, not "fast"'),
    ("[reader]\nbaudrate = 9600.0\n", "config.toml: reader.baudrate: must be an integer from 1 to 12000000, not 9600.0"),
    ("[reader]\nbaudrate = true\n", "config.toml: reader.baudrate: must be an integer from 1 to 12000000, not true"),
    ("[reader]\nretap_window = 12\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not 12"),
    ("[reader]\nretap_window = -0.5\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not -0.5"),
    ("[reader]\nretap_window = nan\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not nan"),
    ("[reader]\nport = 1\n", "config.toml: reader.port: unknown key (known: url, protocol, baudrate, retap_window, reset_pin)"),
    ('reader = "/dev/ttyUSB0"\n', 'config.toml: reader: must be a table ([reader]), not "/dev/ttyUSB0"'),
    ("[dice]\npin = 40\n", 'config.toml: dice.pin: must be a GPIO number from 0 to 27 or a pin name such as '
                           '"GPIO17" or "BOARD11", not 40'),
    ('[dice]\npin = "BOARD9"\n',
     'config.toml: dice.pin: "BOARD9" is not a GPIO pin of the 40-pin header (it is power, ground or out of range)'),
    ("[dice]\npull_up = 1\n", "config.toml: dice.pull_up: must be true or false, not 1"),
    ("[dice]\ncount = 4\n", "config.toml: dice.count: must be an integer from 1 to 3, not 4"),
    ("[dice]\ncount = 0\n", "config.toml: dice.count: must be an integer from 1 to 3, not 0"),
    ("[dice]\ndebounce = 2\n", "config.toml: dice.debounce: must be a number of seconds from 0 to 1, not 2"),
    ('[dice]\nenabled = "yes"\n', 'config.toml: dice.enabled: must be true or false, not "yes"'),
    ("[dice]\nbounce = 0.1\n", "config.toml: dice.bounce: unknown key (known: pin, pull_up, count, debounce, "
                               "enabled, display, buzzer)"),
    ('[dice.display]\nkind = "lcd"\n',
     'config.toml: dice.display.kind: must be "none", "digits" or "pips", not "lcd"'),
    ('[dice.display]\nkind = "digits"\npins = [5, 6, 13]\n',
     'config.toml: dice.display.pins: kind = "digits" needs 7 segment pins (a to g) or 8 (a to g and dp), not 3'),
    ('[dice.display]\nkind = "digits"\n',
     'config.toml: dice.display.pins: kind = "digits" needs 7 segment pins (a to g) or 8 (a to g and dp), not 0'),
    ('[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19, 26]\n',
     'config.toml: dice.display.pins: kind = "pips" needs 4 or 7 LED pins per die (4, 7, 8, 12, 14, 21 pins), '
     'not 5'),
    ('[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19]\ndigit_pins = [21]\n',
     'config.toml: dice.display.digit_pins: only for kind = "digits"; leave it out or make it []'),
    ("[dice.display]\npins = 5\n",
     "config.toml: dice.display.pins: must be a list of pins such as [5, 6, 13], not 5"),
    ('[dice.display]\npins = [5, "GPIO99", 6]\n',
     'config.toml: dice.display.pins[1]: must be a GPIO number from 0 to 27 or a pin name such as '
     '"GPIO17" or "BOARD11", not "GPIO99"'),
    ('[dice.display]\nactive_high = "low"\n',
     'config.toml: dice.display.active_high: must be true or false, not "low"'),
    ('[dice.display]\ncolour = "red"\n',
     "config.toml: dice.display.colour: unknown key (known: kind, pins, digit_pins, active_high)"),
    ("[dice.buzzer]\npin = 3.5\n", 'config.toml: dice.buzzer.pin: must be a GPIO number from 0 to 27 or a pin '
                                   'name such as "GPIO17" or "BOARD11", not 3.5'),
    ("[dice.buzzer]\npin = 18\nvolume = 3\n", "config.toml: dice.buzzer.volume: unknown key (known: pin)"),
    ("[dice]\nbuzzer = 18\n", "config.toml: dice.buzzer: must be a table ([dice.buzzer]), not 18"),
    ("[dice.buzzer]\npin = 17\n", "config.toml: dice.buzzer.pin: GPIO17 is already used by dice.pin"),
    ('[dice]\npin = "BOARD11"\n[dice.display]\nkind = "pips"\npins = [5, 6, 13, 17]\n',
     "config.toml: dice.display.pins[3]: GPIO17 is already used by dice.pin"),
    ("[display]\nrotation = 45\n", "config.toml: display.rotation: must be 0, 90, 180 or 270 (degrees), not 45"),
    ('[display]\ntouch = "hdmi-7in"\n', 'config.toml: display.touch: must be "official-7in", "touch-display-2" '
                                        'or "hdmi", not "hdmi-7in"'),
    *[(f"[display]\ndensity = {bad}\n", "config.toml: display.density: must be a number from 0.5 to 4 "
                                         f"(pixels per dp; 1 for an 800x480 7-inch panel), not {shown}")
      for bad, shown in [("0.49", "0.49"), ("4.01", "4.01"), ("0", "0"), ("-1", "-1"), ("nan", "nan"),
                         ("inf", "inf"), ('"1.5"', '"1.5"'), ("true", "true"), ("[1.5]", "[1.5]")]],
    ("[display]\ndpi = 160\n", "config.toml: display.dpi: unknown key (known: rotation, touch, density)"),
    ("[sound]\nvolume = 3\n", "config.toml: sound: unknown section (known: reader, dice, display, web)"),
    ("debug = true\n", "config.toml: debug: unknown key (known: reader, dice, display, web)"),
    ("[web]\nlisten = \"everywhere\"\n", 'config.toml: web.listen: must be a list of addresses such as ["lan"] or ["192.168.1.20"], not "everywhere"'),
    ("[web]\nlisten = [\"lan\", \"10.0.0.300\"]\n", 'config.toml: web.listen[1]: must be "lan" or an IP address such as "192.168.1.20" (in quotes), not "10.0.0.300"'),
    ("[web]\nport = 0\n", "config.toml: web.port: must be a port number from 1 to 65535, not 0"),
])
def test_each_mistake_names_file_key_and_problem(in_tmp: Path, text: str, message: str) -> None:
    assert problems_of(text) == [message]


_KEYS = ["reader", "dice", "display", "buzzer", "url", "protocol", "baudrate", "retap_window", "reset_pin", "pin", "pull_up",
         "count", "debounce", "enabled", "kind", "pins", "digit_pins", "active_high", "rotation", "touch", "density", "other"]
_SCALARS = (st.none() | st.booleans() | st.integers(-5, 200_000) | st.floats(allow_nan=True)
            | st.sampled_from(["", "pn532", "line", "rc522", "GPIO17", "BOARD11", "BOARD1", "digits", "pips", "hdmi", "x"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=9)
                       | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=6), max_leaves=25)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=5))
def test_any_document_gives_a_config_or_a_config_error(data: dict[str, object]) -> None:
    try:
        config = parse_config(data, source="fuzz.toml")
    except ConfigError as exc:
        assert all(line.startswith("fuzz.toml: ") for line in str(exc).splitlines())
    else:
        assert isinstance(config, HardwareConfig)


def test_all_mistakes_are_reported_at_once(in_tmp: Path) -> None:
    lines = problems_of('[reader]\nprotocol = "pn533"\n[dice]\ncount = 9\n[display]\nrotation = 1\ndensity = 9\n')
    assert [line.split(": ")[1] for line in lines] == ["reader.protocol", "dice.count", "display.rotation",
                                                       "display.density"]


def test_unused_pins_are_not_checked_for_sharing(in_tmp: Path) -> None:
    # A display switched off keeps its pins for later; a disabled button claims nothing.
    config = load_config(write(in_tmp, '[dice.display]\nkind = "none"\npins = [17]\n'))
    assert config.dice.display.pins == (17,)
    load_config(write(in_tmp, '[dice]\nenabled = false\n[dice.buzzer]\npin = 17\n'))


@pytest.mark.parametrize("value, pin", [(24, 24), ('"GPIO24"', "GPIO24"), ('"BOARD22"', "BOARD22"), ('"J8:18"', "J8:18")])
def test_reset_pin_takes_any_pin_name(in_tmp: Path, value: str, pin: int | str) -> None:
    assert load_config(write(in_tmp, f"[reader]\nreset_pin = {value}\n")).reader.reset_pin == pin


@pytest.mark.parametrize("value, problem", [
    ("40", "must be a GPIO number from 0 to 27 or a pin name such as \"GPIO17\" or \"BOARD11\", not 40"),
    ("true", "must be a GPIO number from 0 to 27 or a pin name such as \"GPIO17\" or \"BOARD11\", not true"),
    ('"BOARD17"', '"BOARD17" is not a GPIO pin of the 40-pin header (it is power, ground or out of range)'),
])
def test_a_bad_reset_pin_is_refused_whatever_the_reader(in_tmp: Path, value: str, problem: str) -> None:
    assert problems_of(f'[reader]\nprotocol = "line"\nreset_pin = {value}\n') == [
        f"config.toml: reader.reset_pin: {problem}"]


SPI0 = [(8, "CE0"), (7, "CE1"), (9, "MISO"), (10, "MOSI"), (11, "SCLK")]


@pytest.mark.parametrize("number, name", SPI0)
def test_the_rc522_keeps_the_spi_pins_from_the_dice(in_tmp: Path, number: int, name: str) -> None:
    rc522 = '[reader]\nprotocol = "rc522"\nurl = "/dev/spidev0.0"\n'
    taken = f"GPIO{number} is already used by the rc522 card reader (SPI0 {name})"
    assert problems_of(f"{rc522}[dice]\npin = {number}\n") == [f"config.toml: dice.pin: {taken}"]
    physical = next(pin for pin, gpio in HEADER_GPIO.items() if gpio == number)
    assert problems_of(f'{rc522}[dice.buzzer]\npin = "BOARD{physical}"\n') == [f"config.toml: dice.buzzer.pin: {taken}"]
    assert problems_of(f'{rc522}[dice.display]\nkind = "pips"\npins = [5, 6, 13, {number}]\n') == [
        f"config.toml: dice.display.pins[3]: {taken}"]
    assert problems_of(f'{rc522}[dice.display]\nkind = "digits"\npins = [5, 6, 13, 19, 26, 12, 16]\n'
                       f'digit_pins = ["GPIO{number}"]\n') == [f"config.toml: dice.display.digit_pins[0]: {taken}"]
    # The reset line cannot be on the bus either, even with the dice button switched off.
    assert problems_of(f"{rc522}reset_pin = {number}\n[dice]\nenabled = false\n") == [
        f"config.toml: reader.reset_pin: {taken}"]


def test_the_rc522_reset_pin_has_one_job(in_tmp: Path) -> None:
    assert problems_of('[reader]\nprotocol = "rc522"\n[dice]\npin = "BOARD22"\n') == [
        "config.toml: dice.pin: GPIO25 is already used by reader.reset_pin"]
    assert problems_of('[reader]\nprotocol = "rc522"\nreset_pin = 27\n[dice.buzzer]\npin = 27\n') == [
        "config.toml: dice.buzzer.pin: GPIO27 is already used by reader.reset_pin"]
    config = load_config(write(in_tmp, '[reader]\nprotocol = "rc522"\nurl = "/dev/spidev0.0"\nreset_pin = 24\n'
                                       '[dice]\npin = 25\n[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19]\n'
                                       '[dice.buzzer]\npin = 27\n'))
    assert config.reader == ReaderConfig(url="/dev/spidev0.0", protocol="rc522", reset_pin=24)
    assert config.dice.pin == 25


def test_other_readers_leave_the_spi_pins_and_the_reset_pin_free(in_tmp: Path) -> None:
    for protocol in [name for name in NAMES if name != "rc522"]:
        config = load_config(write(in_tmp, f'[reader]\nprotocol = "{protocol}"\nreset_pin = 17\n[dice]\npin = 17\n'
                                           '[dice.display]\nkind = "pips"\npins = [7, 8, 9, 10, 11, 25, 12]\n'))
        assert config.reader.reset_pin == 17 and config.dice.pin == 17
        assert config.dice.display.pins == (7, 8, 9, 10, 11, 25, 12)


def test_a_syntax_error_names_the_file_and_line(in_tmp: Path) -> None:
    [line] = problems_of('[reader]\nurl = "/dev/serial0"\nprotocol = pn532\n')
    assert re.fullmatch(r"config\.toml: line 3, column \d+: not valid TOML: .+", line), line
    [line] = problems_of('[dice]\ncount = 2\ncount = 3\n')
    assert line.startswith("config.toml: line 3, column ")
    [line] = problems_of('[dice\n')
    assert line.startswith("config.toml: line 1, column ")


def test_a_file_that_is_not_utf8(in_tmp: Path) -> None:
    (in_tmp / "config.toml").write_bytes(b'[reader]\nurl = "/dev/tty\xff"\n')
    with pytest.raises(ConfigError, match=r"^config\.toml: line 2: not UTF-8 text \(byte 0xff\)$"):
        load_config("config.toml")


def test_an_unreadable_file(in_tmp: Path) -> None:
    (in_tmp / "config.toml").mkdir()
    with pytest.raises(ConfigError, match=r"^config\.toml: is a directory, not a config file$"):
        load_config("config.toml")
    if os.geteuid() != 0:  # root reads anything, so the permission case only exists for others
        path = write(in_tmp, "", "locked.toml")
        path.chmod(0)
        with pytest.raises(ConfigError, match=r"^locked\.toml: cannot read: Permission denied$"):
            load_config("locked.toml")


def test_a_named_file_that_is_missing_is_an_error_not_defaults(in_tmp: Path) -> None:
    with pytest.raises(ConfigError, match=r"^typo\.toml: no such file$"):
        load_config("typo.toml")
    with pytest.raises(ConfigError, match=r"^/nowhere/banker\.toml: no such file$"):
        load_config(environ={"BANKER_CONFIG": "/nowhere/banker.toml"})


def test_config_errors_are_value_errors_and_hardware_errors() -> None:
    assert issubclass(ConfigError, ValueError) and issubclass(ConfigError, HardwareError)


# ----------------------------------------------------------------------
# Where the file is looked for


def test_search_order(tmp_path: Path) -> None:
    home = tmp_path / "home"
    xdg = tmp_path / "xdg"
    system = write(tmp_path / "etc", "[dice]\ncount = 1\n")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(xdg)}

    # Only /etc exists.
    assert find_config(environ=env, system_path=system) == system
    assert load_config(environ=env, system_path=system).dice.count == 1
    # The user's file wins over /etc.
    user = write(xdg / "board-banker", "[dice]\ncount = 2\n")
    assert user_config_path(env) == user
    assert load_config(environ=env, system_path=system).dice.count == 2
    # $BANKER_CONFIG wins over the user's file.
    named = write(tmp_path, "[dice]\ncount = 3\n", "named.toml")
    assert load_config(environ={**env, "BANKER_CONFIG": str(named)}, system_path=system).dice.count == 3
    # --config wins over everything.
    explicit = write(tmp_path, "[dice]\ncount = 1\n", "explicit.toml")
    config = load_config(str(explicit), environ={**env, "BANKER_CONFIG": str(named)}, system_path=system)
    assert config.dice.count == 1 and config.source == str(explicit)


def test_xdg_defaults_to_dot_config_in_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    expected = home / ".config" / "board-banker" / "config.toml"
    assert user_config_path({"HOME": str(home)}) == expected
    assert user_config_path({"HOME": str(home), "XDG_CONFIG_HOME": ""}) == expected
    # The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored.
    assert user_config_path({"HOME": str(home), "XDG_CONFIG_HOME": "relative/dir"}) == expected
    write(expected.parent, "[display]\nrotation = 90\n")
    assert load_config(environ={"HOME": str(home)}, system_path=tmp_path / "none").display.rotation == 90


def test_an_empty_banker_config_is_unset(tmp_path: Path) -> None:
    system = write(tmp_path / "etc", "[display]\nrotation = 270\n")
    config = load_config(environ={"HOME": str(tmp_path), "BANKER_CONFIG": ""}, system_path=system)
    assert config.display.rotation == 270 and config.source == str(system)


def test_a_bad_file_found_by_the_search_is_named_by_its_full_path(tmp_path: Path) -> None:
    system = write(tmp_path / "etc", "[dice]\ncount = 7\n")
    with pytest.raises(ConfigError) as caught:
        load_config(environ={"HOME": str(tmp_path / "home")}, system_path=system)
    assert str(caught.value) == f"{system}: dice.count: must be an integer from 1 to 3, not 7"


# ----------------------------------------------------------------------
# The shipped template


def test_the_example_file_loads_as_the_defaults() -> None:
    config = load_config(EXAMPLE_CONFIG)
    assert dataclasses.replace(config, source=None) == HardwareConfig()


def test_the_example_file_documents_every_key() -> None:
    text = EXAMPLE_CONFIG.read_text(encoding="utf-8")
    sections = {"reader": ReaderConfig, "dice": DiceConfig, "dice.display": DiceDisplayConfig,
                "dice.buzzer": BuzzerConfig, "display": ScreenConfig}
    tables = set(sections)
    for section, cls in sections.items():
        assert f"[{section}]\n" in text
        body = text.split(f"[{section}]\n", 1)[1].split("\n[", 1)[0]
        for item in dataclasses.fields(cls):
            if f"{section}.{item.name}" in tables:
                continue
            assert re.search(rf"^(# )?{item.name} = ", body, re.MULTILINE), f"{section}.{item.name} is not shown"
    # Every example value in a comment is itself valid.
    for example in re.findall(r"^# (\w+ = .+)$", text, re.MULTILINE):
        tomllib.loads(example)


# ----------------------------------------------------------------------
# Hostile values and files (issue 18): a clean refusal, one line per problem


_TEXT_KEYS = [  # every key that takes text, as the line that sets it to {value}
    ("reader.url", "[reader]\nurl = {value}\n"),
    ("reader.protocol", "[reader]\nprotocol = {value}\n"),
    ("reader.reset_pin", "[reader]\nreset_pin = {value}\n"),
    ("dice.pin", "[dice]\npin = {value}\n"),
    ("dice.display.kind", "[dice.display]\nkind = {value}\n"),
    ("dice.display.pins[0]", "[dice.display]\npins = [{value}]\n"),
    ("dice.display.digit_pins[0]", "[dice.display]\ndigit_pins = [{value}]\n"),
    ("dice.buzzer.pin", "[dice.buzzer]\npin = {value}\n"),
    ("display.touch", "[display]\ntouch = {value}\n"),
    ("web.listen[0]", "[web]\nlisten = [{value}]\n"),
]
_CONTROLS = [("\\n", "U+000A"), ("\\t", "U+0009"), ("\\r", "U+000D"), ("\\u0000", "U+0000"), ("\\u001b", "U+001B"),
             ("\\u007f", "U+007F"), ("\\u0085", "U+0085"), ("\\u200b", "U+200B"), ("\\u202e", "U+202E"),
             ("\\ufeff", "U+FEFF"), ("\\u2028", "U+2028"), ("\\u2029", "U+2029")]


@pytest.mark.parametrize("key, line", _TEXT_KEYS)
@pytest.mark.parametrize("escape, code", _CONTROLS)
def test_a_control_character_in_any_text_value_is_refused_on_one_line(in_tmp: Path, key: str, line: str,
                                                                      escape: str, code: str) -> None:
    # A good value for each key, with the control character after it (a newline made "GPIO17\n" pass before).
    good = {"reader.url": "/dev/serial0", "reader.protocol": "line", "display.touch": "hdmi",
            "dice.display.kind": "pips", "web.listen[0]": "192.168.1.20"}.get(key, "GPIO17")
    assert problems_of(line.format(value=f'"{good}{escape}"')) == [
        f'config.toml: {key}: must be text without control characters, not "{good}{escape}" '
        f"({code} at character {len(good) + 1})"]


def test_a_multi_line_string_is_refused_too(in_tmp: Path) -> None:
    assert problems_of('[reader]\nurl = """/dev/\nserial0"""\n') == [
        'config.toml: reader.url: must be text without control characters, not "/dev/\\nserial0" '
        "(U+000A at character 6)"]
    # A raw tab is allowed inside a TOML string, but not in a value.
    assert problems_of('[reader]\nurl = "/dev/serial0\t"\n') == [
        'config.toml: reader.url: must be text without control characters, not "/dev/serial0\\t" '
        "(U+0009 at character 13)"]


@pytest.mark.parametrize("name", ["GPIO17\n", "17\n", "BOARD11\n", "GPIO17 ", "GPIO17\u200b", "J8:11\t"])
def test_a_pin_name_must_match_whole(name: str) -> None:
    assert bcm_number(name) is None
    assert pin_problem(name) is not None
    assert pin_problem(name.rstrip("\n\t \u200b")) is None


@pytest.mark.parametrize("value, message", [
    ("0", 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not 0'),
    ("3232235796", 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not 3232235796'),
    ("true", 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not true'),
    ("1.5", 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not 1.5'),
    ("[\"lan\"]", 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not ["lan"]'),
    ('"0"', 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not "0"'),
    ('"LAN"', 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not "LAN"'),
    ('" 192.168.1.20"', 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not " 192.168.1.20"'),
    ('"192.168.001.020"', 'must be "lan" or an IP address such as "192.168.1.20" (in quotes), not "192.168.001.020"'),
    ('"0.0.0.0"', '"0.0.0.0" means every interface, not only the local network: use "lan" or this machine\'s address'),
    ('"::"', '"::" means every interface, not only the local network: use "lan" or this machine\'s address'),
    ('"0:0::0"', '"0:0::0" means every interface, not only the local network: use "lan" or this machine\'s address'),
    ('"fe80::1%eth0"', '"fe80::1%eth0": an address with a scope (%) is not supported; use "lan"'),
    ('"::ffff:192.168.1.20"', '"::ffff:192.168.1.20": write the IPv4 address itself, "192.168.1.20"'),
    ('"224.0.0.1"', '"224.0.0.1" is a multicast or reserved address, not one of this machine'),
    ('"ff02::1"', '"ff02::1" is a multicast or reserved address, not one of this machine'),
    ('"255.255.255.255"', '"255.255.255.255" is a multicast or reserved address, not one of this machine'),
])
def test_listen_takes_only_lan_or_an_address_as_text(in_tmp: Path, value: str, message: str) -> None:
    # listen = [0] used to become 0.0.0.0, every interface, without a word.
    assert problems_of(f"[web]\nlisten = [{value}]\n") == [f"config.toml: web.listen[0]: {message}"]


def test_listen_keeps_good_addresses_as_python_writes_them(in_tmp: Path) -> None:
    config = load_config(write(in_tmp, '[web]\nlisten = ["lan", "192.168.4.1", "127.0.0.1", "::1", "FD00::1"]\n'))
    assert config.web.listen == ("lan", "192.168.4.1", "127.0.0.1", "::1", "fd00::1")
    assert problems_of("[web]\nlisten = [" + ", ".join(['"lan"'] * 17) + "]\n") == [
        "config.toml: web.listen: must list at most 16 addresses, not 17"]


def test_long_values_are_cut_in_messages(in_tmp: Path) -> None:
    [line] = problems_of('[reader]\nprotocol = "' + "x" * 500 + '"\n')
    assert line == f'config.toml: reader.protocol: {KINDS_WANTED}, not "' + "x" * 55 + '"...'
    [line] = problems_of("[reader]\nurl = [" + ", ".join(["1"] * 500) + "]\n")
    assert line.startswith("config.toml: reader.url: must be a string, not [1, 1, 1") and line.endswith("...")
    assert len(line) < 120
    [line] = problems_of('[reader]\nurl = "' + "/dev/" * 1000 + '"\n')
    assert line == "config.toml: reader.url: must be text of at most 4096 characters, not 5000"
    [line] = problems_of('"' + "k" * 300 + '\\n" = 1\n')
    assert line.startswith('config.toml: "kkkk') and "...: unknown key" in line


def test_huge_numbers_are_refused_cleanly(in_tmp: Path) -> None:
    [line] = problems_of("[reader]\nbaudrate = " + "9" * 5000 + "\n")  # past Python's 4,300 digits
    assert line == "config.toml: line 2: a number written with more than 20 digits"
    lines = problems_of("[reader]\nretap_window = 0x" + "f" * 5000 + "\n[display]\ndensity = 0x" + "f" * 300 + "\n")
    assert lines == ["config.toml: reader.retap_window: must be a number of seconds from 0 to 10, "
                     "not an integer of about 6021 digits",
                     "config.toml: display.density: must be a number from 0.5 to 4 (pixels per dp; 1 for an "
                     "800x480 7-inch panel), not an integer of about 362 digits"]
    assert problems_of("[reader]\nbaudrate = 12000001\n") == [
        "config.toml: reader.baudrate: must be an integer from 1 to 12000000, not 12000001"]
    # A digit inside a string or a comment counts for nothing.
    config = load_config(write(in_tmp, '[reader]\nurl = "/dev/' + "1" * 100 + '"  # ' + "2" * 100 + "\n"))
    assert config.reader.url == "/dev/" + "1" * 100


def test_deep_nesting_and_long_dotted_keys_are_refused_before_parsing(in_tmp: Path) -> None:
    assert problems_of("[dice]\npin = " + "[" * 3000 + "]" * 3000 + "\n") == [
        "config.toml: line 2: nested more than 32 levels deep (lists and tables inside one another)"]
    assert problems_of("x = " + "{a = " * 500 + "1" + "}" * 500 + "\n") == [
        "config.toml: line 1: nested more than 32 levels deep (lists and tables inside one another)"]
    # tomllib takes seconds over a dotted key of 20,000 parts (the square of its length).
    assert problems_of("a" + ".a" * 20_000 + " = 1\n") == ["config.toml: line 1: a dotted key of more than 32 parts"]
    assert problems_of("[a" + ".a" * 100 + "]\n") == ["config.toml: line 1: a dotted key of more than 32 parts"]
    # Brackets and dots in strings and comments are no nesting.
    config = load_config(write(in_tmp, '[reader]\nurl = "' + "[." * 100 + '"\n# ' + "{." * 100 + "\n"))
    assert config.reader.url == "[." * 100


def test_a_file_too_large_and_files_that_are_no_files(in_tmp: Path) -> None:
    (in_tmp / "config.toml").write_bytes(b"#" * (1024 * 1024) + b"\n")
    with pytest.raises(ConfigError, match=r"^config\.toml: larger than 1048576 bytes \(1 MiB\), the most a config "
                                          r"file may be$"):
        load_config("config.toml")
    (in_tmp / "config.toml").write_bytes(b"#" * (1024 * 1024 - 1) + b"\n")
    assert load_config("config.toml").dice == DiceConfig()
    os.mkfifo(in_tmp / "fifo.toml")  # opening it for reading would wait for a writer for ever
    with pytest.raises(ConfigError, match=r"^fifo\.toml: is a FIFO \(a named pipe\), not a config file$"):
        load_config("fifo.toml")
    with pytest.raises(ConfigError, match=r"^/dev/zero: is a character device, not a config file$"):
        load_config("/dev/zero")
    with pytest.raises(ConfigError, match=r"^config\.toml/x: no such file \(a part of the path is not a directory\)$"):
        load_config("config.toml/x")


@pytest.mark.parametrize("name, shown", [("con\nfig.toml", "con\\nfig.toml"), ("x\x00y.toml", "x\\u0000y.toml"),
                                         ("bad\udcff.toml", "bad\\udcff.toml"), ("tab\t.toml", "tab\\t.toml")])
def test_the_file_name_is_escaped_in_messages(in_tmp: Path, name: str, shown: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(name)
    [line] = str(caught.value).splitlines()
    assert line.startswith(f"{shown}: ") and line.isprintable()
    if "\x00" not in name:
        (in_tmp / name).write_text("[dice]\ncount = 9\n", encoding="utf-8", errors="surrogateescape")
        with pytest.raises(ConfigError) as caught:
            load_config(name)
        assert str(caught.value) == f"{shown}: dice.count: must be an integer from 1 to 3, not 9"


def test_a_search_that_cannot_look_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^~nobody-here-at-all/config\.toml: cannot look for the file: "):
        load_config("~nobody-here-at-all/config.toml")
    # A search place the system cannot look up is only not there (pathlib's exists() says False).
    assert load_config(environ={"HOME": "/home/\x00x"}, system_path=tmp_path / "no\x00ne.toml") == HardwareConfig()


def test_a_flood_of_problems_is_cut_to_twenty_lines_and_a_count(in_tmp: Path) -> None:
    lines = problems_of("".join(f"key{k} = {k}\n" for k in range(500)))
    assert len(lines) == 21 and lines[-1] == "config.toml: 480 more problems not shown"
    assert all(line.startswith("config.toml: key") for line in lines[:-1])
    assert problems_of("[dice.display]\npins = [" + ", ".join(["5"] * 29) + "]\n") == [
        "config.toml: dice.display.pins: must list at most 28 pins (the 40-pin header has 28 GPIOs, "
        "each for one job), not 29"]


def test_every_message_line_is_one_file_key_problem(in_tmp: Path) -> None:
    text = ('"a\\nb" = 1\n[reader]\nurl = "x\\ny"\nprotocol = "\\u2028"\n[dice]\npin = "GPIO17\\n"\n'
            '"bad\\rkey" = 2\n[web]\nlisten = [0, "1.2.3.4\\n", "fe80::1%\\n"]\n')
    write(in_tmp, text, "my\nconfig.toml")
    with pytest.raises(ConfigError) as caught:
        load_config("my\nconfig.toml")
    lines = str(caught.value).split("\n")
    assert len(lines) == 8
    for line in lines:
        assert line.isprintable() and re.fullmatch(r'my\\nconfig\.toml: [\w."\\\[\]]+: .+', line), line
