"""The layout checker (ui/layout.py) in the real offscreen window (tests/ui/layout_cases.py): each check finds
the one problem of a tree built to have it (text too wide, too tall, a word broken, a name cut short, a
widget outside the window or its scroll content, overlapping texts, a small target or font, a list lower
than its row, a small figure), and nothing on good trees."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_layout_check_fires_on_its_bad_tree_and_not_on_good_ones() -> None:
    env = dict(os.environ)
    env.pop("E2E_SIZE", None)
    env.pop("KIVY_METRICS_DENSITY", None)
    ran = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "layout_cases.py")],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert ran.returncode == 0, ran.stdout + ran.stderr[-3000:]
    assert "cases passed" in ran.stdout
