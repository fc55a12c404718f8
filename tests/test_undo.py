"""Undo (banker/kernel.py, "Going back"): the same state as playing the remaining actions again from the start, in time for
what it takes back, with the copies it keeps dropped when the game goes another way."""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any

import pytest

from banker import kernel
from banker.chance import SeededChance
from banker.game import Game
from banker.kernel import STATE
from banker.model import Auction, Decision, Outcome, Player
from banker.ruleset import load_ruleset
from banker.simulate import play_game
from banker.statefields import BY_CONSTRUCTOR, KINDS, PART, State

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


def _mutables(value: Any, found: dict[int, Any]) -> dict[int, Any]:
    """Every object reachable from `value` that can change in place (lists, dicts, the players' and the
    auction's records, the families' state objects), by id; a debt never changes."""
    if isinstance(value, (list, dict, Player, Auction, State)):
        if id(value) in found:
            return found
        found[id(value)] = value
    if isinstance(value, (list, tuple)):
        for v in value:
            _mutables(v, found)
    elif isinstance(value, dict):
        for k, v in value.items():
            _mutables(k, found)
            _mutables(v, found)
    elif isinstance(value, (Player, Auction)):  # their fields: the slots, or in the compiled build mypyc's list
        for name in getattr(type(value), "__slots__", None) or type(value).__mypyc_attrs__:
            _mutables(getattr(value, name), found)
    elif isinstance(value, State):
        for f in value.FIELDS:
            _mutables(getattr(value, f.name), found)
    return found


def _live(game: Game) -> dict[int, Any]:
    """What can change in place in the game's state now (the families' state objects and what they hold too);
    the owned groups' cache aside: a copy shares it, as it is replaced whole when the owners change, never
    edited (test_what_a_copy_shares_is_never_changed_in_place)."""
    found: dict[int, Any] = {}
    for name in STATE:
        if name != "_groups_cache":
            _mutables(getattr(game, name), found)
    return found


@pytest.mark.parametrize(("rules", "at"), [("classic", 500), ("brands", 360), ("biznes", 500)])
def test_a_copy_shares_nothing_that_can_change(rules: str, at: int) -> None:
    """No list, dict, record or family state object is both in a copy and in the game (each field copied by its
    declared kind), before or after the copy is put back; and the copy brings back the state it was taken of."""
    actions = _long_game(rules, seed=SEED, actions=at)
    game = _played(rules, actions)
    copy = game.snapshot()
    assert len(_live(game)) > 40  # the players and their lists, the decks, the families' objects and theirs, ...
    shared = set(_mutables(copy, {})) & set(_live(game))
    assert not shared, f"the copy shares {[type(_live(game)[i]).__name__ for i in shared]} with the game"
    assert not any(isinstance(v, State) for v in copy), "a family's state object in the copy (its fields belong)"
    before = game.to_json()
    for a in _long_game(rules, seed=SEED, actions=at + 60)[at:]:
        game.apply(a)
    assert game.to_json() != before
    game.put_back(copy)
    assert game.to_json() == before
    assert not set(_mutables(copy, {})) & set(_live(game)), "put back, the game shares the copy's values"
    game.put_back(copy)  # a copy can be used again
    assert game.to_json() == before


def test_going_back_past_the_history_is_refused() -> None:
    game = _played("classic", _long_game("classic", seed=SEED, actions=10))
    with pytest.raises(ValueError, match="the game has 10"):
        game.go_back(11)


@pytest.mark.parametrize("rules", ["classic", "brands", "biznes", "brands-fast"])
def test_what_a_copy_shares_is_never_changed_in_place(rules: str) -> None:
    """The fields declared SHARED (the kernel's and the families') are shared by a copy: each must be immutable
    (replaced, never changed in place)."""
    game, _header, _how = play_game(rules, load_ruleset(rules), players=4, seed=SEED, max_turns=200)
    assert "trade_state.trades_used" in kernel.SHARED_FIELDS and "players" not in kernel.SHARED_FIELDS
    for path in kernel.SHARED_FIELDS:
        value = operator.attrgetter(path)(game)
        if path == "_groups_cache":  # (version, lists): replaced whole when the owners change, never edited
            assert isinstance(value, tuple)
            continue
        assert value is None or isinstance(value, (int, float, str, tuple, Decision, Outcome)), path


