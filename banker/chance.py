"""The seeded source of chance: dice, shuffled decks and the opening deal.

The engine never draws a random number. A game script with a ``seed`` lets
actions leave their chance inputs unsaid; ``SeededChance.complete`` fills
them in before the engine sees the action, and the completed action is what
gets recorded, so an exported script never depends on this generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from banker.game import Game
from banker.mechanics.casino import jackpot_won
from banker.ruleset import Ruleset


class SeededChance:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def deck_order(self, ruleset: Ruleset) -> dict[str, list[str]]:
        """Shuffle every deck once, at the start of the game."""
        order = {}
        for deck, ids in ruleset.deck_cards.items():
            cards = list(ids)
            self.rng.shuffle(cards)
            order[deck] = cards
        return order

    def dice(self, count: int) -> list[int]:
        r = self.rng.random
        if count == 2:  # the common case, kept quick for the simulator
            return [int(r() * 6) + 1, int(r() * 6) + 1]
        return [int(r() * 6) + 1 for _ in range(count)]

    def deal(self, game: Game) -> dict[str, list[int]]:
        """Shuffle the title deeds and deal them one at a time round the table."""
        deeds = [i for i in game.ruleset.property_indices if game.owner[i] < 0]
        self.rng.shuffle(deeds)
        players = [p for p in game.players if not p.bankrupt]
        count = len(deeds) if game.options.deal_all else game.options.deal_deeds * len(players)
        hands: dict[str, list[int]] = {p.name: [] for p in players}
        for k in range(count):
            hands[players[k % len(players)].name].append(deeds[k])
        return hands


def complete_action(game: Game, action: Mapping[str, Any], source: SeededChance | None) -> dict[str, Any]:
    """Fill in the dice, card or deeds an action leaves out (a copy; the action itself is untouched).

    Without a source nothing is filled in, and the engine refuses the action.
    """
    if source is None:
        return dict(action)
    verb = action.get("do")
    filled = dict(action)
    if verb == "roll":
        if "dice" not in action:
            filled["dice"] = source.dice(game.dice_count())
    elif verb == "draw":
        d = game.decision
        if "card" not in action and d is not None and d.kind == "draw":
            # A cycling deck is dealt from the top; a reshuffled one (brands) was shuffled when it
            # filled up again, which is the same as taking any of its remaining cards at random.
            deck = game.decks[d.deck]
            filled["card"] = source.rng.choice(deck) if game.variant.shuffled_decks else game.next_card(d.deck)
        given = filled.get("card")  # any JSON value: the engine refuses one that is not a card's id
        card = game.ruleset.card_by_id.get(given) if isinstance(given, str) else None
        if (card is not None and card.effect == "random_move" and "target" not in action
                and not game.random_move_state.random_moved and d is not None and d.kind == "draw"):
            filled["target"] = source.rng.choice(game.random_targets())
    elif verb == "casino":
        dice = source.dice
        filled = complete_bet(game, filled, lambda: dice(1)[0], source.rng.random)
    elif verb == "deal":
        if "deeds" not in action and game.deal_owed:
            filled["deeds"] = source.deal(game)
    return filled


def complete_bet(game: Game, action: Mapping[str, Any], die: Callable[[], int],
                 random: Callable[[], float]) -> dict[str, Any]:
    """Fill in the die and the jackpot draw a casino bet leaves out (a copy): the one place they are filled in,
    from the seeded source (`complete_action`) or from the app's own dice and draws (ui/flows/paying.py).
    Walking away (no numbers) needs neither."""
    filled = dict(action)
    if action.get("numbers") is not None:
        if "die" not in action:
            filled["die"] = die()
        if "jackpot" not in action:
            filled["jackpot"] = jackpot_won(game.options.casino_jackpot_odds, random)
    return filled
