"""House rules chosen by touch on the new-game screen's House rules page, the game started with them (the
journal's options), and the turn screen's House rules list: tests/ui/house_rules_app.py in the real app, in
each language, classic and brands, at the three panel sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, rules, size", [("en", "classic", "800x480"), ("pl", "classic", "1024x600"),
                                                   ("cs", "brands", "800x480"), ("ru", "brands", "1280x720")])
def test_house_rules_chosen_by_touch_are_the_games_and_listed_on_the_table(tmp_path: Path, language: str,
                                                                           rules: str, size: str) -> None:
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "house_rules_app.py"), str(tmp_path), language,
                           rules], capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
