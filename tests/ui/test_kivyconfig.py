"""Kivy's own config file owned by `banker app` (ui/kivyconfig.py): read when whole and current, else written
with the one atomic write, never in place; the KCFG_ variables still win; Kivy makes no file of its own.
Each case is a fresh Python process: Kivy reads its config once, when first imported."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import json, sys
from ui.kivyconfig import take_over
done = take_over()
from kivy.config import Config
print(json.dumps({"done": done, "show_cursor": Config.get("graphics", "show_cursor"),
                  "rotation": Config.get("graphics", "rotation")}))
"""


def kivy_env(home: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_NO_CONFIG", "KIVY_NO_ENV"))}
    env.update(KIVY_HOME=str(home), KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", **more)
    return env


def probe(home: Path, **more: str) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=kivy_env(home, **more),
                          timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def kivys_own(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The file Kivy itself writes at its first start (in place), to compare with."""
    home = tmp_path_factory.mktemp("kivy-own")
    subprocess.run([sys.executable, "-c", "import kivy.config"], check=True, capture_output=True,
                   env=kivy_env(home), timeout=120)
    return (home / "config.ini").read_bytes()


def test_a_first_start_writes_kivys_defaults_whole_and_nothing_else(tmp_path: Path, kivys_own: bytes) -> None:
    home = tmp_path / "kivy"
    assert probe(home)["done"] == "written"
    assert (home / "config.ini").read_bytes() == kivys_own  # the very file Kivy would have written
    assert sorted(os.listdir(home)) == ["config.ini"]  # no mods/ or icon/, no temporary file


def test_a_whole_current_file_is_read_and_left_alone(tmp_path: Path, kivys_own: bytes) -> None:
    home = tmp_path / "kivy"
    home.mkdir()
    edited = kivys_own.replace(b"show_cursor = 1", b"show_cursor = 0")
    assert edited != kivys_own
    (home / "config.ini").write_bytes(edited)
    stamp = (home / "config.ini").stat().st_mtime_ns
    seen = probe(home)
    assert seen["done"] == "read" and seen["show_cursor"] == "0"  # the family's own value taken up
    assert (home / "config.ini").read_bytes() == edited and (home / "config.ini").stat().st_mtime_ns == stamp


def test_the_environment_wins_over_the_file_as_in_kivy(tmp_path: Path, kivys_own: bytes) -> None:
    home = tmp_path / "kivy"
    home.mkdir()
    (home / "config.ini").write_bytes(kivys_own.replace(b"rotation = 0", b"rotation = 90"))
    assert probe(home)["rotation"] == "90"
    assert probe(home, KCFG_GRAPHICS_ROTATION="270")["rotation"] == "270"  # the Pi's launcher turns the panel so
    assert probe(home, KCFG_GRAPHICS_ROTATION="270", KIVY_NO_ENV_CONFIG="1")["rotation"] == "90"
    written = tmp_path / "fresh"
    assert probe(written, KCFG_GRAPHICS_ROTATION="180")["rotation"] == "180"
    assert (written / "config.ini").read_bytes() == kivys_own  # the variable is for the run, not the file


@pytest.mark.parametrize("damage", ["empty", "torn at a line's end", "torn mid-line", "older version", "not utf-8"])
def test_a_damaged_or_older_file_is_replaced_by_kivys_defaults_whole(tmp_path: Path, kivys_own: bytes,
                                                                     damage: str) -> None:
    home = tmp_path / "kivy"
    home.mkdir()
    lines = kivys_own.splitlines(keepends=True)
    bad = {"empty": b"",
           "torn at a line's end": b"".join(lines[:len(lines) // 2]),
           "torn mid-line": b"".join(lines[:3]) + b"[graph",
           "older version": re.sub(rb"config_version = [0-9]+", b"config_version = 20", kivys_own),
           "not utf-8": kivys_own.replace(b"show_cursor = 1", b"show_cursor = \xff")}[damage]
    (home / "config.ini").write_bytes(bad)
    assert probe(home)["done"] == "written"
    assert (home / "config.ini").read_bytes() == kivys_own
    assert sorted(os.listdir(home)) == ["config.ini"]


def test_a_folder_that_cannot_be_written_leaves_kivy_on_its_defaults(tmp_path: Path) -> None:
    (tmp_path / "kivy").write_text("a file where Kivy's folder would be", "utf-8")
    seen = probe(tmp_path / "kivy")
    assert seen["done"] == "not written" and seen["show_cursor"] == "1"


def test_a_cut_s_leftover_goes_at_the_next_write(tmp_path: Path) -> None:
    home = tmp_path / "kivy"
    home.mkdir()
    stray = home / ".config.ini.00000000-999999999.abcd1234.tmp"  # another boot's, as a power cut leaves it
    stray.write_bytes(b"[kivy]\n")
    assert probe(home)["done"] == "written"
    assert sorted(os.listdir(home)) == ["config.ini"]


def test_banker_app_takes_the_file_over_before_kivy_is_imported(tmp_path: Path, kivys_own: bytes) -> None:
    script = """
import argparse, json, os
from ui.cli import prepare
prepare(argparse.Namespace(config=None, tour=None, fullscreen=False), (800, 480))
from kivy.config import Config
print(json.dumps({"no_config": os.environ.get("KIVY_NO_CONFIG"), "clock": Config.get("kivy", "kivy_clock")}))
"""
    home = tmp_path / "kivy"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=kivy_env(home, XDG_CONFIG_HOME=str(tmp_path / "config")))
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"no_config": "1", "clock": "interrupt"}  # the app's own Config.set calls after it
    assert (home / "config.ini").read_bytes() == kivys_own  # ... and never in the file
    assert sorted(os.listdir(home)) == ["config.ini"]
