"""The game's report and the hall of fame reached by touch (issue 42): tests/ui/report_app.py in the real app, a
short game played by touch to its end, its report page (the winner, the players' lines, the chart), and the
hall of fame over three imported finished games, before the game and with it; in three languages at the
three panel sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, size", [("en", "800x480"), ("pl", "1024x600"), ("cs", "1280x720")])
def test_a_game_played_by_touch_has_its_report_and_joins_the_hall_of_fame(tmp_path: Path, language: str,
                                                                          size: str) -> None:
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "report_app.py"), str(tmp_path), language],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
