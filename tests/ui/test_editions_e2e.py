"""The family's editions by touch in the real app: tests/ui/editions_app.py (Settings -> Editions with a broken
one, rename on the keyboard with a refusal, delete with the second touch, the new-game screen offering the
renamed one, a game on it showing the renamed street), with XDG_DATA_HOME a scratch folder, in each language
at one of the three panel sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, size", [("en", "800x480"), ("pl", "1024x600"), ("cs", "1280x720"),
                                            ("ru", "800x480")])
def test_editions_listed_renamed_deleted_and_played_by_touch(tmp_path: Path, language: str, size: str) -> None:
    env = {**os.environ, "E2E_SIZE": size, "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "editions_app.py"), str(tmp_path / "work"),
                           language], capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
    assert not (tmp_path / "data" / "board-banker" / "editions" / "seaside.toml").exists()
    assert sorted(p.name for p in (tmp_path / "data" / "board-banker" / "editions").iterdir()) == [
        "beach.toml", "broken.toml"]
