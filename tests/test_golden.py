"""The engine plays every recorded game exactly as it did when its traces were recorded (tests/golden.py)."""

from __future__ import annotations

import json

import pytest

import golden
from banker.ruleset import builtin_names

RECORDED = json.loads(golden.TRACES.read_text("utf-8"))


def test_every_shipped_ruleset_has_its_traces() -> None:
    assert sorted(RECORDED) == builtin_names()
    for rules, kinds in RECORDED.items():
        assert len(kinds["ai"]) == golden.AI_GAMES and len(kinds["random"]) == golden.RANDOM_GAMES, rules


@pytest.mark.parametrize("rules", builtin_names())
def test_the_games_are_played_as_recorded(rules: str) -> None:
    now = {rules: {"ai": {str(s): golden.ai_game(rules, s) for s in range(golden.AI_GAMES)},
                   "random": {str(s): golden.random_game(rules, s) for s in range(golden.RANDOM_GAMES)}}}
    assert golden.differences({rules: RECORDED[rules]}, now) == []


def test_a_changed_game_is_found() -> None:
    recorded = {"classic": {"ai": {"0": golden.ai_game("classic", 0)}, "random": {}}}
    changed = json.loads(json.dumps(recorded))
    changed["classic"]["ai"]["0"]["money"] = "0" * 20
    assert golden.differences(recorded, changed) == ["classic ai seed 0: money differ"]
