"""Damaged hardware config files give a valid config or a clean ConfigError, never anything else (issue 18).

Two parts:

- The seed corpus (tests/fuzz/config/): one file of every class of hostile input found so far, each
  refused for its OWN reason, on one line.
- The fuzzer: hardware/config.example.toml and a few valid variants, damaged in many seeded ways
  (byte flips, inserted control bytes, NUL, invalid UTF-8, truncation, duplicated, dropped and swapped
  lines, random TOML values of every type for every known key, unknown keys and tables, deep nesting,
  long dotted keys, huge numbers), each written to a file and loaded. The outcome must be a
  HardwareConfig that keeps the config's own invariants (checked here again, value by value) or a
  ConfigError of at most MAX_PROBLEMS + 1 lines, each starting with the file's name and printable (no
  control character, no line break): never another exception, never a hang.

`BANKER_FUZZ_CASES` sets how many fuzz cases run (default 3000, a few seconds) and `BANKER_FUZZ_SEED`
the seed (default 18): `BANKER_FUZZ_CASES=30000 pytest tests/hardware/test_config_fuzz.py`.
"""

from __future__ import annotations

import datetime
import ipaddress
import math
import os
import random
import re
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from banker.outside import CONTROLS_AND_FORMAT, control_character
from fuzzkit import Hang, time_limit
from hardware import config as config_module
from hardware.config import (
    DEBOUNCE_RANGE,
    DENSITY_RANGE,
    DISPLAY_KINDS,
    EXAMPLE_CONFIG,
    GPIO_COUNT,
    MAX_BAUDRATE,
    MAX_DICE,
    MAX_DIGITS,
    MAX_LISTEN,
    MAX_NESTING,
    MAX_PROBLEMS,
    MAX_TEXT_CHARS,
    PIPS_PER_DIE,
    PROTOCOLS,
    RC522,
    RETAP_RANGE,
    ROTATIONS,
    SPI0_PINS,
    TOUCH_SCREENS,
    HardwareConfig,
    bcm_number,
    load_config,
)
from hardware.events import ConfigError

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "config"
CASES = int(os.environ.get("BANKER_FUZZ_CASES", "3000"))
SEED = int(os.environ.get("BANKER_FUZZ_SEED", "18"))
TIMEOUT = 10  # seconds for one load: a hang is a failure

# Each stored case and its whole message (the file is named "config.toml" in it).
STORED: list[tuple[str, str]] = [
    ("newline-pin.toml", 'dice.pin: must be text without control characters, not "GPIO17\\n" (U+000A at character 7)'),
    ("tab-url.toml", 'reader.url: must be text without control characters, not "/dev/serial0\\t" '
                     "(U+0009 at character 13)"),
    ("bidi-url.toml", 'reader.url: must be text without control characters, not "/dev/\\u202e0laires" '
                      "(U+202E at character 6)"),
    ("nul-protocol.toml", 'reader.protocol: must be text without control characters, not "line\\u0000" '
                          "(U+0000 at character 5)"),
    ("separator-touch.toml", 'display.touch: must be text without control characters, not "hdmi\\u2028" '
                             "(U+2028 at character 5)"),
    ("newline-key.toml", '"bad\\nkey": unknown key (known: reader, dice, display, web)'),
    ("listen-zero.toml", 'web.listen[0]: must be "lan" or an IP address such as "192.168.1.20" (in quotes), not 0'),
    ("listen-everywhere.toml", 'web.listen[0]: "0.0.0.0" means every interface, not only the local network: '
                               'use "lan" or this machine\'s address'),
    ("listen-scope-newline.toml", 'web.listen[0]: must be text without control characters, not "fe80::1%\\n" '
                                  "(U+000A at character 9)"),
    ("deep-brackets.toml", f"line 2: nested more than {MAX_NESTING} levels deep (lists and tables inside one another)"),
    ("deep-dotted.toml", f"line 1: a dotted key of more than {MAX_NESTING} parts"),
    ("long-number.toml", f"line 2: a number written with more than {MAX_DIGITS} digits"),
    ("huge-hex.toml", "reader.retap_window: must be a number of seconds from 0 to 10, not an integer of about 1205 digits"),
    ("not-utf8.toml", "line 2: not UTF-8 text (byte 0xff)"),
    ("nul-byte.toml", "line 2, column 12: not valid TOML: Illegal character '\\x00'"),
    ("too-many-pins.toml", f"dice.display.pins: must list at most {GPIO_COUNT} pins (the 40-pin header has "
                           f"{GPIO_COUNT} GPIOs, each for one job), not 40"),
]


