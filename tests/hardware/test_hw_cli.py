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
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, **kw)  # type: ignore[call-overload]


def test_ports_lists_or_says_none() -> None:
    out = banker("hw", "ports")
    assert out.returncode == 0 and out.stdout.strip()


def test_bad_config_is_one_clear_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[reader]\nprotocol = "pn533"\n')
    out = banker("hw", "cards", "--config", str(config), "--port", "loop://")
    assert out.returncode == 2
    assert 'reader.protocol: must be "pn532" or "line", not "pn533"' in out.stderr
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
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
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
