"""The speed die (brands-fast and brands-showdown): a third die from round `speed_die_round` on.

Chosen from the options, not from a ruleset's ``[mechanics]`` table:

- `NoSpeedDie` (the default, `speed_die_round = 0`): the ruleset's dice only.
- `SpeedDie`: from round `speed_die_round` on (rounds counted from 1) every roll but a card's roll for rent
  takes one die more. Its face 4 to 6 is Mr. Monopoly (after the move, on to the nearest unowned property
  ahead, else the nearest an opponent owns), a bus lets the player move by either die or their sum (`bus`),
  and a triple lets them jump to any space (`jump`).

The roll itself is banker/verbs.py's (`do_roll`), which asks this family's hooks how many dice a roll takes
(`dice_count`), what the dice say (`read`: the steps and whether it is a double) and how the roller moves
(`move`); `Game` asks `after_action` for a move still due once an action is settled. The base class
answers for the classic dice; `SpeedDie` overrides each hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import Decision, Player, decision
from banker.statefields import Field, State

if TYPE_CHECKING:
    from banker.game import Game


class SpeedDieState(State):
    """Mr. Monopoly's move still to come (`game.speed_die_state`; the kernel's `set_mr_monopoly` changes it, a
    new turn or jail drops it)."""

    mr_monopoly: bool
    FIELDS = (
        Field("mr_monopoly", start=False),  # the speed die's Mr. Monopoly move is still to come
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class NoSpeedDie(Mechanic):
    """No speed die: the ruleset's dice, their sum, a double when they all match."""

    def active(self, game: Game) -> bool:
        """Whether the speed die is rolled in the current round."""
        return False

    def dice_count(self, game: Game) -> int:
        """How many dice the next roll takes."""
        return game.ruleset.dice

    def read(self, game: Game, player: Player, dice: Sequence[int]) -> tuple[int, bool]:
        """What a roll (not a card's roll for rent) says: the steps the dice move `player`, and whether it is
        a double."""
        total = dice[0] + dice[1] if len(dice) == 2 else sum(dice)
        return total, len(dice) == 2 and dice[0] == dice[1] or len(dice) > 2 and len(set(dice)) == 1

    def move(self, game: Game, player: Player, dice: Sequence[int], steps: int) -> None:
        """Move the roller after the dice (jail and doubles are settled, and neither kept them in place)."""
        game.move_forward(player, steps)

    def choices(self, game: Game, d: Decision, player: str) -> list[dict[str, Any]]:
        """The actions that settle decision `d` when it is this family's (the bus, the jump), for
        `legal_actions`: without a speed die the game never asks for one."""
        return []

    def after_action(self, game: Game) -> None:
        """What is still due once an action is settled (`game.speed_die_state.mr_monopoly` is set): nothing
        without the die."""
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class SpeedDie(NoSpeedDie):
    """The speed die, from round `speed_die_round` on: the third die, 1 to 3 more steps, 4 and 5 Mr. Monopoly,
    6 the bus; a triple (the white dice and a 1 to 3 alike) is no double but a jump."""

    def active(self, game: Game) -> bool:
        return game.round + 1 >= game.options.speed_die_round  # the table may set its own round (a game option)

    def dice_count(self, game: Game) -> int:
        d = game.decision
        if self.active(game) and not (d is not None and d.kind == "card_roll"):
            return game.ruleset.dice + 1  # a card's roll for rent takes the ruleset's dice only
        return game.ruleset.dice

    def read(self, game: Game, player: Player, dice: Sequence[int]) -> tuple[int, bool]:
        if not self.active(game):
            return super().read(game, player, dice)
        speed = dice[2]  # the white dice move; the speed die's face is `move`'s
        if player.in_jail:  # in jail only the white dice count: a triple there is a double
            return dice[0] + dice[1], dice[0] == dice[1]
        return dice[0] + dice[1], dice[0] == dice[1] and not (speed <= 3 and speed == dice[0])  # a triple is no double

    def move(self, game: Game, player: Player, dice: Sequence[int], steps: int) -> None:
        if not self.active(game):
            game.move_forward(player, steps)
            return
        speed = dice[2]
        if speed <= 3 and dice[0] == dice[1] == speed:
            game.set_decision(decision("jump"))  # a triple: jump to any space
            game.emit("speed_die", {"player": player.name, "face": "triple"})
            return
        if speed == 6:
            game.set_decision(decision("bus", dice=(dice[0], dice[1])))  # the bus: by either die or their sum
            game.emit("speed_die", {"player": player.name, "face": "bus"})
            return
        if speed >= 4:
            game.set_mr_monopoly(True)  # after this landing is settled (`after_action`)
            game.emit("speed_die", {"player": player.name, "face": "mr_monopoly"})
        else:
            steps += speed
        game.move_forward(player, steps)

    def choices(self, game: Game, d: Decision, player: str) -> list[dict[str, Any]]:
        """The bus's steps (either die or their sum) and the jump's spaces, for `legal_actions`."""
        if d.kind == "bus":
            return [{"do": "bus", "player": player, "steps": k} for k in sorted({d.dice[0], d.dice[1], sum(d.dice)})]
        if d.kind == "jump":
            return [{"do": "jump", "player": player, "space": i} for i in range(game.n_spaces)]
        return []

    def after_action(self, game: Game) -> None:
        """Mr. Monopoly's move, once nothing else is owed and the player is still free to move."""
        if (game.decision is None and game.auction is None and not game.debtors and game.outcome is None
                and not game.current.in_jail and not game.current.bankrupt):
            mr_monopoly_move(game)
            if game.debtors:
                for q in game.players:
                    if q.debts:
                        game.settle(q)