@pytest.mark.parametrize("name, message", STORED)
def test_each_stored_case_is_refused_for_its_own_reason(tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes((CORPUS / name).read_bytes())
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).splitlines() == [f"{path}: {message}"]


def test_the_corpus_has_no_case_without_its_reason() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(name for name, _ in STORED)


# ----------------------------------------------------------------------
# The fuzzer

VARIANTS = [
    EXAMPLE_CONFIG.read_text("utf-8"),
    "",
    '[reader]\nurl = "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"\nprotocol = "line"\nbaudrate = 9600\n'
    'retap_window = 2\n\n[dice]\npin = "BOARD11"\npull_up = false\ncount = 3\ndebounce = 0.02\n\n'
    '[dice.display]\nkind = "digits"\npins = [5, 6, 13, 19, 26, 12, 16, "GPIO20"]\ndigit_pins = [21, 22, 23]\n'
    'active_high = false\n\n[dice.buzzer]\npin = "J8:13"\n\n[display]\nrotation = 180\ntouch = "touch-display-2"\n'
    'density = 1.75\n\n[web]\nenabled = true\nlisten = ["lan", "192.168.4.1", "::1"]\nport = 8081\n',
    '[dice]\npin = "GPIO4"\n[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19, 26, 12, 16]\n'
    '[dice.buzzer]\npin = 27\n[web]\nlisten = ["10.0.0.2"]\n',
    '[reader]\nurl = "socket://localhost:7777"\n[dice]\nenabled = false\n[display]\ntouch = "hdmi"\n'
    "rotation = 90\n[web]\nenabled = false\n",
    '[reader]\nurl = "/dev/spidev0.0"\nprotocol = "rc522"\nreset_pin = "BOARD22"\n[dice]\npin = 17\n'
    '[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19, 26, 12, 16]\n[dice.buzzer]\npin = 27\n',
    '[reader]\nprotocol = "rc522"\n[dice.display]\nkind = "pips"\npins = [5, 6, 13, 19]\n[dice.buzzer]\npin = 24\n',
]

# Every known key, by table, with a few good values for it.
KNOWN: dict[str, dict[str, list[Any]]] = {
    "reader": {"url": ["", "/dev/serial0", "loop://", "/dev/spidev0.0"], "protocol": list(dict.fromkeys([*PROTOCOLS, RC522])),
               "baudrate": [9600, 115200], "retap_window": [0, 1.5, 10],
               "reset_pin": [25, "GPIO25", "BOARD22", 24, 17, 8, "BOARD23"]},  # the last three collide with rc522
    "dice": {"pin": [17, "GPIO17", "BOARD11", "J8:11", 0, 25, "BOARD24"], "pull_up": [True, False], "count": [1, 2, 3],
             "debounce": [0, 0.05, 1], "enabled": [True, False]},
    "dice.display": {"kind": list(DISPLAY_KINDS), "pins": [[], [5, 6, 13, 19], [5, 6, 13, 19, 26, 12, 16], [7, 8, 9, 10]],
                     "digit_pins": [[], [21, 22]], "active_high": [True, False]},
    "dice.buzzer": {"pin": [27, "GPIO27", 11, 25]},  # SPI0 SCLK and GPIO25 collide with rc522
    "display": {"rotation": list(ROTATIONS), "touch": list(TOUCH_SCREENS), "density": [0.5, 1.25, 4]},
    "web": {"enabled": [True, False], "listen": [["lan"], ["192.168.1.20"], ["::1", "lan"]], "port": [1, 8080, 65535]},
}
CONTROLS = ["\n", "\r", "\t", "\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9f", "\u200b", "\u200e", "\u202e", "\u2066",
            "\ufeff", "\u2028", "\u2029", "\u00ad"]
ODD_TEXT = ["", " ", "lan", "LAN", "0", "0.0.0.0", "::", "::1", "fe80::1%eth0", "::ffff:10.0.0.1", "224.0.0.1",
            "10.0.0.300", "GPIO17", "GPIO017", "gpio17", "BOARD1", "BOARD11", "J8:11", "BCM27", "GPIO28", "17", "٣",
            "pn532", "line", "rc522", "/dev/spidev0.0", "none", "digits", "pips", "hdmi", "official-7in", "x" * 70, "/dev/" * 900, "\\", '"',
            "é", "😀", "\udcff"]


