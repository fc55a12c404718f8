"""Property tests: random legal games keep every promise after every step.

570 seeded games per run (a seeded loop: whole games are too large to be
hypothesis examples), plus hypothesis drawing further seeds and options.
See randomplay.py for the invariants.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.ruleset import load_ruleset
from randomplay import play_random_game, random_house_rules

SEEDED = [("classic", 120), ("classic-short", 90), ("classic-timed", 90), ("biznes", 120), ("brands", 60),
          ("brands-fast", 30), ("brands-teams", 30), ("brands-showdown", 30)]


@pytest.mark.parametrize("rules,chunk", [(r, c) for r, n in SEEDED for c in range(n // 30)])
def test_seeded_random_games(rules: str, chunk: int) -> None:
    ruleset = load_ruleset(rules)
    for seed in range(chunk * 30, chunk * 30 + 30):
        players = ruleset.players_min if ruleset.players_min == ruleset.players_max else 2 + seed % 5
        play_random_game(rules, ruleset, seed, players=players)


# Every ruleset with a random choice of the house rules it offers (randomplay.random_house_rules), 20 seeds each.
HOUSE_RULED = ("classic", "classic-short", "biznes", "brands", "brands-fast", "brands-teams")


@pytest.mark.parametrize("rules", HOUSE_RULED)
def test_seeded_random_games_with_random_house_rules(rules: str) -> None:
    ruleset = load_ruleset(rules)
    chosen = set()
    for seed in range(20):
        options = random_house_rules(ruleset, random.Random(seed ^ 0x40115E))
        chosen.update(options)
        players = ruleset.players_min if ruleset.players_min == ruleset.players_max else 2 + seed % 5
        play_random_game(rules, ruleset, 1000 + seed, players=players, options=options)
    assert {"buy_after_first_lap", "snake_eyes_bonus"} <= chosen  # the seeds do reach the new rules


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    options=st.fixed_dictionaries({
        "buy_after_first_lap": st.booleans(),
        "snake_eyes_bonus": st.sampled_from([0, 1, 500]),
        "free_parking_seed": st.sampled_from([0, 100]),
        "jail_no_rent": st.booleans(),
        "start_landing_bonus": st.sampled_from([0, 200]),
        "free_parking_pot": st.booleans(),
        "auction_on_decline": st.booleans(),
        "double_rent_with_mortgaged": st.booleans(),
        "build_only_on_visit": st.booleans(),
        "houses": st.integers(min_value=4, max_value=32),
        "hotels": st.integers(min_value=1, max_value=12),
        "end_after_bankruptcies": st.integers(min_value=0, max_value=2),
    }),
)
def test_random_games_with_house_rules(seed: int, players: int, options: dict[str, object]) -> None:
    if not options["free_parking_pot"]:
        options["free_parking_seed"] = 0  # the seed needs the pot
    play_random_game("classic", load_ruleset("classic"), seed, players=players, options=options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    options=st.fixed_dictionaries({
        "houses": st.integers(min_value=4, max_value=32),
        "hotels": st.integers(min_value=1, max_value=12),
        "auction_step": st.integers(min_value=1, max_value=50),
        "auction_start_percent": st.integers(min_value=1, max_value=100),
        "builds_per_visit": st.integers(min_value=1, max_value=3),
        "trades_per_move": st.integers(min_value=1, max_value=3),
        "start_cash": st.integers(min_value=200, max_value=3000),
    }),
)
def test_random_biznes_games(seed: int, players: int, options: dict[str, object]) -> None:
    play_random_game("biznes", load_ruleset("biznes"), seed, players=players, options=options)
