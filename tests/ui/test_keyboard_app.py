"""The on-screen keyboard in the real app, offscreen, by touches (tests/ui/keyboard_app.py): a Polish name
with its diacritics typed key by key, a ready name in one touch, and keys a fingertip big in every language
on the official 800x480 panel and on a 1280x720 one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_names_are_typed_and_chosen_by_touches(tmp_path: Path, size: str) -> None:
    env = dict(os.environ)
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "keyboard_app.py"), str(tmp_path), size],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
