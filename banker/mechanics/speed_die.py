"""The speed die (brands-fast and brands-showdown): a third die from round `speed_die_round` on.

Chosen from the options, not from a ruleset's ``[mechanics]`` table:

- `NoSpeedDie` (the default, `speed_die_round = 0`): the ruleset's dice only.
- `SpeedDie`: from round `speed_die_round` on (rounds counted from 1) every roll but a card's roll for rent
  takes one die more. Its face 4 to 6 is Mr. Monopoly (after the move, on to the nearest unowned property
  ahead, else the nearest an opponent owns), a bus lets the player move by either die or their sum (`bus`),
  and a triple lets them jump to any space (`jump`); the roll itself is `Game._do_roll`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from banker.errors import IllegalAction
from banker.mechanics.base import Mechanic, mypyc_attr

if TYPE_CHECKING:
    from banker.game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class NoSpeedDie(Mechanic):
    """No speed die."""

    def active(self, game: "Game") -> bool:
        """Whether the speed die is rolled in the current round."""
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class SpeedDie(NoSpeedDie):
    """The speed die, from round `speed_die_round` on."""

    def active(self, game: "Game") -> bool:
        return game.round + 1 >= int(game.options["speed_die_round"])  # the game's options: a table may change it


def check_bus(game: "Game", p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "bus")
    d = game.decision
    if d is None or d.kind != "bus":
        raise IllegalAction("rule.no_speed_choice", player=game.players[p].name, verb="bus")
    steps = a.get("steps")
    a_, b_ = d.dice
    if steps not in (a_, b_, a_ + b_) or isinstance(steps, bool):
        raise IllegalAction("rule.bus_steps", steps=steps, a=a_, b=b_, both=a_ + b_)


def do_bus(game: "Game", p: int, a: Mapping[str, Any]) -> None:
    game.decision = None
    game.move_forward(game.players[p], int(a["steps"]))


def check_jump(game: "Game", p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "jump")
    d = game.decision
    if d is None or d.kind != "jump":
        raise IllegalAction("rule.no_speed_choice", player=game.players[p].name, verb="jump")
    game.space_index(game.space_arg(a, "jump"))


def do_jump(game: "Game", p: int, a: Mapping[str, Any]) -> None:
    game.decision = None
    player = game.players[p]
    target = game.space_index(a["space"])
    if target == player.position:
        game.land(player, target)  # staying put: the space counts again, no lap
    else:
        game.move_forward(player, (target - player.position) % game.n_spaces)


def mr_monopoly_move(game: "Game") -> None:
    """Mr. Monopoly: on to the nearest unowned property ahead, else the nearest an opponent owns."""
    game.mr_monopoly = False
    player = game.current
    n = game.n_spaces
    ahead = [(player.position + k) % n for k in range(1, n)]
    props = [i for i in ahead if game.is_property[i]]
    target = next((i for i in props if game.owner[i] < 0), -1)
    if target < 0:
        target = next((i for i in props if game.owner[i] >= 0 and game.owner[i] != player.index
                       and not game.allies(player.index, game.owner[i])), -1)
    game.events.append(("mr_monopoly", {"player": player.name,
                                        "space": game.space_name(target) if target >= 0 else None}))
    if target >= 0:
        game.move_forward(player, (target - player.position) % n)


HANDLERS = {"bus": (check_bus, do_bus), "jump": (check_jump, do_jump)}
VARIANTS: dict[str, type[NoSpeedDie]] = {"none": NoSpeedDie, "speed_die": SpeedDie}
