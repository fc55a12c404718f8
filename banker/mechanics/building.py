"""Buildings: when a player may add them, what they are called, and how they come down again.

- ``even`` (`Even`, the default): houses and hotels on a complete group, whenever the board is free (the
  winner of a building auction builds what they won at once); sold back one at a time or a group at once
  (`sell_all`); the bank's buildings may run short and be auctioned (`building_auction`).
- ``visit`` (`Visit`, biznes): branch offices and a holding, built by the player whose move it is, after
  the roll, on their own lot under the token, `builds_per_visit` a visit; sold one at a time, in one's own
  move or in debt; no building auctions.
- ``turn_start`` (`TurnStart`, brands): branches and a corporation, built by the player whose turn it is,
  before rolling, `builds_per_group_turn` a group a turn; no building auctions.

The verbs `build`, `sell` and `sell_all` are this module's (banker/verbtable.py lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK
from banker.options import Options
from banker.statefields import DICT, Field, State

if TYPE_CHECKING:
    from banker.game import Game


class BuildingState(State):
    """The buildings counted (`game.building_state`; the kernel's `count_build` counts them, a landing and a new
    turn start them again)."""

    visit_builds: int
    group_builds: dict[str, int]
    FIELDS = (
        Field("visit_builds", start=0),  # buildings added on this visit (biznes: `builds_per_visit`)
        Field("group_builds", DICT, start=lambda game: {}),  # group -> buildings added in this turn (brands)
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class Even(Mechanic):
    """even: houses and hotels evenly across a complete group, whenever the board is free."""

    def words(self) -> tuple[str, str]:
        """What the ruleset calls a house and a hotel (the app's texts)."""
        return "house", "hotel"

    def refusal_words(self) -> tuple[str, str]:
        """What the engine's refusals call a house and a hotel (the bank has none left): the ruleset's words."""
        return self.words()

    def breakdown_code(self) -> str:
        """The refusal when the bank lacks the houses to break a hotel down into."""
        return "rule.hotel_breakdown"

    def on_visit(self) -> bool:
        """Whether buildings go up on a visit to one's own lot, a few a visit (the move's counters show)."""
        return False

    def at_turn_start(self) -> bool:
        """Whether buildings go up at the start of one's turn, a few a group."""
        return False

    def building_auctions(self) -> bool:
        """Whether the bank's last buildings may be auctioned (`building_auction`)."""
        return True

    def sells_whole_groups(self) -> bool:
        """Whether a group's buildings may be sold at once (`sell_all`)."""
        return True

    def check_build(self, game: Game, p: int, i: int) -> None:
        """Raises when player p may not add a building to lot i now."""
        won = any(q == p for q, _ in game.build_owed)
        if not won:  # the winner of a building auction builds what they won at once
            game.may_manage(p, "build", raising=False)
        problem = build_problem(game, p, i, None)
        if problem is not None:
            raise problem
        if won:
            kind = "hotel" if game.level[i] == game.hotel_houses else "house"
            if not owed_build(game, p, kind):
                owed_kind = next(k for q, k in game.build_owed if q == p)
                raise IllegalAction("rule.build_kind", player=game.players[p].name,
                                    space=game.space_name(i), kind=owed_kind)

    def check_sell(self, game: Game, p: int) -> None:
        """Raises when player p may not sell a building now for this rule's own reasons (the board's are
        checked by `check_sell`)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Visit(Even):
    """visit (biznes): offices and a holding, built on a visit to one's own lot."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.per_visit = options.builds_per_visit

    def words(self) -> tuple[str, str]:
        return "office", "holding"

    def breakdown_code(self) -> str:
        return "rule.holding_breakdown"

    def on_visit(self) -> bool:
        return True

    def building_auctions(self) -> bool:
        return False

    def sells_whole_groups(self) -> bool:
        return False

    def check_build(self, game: Game, p: int, i: int) -> None:
        """The player whose move it is, after the roll, on the lot under the token."""
        name = game.players[p].name
        game.may_manage(p, "build", raising=False)
        if p != game.turn:
            raise IllegalAction("rule.not_your_move", player=name, verb="build", current=game.current.name)
        if game.roll_owed:
            raise IllegalAction("rule.build_before_roll", player=name)
        if game.players[p].position != i:
            raise IllegalAction("rule.build_on_visit", player=name, space=game.space_name(i))
        if game.building_state.visit_builds >= self.per_visit:
            raise IllegalAction("rule.build_once_per_visit", player=name, space=game.space_name(i),
                                count=self.per_visit)
        problem = build_problem(game, p, i, None)
        if problem is not None:
            raise problem

    def check_sell(self, game: Game, p: int) -> None:
        """Only in one's own move, or in debt."""
        if p != game.turn and not game.players[p].debts:
            raise IllegalAction("rule.not_your_move", player=game.players[p].name, verb="sell",
                                current=game.current.name)


@mypyc_attr(allow_interpreted_subclasses=True)
class TurnStart(Even):
    """turn_start (brands): branches and a corporation, built before rolling, a few a group a turn."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.per_group_turn = options.builds_per_group_turn

    def words(self) -> tuple[str, str]:
        return "branch", "corporation"

    def refusal_words(self) -> tuple[str, str]:
        return "house", "hotel"  # brands' refusals have always said house and hotel (its app says the above)

    def at_turn_start(self) -> bool:
        return True

    def building_auctions(self) -> bool:
        return False

    def check_build(self, game: Game, p: int, i: int) -> None:
        """The player whose turn it is, before rolling, once per group a turn."""
        name = game.players[p].name
        game.may_manage(p, "build", raising=False)
        if p != game.turn:
            raise IllegalAction("rule.not_your_move", player=name, verb="build", current=game.current.name)
        if not game.roll_owed:
            raise IllegalAction("rule.build_after_roll", player=name)
        most = self.per_group_turn
        group = game.groups[i]
        if most and group is not None and game.building_state.group_builds.get(group, 0) >= most:
            raise IllegalAction("rule.build_once_per_turn", player=name, space=game.space_name(i), count=most)
        problem = build_problem(game, p, i, None)
        if problem is not None:
            raise problem


# ----------------------------------------------------------------------
# What the verbs share


def build_problem(game: Game, p: int, i: int, kind: str | None, ignore_cash: bool = False) -> IllegalAction | None:
    """Why player p cannot add a building to lot i now (None when they can)."""
    name = game.players[p].name
    space = game.ruleset.spaces[i]
    if space.kind != "lot":
        return IllegalAction("rule.not_buildable", player=name, space=space.name)
    if game.owner[i] != p:
        return IllegalAction("rule.not_owner", player=name, space=space.name)
    members = game.group_members[space.group]  # type: ignore[index]
    for j in members:
        if game.owner[j] != p:
            return IllegalAction("rule.build_group", player=name, space=space.name,
                                 missing=game.space_name(j))
    for j in members:
        if game.mortgaged[j]:
            return IllegalAction("rule.build_mortgaged", player=name, space=space.name,
                                 mortgaged=game.space_name(j))
    lv = game.level[i]
    if lv == game.hotel_level:
        return IllegalAction("rule.build_max", player=name, space=space.name)
    low = min(game.level[j] for j in members)
    if lv > low and game.options.build_evenly:
        behind = next(j for j in members if game.level[j] == low)
        return IllegalAction("rule.build_even_first" if low == 0 else "rule.build_even", player=name,
                             space=space.name, other=game.space_name(behind), houses=low)
    hotel = lv == game.hotel_houses
    if kind is not None and (kind == "hotel") != hotel:
        return IllegalAction("rule.build_kind", player=name, space=space.name, kind=kind)
    if hotel:
        if game.bank_hotels - reserved(game, "hotel", p) <= 0:
            return IllegalAction("rule.bank_out_of", kind=game.rules.building.refusal_words()[1])
    elif game.bank_houses - reserved(game, "house", p) <= 0:
        return IllegalAction("rule.bank_out_of", kind=game.rules.building.refusal_words()[0])
    if (game.options.build_only_on_visit and game.players[p].position != i
            and not any(q == p for q, _ in game.build_owed)):
        return IllegalAction("rule.build_on_visit", player=name, space=space.name)
    if not ignore_cash and not owed_build(game, p, "hotel" if hotel else "house"):
        if game.players[p].cash < space.building_cost:
            return IllegalAction("rule.cannot_afford", player=name, space=space.name,
                                 price=space.building_cost, cash=game.players[p].cash)
    return None


def reserved(game: Game, kind: str, p: int) -> int:
    """Buildings won at auction by others and not yet built: not for sale."""
    return sum(1 for q, k in game.build_owed if k == kind and q != p)


def owed_build(game: Game, p: int, kind: str) -> bool:
    """Whether player p won a building of this kind at auction and has yet to build it."""
    return (p, kind) in game.build_owed


# ----------------------------------------------------------------------
# The verbs


def check_build(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_arg(a, "build")
    game.rules.building.check_build(game, p, i)


def do_build(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    space = game.ruleset.spaces[i]
    game.count_build(space.group)
    hotel = game.level[i] == game.hotel_houses
    kind = "hotel" if hotel else "house"
    if owed_build(game, p, kind):
        game.building_placed(p, kind)
    else:
        game.pay_bank(p, space.building_cost, "build", {"space": space.name, "kind": kind})
    game.set_level(i, game.hotel_level if hotel else game.level[i] + 1)
    game.emit("built", {"player": game.players[p].name, "space": space.name, "kind": kind})


def check_sell(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_arg(a, "sell")
    game.may_manage(p, "sell", raising=True)
    game.rules.building.check_sell(game, p)
    name = game.players[p].name
    space = game.ruleset.spaces[i]
    if game.owner[i] != p:
        raise IllegalAction("rule.not_owner", player=name, space=space.name)
    lv = game.level[i]
    if lv == 0:
        raise IllegalAction("rule.no_building", player=name, space=space.name)
    members = game.group_members[space.group]  # type: ignore[index]
    high = max(game.level[j] for j in members)
    if lv < high and game.options.build_evenly:
        ahead = next(j for j in members if game.level[j] == high)
        raise IllegalAction("rule.sell_even", player=name, space=space.name, other=game.space_name(ahead))
    if lv == game.hotel_level and game.bank_houses - reserved(game, "house", p) < game.hotel_houses:
        raise IllegalAction(game.rules.building.breakdown_code(),
                            player=name, space=space.name, need=game.hotel_houses, left=game.bank_houses)


def do_sell(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    space = game.ruleset.spaces[i]
    kind = "hotel" if game.level[i] == game.hotel_level else "house"
    game.set_level(i, game.hotel_houses if kind == "hotel" else game.level[i] - 1)
    game.transfer(BANK, p, game.building_refund(i), "sell", {"space": space.name, "kind": kind})
    game.emit("sold_building", {"player": game.players[p].name, "space": space.name,
                                "kind": kind})


def check_sell_all(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.rules.building.sells_whole_groups():
        raise IllegalAction("rule.no_sell_all", rules=game.ruleset.name)
    i = game.space_arg(a, "sell_all")
    game.may_manage(p, "sell_all", raising=True)
    name = game.players[p].name
    space = game.ruleset.spaces[i]
    if game.owner[i] != p:
        raise IllegalAction("rule.not_owner", player=name, space=space.name)
    if space.kind != "lot" or not any(game.level[j] for j in game.group_members[space.group]):  # type: ignore[index]
        raise IllegalAction("rule.no_building", player=name, space=space.name)


def do_sell_all(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.space_index(a["space"])
    space = game.ruleset.spaces[i]
    total = 0
    for j in game.group_members[space.group]:  # type: ignore[index]
        total += game.buildings_sale_value(j)
        game.return_buildings(j)
    game.transfer(BANK, p, total, "sell_all", {"space": space.name})
    game.emit("sold_all", {"player": game.players[p].name, "space": space.name})


VARIANTS: dict[str, type[Even]] = {"even": Even, "visit": Visit, "turn_start": TurnStart}
