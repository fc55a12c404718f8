"""biznes card rules a scenario file cannot show (issue 7, rule 8).

The state printed by `banker replay --json` does not show the order of the
decks nor what the seeded source fills in, so these checks use the engine's
API: rulebook 000 "W każdej talii jest 10 kart i idą w kółko" (a drawn card
goes to the bottom, a draw without a card takes the next one), the random
move's target "z pominięciem bieżącego pola i ostatniego losowego celu", and
"kolejną kartę losowego przeniesienia w tym samym rzucie pomija się" (the
skipped card goes under its deck).
"""

from __future__ import annotations

from typing import Any

import pytest

from banker import Game, load_ruleset
from banker.chance import SeededChance, complete_action

RANDOM = "rynek-niespodziewana-podroz"
RYNEK_SPACES = (7, 22, 36)


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return load_ruleset("biznes")


def card_ids(ruleset: Any, deck: str) -> list[str]:
    return [c.id for c in ruleset.cards if c.deck == deck]


def seeded_game(ruleset: Any, seed: int, players: list[str], setup: dict[str, Any] | None = None
                ) -> tuple[Game, SeededChance, dict[str, list[str]]]:
    chance = SeededChance(seed)
    order = chance.deck_order(ruleset)
    game = Game(ruleset, players, setup=setup, deck_order=order)
    return game, chance, order


def play(game: Game, chance: SeededChance, action: dict[str, Any]) -> dict[str, Any]:
    """Apply an action the way a script replay does (chance inputs filled in); return what was recorded."""
    game.apply(complete_action(game, action, chance))
    return game.script[-1]


# --------------------------------------------------------------------------
# The decks go round


def test_both_decks_hold_ten_cards(ruleset: Any) -> None:
    assert len(card_ids(ruleset, "rynek")) == 10
    assert len(card_ids(ruleset, "pomoc")) == 10


def test_a_drawn_card_goes_to_the_bottom(ruleset: Any) -> None:
    # No seed: the decks are in file order. Ann 0 + 7 = Rynek (7).
    game = Game(ruleset, ["Ann", "Ben", "Cy"])
    rynek = card_ids(ruleset, "rynek")
    assert game.decks["rynek"] == rynek
    game.apply({"do": "roll", "dice": [3, 4]})
    game.apply({"do": "draw", "card": "rynek-dywidendy-150"})  # not the top card: a physical deck
    assert game.decks["rynek"] == [c for c in rynek if c != "rynek-dywidendy-150"] + ["rynek-dywidendy-150"]
    assert game.decks["pomoc"] == card_ids(ruleset, "pomoc")


def test_a_release_card_leaves_the_deck_until_used(ruleset: Any) -> None:
    game = Game(ruleset, ["Ann", "Ben"], setup={"players": {"Ann": {"position": 3}}})
    rynek = card_ids(ruleset, "rynek")
    card = "rynek-prawnik-wygral-sprawe"
    game.apply({"do": "roll", "dice": [2, 2]})  # 3 + 4 = Rynek (7), a double
    game.apply({"do": "draw", "card": card})
    assert card not in game.decks["rynek"] and len(game.decks["rynek"]) == 9
    game.apply({"do": "end_turn"})  # the double's extra roll
    game.apply({"do": "roll", "dice": [6, 5]})  # 7 + 11 = 18
    game.apply({"do": "decline"})
    game.apply({"do": "close_auction"})
    game.apply({"do": "end_turn"})
    game.apply({"do": "roll", "dice": [6, 5]})  # Ben 0 + 11 = 11
    game.apply({"do": "decline"})
    game.apply({"do": "close_auction"})
    game.apply({"do": "end_turn"})
    game.apply({"do": "roll", "dice": [2, 2]})  # Ann 18 + 4 = Rynek (22)
    game.apply({"do": "draw", "card": "rynek-kontrola-bez-zapowiedzi"})
    game.apply({"do": "end_turn"})
    game.apply({"do": "roll", "dice": [1, 2]})  # Ben 11 + 3 = 14
    game.apply({"do": "decline"})
    game.apply({"do": "close_auction"})
    game.apply({"do": "end_turn"})
    game.apply({"do": "use_card"})
    # used: back under its own deck
    assert game.decks["rynek"][-1] == card
    assert sorted(game.decks["rynek"]) == sorted(rynek)


