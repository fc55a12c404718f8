"""The house rules' corners that game-script scenarios reach only at length: auctions nobody may bid in, a
building shortage among lapped and unlapped players, biznes's own-property auction, every way a token laps,
and undo across each. The scenarios in tests/scenarios/*/house-*.jsonl check the rules' everyday cases."""

from __future__ import annotations

from typing import Any

import pytest

from banker.errors import IllegalAction
from banker.game import Game
from banker.ruleset import load_ruleset

LAP = {"buy_after_first_lap": True}
BUILT = {"1": {"owner": "Ann", "houses": 4}, "3": {"owner": "Ann", "houses": 3}, "11": {"owner": "Ann", "houses": 4},
         "13": {"owner": "Ann", "houses": 4}, "14": {"owner": "Ann", "houses": 4}, "16": {"owner": "Ann", "houses": 4},
         "18": {"owner": "Ann", "houses": 4}, "19": {"owner": "Ann", "houses": 4}, "6": {"owner": "Ben"},
         "8": {"owner": "Ben"}, "9": {"owner": "Ben"}}


def game(rules: str = "classic", players: tuple[str, ...] = ("Ann", "Ben"), options: dict[str, Any] | None = None,
         setup: dict[str, Any] | None = None) -> Game:
    return Game(load_ruleset(rules), list(players), options=options, setup=setup)


def lapped(g: Game) -> dict[str, bool]:
    return {p["name"]: p["lapped"] for p in g.to_json()["players"]}


def test_a_building_shortage_counts_only_players_who_may_bid() -> None:
    # One house left; Ann (Baltic) and Ben (the light blues) both could build one. Unlapped Ben does not count:
    # with one bidder there is no shortage to auction.
    setup = {"spaces": BUILT, "players": {"Ann": {"lapped": True}}}
    with pytest.raises(IllegalAction) as refused:
        game(options=LAP, setup=setup).apply({"do": "building_auction", "kind": "house"})
    assert refused.value.code == "rule.no_building_shortage"
    setup["players"]["Ben"] = {"lapped": True}
    g = game(options=LAP, setup=setup)
    g.apply({"do": "building_auction", "kind": "house"})
    assert g.to_json()["auction"]["bidders"] == ["Ann", "Ben"]


def test_a_bankrupts_properties_are_auctioned_among_lapped_players_only() -> None:
    # Ann owes the bank and concedes; Ben has never been round the board, Cy has: the bank auctions Ann's
    # properties among Cy alone.
    g = game(players=("Ann", "Ben", "Cy"), options=LAP,
             setup={"players": {"Ann": {"cash": 0, "position": 1}, "Cy": {"lapped": True}},
                    "spaces": {"6": {"owner": "Ann"}, "8": {"owner": "Ann"}}})
    g.apply({"do": "roll", "dice": [1, 2]})  # Ann 1 -> 4, Income Tax: a choice
    g.apply({"do": "tax", "choice": "flat"})  # 200 owed to the bank, no cash: a debt
    assert g.players[0].debts
    g.apply({"do": "concede", "player": "Ann"})
    state = g.to_json()
    # Cy may bid: the first of Ann's properties is auctioned among Cy alone; Ben is not a bidder.
    assert state["auction"] is not None and state["auction"]["bidders"] == ["Cy"]
    g.apply({"do": "pass", "player": "Cy"})
    g.apply({"do": "pass", "player": "Cy"})
    state = g.to_json()
    assert state["auction"] is None
    assert state["spaces"]["6"]["owner"] is None and state["spaces"]["8"]["owner"] is None


def test_an_auction_with_no_lapped_player_ends_at_once_unsold() -> None:
    # classic, Ann lapped and Ben not: Ann concedes to the bank; nobody may bid for her deeds.
    g = game(options=LAP, players=("Ann", "Ben", "Cy"),
             setup={"players": {"Ann": {"cash": 0, "position": 1}},
                    "spaces": {"6": {"owner": "Ann"}, "8": {"owner": "Ann"}, "9": {"owner": "Cy"}}})
    g.apply({"do": "roll", "dice": [1, 2]})
    g.apply({"do": "tax", "choice": "flat"})
    events = g.apply({"do": "concede", "player": "Ann"})
    codes = [e.code for e in events]
    assert codes.count("unsold") == 2 and "auction" in codes
    state = g.to_json()
    assert state["auction"] is None and state["spaces"]["6"]["owner"] is None
    assert state["turn"] == "Ben" and not state["ended"]


def test_biznes_own_auction_with_only_unlapped_rivals_is_unsold_at_once() -> None:
    g = game("biznes", options=LAP, setup={"players": {"Ann": {"position": 1, "lapped": True}},
                                            "spaces": {"1": {"owner": "Ann"}}})
    g.apply({"do": "roll", "dice": [1, 2]})
    events = g.apply({"do": "auction_own", "player": "Ann", "space": 1})
    assert [e.code for e in events][-1] == "unsold_own"
    assert g.auction is None and g.owner[1] == 0


