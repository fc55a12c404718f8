"""Undo (banker/kernel.py, "Going back"): the same state as playing the remaining actions again from the start, in time for
what it takes back, with the copies it keeps dropped when the game goes another way."""

from __future__ import annotations

import random
from typing import Any, Mapping

import pytest

from banker import kernel
from banker.chance import SeededChance
from banker.game import Game
from banker.kernel import STATE
from banker.model import Decision, Outcome
from banker.ruleset import load_ruleset
from banker.simulate import play_game

SEED = 3


def _long_game(rules: str, seed: int, actions: int) -> list[dict[str, Any]]:
    game, _header, _how = play_game(rules, load_ruleset(rules), players=4, seed=seed, max_turns=4000)
    assert len(game.history) >= actions, "pick a longer game"
    return [dict(a) for a in game.history[:actions]]


def _fresh(rules: str, kind: type[Game] = Game) -> Game:
    """The game play_game starts (the same players and deck order; the actions carry every card drawn)."""
    ruleset = load_ruleset(rules)
    return kind(ruleset, ["Ann", "Ben", "Cy", "Dot"], {}, None, SeededChance(SEED).deck_order(ruleset))


def _played(rules: str, actions: list[dict[str, Any]]) -> Game:
    game = _fresh(rules)
    for a in actions:
        game.apply(a)
    return game


def _same(game: Game, expected: Game) -> None:
    assert game.to_json() == expected.to_json()
    assert game.money_log() == expected.money_log()
    assert game.events == expected.events and game.history == expected.history


class Counting(Game):
    """Counts the actions played, in this game and in any fresh game it makes to play them again in."""

    played = 0

    def new_like(self) -> Game:
        players, options, setup, deck_order = self._init_args
        return Counting(self.ruleset, players, options, setup, deck_order)

    def apply(self, action: Mapping[str, Any]) -> Any:
        Counting.played += 1
        return super().apply(action)


@pytest.mark.parametrize("rules", ["classic", "brands", "biznes"])
def test_undoing_back_to_the_start_matches_playing_again(rules: str) -> None:
    actions = _long_game(rules, seed=SEED, actions=300)
    game = _played(rules, actions)
    for k in range(len(actions) - 1, -1, -1):
        game.apply({"do": "undo"})
        if k % 23 == 0 or k < 3:
            _same(game, _played(rules, actions[:k]))
    assert game.history == [] and len(game.script) == 2 * len(actions)
    with pytest.raises(Exception, match="nothing to undo"):
        game.apply({"do": "undo"})


def test_undo_then_another_way_forgets_the_copies_of_the_future_left_behind() -> None:
    rng = random.Random(5)
    actions = _long_game("classic", seed=SEED, actions=400)
    game = _played("classic", actions)
    effective = list(actions)
    for _ in range(40):
        for _ in range(rng.randint(1, 90)):  # undo a run
            if effective:
                game.apply({"do": "undo"})
                effective.pop()
        # then play some of the original actions again: the same ones are the only legal continuation we know
        for a in actions[len(effective):len(effective) + rng.randint(0, 60)]:
            game.apply(a)
            effective.append(a)
        assert game.trail_at == sorted(set(game.trail_at)) and all(k <= len(effective) for k in game.trail_at)
        _same(game, _played("classic", effective))


@pytest.mark.skipif(not hasattr(Game(load_ruleset("classic"), ["Ann", "Ben"]), "__dict__"),
                    reason="compiled build: Python cannot subclass the compiled Game; run on the pure engine "
                           "(scripts/test.sh's second run)")
def test_a_run_of_undos_plays_each_action_about_once() -> None:
    actions = _long_game("classic", seed=SEED, actions=600)
    game = _fresh("classic", Counting)
    for a in actions:
        game.apply(a)
    Counting.played = 0
    for _ in range(len(actions)):
        game.apply({"do": "undo"})
    # n undos: the n undo actions themselves, plus every action played again about once (not n*n/2 = 180,000)
    assert Counting.played <= len(actions) + 2 * len(actions)
    assert len(game.trail) <= len(actions) // kernel.SPARSE + kernel.DENSE + 1


def test_a_copy_shares_nothing_that_can_change() -> None:
    actions = _long_game("classic", seed=SEED, actions=500)
    game = _played("classic", actions)
    copy = game.snapshot()
    before = game.to_json()
    for a in _long_game("classic", seed=SEED, actions=560)[500:]:
        game.apply(a)
    assert game.to_json() != before
    game.put_back(copy)
    assert game.to_json() == before
    game.put_back(copy)  # a copy can be used again
    assert game.to_json() == before


def test_going_back_past_the_history_is_refused() -> None:
    game = _played("classic", _long_game("classic", seed=SEED, actions=10))
    with pytest.raises(ValueError, match="the game has 10"):
        game.go_back(11)


@pytest.mark.parametrize("rules", ["classic", "brands", "biznes", "brands-fast"])
def test_what_a_copy_shares_is_never_changed_in_place(rules: str) -> None:
    """kernel.SHARED names values a copy shares: each must be immutable (replaced, never changed in place)."""
    game, _header, _how = play_game(rules, load_ruleset(rules), players=4, seed=SEED, max_turns=200)
    assert kernel.SHARED <= set(STATE) and set(kernel.COPIERS) <= set(STATE) and kernel.APPEND_ONLY <= set(STATE)
    for name in kernel.SHARED:
        value = getattr(game, name)
        if name == "_groups_cache":  # (version, lists): replaced whole when the owners change, never edited
            assert isinstance(value, tuple)
            continue
        assert value is None or isinstance(value, (int, float, str, tuple, Decision, Outcome)), name


def test_the_simulator_keeps_no_trail_and_apply_keeps_a_sparse_one() -> None:
    game, _header, _how = play_game("classic", load_ruleset("classic"), players=4, seed=SEED)
    assert not game.keeps_trail and game.trail == []
    replayed = _played("classic", [dict(a) for a in game.history])
    assert replayed.trail_at == list(range(kernel.SPARSE, len(game.history) + 1, kernel.SPARSE))
