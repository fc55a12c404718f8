"""Trades between players: when, how often and in what forms.

- ``open`` (`Trade`, the default): any two players, whenever the board is free (no decision, auction or
  deal waiting), and whenever one of them is in debt.
- ``once_per_move`` (`OncePerMove`, biznes): the mover and a rival, after the roll, `trades_per_move` a move,
  as an exchange or a sale no cheaper than the bank pays; the mover may instead put a property up for an
  own auction.
- ``balanced`` (`Balanced`, brands): in the trader's turn at four moments, `trades_per_turn` a turn, no
  mortgaged property (but between allies), and no lopsided deals (`trade_balance`).

The module carries out the verb `trade`: what each side holds, and that neither is empty, is checked here for
every variant; `Trade.check` adds the variant's when, how often and in what forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.options import Options
from banker.statefields import Field, State

if TYPE_CHECKING:
    from banker.game import Game

Side = tuple[int, list[int], int]  # a side of a trade: cash, properties, jail cards


class TradeState(State):
    """The trades counted (`game.trade_state`; the kernel's `count_trade_in_move` and `count_trade` count them,
    a new move or turn starts them again)."""

    trades_used: int
    turn_trades: int
    FIELDS = (
        Field("trades_used", start=0),  # trades made in this move (biznes: a move is one roll up to its end_turn)
        Field("turn_trades", start=0),  # trades made in this turn (brands: `trades_per_turn`)
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class Trade(Mechanic):
    """open: any two players, whenever the board is free or one of them owes."""

    def check(self, game: Game, giver: int, taker: int, give: Side, get: Side) -> None:
        """Raises IllegalAction when `giver` and `taker` may not trade these sides now (what each side holds
        is checked by the game)."""
        if not (game.players[giver].debts or game.players[taker].debts) and not game.free_window():
            game.refuse_blocked("trade", giver)

    def traded(self, game: Game) -> None:
        """A trade was made (the game counts the turn's trades)."""

    def own_auctions(self) -> bool:
        """Whether the mover may put an own property up for auction (as the move's trade)."""
        return False

    def per_move_limit(self) -> int | None:
        """The trades a move allows, where they are counted by the move (the state shows `move`)."""
        return None

    def per_turn_limit(self) -> int | None:
        """The trades a turn allows, where they are limited by the turn."""
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class OncePerMove(Trade):
    """once_per_move (biznes): the mover and a rival, after the roll, in two forms."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.per_move = options.trades_per_move

    def check(self, game: Game, giver: int, taker: int, give: Side, get: Side) -> None:
        """trade = "once_per_move": the mover and a rival, after the roll, once per move, in two forms."""
        cur = game.turn
        name = game.current.name
        if cur not in (giver, taker):
            raise IllegalAction("rule.not_your_move", player=game.players[giver].name, verb="trade",
                                current=name)
        for q in (giver, taker):
            if game.players[q].debts:
                raise IllegalAction("rule.trade_in_debt", player=game.players[q].name)
        if not game.free_window():
            game.refuse_blocked("trade", cur)
        if game.roll_owed:
            raise IllegalAction("rule.trade_before_roll", player=name)
        limit = self.per_move
        if game.trade_state.trades_used >= limit:
            raise IllegalAction("rule.trade_used", player=name, count=limit)
        if give[2] or get[2]:
            raise IllegalAction("rule.trade_jail_cards")
        mine, theirs = (give, get) if giver == cur else (get, give)
        if theirs[1]:  # "Exchange": a rival's property for cash, properties or both
            if theirs[0]:
                raise IllegalAction("rule.trade_form", player=name)
            if not (mine[0] or mine[1]):
                raise IllegalAction("rule.trade_form", player=name)
        elif mine[1] and not mine[0]:  # "Sell": the mover's properties for the rival's cash
            floor = sum(game.bank_price(i) for i in mine[1])
            if theirs[0] < floor:
                raise IllegalAction("rule.sale_below_bank", player=name, price=theirs[0], least=floor)
        else:
            raise IllegalAction("rule.trade_form", player=name)

    def traded(self, game: Game) -> None:
        game.count_trade_in_move()

    def own_auctions(self) -> bool:
        return True

    def per_move_limit(self) -> int | None:
        return self.per_move


@mypyc_attr(allow_interpreted_subclasses=True)
class Balanced(Trade):
    """balanced (brands): in the trader's own turn, a few a turn, no lopsided deals."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.per_turn = options.trades_per_turn
        self.balance = options.trade_balance

    def check(self, game: Game, giver: int, taker: int, give: Side, get: Side) -> None:
        """trade = "balanced" (brands): in the trader's own turn, a few a turn, no lopsided deals."""
        name = game.players[giver].name
        if game.turn not in (giver, taker):
            raise IllegalAction("rule.not_your_move", player=name, verb="trade", current=game.current.name)
        if game.auction is not None or game.deal_owed:
            game.refuse_blocked("trade", giver)
        if game.debtors and not (game.players[giver].debts or game.players[taker].debts):
            game.refuse_blocked("trade", giver)
        # 001's four moments: before rolling, deciding to buy, rent or tax owed (a debt), paying a debt.
        d = game.decision
        buying = d is not None and d.kind == "buy"
        if not (game.roll_owed and d is None) and not buying and not game.current.debts:
            raise IllegalAction("rule.trade_moment", player=game.current.name)
        limit = self.per_turn
        if game.trade_state.turn_trades >= limit:
            raise IllegalAction("rule.trades_per_turn", player=game.current.name, count=limit)
        if give[2] or get[2]:
            raise IllegalAction("rule.trade_jail_cards")
        allies = game.allies(giver, taker)
        for i in give[1] + get[1]:
            if game.mortgaged[i] and not allies:
                raise IllegalAction("rule.trade_mortgaged", space=game.space_name(i))
        if self.balance and not allies:
            values = [cash + sum(game.prices[i] // 2 if game.mortgaged[i] else game.prices[i] for i in spaces)
                      for cash, spaces, _cards in (give, get)]
            large, small = max(values), min(values)
            if 2 * (large - small) > large or large > 2 * small:
                raise IllegalAction("rule.trade_unbalanced", a=values[0], b=values[1])

    def per_turn_limit(self) -> int | None:
        return self.per_turn


# ----------------------------------------------------------------------
# The verb


def _parse_side(game: Game, value: Any, where: str) -> Side:
    """A side of a trade as the action gives it (`give` or `get`): cash, the spaces' indices, jail cards."""
    if value is None:
        return 0, [], 0
    if not isinstance(value, Mapping):
        raise InvalidAction("action.bad_field", field=where, problem="must be an object")
    for key in value:
        if key not in ("cash", "spaces", "jail_cards"):
            raise InvalidAction("action.unknown_field", verb="trade", field=f"{where}.{key}")
    cash = value.get("cash", 0)
    cards = value.get("jail_cards", 0)
    spaces = value.get("spaces", [])
    for v, f in ((cash, "cash"), (cards, "jail_cards")):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidAction("action.bad_field", field=f"{where}.{f}", problem="must be a whole number of at least 0")
    if not isinstance(spaces, list):
        raise InvalidAction("action.bad_field", field=f"{where}.spaces", problem="must be a list")
    idx = [game.space_index(s) for s in spaces]
    if len(set(idx)) != len(idx):
        raise InvalidAction("action.bad_field", field=f"{where}.spaces", problem="names a space twice")
    return cash, idx, cards


def _trade_parties(game: Game, a: Mapping[str, Any]) -> tuple[int, int]:
    """The giver (`from`) and the taker (`to`) of a trade."""
    if "from" not in a or "to" not in a:
        raise InvalidAction("action.bad_field", field="from/to", problem="a trade names both players")
    giver = game.player_index(a["from"])
    taker = game.player_index(a["to"])
    return giver, taker


def check_trade(game: Game, p: int, a: Mapping[str, Any]) -> None:
    giver, taker = _trade_parties(game, a)
    g, t = game.players[giver], game.players[taker]
    if giver == taker:
        raise IllegalAction("rule.trade_self", player=g.name)
    for q in (g, t):
        if q.bankrupt:
            raise IllegalAction("rule.bankrupt_player", player=q.name)
    give = _parse_side(game, a.get("give"), "give")
    get = _parse_side(game, a.get("get"), "get")
    if not (give[0] or give[1] or give[2] or get[0] or get[1] or get[2]):
        raise IllegalAction("rule.trade_empty")
    game.rules.trade.check(game, giver, taker, give, get)  # when, how often, in what forms
    for (cash, spaces, cards), q in ((give, g), (get, t)):
        if cash > q.cash:
            raise IllegalAction("rule.trade_cash", player=q.name, amount=cash, cash=q.cash)
        if cards > len(q.jail_cards):
            raise IllegalAction("rule.trade_cards", player=q.name, count=cards)
        for i in spaces:
            if game.owner[i] != q.index:
                raise IllegalAction("rule.not_owner", player=q.name, space=game.space_name(i))
            group = game.groups[i]
            if group is not None and any(game.level[j] for j in game.group_members[group]):
                raise IllegalAction("rule.trade_buildings", space=game.space_name(i))


def do_trade(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.count_trade()
    game.rules.trade.traded(game)
    giver, taker = _trade_parties(game, a)
    give = _parse_side(game, a.get("give"), "give")
    get = _parse_side(game, a.get("get"), "get")
    for (cash, spaces, cards), src, dst in ((give, giver, taker), (get, taker, giver)):
        game.transfer(src, dst, cash, "trade", {})
        for i in spaces:
            game.give_deed(i, dst)
            if game.mortgaged[i] and game.rules.mortgage.decision_on_transfer():
                game.owe_mortgage_decision(dst, i)
        game.give_jail_cards(src, dst, cards)
    game.emit("traded", {"from": game.players[giver].name, "to": game.players[taker].name})


VARIANTS: dict[str, type[Trade]] = {"open": Trade, "once_per_move": OncePerMove, "balanced": Balanced}
