"""The Free Parking jackpot on the turn screen, the board's corner and the house rules, and its money in
motion, with its house rule on and nothing of it with the rule off (issue 54, point 3):
tests/ui/jackpot_app.py in the real app, by touches only, in two languages and two panel sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, mode, size", [("en", "on", "800x480"), ("ru", "on", "1280x720"),
                                                  ("pl", "off", "800x480")])
def test_the_jackpot_is_shown_and_moves_like_money(tmp_path: Path, language: str, mode: str, size: str) -> None:
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "jackpot_app.py"), str(tmp_path), language,
                           mode], capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
