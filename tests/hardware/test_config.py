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

from hardware.config import (EXAMPLE_CONFIG, HEADER_GPIO, BuzzerConfig, DiceConfig, DiceDisplayConfig,
                             HardwareConfig, ReaderConfig, ScreenConfig, bcm_number, find_config,
                             load_config, parse_config, user_config_path)
from hardware.events import ConfigError, HardwareError

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
    assert config.reader == ReaderConfig(url="", protocol="pn532", baudrate=115200, retap_window=1.5)
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
    ('[reader]\nprotocol = "pn533"\n', 'config.toml: reader.protocol: must be "pn532" or "line", not "pn533"'),
    ("[reader]\nprotocol = 3\n", 'config.toml: reader.protocol: must be "pn532" or "line", not 3'),
    ("[reader]\nurl = 5\n", "config.toml: reader.url: must be a string, not 5"),
    ("[reader]\nbaudrate = 0\n", "config.toml: reader.baudrate: must be a positive integer, not 0"),
    ('[reader]\nbaudrate = "fast"\n', 'config.toml: reader.baudrate: must be a positive integer, not "fast"'),
    ("[reader]\nbaudrate = 9600.0\n", "config.toml: reader.baudrate: must be a positive integer, not 9600.0"),
    ("[reader]\nbaudrate = true\n", "config.toml: reader.baudrate: must be a positive integer, not true"),
    ("[reader]\nretap_window = 12\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not 12"),
    ("[reader]\nretap_window = -0.5\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not -0.5"),
    ("[reader]\nretap_window = nan\n",
     "config.toml: reader.retap_window: must be a number of seconds from 0 to 10, not nan"),
    ("[reader]\nport = 1\n", "config.toml: reader.port: unknown key (known: url, protocol, baudrate, retap_window)"),
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
    ("[web]\nlisten = [\"lan\", \"10.0.0.300\"]\n", 'config.toml: web.listen[1]: must be "lan" or an IP address, not "10.0.0.300"'),
    ("[web]\nport = 0\n", "config.toml: web.port: must be a port number from 1 to 65535, not 0"),
])
def test_each_mistake_names_file_key_and_problem(in_tmp: Path, text: str, message: str) -> None:
    assert problems_of(text) == [message]


_KEYS = ["reader", "dice", "display", "buzzer", "url", "protocol", "baudrate", "retap_window", "pin", "pull_up",
         "count", "debounce", "enabled", "kind", "pins", "digit_pins", "active_high", "rotation", "touch", "density", "other"]
_SCALARS = (st.none() | st.booleans() | st.integers(-5, 200_000) | st.floats(allow_nan=True)
            | st.sampled_from(["", "pn532", "line", "GPIO17", "BOARD11", "BOARD1", "digits", "pips", "hdmi", "x"]))
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