@pytest.mark.parametrize("how", ["roll_past", "roll_onto", "card_advance_go"])
def test_every_way_round_the_board_laps_and_undo_takes_it_back(how: str) -> None:
    start = {"roll_past": 36, "roll_onto": 34, "card_advance_go": 1}[how]
    g = game(options=LAP, setup={"players": {"Ann": {"position": start}}})
    if how == "roll_past":
        g.apply({"do": "roll", "dice": [2, 3]})  # 36 -> 1, Mediterranean: lapped first, so the buy is owed
        assert g.owed()[0]["verbs"][:2] == ["buy", "decline"]
    elif how == "roll_onto":
        g.apply({"do": "roll", "dice": [3, 3]})  # 34 -> 0, GO
    else:
        g.apply({"do": "roll", "dice": [2, 4]})  # 1 -> 7, Chance
        g.apply({"do": "draw", "card": "ch-advance-go"})
    assert lapped(g) == {"Ann": True, "Ben": False}
    assert g.players[0].position == (1 if how == "roll_past" else 0)
    g.apply({"do": "undo"})
    assert lapped(g)["Ann"] is False


def test_a_back_card_and_a_correction_are_no_lap() -> None:
    g = game(options=LAP, setup={"players": {"Ann": {"position": 1}}})
    g.apply({"do": "roll", "dice": [2, 4]})  # 1 -> 7, Chance
    g.apply({"do": "draw", "card": "ch-back-3"})  # 7 -> 4, Income Tax
    assert lapped(g)["Ann"] is False and g.players[0].position == 4
    g.apply({"do": "tax", "choice": "flat"})
    g.apply({"do": "adjust", "player": "Ann", "position": 0})  # the banker puts the token on GO: no move
    assert lapped(g)["Ann"] is False


@pytest.mark.parametrize("card,target,buy", [("ch-st-charles", 11, True), ("ch-reading", 5, True),
                                             ("ch-nearest-railroad", 5, True), ("ch-nearest-utility", 12, True),
                                             ("ch-boardwalk", 39, False)])
def test_a_card_that_passes_go_laps_before_the_landing(card: str, target: int, buy: bool) -> None:
    g = game(options=LAP, setup={"players": {"Ann": {"position": 32}}})
    g.apply({"do": "roll", "dice": [1, 3]})  # 32 -> 36, Chance
    g.apply({"do": "draw", "card": card})
    state = g.to_json()
    ann = state["players"][0]
    assert ann["position"] == target
    assert ann["lapped"] is buy  # Boardwalk is ahead of 36: no lap, so no purchase
    assert (state["owed"][0]["verbs"][:2] == ["buy", "decline"]) is buy
    assert ann["cash"] == 1500 + (200 if buy else 0)


def test_going_to_jail_is_no_lap() -> None:
    g = game(options=LAP, setup={"players": {"Ann": {"position": 25}}})
    g.apply({"do": "roll", "dice": [2, 3]})  # 25 -> 30, Go To Jail: sent to 10, which is behind 30
    assert lapped(g)["Ann"] is False and g.players[0].in_jail


def test_unlapped_bid_and_pass_are_refused_naming_the_rule() -> None:
    g = game(options=LAP, setup={"players": {"Ann": {"lapped": True}}})
    g.apply({"do": "roll", "dice": [2, 4]})  # Oriental Avenue
    g.apply({"do": "decline"})
    for action in ({"do": "bid", "player": "Ben", "amount": 10}, {"do": "pass", "player": "Ben"}):
        before = g.to_json()
        with pytest.raises(IllegalAction) as refused:
            g.apply(action)
        assert refused.value.code == "rule.not_lapped_bid" and "buy_after_first_lap" in str(refused.value)
        assert g.to_json() == before
    assert g.to_json()["auction"]["bidders"] == ["Ann"]
    g.apply({"do": "bid", "player": "Ann", "amount": 10})  # the only bidder leads: sold at once
    assert g.auction is None and g.owner[6] == 0 and g.players[0].cash == 1490


def test_the_seed_is_in_the_log_of_the_setup_and_again_after_a_win() -> None:
    g = game(options={"free_parking_pot": True, "free_parking_seed": 100}, setup={"players": {"Ann": {"position": 15}}})
    log = g.money_log()
    assert [(e.seq, e.payer, e.payee, e.amount, e.code) for e in log] == [(-1, "bank", "pot", 100, "pot_seed")]
    assert log[0].text == "the bank puts 100 into the Free Parking pot"
    g.apply({"do": "roll", "dice": [2, 3]})  # 15 -> 20, Free Parking
    assert [(e.payer, e.payee, e.amount, e.code) for e in g.money_log()[1:]] == [
        ("pot", "Ann", 100, "pot"), ("bank", "pot", 100, "pot_seed")]
    assert g.pot == 100 and g.players[0].cash == 1600
    g.apply({"do": "undo"})
    assert g.pot == 100 and g.players[0].cash == 1500 and len(g.money_log()) == 1