def toml_text(value: str) -> str:
    """A TOML basic string holding `value` (every character escaped that TOML wants escaped)."""
    out = ['"']
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7f or 0xd800 <= ord(ch) <= 0xdfff:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def toml_value(value: Any) -> str:
    """`value` written as TOML (a lone surrogate, which TOML cannot hold, is written escaped: a syntax error)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, (int, datetime.date, datetime.time)):
        return value.isoformat() if not isinstance(value, int) else str(value)
    if isinstance(value, str):
        return toml_text(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_text(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def odd_value(rng: random.Random, depth: int = 0) -> Any:
    """A random TOML value of any type, good or bad for any key."""
    kind = rng.randrange(12 if depth < 3 else 9)
    if kind == 0:
        return rng.choice([True, False])
    if kind == 1:
        return rng.choice([0, 1, -1, 2, 3, 4, 7, 17, 27, 28, 40, 90, 9600, 65535, 65536, MAX_BAUDRATE,
                           MAX_BAUDRATE + 1, 2**63 - 1, -2**63, rng.randint(-10**6, 10**6)])
    if kind == 2:
        return rng.choice([0.0, -0.0, 0.5, 1.5, 4.0, 4.01, 10.0, 10.5, -1.0, 1e300, 5e-324, math.inf, -math.inf,
                           math.nan, rng.uniform(-20, 20)])
    if kind in (3, 4):
        return rng.choice(ODD_TEXT)
    if kind == 5:
        good = rng.choice(ODD_TEXT[:30])
        k = rng.randrange(len(good) + 1)
        return good[:k] + rng.choice(CONTROLS) + good[k:]
    if kind == 6:
        return rng.choice([datetime.date(1979, 5, 27), datetime.time(7, 32),
                           datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.UTC)])
    if kind in (7, 8):
        return rng.choice(list(rng.choice(list(KNOWN.values())).values()))[0] if rng.random() < 0.5 else \
            rng.choice(rng.choice(list(rng.choice(list(KNOWN.values())).values())))
    if kind in (9, 10):
        return [odd_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 7, 8, 29, 40]))]
    return {rng.choice(["a", "pin", "kind", "url"]): odd_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def set_line(rng: random.Random, text: str) -> str:
    """Set a known key (or an unknown one) of some table to a random value, as a line in that table."""
    table = rng.choice(list(KNOWN)) if rng.random() < 0.9 else rng.choice(["", "sound"])
    known = list(KNOWN.get(table, {}))
    key = rng.choice(known) if known and rng.random() < 0.85 else rng.choice(["zzz", "Pin", "url ", "a\nb", "x\u202e"])
    key_text = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_text(key)
    good = KNOWN.get(table, {}).get(key)
    value = rng.choice(good) if good and rng.random() < 0.4 else odd_value(rng)  # a good value, now and then
    line = f"{key_text} = {toml_value(value)}\n"
    header = f"[{table}]\n"
    if table and header in text and rng.random() < 0.97:  # else a second [table]: a syntax error
        start = text.index(header) + len(header)
        end = text.find("\n[", start)
        end = len(text) if end < 0 else end + 1
        section = text[start:end]
        existing = re.search(rf"^{re.escape(key_text)} = .*\n", section, re.MULTILINE)
        if existing and rng.random() < 0.9:  # replace the value (a second line would be a duplicate key)
            section = section[:existing.start()] + line + section[existing.end():]
        else:
            section = line + section
        return text[:start] + section + text[end:]
    if not table:
        return line + text
    return text + ("\n" if text and not text.endswith("\n") else "") + header + line


def damage_bytes(rng: random.Random, raw: bytes) -> bytes:
    kind = rng.choice(["flip", "insert", "control", "nul", "utf8", "truncate"])
    data = bytearray(raw)
    if not data:
        return bytes(rng.choice([b"\x00", b"\xff", b"\n[", b"=", b'"']))
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == "insert":
        for _ in range(rng.randint(1, 4)):
            data.insert(rng.randrange(len(data) + 1), rng.choice(b"[]{}=\"'#,\n.\\x0\t "))
    elif kind == "control":
        # A control character (raw or as an escape) inside a string, where the parser may let it through.
        quotes = [m.end() for m in re.finditer(rb'"', bytes(data))] or [len(data)]
        k = rng.choice(quotes)
        ch = rng.choice(CONTROLS)
        piece = rng.choice([ch.encode("utf-8", "surrogatepass"), toml_text(ch)[1:-1].encode("utf-8")])
        data[k:k] = piece
    elif kind == "nul":
        data.insert(rng.randrange(len(data) + 1), 0)
    elif kind == "utf8":
        data.insert(rng.randrange(len(data) + 1), rng.choice([0xff, 0xc0, 0xe2, 0x80, 0xed]))
    else:
        del data[rng.randrange(len(data)):]
    return bytes(data)


def damage_lines(rng: random.Random, text: str) -> str:
    lines = text.splitlines(keepends=True) or [""]
    kind = rng.choice(["duplicate", "delete", "swap", "nest", "dotted", "number", "unknown_table", "many"])
    if kind == "duplicate":
        k = rng.randrange(len(lines))
        lines.insert(k, lines[k])
    elif kind == "delete":
        del lines[rng.randrange(len(lines))]
    elif kind == "swap":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "nest":
        depth = rng.choice([2, MAX_NESTING - 2, MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 200, 3000])
        opening, closing = rng.choice([("[", "]"), ("{a = ", "}")])
        key = rng.choice(["pins", "listen", "url", "deep"])
        lines.insert(rng.randrange(len(lines) + 1), f"{key} = " + opening * depth + "1" + closing * depth + "\n")
    elif kind == "dotted":
        parts = rng.choice([2, 3, MAX_NESTING - 1, MAX_NESTING, 200, 20_000])
        dotted = ".".join(rng.choice(["dice", "display", "a"]) for _ in range(parts))
        lines.insert(rng.randrange(len(lines) + 1), rng.choice([f"{dotted} = 1\n", f"[{dotted}]\n"]))
    elif kind == "number":
        spots = list(re.finditer(r"(?<![\w.\"'])-?\d[\d_.]*(?![\w\"'])", text))
        new = rng.choice(["nan", "inf", "-inf", "+inf", "-0", "1e400", "0x7fffffff", "0o777", "0b101",
                          "0x" + "f" * rng.choice([10, 300, 5000]), "9" * rng.choice([MAX_DIGITS, MAX_DIGITS + 1, 400, 5000]),
                          "1_000_000_000_000", "1.5", "true", '""', "[]", "{}", "1979-05-27", "07:32:00"])
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + new + text[m.end():]
        lines.append(f"port = {new}\n")
    elif kind == "unknown_table":
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["[sound]\n", "[[dice]]\n", "[dice.x]\n",
                                                               "[web.listen]\n", '["re\\nader"]\n']))
    else:
        lines.append("".join(f"k{k} = {k}\n" for k in range(rng.choice([MAX_PROBLEMS, MAX_PROBLEMS + 1, 500]))))
    return "".join(lines)


def fuzz_case(rng: random.Random) -> tuple[bytes, str]:
    """One damaged file: its bytes and what was done to it."""
    text = rng.choice(VARIANTS)
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        way = rng.choice(["value", "value", "value", "lines", "lines", "bytes"])
        done.append(way)
        if way == "value":
            text = set_line(rng, text)
        elif way == "lines":
            text = damage_lines(rng, text)
        else:
            return damage_bytes(rng, text.encode("utf-8", "surrogatepass")), "+".join(done)
    return text.encode("utf-8", "surrogatepass"), "+".join(done)


def _pin_ok(pin: Any) -> bool:
    return bcm_number(pin) is not None and (not isinstance(pin, str)
                                            or control_character(pin, CONTROLS_AND_FORMAT) is None)


def check_config(config: HardwareConfig, source: str) -> None:
    """The config's own invariants, re-checked value by value."""
    reader, dice, screen, web = config.reader, config.dice, config.display, config.web
    assert config.source == source
    assert isinstance(reader.url, str) and len(reader.url) <= MAX_TEXT_CHARS
    assert control_character(reader.url, CONTROLS_AND_FORMAT) is None
    assert reader.protocol in config_module.PROTOCOLS
    assert type(reader.baudrate) is int and 1 <= reader.baudrate <= MAX_BAUDRATE
    assert type(reader.retap_window) is float and RETAP_RANGE[0] <= reader.retap_window <= RETAP_RANGE[1]
    assert _pin_ok(reader.reset_pin)
    # The rc522 owns the SPI0 pins and its reset pin: nothing else may use them (others leave reset_pin unused).
    reserved = [*SPI0_PINS, bcm_number(reader.reset_pin)] if reader.protocol == RC522 else []
    assert len(reserved) == len(set(reserved)), reserved
    assert _pin_ok(dice.pin) and type(dice.pull_up) is bool and type(dice.enabled) is bool
    assert type(dice.count) is int and 1 <= dice.count <= MAX_DICE
    assert type(dice.debounce) is float and DEBOUNCE_RANGE[0] <= dice.debounce <= DEBOUNCE_RANGE[1]
    display = dice.display
    assert display.kind in DISPLAY_KINDS and type(display.active_high) is bool
    assert isinstance(display.pins, tuple) and isinstance(display.digit_pins, tuple)
    assert all(_pin_ok(pin) for pin in display.pins + display.digit_pins)
    assert len(display.pins) <= GPIO_COUNT and len(display.digit_pins) <= GPIO_COUNT
    if display.kind == "digits":
        assert len(display.pins) in (7, 8)
    if display.kind == "pips":
        assert len(display.pins) in {per * n for per in PIPS_PER_DIE for n in range(1, MAX_DICE + 1)}
        assert display.digit_pins == ()
    assert dice.buzzer.pin is None or _pin_ok(dice.buzzer.pin)
    if dice.enabled:
        used = [dice.pin, *(display.pins + display.digit_pins if display.kind != "none" else ())]
        if dice.buzzer.pin is not None:
            used.append(dice.buzzer.pin)
        numbers = [*reserved, *(bcm_number(pin) for pin in used)]
        assert len(numbers) == len(set(numbers)), (reader.protocol, reader.reset_pin, used)
    assert type(screen.rotation) is int and screen.rotation in ROTATIONS and screen.touch in TOUCH_SCREENS
    assert screen.density is None or (type(screen.density) is float
                                      and DENSITY_RANGE[0] <= screen.density <= DENSITY_RANGE[1])
    assert type(web.enabled) is bool and type(web.port) is int and 1 <= web.port <= 65535
    assert 1 <= len(web.listen) <= MAX_LISTEN
    for host in web.listen:
        assert isinstance(host, str)
        if host != "lan":
            address = ipaddress.ip_address(host)
            assert str(address) == host and not address.is_unspecified and not address.is_multicast
            assert "%" not in host and not (isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped)


