"""A new game's draft (issue 54, points 1 and 10), by touches and card taps in the real app
(tests/ui/draft_app.py, one app a process): it survives every way away from the new-game screen and back, and a
restart of the app; a broken draft file is ignored and a draft whose edition has gone is dropped; after a game,
New game starts with its players, their colours and their cards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def app(work: Path, scenario: str, language: str = "en", size: str = "800x480") -> str:
    """draft_app.py's `scenario` on the data folder `work`; its output, once it passed."""
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "draft_app.py"), str(work), language, scenario],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, f"{scenario}: " + done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
    return done.stdout


@pytest.mark.parametrize("language, size", [("en", "800x480"), ("ru", "1280x720")])
def test_the_draft_survives_every_trip_away_from_the_new_game(tmp_path: Path, language: str, size: str) -> None:
    app(tmp_path, "trips", language, size)


def test_the_draft_survives_a_restart_and_goes_when_its_game_starts(tmp_path: Path) -> None:
    app(tmp_path, "set-up")
    assert (tmp_path / "draft.json").exists()
    app(tmp_path, "taken-up")
    assert not (tmp_path / "draft.json").exists()


def test_a_broken_draft_file_is_ignored(tmp_path: Path) -> None:
    app(tmp_path, "set-up")
    text = (tmp_path / "draft.json").read_text("utf-8")
    (tmp_path / "draft.json").write_text(text[: len(text) // 2], "utf-8")  # cut short, as a bad card would leave it
    app(tmp_path, "fresh")


def test_a_draft_whose_edition_has_gone_is_dropped(tmp_path: Path) -> None:
    from ui.tour_editions import classic_copy

    editions = tmp_path / "data" / "board-banker" / "editions"
    editions.mkdir(parents=True)
    (editions / "seaside.toml").write_text(classic_copy("seaside", "Seaside Town", "Harbour Lane"), "utf-8")
    app(tmp_path, "edition")
    (editions / "seaside.toml").unlink()
    app(tmp_path, "fresh")
    assert not (tmp_path / "draft.json").exists()


def test_a_new_game_starts_with_the_last_games_players_colours_and_cards(tmp_path: Path) -> None:
    app(tmp_path, "last-players")
