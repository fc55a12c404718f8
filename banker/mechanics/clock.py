"""The game clock (brands): the economy that changes with the minutes played, the turn timer and pauses.

Chosen from the options, not from a ruleset's ``[mechanics]`` table:

- `NoClock` (the default): no clock; `pause`, `resume` and `timeout` are refused.
- `Clocked`: any of `salary_stop_minutes` (no salary from that minute on), `rent_tax_start_minutes` (a tax on
  rent that rises with the minutes) and `turn_seconds` (the turn timer; `timeout` skips the turn and
  `skipped_turns_bankrupt` skips in a row make the player bankrupt) is set. Every action then carries its
  time `t`; paused time does not count (`Game.economy_minutes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction
from banker.mechanics.bankruptcy import do_concede
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.options import Options
from banker.statefields import FLAT, Field, State

if TYPE_CHECKING:
    from banker.game import Game


class ClockState(State):
    """The turn timer's skipped turns and the pauses (`game.clock_state`; the kernel's `skip_turn`, `pause` and
    `resume` change them, a new turn starts the turn's again)."""

    skipped: list[int]
    turn_skipped: bool
    paused_at: float
    paused_total: float
    FIELDS = (
        Field("skipped", FLAT, start=lambda game: [0] * len(game.players)),  # player -> skipped turns in a row
        Field("turn_skipped", start=False),  # this turn has been skipped (timed out)
        Field("paused_at", start=-1.0),  # the game clock when a pause began; -1 = running
        Field("paused_total", start=0.0),  # seconds spent paused so far
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class NoClock(Mechanic):
    """No game clock."""

    def present(self) -> bool:
        """Whether the game runs on the clock."""
        return False

    def salary_paid(self, game: Game) -> bool:
        """Whether passing the start still pays a salary."""
        return True

    def rent_tax_percent(self, game: Game) -> int:
        """The tax on collected rent now, in percent."""
        return 0


@mypyc_attr(allow_interpreted_subclasses=True)
class Clocked(NoClock):
    """The game clock: the economy, the turn timer, or both."""

    def present(self) -> bool:
        return True

    def salary_paid(self, game: Game) -> bool:
        stop = game.options.salary_stop_minutes
        return not stop or game.economy_minutes() < stop

    def rent_tax_percent(self, game: Game) -> int:
        """0 before `rent_tax_start_minutes`; then `rent_tax_start_percent`, rising by `rent_tax_step_percent`
        every `rent_tax_step_minutes`, up to `rent_tax_max_percent`."""
        o = game.options
        start = o.rent_tax_start_minutes
        if not start:
            return 0
        minutes = game.economy_minutes()
        if minutes < start:
            return 0
        steps = int((minutes - start) // o.rent_tax_step_minutes)
        pct = o.rent_tax_start_percent + steps * o.rent_tax_step_percent
        return min(pct, o.rent_tax_max_percent)


def clocked(options: Options) -> bool:
    """Whether these options put the game on the clock (how `choose` picks the variant)."""
    return bool(options.salary_stop_minutes or options.rent_tax_start_minutes or options.turn_seconds)


def check_timeout(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.options.turn_seconds:
        raise IllegalAction("rule.no_turn_timer", rules=game.ruleset.name)
    if game.clock_state.turn_skipped:
        raise IllegalAction("rule.already_timed_out", player=game.current.name)


def do_timeout(game: Game, p: int, a: Mapping[str, Any]) -> None:
    """The turn timer ran out: a skipped turn for the current player; too many in a row is bankruptcy."""
    cur = game.turn
    skipped = game.skip_turn()
    game.emit("timed_out", {"player": game.players[cur].name, "count": skipped})
    if skipped >= game.options.skipped_turns_bankrupt:
        do_concede(game, cur, {})


def check_pause(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.variant.clocked:
        raise IllegalAction("rule.no_clock", rules=game.ruleset.name)
    if game.clock_state.paused_at >= 0:
        raise IllegalAction("rule.paused")


def do_pause(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.pause()
    game.emit("paused", {})


def check_resume(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if game.clock_state.paused_at < 0:
        raise IllegalAction("rule.not_paused")


def do_resume(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.resume()
    game.emit("resumed", {})


VARIANTS: dict[str, type[NoClock]] = {"none": NoClock, "clocked": Clocked}
