"""Mortgages: whether there are any, what lifting one costs, and what becomes of a mortgage that is kept.

- ``classic`` (`Mortgage`, the default): the bank lends the mortgage value; lifting it costs the value plus
  `mortgage_interest_percent`; a mortgaged property that changes hands makes its new owner lift the
  mortgage or pay the interest and keep it.
- ``none`` (`NoMortgages`, biznes): there are no mortgages; money is raised by auctions and sales.
- ``expiring`` (`Expiring`, brands): lifting one costs `unmortgage_percent` of the price; a mortgage not
  lifted within `mortgage_rounds` of its owner's rounds is lost to a bank auction (with
  `mortgage_auction_now`, brands-showdown, the owner may send it there at once); a mortgaged property
  changes hands with its mortgage and its clock.

The verbs `mortgage`, `unmortgage` and `keep_mortgage` are this module's (banker/verbtable.py lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.mechanics import debt
from banker.mechanics.auction import start_property_auction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK
from banker.options import Options
from banker.statefields import FLAT, Field, State

if TYPE_CHECKING:
    from banker.game import Game


class MortgageState(State):
    """When each mortgage began (`game.mortgage_state`; the kernel's `mortgaged_now` sets it), in the game's
    rounds (`game.round`)."""

    mortgage_round: list[int]
    FIELDS = (
        # space -> the round it was mortgaged in
        Field("mortgage_round", FLAT, start=lambda game: [0] * game.n_spaces),
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class Mortgage(Mechanic):
    """classic: the bank's loan at interest."""

    def allowed(self) -> bool:
        """Whether properties may be mortgaged at all."""
        return True

    def unmortgage_cost(self, game: Game, i: int) -> int:
        """What lifting the mortgage of space i costs now."""
        return game.mortgage_value(i) + game.interest(i)

    def decision_on_transfer(self) -> bool:
        """Whether a mortgaged property's new owner must lift the mortgage or pay the interest and keep it."""
        return True

    def turn_passed(self, game: Game) -> None:
        """A new turn has begun (game.round counts the rounds)."""

    def check_own_auction(self, game: Game, p: int, i: int, a: Mapping[str, Any]) -> bool:
        """`auction_own` of space i by player p: True when this rule decides it (raising if refused), False
        when the ordinary own auction's rules apply."""
        return False

    def do_own_auction(self, game: Game, p: int, i: int) -> bool:
        """Carry out `auction_own` when this rule decided it (`check_own_auction`); True if it did."""
        return False

    def describe(self, game: Game, state: dict[str, Any]) -> None:
        """Add what this rule keeps to the game's state (docs/game-script.md)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class NoMortgages(Mortgage):
    """none (biznes): no mortgages."""

    def allowed(self) -> bool:
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class Expiring(Mortgage):
    """expiring (brands): a mortgage runs for a few rounds, then the bank auctions the property."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.lift_percent = options.unmortgage_percent
        self.rounds = options.mortgage_rounds
        self.auction_now = options.mortgage_auction_now

    def unmortgage_cost(self, game: Game, i: int) -> int:
        return game.prices[i] * self.lift_percent // 100  # 60%: the mortgage value plus 10% of the price

    def decision_on_transfer(self) -> bool:
        return False  # it keeps its mortgage and its clock

    def turn_passed(self, game: Game) -> None:
        """A mortgage not lifted within `mortgage_rounds` rounds is lost to a bank auction."""
        for i in game.ruleset.property_indices:
            if game.mortgaged[i] and game.round - game.mortgage_state.mortgage_round[i] >= self.rounds:
                self._lapse(game, i)
                game.queue_auctions((i,))
        if game.auction is None and game.auction_queue:
            start_property_auction(game, game.next_queued_auction())

    def check_own_auction(self, game: Game, p: int, i: int, a: Mapping[str, Any]) -> bool:
        """brands-showdown: the owner sends their mortgaged property to the bank's auction now."""
        name = game.players[p].name
        if not self.auction_now:
            raise IllegalAction("rule.no_own_auctions", rules=game.ruleset.name)
        if "reserve" in a:
            raise InvalidAction("action.bad_field", field="reserve", problem="the bank's auction opens at the full price")
        debt.sellable(game, p, i, "auction_own")
        if not game.mortgaged[i]:
            raise IllegalAction("rule.not_mortgaged", player=name, space=game.space_name(i))
        if not game.players[p].debts:
            if p != game.turn:
                raise IllegalAction("rule.not_your_move", player=name, verb="auction_own", current=game.current.name)
            if not game.free_window():
                game.refuse_blocked("auction_own", p)
        return True

    def do_own_auction(self, game: Game, p: int, i: int) -> bool:
        """The mortgage lapses now: the bank auctions the property to everyone, the owner too."""
        self._lapse(game, i)
        start_property_auction(game, i)
        return True

    @staticmethod
    def _lapse(game: Game, i: int) -> None:
        """Space i's mortgage is lost: the property goes back to the bank, unowned and unmortgaged."""
        owner = game.owner[i]
        game.set_mortgaged(i, False)
        game.give_deed(i, -1)
        game.emit("mortgage_lapsed", {"player": game.players[owner].name, "space": game.space_name(i)})

    def describe(self, game: Game, state: dict[str, Any]) -> None:
        state["round"] = game.round
        for i in game.ruleset.property_indices:
            if game.mortgaged[i]:
                left = max(0, self.rounds - (game.round - game.mortgage_state.mortgage_round[i]))
                state["spaces"][str(i)]["mortgage_rounds_left"] = left


# ----------------------------------------------------------------------
# The verbs


def _require_mortgages(game: Game) -> None:
    """Raises when the ruleset has no mortgages (biznes)."""
    if not game.rules.mortgage.allowed():  # biznes: none
        raise IllegalAction("rule.no_mortgages", rules=game.ruleset.name)


def check_mortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    _require_mortgages(game)
    i = game.space_arg(a, "mortgage")
    game.may_manage(p, "mortgage", raising=True)
    name = game.players[p].name
    space = game.ruleset.spaces[i]
    if game.owner[i] != p:
        raise IllegalAction("rule.not_owner", player=name, space=space.name)
    if game.mortgaged[i]:
        raise IllegalAction("rule.already_mortgaged", player=name, space=space.name)
    if space.group is not None and space.kind == "lot":
        for j in game.group_members[space.group]:
            if game.level[j]:
                raise IllegalAction("rule.mortgage_buildings", player=name, space=space.name,
                                    other=game.space_name(j))


def do_mortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    game.mortgaged_now(i)
    game.transfer(BANK, p, game.mortgage_value(i), "mortgage", game.space_params[i])


def check_unmortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    _require_mortgages(game)
    i = game.space_arg(a, "unmortgage")
    player = game.players[p]
    owed = (p, i) in game.mortgage_owed
    if not owed:
        game.may_manage(p, "unmortgage", raising=False)
    if player.debts:
        raise IllegalAction("rule.in_debt", player=player.name, verb="unmortgage")
    if game.owner[i] != p:
        raise IllegalAction("rule.not_owner", player=player.name, space=game.space_name(i))
    if not game.mortgaged[i]:
        raise IllegalAction("rule.not_mortgaged", player=player.name, space=game.space_name(i))
    cost = game.unmortgage_cost(i)
    if player.cash < cost:
        raise IllegalAction("rule.cannot_afford", player=player.name, space=game.space_name(i),
                            price=cost, cash=player.cash)


def do_unmortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    game.mortgage_decided(p, i)
    game.set_mortgaged(i, False)
    game.pay_bank(p, game.unmortgage_cost(i), "unmortgage", game.space_params[i])


def check_keep_mortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    _require_mortgages(game)
    i = game.space_arg(a, "keep_mortgage")
    if (p, i) not in game.mortgage_owed:
        raise IllegalAction("rule.no_mortgage_decision", player=game.players[p].name,
                            space=game.space_name(i))


def do_keep_mortgage(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    game.mortgage_decided(p, i)
    game.charge(p, BANK, game.interest(i), "keep_mortgage", game.space_params[i])


VARIANTS: dict[str, type[Mortgage]] = {"classic": Mortgage, "none": NoMortgages, "expiring": Expiring}
