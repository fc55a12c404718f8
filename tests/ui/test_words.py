"""Issue 54's points 6 and 7 in the real app, by touches (tests/ui/words_app.py, a subprocess each: Kivy opens
one window per process): with on-screen buttons nothing asks for a card, in all four languages, and the
settings' switch, the auction's opening bid and its step read right (point 6); just visiting, a tie and the
phones' link in the family's words (point 7). The catalogue-wide checks are tests/ui/test_words_catalogue.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, language: str, scenario: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                                     os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "words_app.py"), str(tmp_path), language,
                           scenario], capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_with_on_screen_buttons_nothing_asks_for_a_card_and_the_auction_agrees_with_its_buttons(
        tmp_path: Path, language: str) -> None:
    run(tmp_path, language, "buttons")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_just_visiting_a_shared_first_place_and_the_phones_link_named(tmp_path: Path, language: str) -> None:
    run(tmp_path, language, "words")
