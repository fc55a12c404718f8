"""`banker hw ports | dice | emulate` as a family runs them while wiring the box."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import hardware.cli as hw
from hardware.events import CardTapped
from hardware.line import LineProtocol
from hardware.pn532 import PN532Protocol
from hardware.reader import CardReader

ROOT = Path(__file__).resolve().parents[2]


def banker(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ), timeout=60, **kw)  # type: ignore[call-overload]


def test_ports_lists_or_says_none() -> None:
    out = banker("hw", "ports")
    assert out.returncode == 0 and out.stdout.strip()


def test_bad_config_is_one_clear_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[reader]\nprotocol = "pn533"\n')
    out = banker("hw", "cards", "--config", str(config), "--port", "loop://")
    assert out.returncode == 2
    assert 'reader.protocol: must be "pn532", ' in out.stderr and 'not "pn533"' in out.stderr
    assert "Traceback" not in out.stderr


def test_dice_prints_each_press(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    Device.pin_factory = MockFactory()
    config = tmp_path / "config.toml"
    config.write_text("[dice]\npin = 17\ndebounce = 0\n")
    stop = threading.Event()
    monkeypatch.setattr(hw, "wait_for_interrupt", lambda: stop.wait(10))
    out = io.StringIO()
    args = argparse.Namespace(hw_command="dice", pin=None, count=3, config=str(config))
    with redirect_stdout(out):
        worker = threading.Thread(target=hw.run, args=(args,))
        worker.start()
        pin = Device.pin_factory.pin(17)
        for _ in range(20):  # wait until the button is set up
            if "press the button" in out.getvalue():
                break
            stop.wait(0.05)
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()
        pin.drive_high()
        stop.set()
        worker.join(5)
    Device.pin_factory.close()
    Device.pin_factory = None
    rolls = [line.split()[1:] for line in out.getvalue().splitlines() if line.startswith("roll ")]
    assert len(rolls) == 2 and all(len(r) == 3 and all(1 <= int(d) <= 6 for d in r) for r in rolls)


@pytest.mark.parametrize("protocol", ["line", "pn532"])
def test_emulate_turns_typed_uids_into_taps(protocol: str) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "banker", "hw", "emulate", "--protocol", protocol],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ))
    assert proc.stdin is not None and proc.stdout is not None
    path = proc.stdout.readline().strip()
    assert path.startswith("/dev/")
    taps: list[CardTapped] = []
    tapped = threading.Event()
    connected = threading.Event()
    chosen = LineProtocol() if protocol == "line" else PN532Protocol()
    with CardReader(path, chosen, lambda t: (taps.append(t), tapped.set()), lambda s: connected.set()):
        assert connected.wait(5)
        threading.Event().wait(0.3)
        proc.stdin.write("04 a3 2b 1c\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "tapped 04A32B1C"
        assert tapped.wait(5)
        proc.stdin.write("not a card\n")
        proc.stdin.close()
        proc.wait(10)
    assert [t.uid for t in taps] == ["04A32B1C"]
    assert proc.returncode == 0


# ----------------------------------------------------------------------
# Numbers on the command line (issue 18): held to the config's bounds, refused on one line

PIN_WANTED = 'must be a GPIO number from 0 to 27 or a pin name such as "GPIO17" or "BOARD11"'
RETAP_WANTED = "must be a number of seconds from 0 to 10"


@pytest.mark.parametrize("argv, line", [
    # --retap -1 was a traceback, --retap nan made one resting card 121 taps in 2.5 s.
    *[(["cards", "--retap", value], f'banker hw cards: --retap: {RETAP_WANTED}, not "{value}"')
      for value in ("-1", "nan", "inf", "-0.5", "10.01", "11", "1e999", "", "0x10", "1,5", "one", "1.5s", "١")],
    (["cards", "--retap=-inf"], f'banker hw cards: --retap: {RETAP_WANTED}, not "-inf"'),
    (["cards", "--retap", "-inf"], "banker hw cards: --retap: expected one argument"),
    *[(["dice", "--pin", value], f'banker hw dice: --pin: {PIN_WANTED}, not "{value}"')
      for value in ("40", "28", "-1", "GPIO017", "gpio17", "017", "GPIO28", " 17", "17.0", "WPI0", "١٧")],
    (["dice", "--pin", "BOARD9"],
     'banker hw dice: --pin: "BOARD9" is not a GPIO pin of the 40-pin header (it is power, ground or out of range)'),
    (["dice", "--pin", "GPIO17\n"],
     'banker hw dice: --pin: must be text without control characters, not "GPIO17\\n" (U+000A at character 7)'),
    *[(["dice", "--count", value], f'banker hw dice: --count: must be a whole number from 1 to 3, not "{value}"')
      for value in ("0", "4", "-1", "2.0", "x", "99999999999999999999999")],
])
def test_a_bad_number_is_one_line_and_exit_2(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    from banker.cli import main

    with pytest.raises(SystemExit) as caught:
        main(["hw", *argv])
    assert caught.value.code == 2
    out = capsys.readouterr()
    assert out.err == line + "\n" and out.out == ""


@pytest.mark.parametrize("argv, option, value", [
    (["cards", "--retap", "0"], "retap", 0.0), (["cards", "--retap", "10"], "retap", 10.0),
    (["cards", "--retap", "2.5"], "retap", 2.5), (["cards", "--retap", ".5"], "retap", 0.5),
    (["dice", "--pin", "17"], "pin", 17), (["dice", "--pin", "0"], "pin", 0), (["dice", "--pin", "GPIO27"], "pin", "GPIO27"),
    (["dice", "--pin", "BOARD11"], "pin", "BOARD11"), (["dice", "--pin", "J8:11"], "pin", "J8:11"),
    (["dice", "--count", "1"], "count", 1), (["dice", "--count", "3"], "count", 3),
])
def test_good_numbers_are_read_as_the_config_would(argv: list[str], option: str, value: object) -> None:
    from banker.cli import OneLineParser

    parser = OneLineParser(prog="banker")
    hw.register(parser.add_subparsers(dest="command"))
    got = getattr(parser.parse_args(["hw", *argv]), option)
    assert got == value and type(got) is type(value)


def test_a_bad_retap_from_the_real_command_line_is_one_line() -> None:
    for value in ("-1", "nan"):
        out = banker("hw", "cards", "--port", "loop://", "--retap", value)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr == f'banker hw cards: --retap: {RETAP_WANTED}, not "{value}"\n'
    out = banker("hw", "dice", "--pin", "GPIO17\n")
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "Traceback" not in out.stderr


def test_the_bounds_are_in_the_help() -> None:
    cards = " ".join(banker("hw", "cards", "--help").stdout.split())
    assert "0 to 10 (default: the config's reader.retap_window)" in cards
    dice = " ".join(banker("hw", "dice", "--help").stdout.split())
    assert "a number from 0 to 27" in dice and "1 to 3" in dice
