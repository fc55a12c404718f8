"""Mechanics registered from outside the engine, as docs/engine.md's walk-through does: `registered` (a variant
and the ruleset file that names it, for one test), and an auction variant where bids rise by exactly 50
(`Fifty`), shared by tests/test_variant.py and tests/ui/test_flows.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from banker import mechanics
from banker.errors import IllegalAction
from banker.game import Game
from banker.mechanics.auction import Open
from banker.mechanics.base import Mechanic
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


@contextmanager
def registered(path: Path, family: str, name: str, cls: type[Mechanic], ruleset: str) -> Iterator[Path]:
    """`cls` known as the `family` variant `name`, and the ruleset text that names it written to `path`, until
    the block ends."""
    mechanics.register(family, name, cls)
    path.write_text(ruleset, "utf-8")
    try:
        yield path
    finally:
        del mechanics.REGISTRY[family][name]


def fifty_ruleset(tmp_path: Path) -> AbstractContextManager[Path]:
    """Classic with the `Fifty` auction, registered as "fifty" while the block runs."""
    return registered(tmp_path / "classic-fifty.toml", "auction", "fifty", Fifty, FIFTY)
