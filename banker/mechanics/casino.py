"""The casino: whether the board has a casino space, its bet and its jackpot (options `casino_*`).

Chosen from the board, not from a ruleset's ``[mechanics]`` table:

- `NoCasino` (the default): no casino space; the verb ``casino`` is never offered (no decision asks for it).
- `Casino` (brands): the board has a space of kind ``casino``; landing there offers a bet of `casino_bet` on
  one to three numbers of a die, paying `casino_payout` times the stake divided by the count of numbers on a
  hit, and a jackpot (won one time in `casino_jackpot_odds`) that grows by `casino_jackpot_add` a bet.

The verb ``casino`` (`check_casino`, `do_casino`) and the jackpot draw (`jackpot_won`, used by banker.chance
and the app's controller) live here; the jackpot itself is game state (`Game.jackpot`, changed by the kernel's
`set_jackpot`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK, NO_PARAMS, Decision
from banker.options import Options
from banker.statefields import Field, State

if TYPE_CHECKING:
    from banker.game import Game


class CasinoState(State):
    """The casino's jackpot (`game.casino_state`; the kernel's `set_jackpot` changes it)."""

    jackpot: int
    FIELDS = (
        Field("jackpot", start=lambda game: game.options.casino_jackpot_start),
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class NoCasino(Mechanic):
    """No casino space on the board."""

    def present(self) -> bool:
        """Whether the board has a casino (the bank's state then shows the jackpot)."""
        return False

    def win(self, count: int) -> int:
        """What a hit pays on a bet on `count` numbers: no casino, no bet."""
        return 0

    def choices(self, game: Game, d: Decision, player: str) -> list[dict[str, Any]]:
        """The actions that settle decision `d` when it is the casino's, for `legal_actions`: without a
        casino space the game never asks for one."""
        return []


@mypyc_attr(allow_interpreted_subclasses=True)
class Casino(NoCasino):
    """The board has a casino space (brands)."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.bet = options.casino_bet
        self.payout = options.casino_payout  # a hit pays the stake times this, over the count of numbers

    def present(self) -> bool:
        return True

    def win(self, count: int) -> int:
        """What a hit pays on a bet on `count` numbers (1 to 3)."""
        return self.bet * self.payout // count

    def choices(self, game: Game, d: Decision, player: str) -> list[dict[str, Any]]:
        """Declining the casino, and a bet on one number if the player may bet, for `legal_actions`."""
        if d.kind != "casino":
            return []
        out: list[dict[str, Any]] = [{"do": "casino", "player": player}]
        if game.can({"do": "casino", "numbers": [1], "die": 1, "jackpot": False}) is None:
            out.append({"do": "casino", "player": player, "numbers": [1]})
        return out


def jackpot_won(odds: int, random: Callable[[], float]) -> bool:
    """Whether a bet wins the jackpot: one time in `odds`, drawn with `random` (a float in [0, 1))."""
    return random() * odds < 1


def _casino_numbers(a: Mapping[str, Any]) -> list[int] | None:
    numbers = a.get("numbers")
    if numbers is None:
        return None
    if (not isinstance(numbers, list) or not 1 <= len(numbers) <= 3 or len(set(numbers)) != len(numbers)
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 6 for n in numbers)):
        raise InvalidAction("action.bad_field", field="numbers", problem="one to three different numbers from 1 to 6")
    return list(numbers)


def check_casino(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "casino")
    player = game.players[p]
    d = game.decision
    if d is None or d.kind != "casino":
        raise IllegalAction("rule.no_casino", player=player.name)
    numbers = _casino_numbers(a)
    if numbers is None:
        if "die" in a or "jackpot" in a:
            raise InvalidAction("action.bad_field", field="die", problem="no bet, no die")
        return
    bet = game.options.casino_bet
    if player.debts:
        raise IllegalAction("rule.in_debt", player=player.name, verb="casino")
    if player.cash < bet:
        raise IllegalAction("rule.cannot_afford_bet", player=player.name, bet=bet, cash=player.cash)
    die = a.get("die")
    if die is None:
        raise IllegalAction("rule.chance_needed", verb="casino", what="die")
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise InvalidAction("action.bad_field", field="die", problem="a whole number from 1 to 6")
    jackpot = a.get("jackpot")
    if jackpot is None:
        raise IllegalAction("rule.chance_needed", verb="casino", what="jackpot")
    if not isinstance(jackpot, bool):
        raise InvalidAction("action.bad_field", field="jackpot", problem="true or false")


def do_casino(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.set_decision(None)
    name = game.players[p].name
    numbers = _casino_numbers(a)
    if numbers is None:
        game.emit("casino_declined", {"player": name})
        return
    options = game.options
    bet = options.casino_bet
    game.pay_bank(p, bet, "casino_bet", NO_PARAMS)
    game.set_jackpot(game.casino_state.jackpot + options.casino_jackpot_add)  # the bank adds to the pool with every bet
    die = int(a["die"])
    game.emit("casino", {"player": name, "numbers": ", ".join(map(str, numbers)), "die": die})
    if die in numbers:
        game.transfer(BANK, p, game.rules.casino.win(len(numbers)), "casino_win", NO_PARAMS)
    if a["jackpot"]:
        game.transfer(BANK, p, game.casino_state.jackpot, "casino_jackpot", NO_PARAMS)
        game.set_jackpot(options.casino_jackpot_start)


VARIANTS: dict[str, type[NoCasino]] = {"none": NoCasino, "casino": Casino}
