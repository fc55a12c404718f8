"""Bankruptcy: where a bankrupt player's money, properties and jail cards go.

- ``classic`` (`Bankruptcy`, the default): to a player creditor everything as it is (the buildings sold to
  the bank first, unless `bankrupt_buildings_to_creditor`; the creditor owes the mortgages' interest); to
  the bank the money, and the properties unowned, unmortgaged and put up for auction.
- ``fields_free`` (`FieldsFree`, biznes): the fields go back to the bank unowned, the buildings to the pool,
  the money to the creditor; nothing is auctioned.
- ``by_creditor`` (`ByCreditor`, brands): to a player as classic; to the bank the properties go back unowned,
  without buildings or mortgages and without an auction (in teams the ally takes them as they are).

The verb `concede` (a player going bankrupt, or the turn timer's bankruptcy) is carried out here (banker/verbtable.py lists it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction
from banker.mechanics.auction import leave_auction, start_property_auction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK

if TYPE_CHECKING:
    from banker.game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class Bankruptcy(Mechanic):
    """classic: everything to a player creditor; the bank auctions what it takes."""

    def hand_over(self, game: Game, p: int, creditor: int, owned: list[int]) -> list[int]:
        """Player p's money, properties `owned` and jail cards go to `creditor` (a player, or BANK); returns
        the properties the bank puts up for auction."""
        player = game.players[p]
        if creditor >= 0:
            to_creditor = self.options.bankrupt_buildings_to_creditor
            for i in owned:
                if game.level[i] and not to_creditor:
                    game.transfer(BANK, p, game.buildings_sale_value(i), "sell",
                                   {"space": game.space_name(i), "kind": "all"})
                    game.return_buildings(i)
            game.transfer(p, creditor, player.cash, "bankruptcy", {})
            for i in owned:
                game.give_deed(i, creditor)
                if game.mortgaged[i] and game.rules.mortgage.decision_on_transfer():
                    game.owe_mortgage_decision(creditor, i)
            game.give_jail_cards(p, creditor)
            return owned
        game.transfer(p, BANK, player.cash, "bankruptcy", {})
        for i in owned:
            game.return_buildings(i)
            game.give_deed(i, -1)
            game.set_mortgaged(i, False)
        for card in player.jail_cards:
            game.return_card(card)
        return owned


@mypyc_attr(allow_interpreted_subclasses=True)
class FieldsFree(Bankruptcy):
    """fields_free (biznes): the fields back to the bank unowned, the money to the creditor."""

    def hand_over(self, game: Game, p: int, creditor: int, owned: list[int]) -> list[int]:
        player = game.players[p]
        game.transfer(p, creditor, player.cash, "bankruptcy", {})
        for i in owned:
            game.return_buildings(i)
            game.give_deed(i, -1)
        for card in player.jail_cards:
            game.return_card(card)
        return []  # nothing for the bank to auction


@mypyc_attr(allow_interpreted_subclasses=True)
class ByCreditor(Bankruptcy):
    """by_creditor (brands): to the bank, the properties go back unowned, without an auction."""

    def hand_over(self, game: Game, p: int, creditor: int, owned: list[int]) -> list[int]:
        if creditor >= 0:
            return super().hand_over(game, p, creditor, owned)
        player = game.players[p]
        game.transfer(p, BANK, player.cash, "bankruptcy", {})
        ally = next((q.index for q in game.players if game.allies(p, q.index) and not q.bankrupt), -1)
        for i in owned:
            if ally >= 0:
                game.give_deed(i, ally)
            else:
                game.return_buildings(i)
                game.give_deed(i, -1)
                game.set_mortgaged(i, False)
        for card in player.jail_cards:
            game.return_card(card)
        return []


def check_concede(game: Game, p: int, a: Mapping[str, Any]) -> None:
    """`concede`: refused to the high bidder and the seller of the auction in progress."""
    auction = game.auction
    if auction is not None and auction.high_bidder == p:
        raise IllegalAction("rule.concede_high_bidder", player=game.players[p].name)
    if auction is not None and auction.seller == p:
        raise IllegalAction("rule.concede_seller", player=game.players[p].name,
                            space=game.space_name(auction.space))


def do_concede(game: Game, p: int, a: Mapping[str, Any]) -> None:
    """Player p goes bankrupt: everything to their first creditor (`hand_over`), then the game goes on or ends."""
    player = game.players[p]
    creditor = player.debts[0].creditor if player.debts else BANK
    game.emit("bankrupt", {"player": player.name, "to": game.name(creditor)})
    game.forgive_debts(p)
    owned = [i for i in game.ruleset.property_indices if game.owner[i] == p]
    owned = game.rules.bankruptcy.hand_over(game, p, creditor, owned)  # what the bank auctions
    game.declare_bankrupt(p)
    game.pass_debts_owed_to(p, creditor)  # debts owed to the bankrupt pass to whoever took their assets
    game.forget_owed_by(p)
    leave_auction(game, p)
    bankruptcies = game.count_bankruptcy()
    remaining = [q for q in game.players if not q.bankrupt]
    limit = game.options.end_after_bankruptcies
    if len(remaining) == 1:
        game.end("last_standing", remaining[0].name)
        return
    if game.variant.has_teams and all(game.allies(remaining[0].index, q.index) for q in remaining[1:]):
        game.end("last_standing", [q.name for q in remaining])  # the last team standing
        return
    if limit and bankruptcies >= limit:
        game.end("bankruptcies", game.richest())
        return
    if creditor < 0:
        game.queue_auctions(owned)
    if p == game.turn:
        game.end_turn_after_auctions()
    if game.auction is None and game.auction_queue:
        start_property_auction(game, game.next_queued_auction())


VARIANTS: dict[str, type[Bankruptcy]] = {"classic": Bankruptcy, "fields_free": FieldsFree,
                                         "by_creditor": ByCreditor}
