"""The values the engine's modules share: the bank's and the pot's numbers, and the records a game keeps.

`banker.game` re-exports them; the mechanics modules import them from here (they cannot import the game,
which imports them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from banker.messages import render

NO_PARAMS: dict[str, Any] = {}  # shared by log entries without parameters; never mutated
BANK = -1  # creditor / payee meaning the bank
POT = -2  # the free-parking pot (house rule)


# ----------------------------------------------------------------------
# The records a game keeps of its players, their debts and the auction under way. Outside the core
# (banker/kernel.py, banker/game.py and this module) nothing writes them: the kernel's verbs make every change
# (`game.move_to`, `game.record_bid`), the lists a record holds are tuples, a debt's log parameters a read-only
# mapping. tests/test_engine_layout.py follows every name a record is reached by and fails on a write outside
# the core. At run time each field is `Final`, which the compiled build (mypyc, what a Pi runs) makes read-only
# for all but compiled code: `game.current.cash = 0` from the app raises AttributeError, while the kernel's own
# `player.cash = ...` is one native store. Pure Python knows nothing of `Final`, and a refusal there costs every
# write the kernel makes (3% to 5% more instructions a roll, measured), so pure Python refuses writes from
# outside the core only when asked to (`BANKER_GUARD_RECORDS=1`, which the test suite sets: `_guard_records`
# below). docs/engine.md, "Read-only records".


NO_DEBT_PARAMS: Mapping[str, Any] = MappingProxyType({})


class Debt:
    """A charge a player could not pay when it fell due: owed to a player or the bank. Never changes."""

    __slots__ = ("amount", "creditor", "to_pot", "code", "params")

    def __init__(self, amount: int, creditor: int, to_pot: bool = False, code: str = "debt",
                 params: Mapping[str, Any] = NO_DEBT_PARAMS) -> None:
        self.amount: Final = amount
        self.creditor: Final = creditor  # player index, or BANK
        self.to_pot: Final = to_pot  # with the free-parking house rule, paid into the pot
        self.code: Final = code
        self.params: Final = params  # the charge's log parameters (rent: its space); read-only (see `debt`)

    def __repr__(self) -> str:
        return f"Debt({self.amount}, {self.creditor}, {self.to_pot}, {self.code!r}, {dict(self.params)!r})"


def debt(amount: int, creditor: int, to_pot: bool, code: str, params: dict[str, Any]) -> Debt:
    """A debt whose log parameters are `params`, read-only (the engine's log parameters are never changed once
    made, so a view of them is enough)."""
    return Debt(amount, creditor, to_pot, code, MappingProxyType(params) if params else NO_DEBT_PARAMS)


class Player:
    """One seat's money, token and cards (read-only outside the core: the kernel's verbs change it)."""

    __slots__ = ("name", "index", "cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt", "debts",
                 "debt_auctioned", "lapped")

    def __init__(self, name: str, index: int, cash: int, position: int = 0, in_jail: bool = False,
                 jail_turns: int = 0, jail_cards: tuple[str, ...] = (), bankrupt: bool = False,
                 debts: tuple[Debt, ...] = (), debt_auctioned: tuple[int, ...] = (), lapped: bool = False) -> None:
        self.name: Final = name
        self.index: Final = index
        self.cash: Final = cash
        self.position: Final = position
        self.in_jail: Final = in_jail
        self.jail_turns: Final = jail_turns
        self.jail_cards: Final = jail_cards  # the Get Out of Jail Free cards kept, oldest first
        self.bankrupt: Final = bankrupt
        self.debts: Final = debts  # oldest first
        # Spaces put up for auction since this player's debt began (biznes: once per debt).
        self.debt_auctioned: Final = debt_auctioned
        # The token has passed or landed on GO at least once (house rule `buy_after_first_lap`).
        self.lapped: Final = lapped

    def copy(self) -> Player:
        """A copy (the kernel keeps these for going back; the tuples and debts never change, so are shared)."""
        return Player(self.name, self.index, self.cash, self.position, self.in_jail, self.jail_turns,
                      self.jail_cards, self.bankrupt, self.debts, self.debt_auctioned, self.lapped)

    def __repr__(self) -> str:
        return (f"Player({self.name!r}, {self.index}, cash={self.cash}, position={self.position}, "
                f"in_jail={self.in_jail}, jail_turns={self.jail_turns}, jail_cards={self.jail_cards!r}, "
                f"bankrupt={self.bankrupt}, debts={self.debts!r}, debt_auctioned={self.debt_auctioned!r}, "
                f"lapped={self.lapped})")


class Auction:
    """The auction under way (read-only outside the core: the kernel's verbs change it)."""

    __slots__ = ("space", "kind", "bidders", "high_bid", "high_bidder", "min_bid", "seller", "next_bidder",
                 "opened_at")

    def __init__(self, space: int, kind: str, bidders: tuple[int, ...], high_bid: int = 0, high_bidder: int = -1,
                 min_bid: int = 1, seller: int = -1, next_bidder: int = -1, opened_at: float = -1.0) -> None:
        self.space: Final = space  # -1 for a building auction
        self.kind: Final = kind  # "property", "house", "hotel" or "own"
        self.bidders: Final = bidders  # who may still bid, in seat order
        self.high_bid: Final = high_bid
        self.high_bidder: Final = high_bidder
        self.min_bid: Final = min_bid
        self.seller: Final = seller  # the owner selling in an own-property auction ("own"); -1 for the bank
        self.next_bidder: Final = next_bidder  # whose bid it is, in a stepped auction
        self.opened_at: Final = opened_at  # the game clock when it opened (-1: unstamped)

    def copy(self) -> Auction:
        """A copy (the kernel keeps these for going back)."""
        return Auction(self.space, self.kind, self.bidders, self.high_bid, self.high_bidder, self.min_bid,
                       self.seller, self.next_bidder, self.opened_at)

    def __repr__(self) -> str:
        return (f"Auction(space={self.space}, kind={self.kind!r}, bidders={self.bidders!r}, "
                f"high_bid={self.high_bid}, high_bidder={self.high_bidder}, min_bid={self.min_bid}, "
                f"seller={self.seller}, next_bidder={self.next_bidder}, opened_at={self.opened_at})")


RECORDS: tuple[type, ...] = (Debt, Player, Auction)
# The modules that may write a record (the core); `_guard_records` lets no other module's code do it.
CORE_MODULES = frozenset({"banker.kernel", "banker.game", "banker.model"})


def _guard_records() -> None:
    """Pure Python: make each record's class refuse a write (or a delete) made by code outside the core.

    It asks which module the writing code belongs to, on every write: a few hundred nanoseconds each, paid by
    the test suite (and anyone debugging with `BANKER_GUARD_RECORDS=1`), not by a family's game. The compiled
    build refuses such writes itself, at no cost."""
    def refuse_outside_writes(record: object, name: str, value: object) -> None:
        if sys._getframe(1).f_globals.get("__name__") not in CORE_MODULES:
            raise AttributeError(f"{type(record).__name__}.{name} cannot be written outside the engine's kernel "
                                 "(docs/engine.md, \"Read-only records\")")
        object.__setattr__(record, name, value)

    def refuse_outside_deletes(record: object, name: str) -> None:
        raise AttributeError(f"{type(record).__name__}.{name} cannot be deleted")

    for record in RECORDS:
        # setattr: a plain assignment to a class's method is an error to mypy (method-assign)
        setattr(record, "__setattr__", refuse_outside_writes)  # noqa: B010
        setattr(record, "__delattr__", refuse_outside_deletes)  # noqa: B010


if __file__.endswith(".py") and os.environ.get("BANKER_GUARD_RECORDS") == "1":  # pure Python, asked to
    _guard_records()


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