def check_refusal(message: str, source: str) -> None:
    lines = message.split("\n")
    assert 1 <= len(lines) <= MAX_PROBLEMS + 1, len(lines)
    for line in lines:
        assert line.startswith(f"{source}: "), line
        assert line.isprintable() and control_character(line, CONTROLS_AND_FORMAT) is None, line
        assert len(line) <= len(source) + 400, line
        assert line[len(source) + 2:].strip(), line


def run_cases(tmp_path: Path, cases: int, seed: int, check: Callable[[HardwareConfig, str], None] = check_config
              ) -> tuple[int, int, float]:
    rng = random.Random(seed)
    path = tmp_path / "config.toml"
    source = str(path)
    accepted = refused = 0
    slowest = 0.0
    for k in range(cases):
        raw, done = fuzz_case(rng)
        path.write_bytes(raw)
        where = f"case {k} (BANKER_FUZZ_SEED={seed}), {done}, bytes {raw[:300]!r}"
        started = time.perf_counter()
        try:
            with time_limit(TIMEOUT):
                config = load_config(path)
        except ConfigError as exc:
            refused += 1
            try:
                check_refusal(str(exc), source)
            except AssertionError as failure:
                raise AssertionError(f"{where}: bad refusal {failure}: {str(exc)[:2000]!r}") from None
        except Hang:
            raise AssertionError(f"{where}: no answer within {TIMEOUT} s") from None
        except Exception as exc:  # the very thing the fuzzer looks for: report the case that made it
            raise AssertionError(f"{where}: {''.join(traceback.format_exception(exc))}") from None
        else:
            accepted += 1
            try:
                check(config, source)
            except AssertionError as failure:
                raise AssertionError(f"{where}: accepted a bad config: {failure}: {config}") from None
        slowest = max(slowest, time.perf_counter() - started)
    return accepted, refused, slowest