def _families() -> list[type[State]]:
    return [f.start for f in kernel.FIELDS if f.copy == PART]


def test_the_state_is_declared_once_and_the_constructor_and_a_copy_follow() -> None:
    """kernel.FIELDS declares the kernel's state (each family's as one object, whose fields are declared in the
    family's own module): STATE is derived from it, a new game has every field (the kernel's own set by its
    constructor, a family's as its declaration starts it, each family field's type annotated beside its
    declaration), and a copy holds every field, a family's by its path. (tests/test_engine.py checks that the
    constructor sets nothing else that can change.)"""
    names = [f.name for f in kernel.FIELDS]
    assert len(set(names)) == len(names) and STATE == tuple(names)
    assert all(f.copy in KINDS for f in kernel.FIELDS)
    assert all((f.start is BY_CONSTRUCTOR) == (f.copy != PART) for f in kernel.FIELDS)
    families = _families()
    assert {family.__module__ for family in families} == {
        "banker.mechanics.trade", "banker.mechanics.building", "banker.mechanics.doubles", "banker.mechanics.mortgage",
        "banker.mechanics.casino", "banker.mechanics.clock", "banker.mechanics.speed_die", "banker.cards"}
    for family in families:
        assert family.FIELDS and all(f.copy in KINDS and f.copy != PART and f.start is not BY_CONSTRUCTOR
                                     for f in family.FIELDS), family
        if "__annotations__" in vars(family):  # pure Python: the fields' types are annotated on the class
            assert set(vars(family)["__annotations__"]) == {f.name for f in family.FIELDS}, family
    for rules in ("classic", "brands", "biznes"):
        game = Game(load_ruleset(rules), ["Ann", "Ben", "Cy"])
        for f in kernel.FIELDS:
            value = getattr(game, f.name)  # set by the constructor
            if f.copy == PART:
                assert type(value) is f.start
                for g in f.start.FIELDS:
                    assert getattr(value, g.name) == g.first(game), (f.name, g.name)
                if hasattr(value, "__dict__"):  # pure Python: nothing but the declared fields
                    assert set(vars(value)) == {g.name for g in f.start.FIELDS}
        assert game.casino_state.jackpot == game.options.casino_jackpot_start
        assert game.mortgage_state.mortgage_round == [0] * game.n_spaces and game.clock_state.skipped == [0, 0, 0]
        copy = game.snapshot()
        held = [path for path, _, _, _ in kernel.HELD]
        assert len(copy) == len(held) and len(held) == len(set(held))
        assert {p for p in held if "." in p} == {f"{f.name}.{g.name}" for f in kernel.FIELDS if f.copy == PART
                                                 for g in f.start.FIELDS}


def test_a_familys_state_is_put_back_into_its_own_object() -> None:
    """Going back writes a family's fields into the game's own object, which stays the game's."""
    game = Game(load_ruleset("brands"), ["Ann", "Ben", "Cy"])
    trades, clock = game.trade_state, game.clock_state
    copy = game.snapshot()
    game.count_trade()
    game.skip_turn()
    game.pause()
    assert (trades.turn_trades, clock.skipped[0], clock.turn_skipped) == (1, 1, True) and clock.paused_at >= 0
    game.put_back(copy)
    assert game.trade_state is trades and game.clock_state is clock
    assert (trades.turn_trades, clock.skipped, clock.turn_skipped, clock.paused_at) == (0, [0, 0, 0], False, -1.0)
    game.skip_turn()
    game.put_back(copy, keep=False)
    assert clock.skipped == [0, 0, 0]


def test_the_simulator_keeps_no_trail_and_apply_keeps_a_sparse_one() -> None:
    game, _header, _how = play_game("classic", load_ruleset("classic"), players=4, seed=SEED)
    assert not game.keeps_trail and game.trail == []
    replayed = _played("classic", [dict(a) for a in game.history])
    assert replayed.trail_at == list(range(kernel.SPARSE, len(game.history) + 1, kernel.SPARSE))
