"""An auction variant registered from outside the engine ("bids rise by exactly 50") and its ruleset file:
shared by tests/test_variant.py and tests/ui/test_controller.py."""

from __future__ import annotations

from banker.errors import IllegalAction
from banker.game import Game
from banker.mechanics.auction import Open
from banker.model import Auction


class Fifty(Open):
    """A made-up house rule: anyone bids at any time, but each bid is exactly 50 more than the last."""

    def free_raise(self) -> bool:
        return False

    def least_bid(self, game: Game, auction: Auction, p: int) -> int:
        return auction.high_bid + 50 if auction.high_bidder >= 0 else auction.min_bid

    def check_amount(self, game: Game, p: int, auction: Auction, amount: int) -> None:
        least = self.least_bid(game, auction, p)
        if amount != least:
            raise IllegalAction("rule.bid_exact", player=game.players[p].name, amount=amount, bid=least, step=50)


FIFTY = """format = 1
name = "classic-fifty"
extends = "classic"
title = "Classic, bids rise by exactly 50"
description = "An auction variant registered from outside."

[mechanics]
auction = "fifty"
"""