def _settle_everything(game: Game, chance: SeededChance, drawn: list[tuple[str, str]]) -> None:
    """Answer whatever the game waits for, short of the end of the move."""
    for _ in range(50):
        owed = game.owed()
        verbs = owed[0]["verbs"]
        if owed[0]["player"] == "bank" or "bid" in verbs:
            game.apply({"do": "close_auction"})
        elif "decline" in verbs:
            game.apply({"do": "decline"})
        elif verbs == ["draw"]:
            deck = game.decision.deck  # type: ignore[union-attr]
            drawn.append((deck, play(game, chance, {"do": "draw"})["card"]))
        elif "concede" in verbs:
            raise AssertionError(f"unexpected debt: {owed}")
        else:
            return
    raise AssertionError("the game did not settle")


@pytest.mark.parametrize("seed", [1, 7, 42, 2024])
def test_draws_without_a_card_take_the_next_card_round_and_round(ruleset: Any, seed: int) -> None:
    """Thirty Rynek draws in a seeded game: every draw without a card takes the top card, which then
    goes under the deck (a release card stays with its holder until used); the first ten are the
    seeded shuffle itself, and the deck comes round to its first card again."""
    game, chance, order = seeded_game(ruleset, seed, ["Ann", "Ben"])
    assert sorted(order["rynek"]) == sorted(card_ids(ruleset, "rynek"))
    assert sorted(order["pomoc"]) == sorted(card_ids(ruleset, "pomoc"))
    model = {deck: list(cards) for deck, cards in order.items()}  # the spec's deck, top first
    jail_free = {c.id for c in ruleset.cards if c.effect == "jail_free"}
    drawn: list[tuple[str, str]] = []
    checked = 0
    while sum(1 for deck, _ in drawn if deck == "rynek") < 30:
        p = game.current
        held_before = list(p.jail_cards)
        if p.in_jail:
            game.apply({"do": "use_card"} if p.jail_cards else {"do": "pay_fine"})
            used = [c for c in held_before if c not in p.jail_cards]
            for c in used:
                model[ruleset.card_by_id[c].deck].append(c)
        # Put the token three spaces before a Rynek space, then roll 1 + 2 onto it.
        target = RYNEK_SPACES[len(drawn) % 3]
        game.apply({"do": "adjust", "player": p.name, "cash": 0, "position": target - 3, "reason": "test"})
        game.apply({"do": "roll", "dice": [1, 2]})
        assert game.owed() == [{"player": p.name, "verbs": ["draw"]}]
        start = len(drawn)
        drawn.append(("rynek", play(game, chance, {"do": "draw"})["card"]))
        _settle_everything(game, chance, drawn)
        # Every draw of this move, in order, against the model.
        for deck, card in drawn[start:]:
            assert card == model[deck][0], f"draw {checked}: took {card}, the top card is {model[deck][0]}"
            model[deck].pop(0)
            if card not in jail_free:  # a release card stays with the player until used
                model[deck].append(card)
            checked += 1
        for deck in model:
            assert game.decks[deck] == model[deck]
        if game.owed() == [{"player": p.name, "verbs": ["end_turn"]}]:
            game.apply({"do": "end_turn"})
        if p.cash < 400:
            game.apply({"do": "adjust", "player": p.name, "cash": 1000, "reason": "test"})
    rynek_draws = [card for deck, card in drawn if deck == "rynek"]
    first = order["rynek"]
    # The first ten draws are the seeded shuffle in order (less a release card while it is held).
    kept = [c for c in first if c not in jail_free]
    assert [c for c in rynek_draws[:10] if c not in jail_free][:9] == kept[:9]
    # Going round: the first card, under the other nine after its draw, is the eleventh draw.
    if first[0] not in jail_free:
        assert rynek_draws.index(first[0], 1) == 10


def test_a_seeded_draw_without_a_card_takes_the_top_card(ruleset: Any) -> None:
    """Twenty seeds: the first Rynek draw without a card is the top of the seeded shuffle, and it
    goes under the deck (a release card stays with the player)."""
    for seed in range(20):
        game, chance, order = seeded_game(ruleset, seed, ["Ann", "Ben"])
        game.apply({"do": "roll", "dice": [3, 4]})  # Rynek (7)
        first = play(game, chance, {"do": "draw"})["card"]
        assert first == order["rynek"][0]
        assert game.decks["rynek"][-1] == first or ruleset.card_by_id[first].effect == "jail_free"


