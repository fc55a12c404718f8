"""`banker simulate`'s computer players: legal, sensible, and the same through both entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from banker.ruleset import load_ruleset
from banker.simulate import play_game, simulate


@pytest.mark.parametrize("rules", ["classic", "classic-short", "classic-timed", "biznes", "brands",
                                   "brands-fast", "brands-teams", "brands-showdown"])
def test_fast_and_checked_games_are_identical(rules: str) -> None:
    ruleset = load_ruleset(rules)
    for seed in range(15):
        players = ruleset.players_min if ruleset.players_min == ruleset.players_max else 2 + seed % 5
        fast, _, fast_reason = play_game(rules, ruleset, players, seed, checked=False)
        checked, _, checked_reason = play_game(rules, ruleset, players, seed, checked=True)
        assert fast.to_json() == checked.to_json()
        assert fast.script == checked.script
        assert fast_reason == checked_reason


def test_games_end_the_way_their_ruleset_says() -> None:
    ended = {rules: simulate(rules, load_ruleset(rules), games=20, players=4, seed=5)["ended"]
             for rules in ("classic", "classic-short", "classic-timed")}
    assert set(ended["classic"]) <= {"last_standing", "turn_cap"}
    assert set(ended["classic-short"]) == {"bankruptcies"}
    assert "time" in ended["classic-timed"]


def test_turn_cap_ends_endless_games() -> None:
    game, _, reason = play_game("classic", load_ruleset("classic"), 4, 1, max_turns=10)
    assert reason == "turn_cap" and game.outcome is not None and game.outcome.reason == "ended"
    assert game.turns == 10


def test_computer_players_do_everything_a_family_does() -> None:
    verbs: set[str] = set()
    ruleset = load_ruleset("classic")
    for seed in range(30):
        game, _, _ = play_game("classic", ruleset, 4, seed)
        verbs |= {a["do"] for a in game.script}
    assert {"roll", "buy", "decline", "bid", "pass", "build", "sell", "mortgage", "unmortgage", "trade",
            "draw", "tax", "pay_fine", "use_card", "concede", "end_turn"} <= verbs


def test_biznes_games_are_played_to_the_end() -> None:
    """One office per visit makes biznes long: computer players need a few thousand turns."""
    ruleset = load_ruleset("biznes")
    ended = simulate("biznes", ruleset, games=10, players=4, seed=0, max_turns=4000)["ended"]
    assert ended.get("last_standing", 0) >= 6
    verbs: set[str] = set()
    for seed in range(12):
        game, _, _ = play_game("biznes", ruleset, 3 + seed % 3, seed, max_turns=400)
        verbs |= {a["do"] for a in game.script}
    assert {"roll", "buy", "decline", "bid", "pass", "build", "sell", "trade", "auction_own", "draw",
            "pay_fine", "use_card", "concede", "end_turn"} <= verbs
    assert not verbs & {"mortgage", "unmortgage", "keep_mortgage", "sell_all", "building_auction", "tax"}


@pytest.mark.parametrize("rules", ["brands", "brands-fast", "brands-teams", "brands-showdown"])
def test_brands_modes_are_played_to_the_end_on_the_clock(rules: str) -> None:
    ruleset = load_ruleset(rules)
    players = ruleset.players_min if ruleset.players_min == ruleset.players_max else 4
    codes: set[str] = set()
    for seed in range(8):
        game, _, reason = play_game(rules, ruleset, players, seed)
        assert reason == "last_standing"
        codes |= {entry[4] for entry in game.log}
        assert all("t" in a for a in game.script)  # the economy runs on the stamped game clock
    assert {"salary", "rent", "rent_tax", "casino_bet", "start_bonus", "build", "mortgage"} <= codes


# ---------------------------------------------------------------------------
# House rules: the simulator plays them, through both entry points, and `banker simulate --option` sets them.

HOUSE = {"buy_after_first_lap": True, "snake_eyes_bonus": 500, "free_parking_pot": True, "free_parking_seed": 100,
         "start_landing_bonus": 200, "jail_no_rent": True}


def test_games_with_house_rules_pay_them_and_replay_the_same_checked() -> None:
    ruleset = load_ruleset("classic")
    codes: set[str] = set()
    for seed in range(10):
        fast, _, _ = play_game("classic", ruleset, 4, seed, checked=False, options=HOUSE)
        checked, _, _ = play_game("classic", ruleset, 4, seed, checked=True, options=HOUSE)
        assert fast.to_json() == checked.to_json() and fast.script == checked.script
        codes.update(entry.code for entry in checked.money_log())
        assert all("lapped" in p for p in checked.to_json()["players"])
    assert {"snake_eyes", "pot_seed", "pot", "start_bonus"} <= codes


def test_simulate_option_flags(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "banker", "simulate", "--games", "3", "--json", *args],
                              capture_output=True, text=True, timeout=120)

    done = run("--option", "snake_eyes_bonus=500", "--option", "buy_after_first_lap=true",
               "--save-scripts", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"] == {"snake_eyes_bonus": 500, "buy_after_first_lap": True}
    header = json.loads((tmp_path / "game-000000.jsonl").read_text("utf-8").splitlines()[0])
    assert header["options"] == {"snake_eyes_bonus": 500, "buy_after_first_lap": True}
    for args, words in ((["--rules", "brands", "--option", "free_parking_pot=true"], "no Free Parking"),
                        (["--option", "free_parking_seed=100"], "free_parking_pot"),
                        (["--option", "nonsense=1"], "unknown option"),
                        (["--option", "snake_eyes_bonus=lots"], "whole number"),
                        (["--option", "snake_eyes_bonus"], "NAME=VALUE")):
        refused = run(*args)
        assert refused.returncode == 2 and words in refused.stderr, (args, refused.stderr)
        assert refused.stdout == ""
