"""Money in motion (ui/motion.py) in the real app, offscreen, by touches and card taps
(tests/ui/motion_app.py): the new balance first, then the amount on its way from the payer to the payee,
a touch going through it, an undo taking it away, a bought deed glowing in the buyer's colour, a house
built off the board popping on its space when the board shows, nothing with animations off, and the
winner celebrated before the ranking and the chart. Every language at the 7-inch panel's 800x480, and
English on the larger panels; the photographs stay in the test's folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = [("800x480", "en"), ("800x480", "pl"), ("800x480", "cs"), ("800x480", "ru"), ("1024x600", "en"),
        ("1280x720", "en")]


@pytest.mark.parametrize(("size", "language"), RUNS)
def test_money_moves_in_the_real_app(tmp_path: Path, size: str, language: str) -> None:
    env = {**os.environ, "E2E_SIZE": size}
    played = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "motion_app.py"), str(tmp_path), language],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    assert played.returncode == 0, played.stdout[-4000:] + played.stderr[-3000:]
    assert "63 steps passed" in played.stdout, played.stdout
    for shot in ("rent", "bought", "built", "winner", "over"):
        assert list(tmp_path.glob(f"{shot}*.png")), f"no photograph of {shot}"