def check_bus(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "bus")
    d = game.decision
    if d is None or d.kind != "bus":
        raise IllegalAction("rule.no_speed_choice", player=game.players[p].name, verb="bus")
    steps = a.get("steps")
    a_, b_ = d.dice
    if steps not in (a_, b_, a_ + b_) or isinstance(steps, bool):
        raise IllegalAction("rule.bus_steps", steps=steps, a=a_, b=b_, both=a_ + b_)


def do_bus(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.set_decision(None)
    game.move_forward(game.players[p], int(a["steps"]))


def check_jump(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "jump")
    d = game.decision
    if d is None or d.kind != "jump":
        raise IllegalAction("rule.no_speed_choice", player=game.players[p].name, verb="jump")
    game.space_index(game.space_arg(a, "jump"))


def do_jump(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.set_decision(None)
    player = game.players[p]
    target = game.space_index(a["space"])
    if target == player.position:
        if target == 0:
            game.lap(player)  # staying on GO lands on it again: a lap (no salary: the token did not go round)
        game.land(player, target)  # staying put: the space counts again, no salary
    else:
        game.move_forward(player, (target - player.position) % game.n_spaces)


def mr_monopoly_move(game: Game) -> None:
    """Mr. Monopoly: on to the nearest unowned property ahead, else the nearest an opponent owns."""
    game.set_mr_monopoly(False)
    player = game.current
    n = game.n_spaces
    ahead = [(player.position + k) % n for k in range(1, n)]
    props = [i for i in ahead if game.is_property[i]]
    target = next((i for i in props if game.owner[i] < 0), -1)
    if target < 0:
        target = next((i for i in props if game.owner[i] >= 0 and game.owner[i] != player.index
                       and not game.allies(player.index, game.owner[i])), -1)
    game.emit("mr_monopoly", {"player": player.name, "space": game.space_name(target) if target >= 0 else None})
    if target >= 0:
        game.move_forward(player, (target - player.position) % n)


VARIANTS: dict[str, type[NoSpeedDie]] = {"none": NoSpeedDie, "speed_die": SpeedDie}
