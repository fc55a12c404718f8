"""The mechanics: each family of rule in a module named for it, each variant one class.

A ruleset's ``[mechanics]`` table names a variant for each family (``deck = "reshuffle"``); `REGISTRY` maps
the names to the classes, and `choose` makes the game's set of them. A family's base class is the classic
behaviour and its hooks are what a game asks; a variant overrides the hooks it changes. Mechanic objects
hold configuration only (the game's state stays in `Game`, so undo, replay and the journal never see them); a
family that keeps state of its own declares it in its module as a `banker.statefields.State` class
(`TradeState`, ...), and the game holds one object of it (docs/engine.md, "The kernel's state").

Some families are chosen from the board and the options instead of the table (`OPTION_CHOSEN`): ``casino``
is `Casino` when the board has a space of kind ``casino``, ``teams`` is `Teams` when the option `teams` is
true, ``clock`` is `Clocked` when a clock option is set (`clock.clocked`), ``speed_die`` is `SpeedDie` when
`speed_die_round` is. `families()` leaves them out, so the loader refuses
them in a ``[mechanics]`` table as it does any unknown family.

Adding a variant: a class in its family's module, subclassing the family's base, and one entry in that
module's `VARIANTS` (or `register(family, name, cls)` from outside the package, as
tests/test_mechanics.py does). docs/engine.md walks through it. A family's verbs are functions of its module
(`check_<verb>` and `do_<verb>`), and banker/verbtable.py lists them with every other verb.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from banker.mechanics import (
    auction,
    bankruptcy,
    building,
    casino,
    clock,
    debt,
    deck,
    doubles,
    mortgage,
    speed_die,
    teams,
    trade,
)
from banker.mechanics.base import Mechanic
from banker.options import Options

# family -> variant name -> class; the first variant of each family is its default.
REGISTRY: dict[str, dict[str, type[Mechanic]]] = {
    "auction": dict(auction.VARIANTS),
    "deck": dict(deck.VARIANTS),
    "doubles": dict(doubles.VARIANTS),
    "bankruptcy": dict(bankruptcy.VARIANTS),
    "trade": dict(trade.VARIANTS),
    "mortgage": dict(mortgage.VARIANTS),
    "building": dict(building.VARIANTS),
    "debt": dict(debt.VARIANTS),
}
# Families chosen from the board and the options instead of the ``[mechanics]`` table (so `families()`, what
# the ruleset loader accepts there, leaves them out): family -> variant name -> class, the default first.
OPTION_CHOSEN: dict[str, dict[str, type[Mechanic]]] = {
    "casino": dict(casino.VARIANTS),
    "teams": dict(teams.VARIANTS),
    "clock": dict(clock.VARIANTS),
    "speed_die": dict(speed_die.VARIANTS),
}


# The order the families are listed in (a ruleset's table, the loader's messages).
ORDER = ("auction", "building", "debt", "doubles", "mortgage", "trade", "bankruptcy", "deck")


def families() -> dict[str, tuple[str, ...]]:
    """Every family and the variant names it knows, the default first (what the ruleset loader accepts)."""
    known = {family: tuple(variants) for family, variants in REGISTRY.items()}
    listed = sorted(known, key=lambda f: ORDER.index(f) if f in ORDER else len(ORDER))  # new ones last
    return {family: known[family] for family in listed}


def register(family: str, name: str, cls: type[Mechanic]) -> None:
    """A new variant of a family, known to the ruleset loader from now on."""
    variants = REGISTRY.get(family)
    if variants is None:
        if family in OPTION_CHOSEN:
            raise KeyError(f"the {family} family is chosen from the board and the options, not by name")
        raise KeyError(f"unknown mechanic family {family!r} (known: {', '.join(families())})")
    base = next(iter(variants.values()))
    if not issubclass(cls, base):
        raise TypeError(f"a {family} mechanic must subclass {base.__name__}")
    variants[name] = cls


@dataclass(frozen=True, slots=True)
class Mechanics:
    """The game's variant of each family (configuration only)."""

    auction: auction.Open
    deck: deck.Deck
    doubles: doubles.Doubles
    bankruptcy: bankruptcy.Bankruptcy
    trade: trade.Trade
    mortgage: mortgage.Mortgage
    building: building.Even
    debt: debt.Whole
    casino: casino.NoCasino
    teams: teams.NoTeams
    clock: clock.NoClock
    speed_die: speed_die.NoSpeedDie


def choose(mechanics: Mapping[str, str], options: Options, board: Sequence[str] = ()) -> Mechanics:
    """The mechanics a ruleset's table names (the loader has refused unknown names already).

    The families of `OPTION_CHOSEN` come from the board's space kinds (`board`) and the options instead:
    ``casino`` is `Casino` when the board has a space of kind ``casino``, else `NoCasino`; ``teams`` is
    `Teams` when the option `teams` is true, else `NoTeams`; ``clock`` and ``speed_die`` follow their options.
    """
    def make(family: str) -> Any:
        variants = REGISTRY[family]
        name = mechanics.get(family) or next(iter(variants))
        return variants[name](options)

    def chosen(family: str, name: str) -> Any:
        return OPTION_CHOSEN[family][name](options)
    return Mechanics(auction=make("auction"), deck=make("deck"), doubles=make("doubles"),
                     bankruptcy=make("bankruptcy"), trade=make("trade"), mortgage=make("mortgage"),
                     building=make("building"), debt=make("debt"),
                     casino=chosen("casino", "casino" if "casino" in board else "none"),
                     teams=chosen("teams", "teams" if options.teams else "none"),
                     clock=chosen("clock", "clocked" if clock.clocked(options) else "none"),
                     speed_die=chosen("speed_die", "speed_die" if options.speed_die_round else "none"))