def test_fuzz_damaged_config_files(tmp_path: Path) -> None:
    accepted, refused, slowest = run_cases(tmp_path, CASES, SEED)
    if CASES >= 100:
        assert accepted > CASES // 20 and refused > CASES // 2, (accepted, refused)  # both sides are reached
    print(f"{CASES} cases: {accepted} accepted, {refused} refused; slowest load {slowest * 1000:.1f} ms")


def test_the_fuzzer_would_catch_a_crash_and_a_bad_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness itself: a traceback in load_config and an accepted bad value are both reported with the case."""
    real = config_module.parse_config

    def broken(data: Any, source: str = "config.toml") -> HardwareConfig:
        if "web" in data:
            raise KeyError("boom")
        return real(data, source)

    monkeypatch.setattr(config_module, "parse_config", broken)
    with pytest.raises(AssertionError, match=r"(?s)case \d+ \(BANKER_FUZZ_SEED=1\).*KeyError: 'boom'"):
        run_cases(tmp_path, 200, 1)
    monkeypatch.setattr(config_module, "parse_config", real)

    def strict(config: HardwareConfig, source: str) -> None:
        check_config(config, source)
        assert config.dice.count != 3, "count 3"

    with pytest.raises(AssertionError, match=r"accepted a bad config: count 3"):
        run_cases(tmp_path, 2000, 1, strict)
