"""The verbs of the game script, in one table: for each, the fields its action takes, its check and its do.

A verb's check raises `InvalidAction` or `IllegalAction` when the action may not happen now and changes
nothing; its do changes the state (through the kernel, banker/kernel.py) and cannot fail by the rules. Both
are functions of the module that owns the verb, taking the game, the actor's index and the action: the
turn's own verbs are banker/verbs.py's (the deal, the roll, buying and declining, the tax, leaving jail, the
end of a turn, the banker's corrections, the end of a game), a card's draw banker/cards.py's, and a family's
verbs its module's in banker/mechanics/ (the auction's bids, the building, the mortgages, the debts' sales, the
trades, a concession, the casino, the speed die's bus and jump, the clock's timeout and pauses).

`Game.apply` and `Game.push` (banker/game.py) dispatch through this table (a dict lookup to a function, made
once at import); the fields are what `apply` and `check` accept beside ``do``, ``player`` and ``t``
(docs/game-script.md). ``undo`` has no check or do here: `Game` takes the latest action back itself.

A new verb is one row here and its two functions in its owner's module; tests/test_engine_layout.py checks
that every verb has both and that each function lives in one row only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from banker import cards, verbs
from banker.mechanics import auction, bankruptcy, building, casino, clock, debt, mortgage, speed_die, trade

if TYPE_CHECKING:
    from banker.game import Game

Check = Callable[["Game", int, Mapping[str, Any]], None]
Do = Callable[["Game", int, Mapping[str, Any]], None]


@dataclass(frozen=True, slots=True)
class Verb:
    """One verb: its fields (beside do, player and t), its check and its do (None only for undo), and whether
    its actor is the owner of the named space when the action names no player (`space_actor`)."""

    fields: frozenset[str]
    check: Check | None
    do: Do | None
    space_actor: bool = False


def _verb(fields: str, check: Check | None, do: Do | None, space_actor: bool = False) -> Verb:
    return Verb(frozenset(fields.split()), check, do, space_actor)


# In the order of docs/game-script.md's list of verbs.
TABLE: dict[str, Verb] = {
    "deal": _verb("deeds", verbs.check_deal, verbs.do_deal),
    "roll": _verb("dice", verbs.check_roll, verbs.do_roll),
    "buy": _verb("", verbs.check_buy, verbs.do_buy),
    "decline": _verb("", verbs.check_decline, verbs.do_decline),
    "bid": _verb("amount", auction.check_bid, auction.do_bid),
    "pass": _verb("", auction.check_pass, auction.do_pass),
    "close_auction": _verb("", auction.check_close_auction, auction.do_close_auction),
    "building_auction": _verb("kind", auction.check_building_auction, auction.do_building_auction),
    "draw": _verb("card target", cards.check_draw, cards.do_draw),
    "tax": _verb("choice", verbs.check_tax, verbs.do_tax),
    "build": _verb("space", building.check_build, building.do_build, space_actor=True),
    "sell": _verb("space", building.check_sell, building.do_sell, space_actor=True),
    "sell_all": _verb("space", building.check_sell_all, building.do_sell_all, space_actor=True),
    "mortgage": _verb("space", mortgage.check_mortgage, mortgage.do_mortgage, space_actor=True),
    "unmortgage": _verb("space", mortgage.check_unmortgage, mortgage.do_unmortgage, space_actor=True),
    "keep_mortgage": _verb("space", mortgage.check_keep_mortgage, mortgage.do_keep_mortgage, space_actor=True),
    "pay_fine": _verb("", verbs.check_pay_fine, verbs.do_pay_fine),
    "use_card": _verb("", verbs.check_use_card, verbs.do_use_card),
    "trade": _verb("from to give get", trade.check_trade, trade.do_trade),
    "end_turn": _verb("", verbs.check_end_turn, verbs.do_end_turn),
    "concede": _verb("", bankruptcy.check_concede, bankruptcy.do_concede),
    "adjust": _verb("cash position reason", verbs.check_adjust, verbs.do_adjust),
    "end_game": _verb("", verbs.check_end_game, verbs.do_end_game),
    "auction_own": _verb("space reserve", debt.check_auction_own, debt.do_auction_own, space_actor=True),
    "sell_to_bank": _verb("space", debt.check_sell_to_bank, debt.do_sell_to_bank, space_actor=True),
    "sell_to_player": _verb("space to price", debt.check_sell_to_player, debt.do_sell_to_player, space_actor=True),
    "casino": _verb("numbers die jackpot", casino.check_casino, casino.do_casino),
    "bus": _verb("steps", speed_die.check_bus, speed_die.do_bus),
    "jump": _verb("space", speed_die.check_jump, speed_die.do_jump),
    "timeout": _verb("", clock.check_timeout, clock.do_timeout),
    "pause": _verb("", clock.check_pause, clock.do_pause),
    "resume": _verb("", clock.check_resume, clock.do_resume),
    "undo": _verb("", None, None),
}
