"""The card decks: where a drawn card goes.

- ``cycle`` (`Deck`, the default): a drawn card goes under its deck, so the order repeats; a jail-free card
  stays with its player until used, then goes under.
- ``reshuffle`` (`Reshuffle`, brands): drawn cards stay out until the deck is used up; then every card not
  held by a player is shuffled back in. The chance filler deals a shuffled deck's cards at random.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.mechanics.base import Mechanic, mypyc_attr

if TYPE_CHECKING:
    from banker.game import Game
    from banker.ruleset import Card


@mypyc_attr(allow_interpreted_subclasses=True)
class Deck(Mechanic):
    """cycle: a drawn card goes under its deck."""

    def shuffled(self) -> bool:
        """Whether the cards come in a random order (the chance filler then draws any card of the deck)."""
        return False

    def after_draw(self, game: Game, cards: list[str], card: Card) -> None:
        """`card` has been taken out of `cards` (its deck): put back what the rule puts back."""
        if card.effect != "jail_free":
            cards.append(card.id)


@mypyc_attr(allow_interpreted_subclasses=True)
class Reshuffle(Deck):
    """reshuffle (brands): drawn cards stay out until the deck is used up, then it is filled again."""

    def shuffled(self) -> bool:
        return True

    def after_draw(self, game: Game, cards: list[str], card: Card) -> None:
        if not cards:  # used up: every card not held by a player goes back into the deck
            held = {c for q in game.players for c in q.jail_cards} | {card.id}
            cards.extend(c for c in game.ruleset.deck_cards[card.deck] if c not in held)
            if card.effect != "jail_free":
                cards.append(card.id)


VARIANTS: dict[str, type[Deck]] = {"cycle": Deck, "reshuffle": Reshuffle}
