"""The values the engine's modules share: the bank's and the pot's numbers, and the records a game keeps.

`banker.game` re-exports them; the mechanics modules import them from here (they cannot import the game,
which imports them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from banker.messages import render

NO_PARAMS: dict[str, Any] = {}  # shared by log entries without parameters; never mutated
BANK = -1  # creditor / payee meaning the bank
POT = -2  # the free-parking pot (house rule)


@dataclass(slots=True)
class Debt:
    amount: int
    creditor: int  # player index, or BANK
    to_pot: bool = False  # with the free-parking house rule, paid into the pot
    code: str = "debt"
    params: dict[str, Any] = field(default_factory=dict)  # the charge's log parameters (rent: its space)

    def copy(self) -> Debt:
        """A copy that shares nothing that can change (the kernel keeps these for going back)."""
        return Debt(self.amount, self.creditor, self.to_pot, self.code, dict(self.params))


@dataclass(slots=True)
class Player:
    name: str
    index: int
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    jail_cards: list[str] = field(default_factory=list)
    bankrupt: bool = False
    debts: list[Debt] = field(default_factory=list)
    # Spaces put up for auction since this player's debt began (biznes: once per debt).
    debt_auctioned: list[int] = field(default_factory=list)
    # The token has passed or landed on GO at least once (house rule `buy_after_first_lap`).
    lapped: bool = False

    def copy(self) -> Player:
        """A copy that shares nothing that can change (the kernel keeps these for going back)."""
        return Player(self.name, self.index, self.cash, self.position, self.in_jail, self.jail_turns,
                      list(self.jail_cards), self.bankrupt, [d.copy() for d in self.debts],
                      list(self.debt_auctioned), self.lapped)


@dataclass(slots=True)
class Auction:
    space: int  # -1 for a building auction
    kind: str  # "property", "house" or "hotel"
    bidders: list[int]
    high_bid: int = 0
    high_bidder: int = -1
    min_bid: int = 1
    seller: int = -1  # the owner selling in an own-property auction ("own"); -1 for the bank
    next_bidder: int = -1  # whose bid it is, in a stepped auction
    opened_at: float = -1.0  # the game clock when it opened (-1: unstamped)

    def copy(self) -> Auction:
        """A copy that shares nothing that can change (the kernel keeps these for going back)."""
        return Auction(self.space, self.kind, list(self.bidders), self.high_bid, self.high_bidder, self.min_bid,
                       self.seller, self.next_bidder, self.opened_at)


@dataclass(slots=True)
class Entry:
    """One money movement: who paid whom, how much and why."""

    seq: int  # number of the action that caused it (0-based, effective actions)
    payer: str  # player name, "bank" or "pot"
    payee: str
    amount: int
    code: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        return render("log." + self.code, {"payer": self.payer, "payee": self.payee,
                                           "amount": self.amount, **self.params})

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "from": self.payer, "to": self.payee, "amount": self.amount,
                "code": self.code, "params": dict(self.params), "text": self.text}


@dataclass(slots=True)
class Event:
    """Something that happened, for the app to show: moved, drew a card, paid."""

    code: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        return render("event." + self.code, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params), "text": self.text}


@dataclass(frozen=True, slots=True)
class Decision:
    """What the player in turn must settle before the game goes on (the state's `owed` names the verbs)."""

    kind: str  # "buy", "draw", "tax", "casino", "card_roll" (a card's roll for rent), "bus", "jump"
    space: int = -1  # the space it is about (buy, tax, casino, card_roll)
    deck: str = ""  # draw: the deck to draw from
    multiplier: int = 0  # card_roll: the dice total times this is the rent
    dice: tuple[int, ...] = ()  # bus: the two dice the bus may move by, one or both



_DECISIONS: dict[tuple[str, int, str, int, tuple[int, ...]], Decision] = {}


def decision(kind: str, space: int = -1, deck: str = "", multiplier: int = 0,
             dice: tuple[int, ...] = ()) -> Decision:
    """The one `Decision` with these fields, made on first use and shared after.

    The engine makes a decision on most landings. In the compiled build a frozen
    dataclass's `__init__` is the interpreted one that `dataclasses` writes (it
    sets each field through `object.__setattr__`): callgrind counted about 8,000
    instructions a decision, 7% of a simulated game. A frozen value can be
    shared, and there are few distinct ones (a kind, a space, a deck, a card's
    multiplier, a bus's two dice), so the table stays small.
    """
    key = (kind, space, deck, multiplier, dice)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS[key] = Decision(kind, space, deck, multiplier, dice)
    return found

@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: why, and who won."""

    reason: str  # "last_standing", "bankruptcies" (end_after_bankruptcies), "time" (time_limit), "ended" (end_game)
    winners: tuple[str, ...]  # one name; several for a tie in worth or the last team standing

    @property
    def winner(self) -> str | list[str]:
        """The winner as the state and the game_over event give it: a name, or a list of names."""
        return self.winners[0] if len(self.winners) == 1 else list(self.winners)
