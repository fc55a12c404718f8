"""Doubles: what a double gives, and how many in a row send the player to jail (option `doubles_to_jail`).

- ``classic`` (`Doubles`, the default): a double gives another roll at once, before anything else is done.
- ``after_move`` (`AfterMove`, biznes): the player first finishes the move (buys, builds, trades); ending
  it gives the double's extra roll, as a new move of the same turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.mechanics.base import Mechanic, mypyc_attr
from banker.options import Options
from banker.statefields import Field, State

if TYPE_CHECKING:
    from banker.game import Game


class DoublesState(State):
    """A double's roll owed after the move (`game.doubles_state`; the kernel's `owe_roll_after_move` and
    `start_extra_roll` change it)."""

    extra_roll: bool
    FIELDS = (
        Field("extra_roll", start=False),  # a double was rolled: end_turn keeps the turn (`after_move`)
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class Doubles(Mechanic):
    """classic: a double rolls again at once."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.to_jail = options.doubles_to_jail  # this many doubles in a row: straight to jail

    def rolled_double(self, game: Game) -> None:
        """A double that does not send the player to jail (`game.doubles` counts it already)."""
        game.owe_roll()

    def end_move(self, game: Game, p: int) -> bool:
        """`end_turn` by player p: True when the turn goes on (the double's extra roll), else it passes."""
        return False

    def per_move(self) -> bool:
        """Whether the game's state shows the move's counters (docs/game-script.md, `move`)."""
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class AfterMove(Doubles):
    """after_move (biznes): the double's extra roll comes when the move is ended."""

    def rolled_double(self, game: Game) -> None:
        game.owe_roll_after_move()

    def end_move(self, game: Game, p: int) -> bool:
        if not game.start_extra_roll():
            return False
        game.emit("extra_roll", {"player": game.players[p].name})
        return True

    def per_move(self) -> bool:
        return True


VARIANTS: dict[str, type[Doubles]] = {"classic": Doubles, "after_move": AfterMove}
