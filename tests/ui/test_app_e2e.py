"""The real app, end to end, offscreen: a whole game's flows through touches, card taps on a
pseudo-terminal reader and the mock GPIO button; a restart in the middle resumes exactly; a four-player
classic game played as the family plays it (touches and card taps only) to the last player standing; and
`banker app --tour` photographs every screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, timeout: int = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=timeout)


def test_a_game_through_touches_taps_and_the_dice_button_then_a_restart(tmp_path: Path) -> None:
    played = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "play", str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout
    resumed = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "resume", str(tmp_path / "resume"))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr[-3000:]


def test_a_game_in_progress_physical_cards_debt_and_bankruptcy(tmp_path: Path) -> None:
    played = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "debt", str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]


def test_a_family_of_four_plays_a_classic_game_to_the_end_by_touches_and_card_taps(tmp_path: Path) -> None:
    """tests/ui/e2e_family.py: names on the on-screen keyboard, the PIN, a trade's cash and a correction on the
    digit pad, buying, rent, an auction, houses, a trade and three bankruptcies, to the game-over chart."""
    played = run(str(ROOT / "tests" / "ui" / "e2e_family.py"), str(tmp_path), timeout=900)
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout


def test_the_tour_writes_every_screen(tmp_path: Path) -> None:
    out = tmp_path / "tour"
    toured = run("-m", "banker", "app", "--tour", str(out))
    assert toured.returncode == 0, toured.stdout + toured.stderr[-3000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    screens = {"home", "setup-players-and-cards", "setup-game-in-progress", "turn-start", "tap-your-card-to-buy",
               "cash-machine", "rent-paid", "auction", "deeds-and-buildings", "trade", "debt", "log", "banker-menu",
               "replace-lost-card", "settings", "table-polski", "table-russkij", "dice-entry", "game-over-chart"}
    assert screens <= {name.partition("-")[2][:-4] for name in shots}  # "001-home.png": home
    for name in shots:
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, name


def test_a_biznes_game_with_an_own_auction_timer_and_stepped_bids(tmp_path: Path) -> None:
    played = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "biznes", str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout


def test_a_brands_game_with_three_dice_the_bus_and_the_casino(tmp_path: Path) -> None:
    played = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "brands", str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout


def test_phones_follow_the_game_by_qr_code_and_a_game_moves_once(tmp_path: Path) -> None:
    played = run(str(ROOT / "tests" / "ui" / "e2e_app.py"), "phones", str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hardware_check_by_touches_card_taps_and_the_dice_button(tmp_path: Path, language: str) -> None:
    """tests/ui/e2e_check.py check: the setup's card refusal goes with its cause; on the checks a press of the dice
    button and a card tap show and act on nothing (a purchase waiting for the card still waits); no note at the
    start for a reader that answers at once. In each language, picked on the settings screen."""
    played = run(str(ROOT / "tests" / "ui" / "e2e_check.py"), "check", language, str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reader_not_answering_at_the_start_is_said_on_the_start_screen_until_it_answers(
        tmp_path: Path, language: str) -> None:
    """tests/ui/e2e_check.py silent: the note after READER_QUIET_SECONDS, its way to the check, the reader plugged
    in during the check, the note gone."""
    played = run(str(ROOT / "tests" / "ui" / "e2e_check.py"), "silent", language, str(tmp_path))
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "steps passed" in played.stdout
