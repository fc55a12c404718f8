"""The variant's facts: what kind of game this is, asked from one record.

`Variant` is made once per game, from the game's mechanics (banker/mechanics) and options when the game is made
(`Kernel.__init__`), and kept as `game.variant`. The engine, the computer players (banker/ai.py) and the app ask
it whether auctions go in turn, what a building is called, whether debts are raised by selling, ... instead of
asking the mechanics themselves. Before a game exists (the app's setup screens), `Variant.of_ruleset` answers
the same from a ruleset and its default options.

Only facts fixed for the whole game live here. Questions about the state stay the game's: the least bid of the
running auction (`Game.least_bid`), the dice the next roll takes, the trades left in a move, the clock's minutes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from banker.mechanics import Mechanics
    from banker.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Variant:
    """The facts of a game's variant (see the module docstring)."""

    # buildings
    building_words: tuple[str, str]  # what a house and a hotel are called: house/hotel, office/holding, branch/corporation
    builds_on_visit: bool  # buildings go up on a visit to one's own lot, after the roll, a few a visit (biznes)
    builds_at_turn_start: bool  # buildings go up at the start of one's turn, before rolling, a few a group (brands)
    building_auctions: bool  # the bank's last houses and hotels may be auctioned (`building_auction`)
    # money owed
    has_mortgages: bool  # spaces may be mortgaged (not in biznes)
    raises_by_selling: bool  # a debtor raises money by own auctions and sales to the bank or a player (biznes's
    # `sell_off`: no mortgages; the bank takes a firm of a holding that cannot break up at once), not by mortgages
    # auctions
    auction_in_turn: bool  # bidders bid in turn order (`auction.next_bidder`), not anyone any amount at any time
    free_raise: bool  # a bid may raise the high bid by any amount (the app may offer its table's own bid step)
    own_auctions: bool  # players may auction their own properties (`auction_own`)
    # trades and cards
    trades_per_turn: int | None  # the trades a turn allows, where a turn's trades are limited (brands)
    trades_per_move: int | None  # the trades a move allows, where trades are counted by the move (biznes)
    shuffled_decks: bool  # the decks come in a random order (the chance filler then draws any card of the deck)
    # brands: teams, the casino, the clock
    has_teams: bool  # two teams of two (option `teams`): seats 1 and 3 against 2 and 4
    has_casino: bool  # the board has a casino space: the jackpot is then part of the bank's state
    casino_wins: tuple[int, int, int]  # what a casino hit pays on a bet on 1, 2 and 3 numbers (0 without a casino)
    clocked: bool  # the game runs on the game clock (brands' economy or turn timer)

    @staticmethod
    def of(rules: Mechanics) -> Variant:
        """The facts of a game with these mechanics (a game's `rules`)."""
        casino = rules.casino
        return Variant(
            building_words=rules.building.words(), builds_on_visit=rules.building.on_visit(),
            builds_at_turn_start=rules.building.at_turn_start(), building_auctions=rules.building.building_auctions(),
            has_mortgages=rules.mortgage.allowed(), raises_by_selling=rules.debt.raises_by_selling(),
            auction_in_turn=rules.auction.in_turn(), free_raise=rules.auction.free_raise(),
            trades_per_turn=rules.trade.per_turn_limit(), trades_per_move=rules.trade.per_move_limit(),
            own_auctions=rules.trade.own_auctions(),
            shuffled_decks=rules.deck.shuffled(), has_teams=rules.teams.present(), has_casino=casino.present(),
            casino_wins=(casino.win(1), casino.win(2), casino.win(3)), clocked=rules.clock.present())

    @staticmethod
    def of_ruleset(ruleset: Ruleset) -> Variant:
        """The facts of a game of this ruleset with its default options (what the app shows before a game)."""
        return Variant.of(ruleset.rules())

    def casino_win(self, count: int) -> int:
        """What a casino hit pays on a bet on `count` numbers, 1 to 3 (option `casino_payout`)."""
        return self.casino_wins[count - 1]
