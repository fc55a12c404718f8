"""The variant's facts (banker/variant.py), asked from one record made once per game, and the least legal bid,
which the engine answers by the auction family's rules (issue 39, item 3)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from banker.chance import SeededChance, complete_action, complete_bet
from banker.errors import IllegalAction
from banker.game import Game
from banker.ruleset import load_ruleset
from banker.variant import Variant
from variantkit import fifty_ruleset


def test_each_builtin_ruleset_s_facts() -> None:
    classic = Game(load_ruleset("classic"), ["Ann", "Ben"]).variant
    assert classic == Variant(
        building_words=("house", "hotel"), builds_on_visit=False, builds_at_turn_start=False, building_auctions=True,
        has_mortgages=True, raises_by_selling=False, auction_in_turn=False, free_raise=True, trades_per_turn=None,
        trades_per_move=None, own_auctions=False, shuffled_decks=False, has_teams=False, has_casino=False,
        casino_wins=(0, 0, 0), clocked=False)
    biznes = Game(load_ruleset("biznes"), ["Ann", "Ben"]).variant
    assert biznes.building_words == ("office", "holding") and biznes.builds_on_visit and biznes.raises_by_selling
    assert biznes.auction_in_turn and not biznes.free_raise and not biznes.has_mortgages
    assert biznes.trades_per_move is not None and biznes.trades_per_turn is None
    brands = Game(load_ruleset("brands"), ["Ann", "Ben"]).variant
    assert brands.building_words == ("branch", "corporation") and brands.builds_at_turn_start
    assert brands.auction_in_turn and not brands.free_raise and brands.has_casino and brands.shuffled_decks
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


def _declined(rules: str, dice: list[int]) -> Game:
    game = Game(load_ruleset(rules), ["Ann", "Ben", "Cy"])
    game.apply({"do": "roll", "dice": dice})
    game.apply({"do": "decline"})
    assert game.auction is not None
    return game


def test_the_least_bid_follows_the_auction_family() -> None:
    classic = _declined("classic", [1, 2])  # open: anyone, anything above the high bid
    assert classic.least_bid(1) == 1 and classic.variant.free_raise
    classic.apply({"do": "bid", "player": "Ben", "amount": 40})
    assert classic.least_bid(2) == 41
    biznes = _declined("biznes", [2, 4])  # stepped: the opening, then exactly a step more
    assert biznes.least_bid(0) == 75 and not biznes.variant.free_raise
    biznes.apply({"do": "bid", "player": "Ann", "amount": 75})
    assert biznes.least_bid(1) == 75 + int(biznes.options.auction_step)


@pytest.fixture
def fifty(tmp_path: Path) -> Iterator[Path]:
    with fifty_ruleset(tmp_path) as path:
        yield path


def test_a_variant_from_outside_answers_the_least_bid(fifty: Path) -> None:
    game = _declined(str(fifty), [1, 2])
    assert not game.variant.free_raise and not game.variant.auction_in_turn
    game.apply({"do": "bid", "player": "Ben", "amount": 1})
    assert game.least_bid(2) == 51
    with pytest.raises(IllegalAction):
        game.apply({"do": "bid", "player": "Cy", "amount": 60})
    game.apply({"do": "bid", "player": "Cy", "amount": game.least_bid(2)})
    assert game.auction is not None and game.auction.high_bid == 51


def test_a_variant_from_outside_replays_through_the_command(fifty: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`banker replay` of a script whose header names the variant's ruleset file, in this process (where the
    variant is registered): the fifty-step bids are taken, a bid off the step is refused naming the rule."""
    from banker.cli import main

    script = tmp_path / "fifty.jsonl"
    lines = [{"rules": fifty.name, "players": ["Ann", "Ben", "Cy"]}, {"do": "roll", "dice": [1, 2]},
             {"do": "decline"}, {"do": "bid", "player": "Ben", "amount": 1},
             {"do": "bid", "player": "Cy", "amount": 51}, {"do": "close_auction"}]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", "utf-8")
    assert main(["replay", str(script), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["spaces"]["3"]["owner"] == "Cy"
    assert next(p for p in state["players"] if p["name"] == "Cy")["cash"] == 1500 - 51
    lines[4]["amount"] = 60
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", "utf-8")
    assert main(["replay", str(script), "--json"]) != 0
    assert "exactly" in capsys.readouterr().err


def test_a_casino_bet_s_chance_is_filled_in_one_place() -> None:
    game = Game(load_ruleset("brands"), ["Ann", "Ben"])
    bet = {"do": "casino", "numbers": [2, 5]}
    filled = complete_bet(game, bet, lambda: 4, lambda: 0.0)
    assert filled == {"do": "casino", "numbers": [2, 5], "die": 4, "jackpot": True} and bet == {"do": "casino", "numbers": [2, 5]}
    assert complete_bet(game, {**bet, "die": 1, "jackpot": False}, lambda: 4, lambda: 0.0)["die"] == 1
    assert complete_bet(game, {"do": "casino"}, lambda: 4, lambda: 0.0) == {"do": "casino"}  # walking away
    source, twin = SeededChance(7), random.Random(7)
    die = int(twin.random() * 6) + 1
    jackpot = twin.random() * int(game.options.casino_jackpot_odds) < 1
    assert complete_action(game, bet, source) == {**bet, "die": die, "jackpot": jackpot}
