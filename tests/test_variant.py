"""The variant's facts (banker/variant.py), asked from one record made once per game (issue 39, item 3)."""

from __future__ import annotations

import pytest

from banker.game import Game
from banker.ruleset import load_ruleset
from banker.variant import Variant


def test_each_builtin_ruleset_s_facts() -> None:
    classic = Game(load_ruleset("classic"), ["Ann", "Ben"]).variant
    assert classic == Variant(
        building_words=("house", "hotel"), builds_on_visit=False, builds_at_turn_start=False, building_auctions=True,
        has_mortgages=True, raises_by_selling=False, auction_in_turn=False, trades_per_turn=None,
        trades_per_move=None, own_auctions=False, shuffled_decks=False, has_teams=False, has_casino=False,
        casino_wins=(0, 0, 0), clocked=False)
    biznes = Game(load_ruleset("biznes"), ["Ann", "Ben"]).variant
    assert biznes.building_words == ("office", "holding") and biznes.builds_on_visit and biznes.raises_by_selling
    assert biznes.auction_in_turn and not biznes.has_mortgages
    assert biznes.trades_per_move is not None and biznes.trades_per_turn is None
    brands = Game(load_ruleset("brands"), ["Ann", "Ben"]).variant
    assert brands.building_words == ("branch", "corporation") and brands.builds_at_turn_start
    assert brands.auction_in_turn and brands.has_casino and brands.shuffled_decks
    assert brands.trades_per_turn == 3 and brands.clocked and brands.casino_win(2) == 3000
    assert not brands.building_auctions and brands.has_mortgages


def test_the_record_is_made_once_and_before_a_game_says_the_same() -> None:
    for name in ("classic", "biznes", "brands"):
        ruleset = load_ruleset(name)
        game = Game(ruleset, ["Ann", "Ben"])
        assert game.variant == Variant.of_ruleset(ruleset) == Variant.of(game.rules)
        assert game.new_like().variant == game.variant
    with pytest.raises(AttributeError):  # frozen: nobody changes the facts of a game under way
        game.variant.clocked = False  # type: ignore[misc]
