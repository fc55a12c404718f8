"""Bankruptcy: where a bankrupt player's money, properties and jail cards go.

- ``classic`` (`Bankruptcy`, the default): to a player creditor everything as it is (the buildings sold to
  the bank first, unless `bankrupt_buildings_to_creditor`; the creditor owes the mortgages' interest); to
  the bank the money, and the properties unowned, unmortgaged and put up for auction.
- ``fields_free`` (`FieldsFree`, biznes): the fields go back to the bank unowned, the buildings to the pool,
  the money to the creditor; nothing is auctioned.
- ``by_creditor`` (`ByCreditor`, brands): to a player as classic; to the bank the properties go back unowned,
  without buildings or mortgages and without an auction (in teams the ally takes them as they are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK

if TYPE_CHECKING:
    from banker.game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class Bankruptcy(Mechanic):
    """classic: everything to a player creditor; the bank auctions what it takes."""

    def hand_over(self, game: "Game", p: int, creditor: int, owned: list[int]) -> list[int]:
        """Player p's money, properties `owned` and jail cards go to `creditor` (a player, or BANK); returns
        the properties the bank puts up for auction."""
        player = game.players[p]
        if creditor >= 0:
            to_creditor = bool(self.options["bankrupt_buildings_to_creditor"])
            for i in owned:
                if game.level[i] and not to_creditor:
                    game._transfer(BANK, p, game.buildings_sale_value(i), "sell",
                                   {"space": game.space_name(i), "kind": "all"})
                    game._return_buildings(i)
            game._transfer(p, creditor, player.cash, "bankruptcy", {})
            for i in owned:
                game.owner[i] = creditor
                game.owner_version += 1
                if game.mortgaged[i] and game.rules.mortgage.decision_on_transfer():
                    game.mortgage_owed.append((creditor, i))
            game.players[creditor].jail_cards.extend(player.jail_cards)
            return owned
        game._transfer(p, BANK, player.cash, "bankruptcy", {})
        for i in owned:
            game._return_buildings(i)
            game.owner[i] = -1
            game.owner_version += 1
            game.mortgaged[i] = False
        for card in player.jail_cards:
            game._return_card(card)
        return owned


@mypyc_attr(allow_interpreted_subclasses=True)
class FieldsFree(Bankruptcy):
    """fields_free (biznes): the fields back to the bank unowned, the money to the creditor."""

    def hand_over(self, game: "Game", p: int, creditor: int, owned: list[int]) -> list[int]:
        player = game.players[p]
        game._transfer(p, creditor, player.cash, "bankruptcy", {})
        for i in owned:
            game._return_buildings(i)
            game.owner[i] = -1
            game.owner_version += 1
        for card in player.jail_cards:
            game._return_card(card)
        return []  # nothing for the bank to auction


@mypyc_attr(allow_interpreted_subclasses=True)
class ByCreditor(Bankruptcy):
    """by_creditor (brands): to the bank, the properties go back unowned, without an auction."""

    def hand_over(self, game: "Game", p: int, creditor: int, owned: list[int]) -> list[int]:
        if creditor >= 0:
            return super().hand_over(game, p, creditor, owned)
        player = game.players[p]
        game._transfer(p, BANK, player.cash, "bankruptcy", {})
        ally = next((q.index for q in game.players if game.allies(p, q.index) and not q.bankrupt), -1)
        for i in owned:
            if ally >= 0:
                game.owner[i] = ally
            else:
                game._return_buildings(i)
                game.owner[i] = -1
                game.mortgaged[i] = False
            game.owner_version += 1
        for card in player.jail_cards:
            game._return_card(card)
        return []


VARIANTS: dict[str, type[Bankruptcy]] = {"classic": Bankruptcy, "fields_free": FieldsFree,
                                         "by_creditor": ByCreditor}
