"""The digit pad and the confirming touches in the real app, offscreen, by touches only (tests/ui/e2e_pad.py):
the banker's PIN and its back-off after five wrong tries, a correction, Undo, End and Abandon armed by a
first touch, the game-over screen's Undo behind the PIN, a trade's cash, the stand-ins, a new game's PIN."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_pin_pad_corrections_and_confirming_touches(tmp_path: Path) -> None:
    env = dict(os.environ)
    played = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "e2e_pad.py"), str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout
