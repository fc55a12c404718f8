"""tests/ui/redraw_app.py in its own process: a redraw keeps what did not change and draws no text again,
the phones get a change after the frame that shows it, and a screen that cannot draw is not redrawn in a loop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_redraw_keeps_what_did_not_change_and_the_phones_wait_for_its_frame(tmp_path: Path) -> None:
    env = dict(os.environ)
    played = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "redraw_app.py"), str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout
