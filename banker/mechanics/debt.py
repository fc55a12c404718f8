"""Debts: how a debtor raises the money a debt asks for.

- ``whole`` (`Whole`, the default): a debt is paid whole; the debtor raises the money by selling buildings,
  mortgaging and trading, or concedes.
- ``sell_off`` (`SellOff`, biznes): no mortgages; the debtor raises the money by own auctions of unbuilt
  properties (`auction_own`), then sales to the bank at its price (`sell_to_bank`, after the property's
  auction in this debt, or at once under the holding exception) and sales to a player at no less than the
  bank's price (`sell_to_player`).

The verbs `auction_own`, `sell_to_bank` and `sell_to_player` are carried out here (banker/verbtable.py lists them). An own
auction also serves the trade family (`once_per_move`: the mover's auction in place of the move's trade)
and the mortgage family (brands-showdown: a mortgage sent to the bank's auction at once).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.mechanics.auction import auction_changed
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK, Auction, Player

if TYPE_CHECKING:
    from banker.game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class Whole(Mechanic):
    """whole: buildings sold, mortgages and trades raise the money."""

    def raises_by_selling(self) -> bool:
        """Whether a debtor raises money by own auctions and sales (to the bank, to a player)."""
        return False

    def debtor_verbs(self, game: Game, p: int) -> list[str]:
        """The verbs debtor p is waited for with (the state's `owed`); none: debtor p is not listed."""
        verbs = [v for v in ("sell", "sell_all", "mortgage") if game.has_any(p, v)]
        return verbs + ["trade", "concede"]

    def add_candidates(self, game: Game, q: Player, candidates: list[dict[str, Any]]) -> None:
        """Add the actions of player q's that `legal_actions` tries beyond the verbs on a space."""

    def describe(self, game: Game, state: dict[str, Any]) -> None:
        """Add what this rule keeps to the game's state (docs/game-script.md)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SellOff(Whole):
    """sell_off (biznes): own auctions, sales to the bank and sales to a player raise the money."""

    def raises_by_selling(self) -> bool:
        return True

    def debtor_verbs(self, game: Game, p: int) -> list[str]:
        verbs = [v for v in ("sell", "auction_own", "sell_to_bank") if game.has_any(p, v)]
        if _can_sell_to_player(game, p):
            verbs.append("sell_to_player")
        if game.can({"do": "concede", "player": game.players[p].name}) is None:
            verbs.append("concede")  # not while their own auction runs
        return verbs

    def add_candidates(self, game: Game, q: Player, candidates: list[dict[str, Any]]) -> None:
        if q.debts:
            for i in game.ruleset.property_indices:
                if game.owner[i] == q.index:
                    for r in game.players:
                        if r.index != q.index:
                            candidates.append({"do": "sell_to_player", "player": q.name, "space": i,
                                               "to": r.name, "price": bank_price(game, i)})

    def describe(self, game: Game, state: dict[str, Any]) -> None:
        for entry, q in zip(state["players"], game.players, strict=True):
            entry["debt_auctioned"] = list(q.debt_auctioned)


def bank_price(game: Game, i: int) -> int:
    """What the bank pays for property i: half its price plus half the cost of its buildings."""
    return game.prices[i] // 2 + game.buildings_sale_value(i)


def _unbuilt(game: Game, i: int) -> bool:
    """No building on any lot of space i's group (logistics and utilities always qualify)."""
    group = game.groups[i]
    return group is None or not any(game.level[j] for j in game.group_members[group])


def sellable(game: Game, p: int, i: int, verb: str) -> None:
    """Raises IllegalAction unless player p owns property i and no auction runs (for `verb`)."""
    name = game.players[p].name
    if not game.is_property[i]:
        raise IllegalAction("rule.not_property", player=name, space=game.space_name(i))
    if game.owner[i] != p:
        raise IllegalAction("rule.not_owner", player=name, space=game.space_name(i))
    if game.auction is not None:
        raise IllegalAction("rule.blocked_auction", verb=verb, player=name)


def own_auction_reserves(game: Game, p: int, i: int) -> tuple[int, int]:
    """The lowest and highest opening bid player p may set for an auction of space i."""
    low = bank_price(game, i)
    richest = max((q.cash for q in game.players if q.index != p and not q.bankrupt and not q.debts),
                  default=0)
    return low, max(low, low + (richest - low) // game.auction_step * game.auction_step)


def check_auction_own(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_arg(a, "auction_own")
    player = game.players[p]
    name = player.name
    if game.rules.mortgage.check_own_auction(game, p, i, a):  # brands-showdown: a lapsing mortgage
        return
    if not (game.rules.debt.raises_by_selling() or game.rules.trade.own_auctions()):
        raise IllegalAction("rule.no_own_auctions", rules=game.ruleset.name)
    sellable(game, p, i, "auction_own")
    if not _unbuilt(game, i):
        raise IllegalAction("rule.own_auction_buildings", player=name, space=game.space_name(i))
    if player.debts:
        if i in player.debt_auctioned:
            raise IllegalAction("rule.auctioned_this_debt", player=name, space=game.space_name(i))
    else:
        if p != game.turn:
            raise IllegalAction("rule.not_your_move", player=name, verb="auction_own",
                                current=game.current.name)
        if not game.free_window():
            game.refuse_blocked("auction_own", p)
        if game.roll_owed:
            raise IllegalAction("rule.own_auction_before_roll", player=name)
        if game.trade_state.trades_used >= game.options.trades_per_move:
            raise IllegalAction("rule.own_auction_trade_used", player=name)
    reserve = a.get("reserve")
    if reserve is None:
        return
    if isinstance(reserve, bool) or not isinstance(reserve, int):
        raise InvalidAction("action.bad_field", field="reserve", problem="must be a whole number")
    low, high = own_auction_reserves(game, p, i)
    if reserve < low or reserve > high or (reserve - low) % game.auction_step:
        raise IllegalAction("rule.reserve", player=name, space=game.space_name(i), reserve=reserve,
                            low=low, high=high, step=game.auction_step)


def do_auction_own(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    player = game.players[p]
    if game.rules.mortgage.do_own_auction(game, p, i):
        return
    reserve = a.get("reserve")
    opening = bank_price(game, i) if reserve is None else int(reserve)
    if player.debts:
        game.note_debt_auction(p, i)
    n = len(game.players)
    rivals = [(p + k) % n for k in range(1, n)]
    bidders = tuple([q for q in rivals if game.may_bid(q)])
    game.set_auction(Auction(space=i, kind="own", bidders=bidders, min_bid=opening, seller=p,
                             next_bidder=bidders[0] if bidders else -1, opened_at=game.action_t))
    game.emit("own_auction", {"player": player.name, "space": game.space_name(i),
                              "start": opening})
    auction_changed(game)


def check_sell_to_bank(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_arg(a, "sell_to_bank")
    player = game.players[p]
    if not game.rules.debt.raises_by_selling():
        raise IllegalAction("rule.no_bank_sales", rules=game.ruleset.name)
    sellable(game, p, i, "sell_to_bank")
    if not player.debts:
        raise IllegalAction("rule.bank_sale_needs_debt", player=player.name)
    if i not in player.debt_auctioned and not _holding_stuck(game, i):
        raise IllegalAction("rule.bank_sale_needs_auction", player=player.name, space=game.space_name(i))


def _holding_stuck(game: Game, i: int) -> bool:
    """The holding exception: i's branch has a holding that cannot break up (too few offices in the pool)."""
    group = game.groups[i]
    if group is None or game.kinds[i] != "lot":
        return False
    return (any(game.level[j] == game.hotel_level for j in game.group_members[group])
            and game.bank_houses < game.hotel_houses)


def do_sell_to_bank(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    price = bank_price(game, i)
    game.return_buildings(i)
    game.give_deed(i, -1)
    game.transfer(BANK, p, price, "sell_to_bank", game.space_params[i])
    game.emit("sold_to_bank", {"player": game.players[p].name, "space": game.space_name(i),
                               "amount": price})


def check_sell_to_player(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_arg(a, "sell_to_player")
    player = game.players[p]
    if not game.rules.debt.raises_by_selling():
        raise IllegalAction("rule.no_direct_sales", rules=game.ruleset.name)
    if "to" not in a:
        raise InvalidAction("action.bad_field", field="to", problem="names the buyer")
    buyer = game.players[game.player_index(a["to"])]
    price = a.get("price")
    if isinstance(price, bool) or not isinstance(price, int):
        raise InvalidAction("action.bad_field", field="price", problem="must be a whole number")
    sellable(game, p, i, "sell_to_player")
    if not player.debts:
        raise IllegalAction("rule.sale_needs_debt", player=player.name)
    if buyer.index == p:
        raise IllegalAction("rule.trade_self", player=player.name)
    if buyer.bankrupt:
        raise IllegalAction("rule.bankrupt_player", player=buyer.name)
    if buyer.debts:
        raise IllegalAction("rule.in_debt", player=buyer.name, verb="buy")
    if not _unbuilt(game, i):
        raise IllegalAction("rule.trade_buildings", space=game.space_name(i))
    least = bank_price(game, i)
    if price < least:
        raise IllegalAction("rule.sale_below_bank", player=player.name, price=price, least=least)
    if price > buyer.cash:
        raise IllegalAction("rule.trade_cash", player=buyer.name, amount=price, cash=buyer.cash)


def do_sell_to_player(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    buyer = game.player_index(a["to"])
    price = int(a["price"])
    game.transfer(buyer, p, price, "sell_to_player", game.space_params[i])
    game.give_deed(i, buyer)
    game.emit("sold_to_player", {"player": game.players[p].name, "to": game.players[buyer].name,
                                 "space": game.space_name(i), "amount": price})


def _can_sell_to_player(game: Game, p: int) -> bool:
    """Whether debtor p could sell some property to some rival at the bank's price now."""
    for i in game.ruleset.property_indices:
        if game.owner[i] == p:
            for q in game.players:
                if q.index != p and game.can({"do": "sell_to_player", "player": game.players[p].name,
                                              "space": i, "to": q.name,
                                              "price": bank_price(game, i)}) is None:
                    return True
    return False


VARIANTS: dict[str, type[Whole]] = {"whole": Whole, "sell_off": SellOff}
