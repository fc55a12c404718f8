"""What the app says about its hardware and the phone server depends on where it runs, and no library's own
error text reaches the screen (issue 54, points 2 and 5): tests/ui/where_app.py in the real app, by touches only,
one scenario a process. The words themselves, case by case, without a window: test_where_words.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.config import SYSTEM_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def play(tmp_path: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                                      os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "where_app.py"), str(tmp_path), *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout


def test_no_hardware_leaves_the_phone_server_on_and_says_why_there_is_no_reader(tmp_path: Path) -> None:
    play(tmp_path, "no-hardware")


@pytest.mark.skipif(SYSTEM_CONFIG.exists(), reason="this machine has a system config file")
def test_on_a_computer_the_checks_speak_of_the_computer_not_of_gpiozero_or_the_pi(tmp_path: Path) -> None:
    play(tmp_path, "computer")


def test_phones_switched_off_in_the_config_say_so_naming_the_file(tmp_path: Path) -> None:
    play(tmp_path, "phones-off")


def test_a_port_taken_is_said(tmp_path: Path) -> None:
    play(tmp_path, "port-taken")


@pytest.mark.parametrize("place, reader, dice, phones", [
    ("pi", "missing", "no_gpio", "port"), ("computer", "denied", "pin", "address"),
    ("pi", "busy", "pin", "address"), ("computer", "lost", "no_gpio", "port"),
    ("pi", "library", "no_gpio", "address"), ("computer", "library", "pin", "port"),
    ("pi", "denied", "pin", "port"), ("computer", "missing", "no_gpio", "address"),
])
def test_no_library_s_error_text_reaches_the_screen(tmp_path: Path, place: str, reader: str, dice: str,
                                                    phones: str) -> None:
    play(tmp_path, "raw", place, reader, dice, phones)