# --------------------------------------------------------------------------
# The random move's target


@pytest.mark.parametrize("seed", range(200))
def test_filled_random_target_is_never_here_nor_the_last_target(ruleset: Any, seed: int) -> None:
    # Ann's random move to 20 makes 20 the last random target; then Ben draws it on 22.
    game, chance, _ = seeded_game(ruleset, seed, ["Ann", "Ben", "Cy"],
                                  setup={"players": {"Ben": {"position": 17}}})
    play(game, chance, {"do": "roll", "dice": [3, 4]})  # Ann 0 + 7 = Rynek (7)
    first = complete_action(game, {"do": "draw", "card": RANDOM}, chance)
    assert isinstance(first["target"], int) and 0 <= first["target"] < 40
    assert first["target"] != 7  # not Ann's own space; no last target yet
    play(game, chance, {"do": "draw", "card": RANDOM, "target": 20})
    game.apply({"do": "end_turn"})
    play(game, chance, {"do": "roll", "dice": [2, 3]})  # Ben 17 + 5 = Rynek (22)
    recorded = play(game, chance, {"do": "draw", "card": RANDOM})
    target = recorded["target"]
    assert target not in (22, 20)
    assert isinstance(target, int) and 0 <= target < 40
    assert game.to_json()["last_random_target"] == target
    assert game.players[1].position in (target, 10)  # 30 sends Ben on to kontrola


def test_filled_random_targets_cover_every_allowed_space(ruleset: Any) -> None:
    seen: set[int] = set()
    for seed in range(600):
        game, chance, _ = seeded_game(ruleset, seed, ["Ann", "Ben"])
        game.apply({"do": "roll", "dice": [3, 4]})  # Rynek (7)
        seen.add(complete_action(game, {"do": "draw", "card": RANDOM}, chance)["target"])
    assert seen == set(range(40)) - {7}


def test_a_draw_without_a_card_fills_the_target_of_the_random_card(ruleset: Any) -> None:
    seed = next(s for s in range(1000) if SeededChance(s).deck_order(ruleset)["rynek"][0] == RANDOM)
    game, chance, _ = seeded_game(ruleset, seed, ["Ann", "Ben"])
    game.apply({"do": "roll", "dice": [3, 4]})  # Rynek (7)
    recorded = play(game, chance, {"do": "draw"})
    assert recorded["card"] == RANDOM
    assert recorded["target"] != 7
    assert game.to_json()["last_random_target"] == recorded["target"]


def test_no_target_is_filled_for_a_skipped_random_card(ruleset: Any) -> None:
    game, chance, _ = seeded_game(ruleset, 3, ["Ann", "Ben"])
    game.apply({"do": "roll", "dice": [3, 4]})  # Rynek (7)
    game.apply({"do": "draw", "card": RANDOM, "target": 22})
    filled = complete_action(game, {"do": "draw", "card": RANDOM}, chance)
    assert "target" not in filled
    game.apply(filled)
    assert game.owed() == [{"player": "Ann", "verbs": ["draw"]}]


# --------------------------------------------------------------------------
# The skipped second random card


def test_the_skipped_random_card_goes_under_its_deck(ruleset: Any) -> None:
    game, chance, order = seeded_game(ruleset, 11, ["Ann", "Ben", "Cy"])
    game.apply({"do": "roll", "dice": [3, 4]})  # Ann 0 + 7 = Rynek (7)
    game.apply({"do": "draw", "card": RANDOM, "target": 22})  # to Rynek (22)
    rest = [c for c in order["rynek"] if c != RANDOM]
    assert game.decks["rynek"] == rest + [RANDOM]
    game.apply({"do": "draw", "card": RANDOM})  # the second random card of the roll: skipped
    assert game.decks["rynek"] == rest + [RANDOM]  # under the deck, once, nothing lost
    assert game.players[0].position == 22
    assert game.owed() == [{"player": "Ann", "verbs": ["draw"]}]
    # The draw still owed takes the next card, which is the old top card.
    recorded = play(game, chance, {"do": "draw"})
    assert recorded["card"] == rest[0]
    assert recorded["card"] != RANDOM
